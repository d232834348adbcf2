/// A spring moving a value towards a target, advanced frame by frame with one
/// of the four ``SpringMethod``s.
///
/// This is the reference implementation of every method: it takes the RK4
/// steps one at a time as ``SpringMethod`` schedules them (`pop` with Pop's
/// four stages as Pop writes them, `fixed` and `rk4` with the step's matrix,
/// ``SpringPropagator/rk4Step(_:step:)``), and the animator's fast paths,
/// which take a frame's steps as one matrix power, are tested against it.
/// It applies no rest test, no clamping and no snapping to the target: it
/// reports the method's own state.
///
/// ```swift
/// var spring = SpringStepper(parameters: .popDefault, method: .pop, value: 0.0, target: 1.0)
/// spring.advance(by: 1.0 / 60)
/// print(spring.value, spring.velocity)
/// ```
///
/// **Edge cases** for ``advance(by:)``: a frame length of 0 changes nothing
/// (in `pop` mode it runs Pop's loop with no step, as Pop does); a negative
/// or non-finite frame length is ignored and counted in ``ignoredFrames``; a
/// frame longer than ``SpringMethod/maxFrameInterval`` (30 s) shuts the `pop`
/// solver down as Pop does (value and velocity are left as they were and
/// ``isShutDown`` becomes true), while the other methods advance through it
/// (`rk4` and `fixed` switch to matrix powers beyond 10,000 steps, so no frame
/// takes more than a few microseconds).
public struct SpringStepper<Value: AnimatableVector>: Sendable {
    /// The spring; a change applies from the next step on.
    public var parameters: SpringParameters
    /// How the spring is advanced.
    public let method: SpringMethod
    /// Where the spring comes to rest; it may change between frames.
    public var target: Value
    /// The value after the last frame.
    public private(set) var value: Value
    /// The velocity after the last frame, in units per second.
    public private(set) var velocity: Value
    /// The sum of the frame lengths advanced so far, in seconds.
    public private(set) var elapsed: Double = 0
    /// Frames that were ignored because their length was negative or not finite.
    public private(set) var ignoredFrames = 0
    /// Whether a frame longer than 30 s shut the `pop` solver down.
    public private(set) var isShutDown = false

    // Pop's solver state: the time left over from the last frame, the last
    // blended state (in Pop's sign convention) and the last velocity slope.
    private var popAccumulator = 0.0
    private var popLastP: Value = .zero
    private var popLastV: Value = .zero
    private var popLastDv: Value = .zero
    private var popStarted = false

    // The `fixed` grid: the states at gridIndex·h and (gridIndex + 1)·h, in
    // absolute coordinates so that a new target applies from the next step;
    // the upper one is computed at the first frame. (Plain fields rather
    // than state tuples: in a debug build a tuple of a generic type costs a
    // metadata lookup at every use.)
    private var gridIndex = 0.0
    private var lowerValue: Value
    private var lowerVelocity: Value
    private var upperValue: Value = .zero
    private var upperVelocity: Value = .zero
    private var hasUpper = false

    /// Creates a spring at `value` moving with `velocity` towards `target`.
    public init(
        parameters: SpringParameters, method: SpringMethod,
        value: Value, velocity: Value = .zero, target: Value
    ) {
        self.parameters = parameters
        self.method = method
        self.target = target
        self.value = value
        self.velocity = velocity
        self.lowerValue = value
        self.lowerVelocity = velocity
    }

    /// The displacement from the target, `value - target`.
    public var displacement: Value { value - target }

    /// Advances the spring by a frame of `dt` seconds.
    @_specialize(exported:true,where Value == Double)
    @_specialize(exported:true,where Value == SIMD4<Double>)
    public mutating func advance(by dt: Double) {
        guard dt.isFinite, dt >= 0 else {
            ignoredFrames += 1
            return
        }
        switch method {
        case .pop: advancePop(dt)
        case .fixed: advanceFixed(dt)
        case .rk4: advanceRK4(dt)
        case .analytic: advanceAnalytic(dt)
        }
        elapsed += dt
    }

    // MARK: Methods

    /// Pop's `SpringSolver::advance` as POPSpringAnimationInternal.h drives
    /// it: the state is rebuilt from the stored value and velocity every frame.
    private mutating func advancePop(_ dt: Double) {
        popStarted = true
        if dt > SpringMethod.maxFrameInterval {
            popLastP = .zero
            popLastV = .zero
            popLastDv = .zero
            isShutDown = true
            return
        }
        let h = SpringMethod.popStep
        let negativeStiffness = -parameters.tension / parameters.mass
        let frictionPerMass = parameters.friction / parameters.mass
        popAccumulator += dt
        var p = target - value
        var v = velocity * -1.0
        var previousP = p
        var previousV = v
        while popAccumulator >= h {
            previousP = p
            previousV = v
            popLastDv = rk4Step(
                &p, &v, negativeStiffness: negativeStiffness, frictionPerMass: frictionPerMass, h: h)
            popAccumulator -= h
        }
        let alpha = popAccumulator / h
        p = p * alpha + previousP * (1 - alpha)
        v = v * alpha + previousV * (1 - alpha)
        popLastP = p
        popLastV = v
        value = target - p
        velocity = v * -1.0
    }

