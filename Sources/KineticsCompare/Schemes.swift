import Kinetics

/// How many steps a candidate takes per frame.
public enum Substeps: Hashable, Sendable, CustomStringConvertible {
    /// `n` equal steps per frame.
    case count(Int)
    /// Equal steps of at most 1 ms per frame (`⌈dt / 1 ms⌉` of them).
    case perMillisecond

    func count(for dt: Double) -> Int {
        switch self {
        case .count(let n): n
        case .perMillisecond: max(1, Int((dt / 0.001 - 1e-9).rounded(.up)))
        }
    }

    public var description: String {
        switch self {
        case .count(1): "1 step per frame"
        case .count(let n): "\(n) steps per frame"
        case .perMillisecond: "steps of at most 1 ms"
        }
    }

    /// The sub-step counts tried for families that take them.
    public static let tried: [Substeps] = [.count(1), .count(2), .count(4), .count(8), .perMillisecond]
}

/// A family of spring steppers that engines use.
public enum SpringScheme: String, CaseIterable, Sendable {
    /// The closed form, exact at every frame.
    case exact
    /// Classic RK4 over each frame.
    case rk4
    /// RK4 on an absolute 1 ms grid, the output blended between grid states
    /// and never fed back (Kinetics' `fixed`).
    case rk4Grid = "rk4-grid"
    /// RK4 in 1 ms steps with Pop's fraction feedback (Pop, Rebound).
    case pop
    /// Explicit (forward) Euler.
    case euler
    /// Semi-implicit (symplectic) Euler: velocity first, then position.
    case semiImplicitEuler = "semi-implicit-euler"
    /// Velocity Verlet (half-step velocities).
    case verlet

    /// What the scheme is, in words.
    public var title: String {
        switch self {
        case .exact: "exact closed form"
        case .rk4: "RK4"
        case .rk4Grid: "RK4 on a 1 ms grid, blended (no feedback)"
        case .pop: "RK4 on a 1 ms grid with Pop's fraction feedback"
        case .euler: "explicit Euler"
        case .semiImplicitEuler: "semi-implicit (symplectic) Euler"
        case .verlet: "velocity Verlet"
        }
    }

    /// Whether the family takes a sub-step count.
    public var takesSubsteps: Bool {
        switch self {
        case .exact, .rk4Grid, .pop: false
        case .rk4, .euler, .semiImplicitEuler, .verlet: true
        }
    }
}

/// One candidate: a scheme and, where it takes one, a sub-step count.
public struct SpringCandidate: Hashable, Sendable, CustomStringConvertible {
    public var scheme: SpringScheme
    public var substeps: Substeps?

    /// A candidate.
    public init(_ scheme: SpringScheme, substeps: Substeps? = nil) {
        self.scheme = scheme
        self.substeps = scheme.takesSubsteps ? (substeps ?? .count(1)) : nil
    }

    /// Every candidate tried: each family, with each sub-step count where it takes one.
    public static let all: [SpringCandidate] = SpringScheme.allCases.flatMap { scheme in
        scheme.takesSubsteps ? Substeps.tried.map { SpringCandidate(scheme, substeps: $0) } : [SpringCandidate(scheme)]
    }

    public var description: String {
        substeps.map { "\(scheme.title), \($0)" } ?? scheme.title
    }

    /// The most steps an Euler-type candidate takes in one frame; a frame
    /// that would need more (steps of 1 ms over a gap of over 1,000 s) ends
    /// the replay, the rest is NaN and the candidate ranks last.
    public static let maximumStepsPerFrame = 1_000_000

    /// The candidate's values at `times` (seconds from the start), starting
    /// at `from` with `velocity` towards `to`.
    public func values(
        _ spring: SpringParameters, from: Double, to: Double, velocity: Double, times: [Double]
    ) -> [Double] {
        var values: [Double] = []
        values.reserveCapacity(times.count)
        switch scheme {
        case .pop, .rk4Grid:
            var stepper = SpringStepper(
                parameters: spring, method: scheme == .pop ? .pop : .fixed, value: from, velocity: velocity, target: to)
            var last = 0.0
            var shutDown = false
            for time in times {
                // Pop finishes an animation at its target after a frame over 30 s.
                if scheme == .pop && time - last > SpringMethod.maxFrameInterval { shutDown = true }
                if time > last { stepper.advance(by: time - last) }
                last = time
                values.append(shutDown ? to : stepper.value)
            }
            return values
        default:
            break
        }
        let k = spring.tension / spring.mass
        let c = spring.friction / spring.mass
        func acceleration(_ d: Double, _ v: Double) -> Double { -k * d - c * v }
        var d = from - to
        var v = velocity
        var last = 0.0
        for time in times {
            let dt = time - last
            last = time
            if dt > 0 {
                switch scheme {
                case .exact:
                    (d, v) = SpringPropagator.exact(spring, time: dt).apply(displacement: d, velocity: v)
                case .rk4:
                    let n = substeps!.count(for: dt)
                    (d, v) = SpringPropagator.rk4Step(spring, step: dt / Double(n)).power(n).apply(displacement: d, velocity: v)
                default:
                    let n = substeps!.count(for: dt)
                    guard n <= Self.maximumStepsPerFrame else {
                        values += Array(repeating: .nan, count: times.count - values.count)
                        return values
                    }
                    let h = dt / Double(n)
                    for _ in 0 ..< n {
                        switch scheme {
                        case .euler:
                            (d, v) = (d + h * v, v + h * acceleration(d, v))
                        case .semiImplicitEuler:
                            v += h * acceleration(d, v)
                            d += h * v
                        default:  // Verlet
                            let half = v + h / 2 * acceleration(d, v)
                            d += h * half
                            v = half + h / 2 * acceleration(d, half)
                        }
                    }
                }
            }
            values.append(to + d)
        }
        return values
    }
}

