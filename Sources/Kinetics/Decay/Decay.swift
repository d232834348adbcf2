import CKineticsSupport

/// How a decay (a thrown value slowing down by friction) is advanced.
///
/// All three follow Pop's law `v(t) = v₀·d^(1000·t)` for the velocity, with
/// `d` the deceleration per millisecond. They differ in the position:
///
/// | method | position | total throw for d = 0.998 |
/// | --- | --- | --- |
/// | ``pop`` | Pop's discrete sum, its factors in single precision | ≈ 0.4990·v₀ |
/// | ``exact`` | the same discrete law in double precision | 0.4990·v₀ |
/// | ``continuous`` | the integral of the velocity | 0.4995·v₀ |
public enum DecayMethod: String, CaseIterable, Sendable, Codable {
    /// Pop's `decay_position`: `kv = powf(d, n)`, `kx = d(1 - kv)/(1 - d)`
    /// and `v/1000` rounded to `Float`, as Pop computes them.
    case pop
    /// The discrete law `x += v/1000·d(1 - d^n)/(1 - d)` in double, with
    /// `d^n` and `1 - d^n` formed by `exp` and `expm1` of `n·ln d`.
    case exact
    /// The exponential in continuous time: `x += v·(1 - e^{-λ·dt})/λ`,
    /// `λ = -1000·ln d`.
    case continuous
}

extension DecayMethod {
    /// The method's position in `allCases`, the index of its batch.
    var index: Int {
        switch self {
        case .pop: 0
        case .exact: 1
        case .continuous: 2
        }
    }
}

/// The deceleration of a decay: the factor by which the velocity shrinks
/// every millisecond (Pop's default 0.998; 0.99 decays fast).
public struct DecayParameters: Hashable, Sendable {
    /// The velocity factor per millisecond, in (0, 1).
    public let deceleration: Double

    /// Pop's default deceleration, 0.998.
    public static let popDefault = try! DecayParameters(deceleration: 0.998)

    /// Pop's minimal velocity factor: a decay is at rest when every component
    /// of its velocity is below `5·threshold` units per second.
    public static let restVelocityFactor = 5.0

    /// Pop's decay rest test, written once for ``DecayStepper`` and the
    /// animator's decay batches: every component of `velocity` below
    /// ``restVelocityFactor``·`threshold` (a NaN component is not at rest).
    @inline(__always)
    static func isAtRest<Value: AnimatableVector>(velocity: Value, threshold: Double) -> Bool {
        let bound = threshold * restVelocityFactor
        for index in 0 ..< Value.componentCount where !(abs(velocity[component: index]) < bound) {
            return false
        }
        return true
    }

    /// Creates the parameters of a decay.
    ///
    /// - Throws: ``ParameterError`` unless `deceleration` is in the open
    ///   interval (0, 1).
    public init(deceleration: Double) throws(ParameterError) {
        guard deceleration.isFinite, deceleration > 0, deceleration < 1 else {
            throw ParameterError(parameter: "deceleration", value: deceleration, accepted: "in (0, 1)")
        }
        self.deceleration = deceleration
    }

    /// `λ = -1000·ln d`, the continuous decay rate of the velocity, in 1/s.
    public var rate: Double { -1000 * log(deceleration) }

    /// Pop's duration to rest: the time at which the slowest component's
    /// velocity falls to `5·threshold`,
    /// `max over components of ln(5t/1000 / |v_i/1000|) / (1000·ln d)`,
    /// and 0 when that is negative or NaN (already at rest).
    public func durationToRest<Value: AnimatableVector>(velocity: Value, threshold: Double) -> Double {
        let k = threshold * Self.restVelocityFactor / 1000.0
        let d = log(deceleration) * 1000.0
        var duration = -Double.infinity
        for index in 0 ..< Value.componentCount {
            let candidate = log(abs(k / (velocity[component: index] / 1000.0))) / d
            if candidate > duration { duration = candidate }
        }
        return duration.isNaN || duration < 0 ? 0 : duration
    }

    /// Where a decay thrown from `value` with `velocity` comes to rest: one
    /// step of the given method over ``durationToRest(velocity:threshold:)``
    /// (Pop's `computeToValue`).
    public func endValue<Value: AnimatableVector>(
        from value: Value, velocity: Value, threshold: Double, method: DecayMethod
    ) -> Value {
        var stepper = DecayStepper(parameters: self, method: method, value: value, velocity: velocity)
        stepper.advance(by: durationToRest(velocity: velocity, threshold: threshold))
        return stepper.value
    }