    private mutating func advanceFixed(_ dt: Double) {
        let h = SpringMethod.gridStep
        let step = SpringPropagator.rk4Step(parameters, step: h)
        let time = elapsed + dt
        if !hasUpper {
            upperValue = lowerValue
            upperVelocity = lowerVelocity
            Self.move(&upperValue, &upperVelocity, toward: target, by: step)
            hasUpper = true
        }
        // Jump whole stretches of grid with a matrix power when a frame spans
        // more than 10,000 steps; stepping resumes for the last step.
        // The index is a whole double: exact up to 2^53 steps (285,000
        // years); past that a step no longer moves it, and the stepping
        // loop stops where it stands rather than run for ever.
        let stepsAhead = (time / h).rounded(.down) - gridIndex - 1
        if stepsAhead > 10_000 {
            let jump = stepsAhead - 1
            lowerValue = upperValue
            lowerVelocity = upperVelocity
            Self.move(&lowerValue, &lowerVelocity, toward: target, by: step.power(jump))
            gridIndex += jump + 1
            upperValue = lowerValue
            upperVelocity = lowerVelocity
            Self.move(&upperValue, &upperVelocity, toward: target, by: step)
        }
        while (gridIndex + 1) * h <= time && gridIndex + 1 != gridIndex {
            lowerValue = upperValue
            lowerVelocity = upperVelocity
            Self.move(&upperValue, &upperVelocity, toward: target, by: step)
            gridIndex += 1
        }
        let alpha = Swift.min(Swift.max((time - gridIndex * h) / h, 0), 1)
        value = lowerValue * (1 - alpha) + upperValue * alpha
        velocity = lowerVelocity * (1 - alpha) + upperVelocity * alpha
    }

    private mutating func advanceRK4(_ dt: Double) {
        guard dt > 0 else { return }
        let count = Swift.max(1, (dt / parameters.rk4MaximumStep).rounded(.up))
        let step = SpringPropagator.rk4Step(parameters, step: dt / count)
        if count > 10_000 {
            Self.move(&value, &velocity, toward: target, by: step.power(count))
            return
        }
        var d = value - target
        var v = velocity
        for _ in 0 ..< Int(count) {
            (d, v) = step.apply(displacement: d, velocity: v)
        }
        value = target + d
        velocity = v
    }

    private mutating func advanceAnalytic(_ dt: Double) {
        let map = SpringPropagator.exact(parameters, time: dt)
        Self.move(&value, &velocity, toward: target, by: map)
    }

    /// Moves an absolute state by `map`, which acts on the displacement from `target`.
    private static func move(
        _ value: inout Value, _ velocity: inout Value, toward target: Value, by map: SpringPropagator
    ) {
        let moved = map.apply(displacement: value - target, velocity: velocity)
        value = target + moved.displacement
        velocity = moved.velocity
    }

    // MARK: Rest

    /// Pop's solver rest test with threshold `threshold` (Pop's per-property
    /// threshold, 1.0 for points): every component of the displacement below
    /// `threshold/2`, the squared velocity below `25·threshold` and the squared
    /// velocity slope below `625·threshold²`.
    ///
    /// In `pop` mode the test reads Pop's own solver state (the last blended
    /// state and the last RK4 slope; false before the first frame, true after
    /// a shutdown). The other methods apply the same bounds to the current
    /// displacement, velocity and acceleration.
    @_specialize(exported:true,where Value == Double)
    @_specialize(exported:true,where Value == SIMD4<Double>)
    public func solverIsAtRest(threshold: Double) -> Bool {
        let p: Value
        let v: Value
        let slope: Value
        if method == .pop {
            guard popStarted else { return false }
            (p, v, slope) = (popLastP, popLastV, popLastDv)
        } else {
            p = displacement
            v = velocity
            slope = p * (-parameters.stiffnessPerMass) - v * parameters.frictionPerMass
        }
        return PopRestTest.solverHasConverged(
            displacement: p, velocity: v, slope: slope, threshold: threshold)
    }
}

extension SpringParameters {
    /// The largest decay or oscillation rate of the spring, in 1/s: `ω₀` when
    /// it is under- or critically damped, `α + ω'` (the fast root) when it is
    /// overdamped.
    public var fastestRate: Double {
        let (omega2, alpha, q) = damping.terms
        return q >= 0 ? omega2.squareRoot() : alpha + (-q).squareRoot()
    }

    /// The largest step the `rk4` method takes: 1 ms, or less where 1 ms
    /// would cost more than about 1e-9 of the amplitude.
    ///
    /// RK4 errs by `(λh)⁵/120` per step on a mode `e^{λt}`; summed over the
    /// steps and damped by `e^{-|Re λ|t}`, the error peaks near
    /// `(|λ|h)⁴/(120·e·ρ)` of the mode's amplitude, with `ρ = |Re λ|/|λ|`
    /// (ζ for an underdamped spring, 1 for real roots). Keeping that below
    /// 1e-9 gives `h <= (120·e·1e-9·ρ)^{1/4}/|λ| ≈ 0.024·ρ^{1/4}/|λ|`.
    /// Springs with ζ < 0.01 are held to the step for ζ = 0.01: an undamped
    /// spring accumulates phase error for ever, and no step bounds it.
    ///
    /// At Pop's default spring (ω₀ = 18.5 rad/s, ζ = 0.82) this is 1 ms.
    public var rk4MaximumStep: Double {
        let scale = 0.0239  // (120·e·1e-9)^(1/4)
        let damping = self.damping
        let omega2 = damping.omega2
        let accurate: Double
        if damping.discriminant > 0 {
            let zeta = Swift.max(dampingRatio, 0.01)
            accurate = scale * zeta.squareRoot().squareRoot() / omega2.squareRoot()
        } else {
            accurate = scale / fastestRate
        }
        return Swift.min(SpringMethod.gridStep, accurate)
    }
}