/// The decay laws engines use.
public enum DecayCandidate: String, CaseIterable, Sendable, CustomStringConvertible {
    /// `v·d^(1000·t)`, in doubles (Kinetics' `exact`).
    case discrete
    /// `v·e^(-λt)` with `λ = -1000·ln d` (Kinetics' `continuous`).
    case continuous
    /// Pop's law in single precision (Kinetics' `pop`).
    case singlePrecision = "single-precision"

    public var description: String {
        switch self {
        case .discrete: "discrete law v·d^(1000t), double precision"
        case .continuous: "continuous law v·e^(-λt)"
        case .singlePrecision: "discrete law in single precision (Pop)"
        }
    }

    var method: DecayMethod {
        switch self {
        case .discrete: .exact
        case .continuous: .continuous
        case .singlePrecision: .pop
        }
    }

    /// The law's values at `times`, from `from` with `velocity`.
    public func values(_ decay: DecayParameters, from: Double, velocity: Double, times: [Double]) -> [Double] {
        var stepper = DecayStepper(parameters: decay, method: method, value: from, velocity: velocity)
        var last = 0.0
        return times.map { time in
            if time > last { stepper.advance(by: time - last) }
            last = time
            return stepper.value
        }
    }
}

/// How well one candidate reproduces a trace.
public struct CandidateFit: Sendable, Equatable {
    /// The candidate, in words.
    public var name: String
    /// The RMS difference from the trace, over the amplitude.
    public var rms: Double
    /// The largest difference, over the amplitude.
    public var max: Double
}

/// The candidates ranked against a trace.
public struct SchemeRanking: Sendable, Equatable {
    /// Every candidate, best (smallest RMS) first.
    public var fits: [CandidateFit]
    /// The best candidate's values at the trace's times.
    public var bestValues: [Double]
    /// The trace's noise, over the amplitude, estimated from the best
    /// candidate's residual: the RMS of its sixth differences over √924
    /// (white noise of deviation σ has sixth differences of deviation
    /// σ·√924; a smooth misfit, sampled at frames short against its
    /// period, has almost none), and at least 1e-15.
    public var noiseFloor: Double
    /// Whether the best candidate explains the trace: its RMS within 100×
    /// the noise floor.
    public var explained: Bool { fits.first.map { $0.rms <= 100 * noiseFloor } ?? false }
    /// The candidates that explain the trace, best first.
    public var explaining: [CandidateFit] { fits.filter { $0.rms <= 100 * noiseFloor } }

    /// Ranks candidate trajectories (name and values at the trace's times)
    /// against `trace` values, normalised by `amplitude`.
    public init(trace: [Double], candidates: [(name: String, values: [Double])], amplitude: Double) {
        var fits: [CandidateFit] = []
        var residuals: [String: [Double]] = [:]
        for candidate in candidates {
            let residual = zip(trace, candidate.values).map { ($0 - $1) / amplitude }
            let squares = residual.reduce(0) { $0 + $1 * $1 }
            let rms = (squares / Double(max(residual.count, 1))).squareRoot()
            let largest = residual.reduce(0) { Swift.max($0, abs($1)) }
            // Diverged candidates (infinite or NaN) rank last.
            fits.append(CandidateFit(name: candidate.name, rms: rms.isFinite ? rms : .infinity, max: largest.isFinite ? largest : .infinity))
            residuals[candidate.name] = residual
        }
        fits.sort { $0.rms < $1.rms }
        self.fits = fits
        bestValues = fits.first.flatMap { best in candidates.first { $0.name == best.name }?.values } ?? []
        var floor = 1e-15
        if let best = fits.first, var difference = residuals[best.name], difference.count >= 12 {
            for _ in 0 ..< 6 { difference = zip(difference.dropFirst(), difference).map { $0 - $1 } }
            let sum = difference.reduce(0) { $0 + $1 * $1 }
            let estimate = (sum / Double(difference.count) / 924).squareRoot()
            if estimate.isFinite { floor = Swift.max(floor, estimate) }
        }
        noiseFloor = floor
    }
}