    /// The initial velocity with which a decay thrown from anywhere travels
    /// exactly `distance` before it comes to rest (Pop's rest time, threshold
    /// `threshold`), per component. The slowest component sets the rest
    /// time, so all components share the factor `q` by which the velocity
    /// has shrunk at rest: `M = max|D|·c + 5t`, `q = 5t/M`,
    /// `v = D·c/(1 - q)`, with `c = 1000(1 - d)/d` for the discrete law and
    /// `c = λ` for the continuous one. (`pop` lands within single precision;
    /// give the animation `to` as well to land exactly.)
    public func velocity<Value: AnimatableVector>(toTravel distance: Value, threshold: Double, method: DecayMethod)
        -> Value
    {
        let c = method == .continuous ? rate : 1000 * (1 - deceleration) / deceleration
        let rest = threshold * Self.restVelocityFactor
        let largest = distance.maxMagnitude * c + rest
        let q = rest / largest
        return distance.maxMagnitude == 0 ? .zero : distance * (c / (1 - q))
    }

    /// The deceleration with which a decay thrown at `velocity` travels
    /// exactly `distance` before it comes to rest (threshold `threshold`).
    ///
    /// - Throws: ``ParameterError`` naming `distance` when no deceleration in
    ///   (0, 1) does it: the distance has the other sign, or the velocity is
    ///   already at rest (|velocity| <= 5·threshold).
    public static func deceleration(
        toTravel distance: Double, velocity: Double, threshold: Double, method: DecayMethod
    ) throws(ParameterError) -> DecayParameters {
        let rest = threshold * restVelocityFactor
        let moving = velocity - (velocity > 0 ? rest : -rest)
        guard distance.isFinite, velocity.isFinite, abs(velocity) > rest, distance != 0,
            (distance > 0) == (moving > 0)
        else {
            throw ParameterError(
                parameter: "distance", value: distance,
                accepted: "finite, non-zero, with the sign of the velocity (which must be above 5·threshold)")
        }
        let d: Double
        if method == .continuous {
            d = exp(-moving / distance / 1000)
        } else {
            let ratio = 1000 * distance / moving
            d = ratio / (1 + ratio)
        }
        return try DecayParameters(deceleration: d)
    }

    /// The total distance a decay travels if it never stops, for a velocity
    /// `velocity`: `v/1000·d/(1 - d)` for the discrete law (`pop`, `exact`),
    /// `v/λ` for `continuous`.
    public func totalThrow(velocity: Double, method: DecayMethod) -> Double {
        switch method {
        case .pop, .exact: velocity / 1000 * deceleration / (1 - deceleration)
        case .continuous: velocity / rate
        }
    }
}

/// A value decaying from a throw, advanced frame by frame.
///
/// Like ``SpringStepper`` this reports the method's own state: no rest test,
/// no clamping to the end value (that is the animator's job).
///
/// **Edge cases** for ``advance(by:)``: a frame of length 0 changes nothing;
/// a negative or non-finite frame length is ignored and counted in
/// ``ignoredFrames``.
public struct DecayStepper<Value: AnimatableVector>: Sendable {
    /// The deceleration.
    public let parameters: DecayParameters
    /// How the decay is advanced.
    public let method: DecayMethod
    /// The value after the last frame.
    public private(set) var value: Value
    /// The velocity after the last frame, in units per second.
    public private(set) var velocity: Value
    /// The sum of the frame lengths advanced so far, in seconds.
    public private(set) var elapsed: Double = 0
    /// Frames that were ignored because their length was negative or not finite.
    public private(set) var ignoredFrames = 0

    /// Creates a decay at `value` thrown with `velocity`.
    public init(parameters: DecayParameters, method: DecayMethod, value: Value, velocity: Value) {
        self.parameters = parameters
        self.method = method
        self.value = value
        self.velocity = velocity
    }

    /// Advances the decay by a frame of `dt` seconds.
    public mutating func advance(by dt: Double) {
        guard dt.isFinite, dt >= 0 else {
            ignoredFrames += 1
            return
        }
        DecayFactors(deceleration: parameters.deceleration, method: method, dt: dt).advance(
            &value, &velocity, method: method)
        elapsed += dt
    }

    /// Whether every component of the velocity is below `5·threshold` (Pop's
    /// decay rest test).
    public func isAtRest(threshold: Double) -> Bool {
        DecayParameters.isAtRest(velocity: velocity, threshold: threshold)
    }
}
