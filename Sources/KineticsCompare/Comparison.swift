#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Kinetics
import KineticsReference

/// A trace measured against GSL: how far it is from the exact motion, where,
/// how fast its time runs, when it settles, and which stepper made it.
public struct Comparison: Sendable {
    /// `spring`, `decay` or `bezier`.
    public var kind: String
    /// The number of samples.
    public var samples: Int
    /// The exact motion (GSL) at the trace's own times.
    public var exact: [Double]
    /// What errors are divided by: the largest distance of the exact motion
    /// from its end (spring: from the target; decay: from the start; bezier:
    /// the curve's y range, at least 1).
    public var amplitude: Double
    /// The largest error at the trace's own times, over the amplitude.
    public var maxError: Double
    /// The RMS error, over the amplitude.
    public var rmsError: Double
    /// Where the largest error is: a time in seconds (x for a bezier).
    public var worstAt: Double
    /// The largest velocity error over the largest exact speed, when the
    /// trace has velocities.
    public var maxVelocityError: Double?
    /// Simulated time per real time: the `s` for which the exact motion at
    /// `s·t` fits the trace best (nil for a bezier).
    public var timeScale: Double?
    /// When the trace enters the settling band for good, and when the exact
    /// motion does (springs; seconds; nil when the trace never does).
    public var settling: (trace: Double?, exact: Double, band: Double)?
    /// The candidate steppers ranked (springs and decays).
    public var ranking: SchemeRanking?

    /// The best candidate's name, or the sentence saying none fits.
    public var scheme: String? {
        guard let ranking else { return nil }
        return ranking.explained ? ranking.fits[0].name : "no candidate explains this trace"
    }
}

extension Comparison {
    /// A spring trace that starts (at time 0) at `from` with `velocity`
    /// towards `to`.
    ///
    /// - Throws: `GSLError` if the reference integration fails.
    public static func spring(
        _ trace: MotionTrace, parameters: SpringParameters, from: Double, to: Double, velocity: Double,
        settlingBand: Double = 1e-3
    ) throws(GSLError) -> Comparison {
        let times = trace.times
        let reference = try ReferenceODE.spring(
            tension: parameters.tension, friction: parameters.friction, mass: parameters.mass,
            displacement: from - to, velocity: velocity, times: times)
        let exact = reference.map { to + $0.position }
        let amplitude = max(abs(from - to), exact.map { abs($0 - to) }.max() ?? 0, 1e-300)
        var comparison = measure(trace, exact: exact, exactVelocity: reference.map(\.velocity), amplitude: amplitude, kind: "spring")
        comparison.timeScale = fitTimeScale(trace) { time in
            to + SpringPropagator.exact(parameters, time: time).apply(displacement: from - to, velocity: velocity).displacement
        }
        let band = settlingBand * amplitude
        let exactSettling = (try? parameters.settlingDuration(displacement: from - to, velocity: velocity, band: band)) ?? .infinity
        let lastOut = trace.samples.lastIndex { abs($0.value - to) > band }
        let traceSettling: Double? = switch lastOut {
        case nil: trace.samples[0].time
        case let index? where index + 1 < trace.samples.count: trace.samples[index + 1].time
        default: nil
        }
        comparison.settling = (traceSettling, exactSettling, band)
        comparison.ranking = SchemeRanking(
            trace: trace.values,
            candidates: SpringCandidate.all.map { ($0.description, $0.values(parameters, from: from, to: to, velocity: velocity, times: times)) },
            amplitude: amplitude)
        return comparison
    }

    /// A decay trace thrown (at time 0) from `from` with `velocity`.
    ///
    /// - Throws: `GSLError` if the reference integration fails.
    public static func decay(
        _ trace: MotionTrace, parameters: DecayParameters, from: Double, velocity: Double
    ) throws(GSLError) -> Comparison {
        let times = trace.times
        let reference = try ReferenceODE.decay(deceleration: parameters.deceleration, position: from, velocity: velocity, times: times)
        let exact = reference.map(\.position)
        let amplitude = max(abs(velocity / parameters.rate), exact.map { abs($0 - from) }.max() ?? 0, 1e-300)
        var comparison = measure(trace, exact: exact, exactVelocity: reference.map(\.velocity), amplitude: amplitude, kind: "decay")
        let rate = parameters.rate
        comparison.timeScale = fitTimeScale(trace) { time in from - velocity / rate * expm1(-rate * time) }
        comparison.ranking = SchemeRanking(
            trace: trace.values,
            candidates: DecayCandidate.allCases.map { ($0.description, $0.values(parameters, from: from, velocity: velocity, times: times)) },
            amplitude: amplitude)
        return comparison
    }

    /// A timing-curve trace (`x,y`) of `curve`; the reference y at each x is
    /// GSL's cubic root polished by brent.
    ///
    /// - Throws: `GSLError` if a root cannot be found.
    public static func bezier(_ trace: MotionTrace, curve: UnitBezier) throws(GSLError) -> Comparison {
        let reference = ReferenceBezier(x1: curve.x1, y1: curve.y1, x2: curve.x2, y2: curve.y2)
        var exact: [Double] = []
        for x in trace.times {
            exact.append(x <= 0 ? 0 : x >= 1 ? 1 : reference.y(at: try reference.parameter(x: x)))
        }
        let amplitude = max(1, (exact.max() ?? 1) - (exact.min() ?? 0))
        return measure(trace, exact: exact, exactVelocity: nil, amplitude: amplitude, kind: "bezier")
    }

    private static func measure(
        _ trace: MotionTrace, exact: [Double], exactVelocity: [Double]?, amplitude: Double, kind: String
    ) -> Comparison {
        var worst = 0.0
        var worstAt = trace.samples[0].time
        var squares = 0.0
        for (sample, value) in zip(trace.samples, exact) {
            let error = abs(sample.value - value) / amplitude
            squares += error * error
            if error > worst {
                worst = error
                worstAt = sample.time
            }
        }
        var velocityError: Double?
        if let exactVelocity, trace.samples.allSatisfy({ $0.velocity != nil }) {
            let speed = max(exactVelocity.map(abs).max() ?? 0, 1e-300)
            velocityError = zip(trace.samples, exactVelocity).map { abs($0.velocity! - $1) / speed }.max()
        }
        return Comparison(
            kind: kind, samples: trace.samples.count, exact: exact, amplitude: amplitude, maxError: worst,
            rmsError: (squares / Double(trace.samples.count)).squareRoot(), worstAt: worstAt,
            maxVelocityError: velocityError, timeScale: nil, settling: nil, ranking: nil)
    }

    /// The `s` in [0.25, 4] that minimises the squared distance between the
    /// trace and `exact(s·t)`: a scan of 400 points on a log scale, then a
    /// golden-section search around the best.
    static func fitTimeScale(_ trace: MotionTrace, exact: (Double) -> Double) -> Double {
        func cost(_ s: Double) -> Double {
            trace.samples.reduce(0) { sum, sample in
                let difference = sample.value - exact(s * sample.time)
                return sum + difference * difference
            }
        }
        let steps = 400
        let ratio = pow(16, 1 / Double(steps))
        var best = 0.25
        var bestCost = Double.infinity
        var s = 0.25
        for _ in 0 ... steps {
            let c = cost(s)
            if c < bestCost {
                bestCost = c
                best = s
            }
            s *= ratio
        }
        var low = best / ratio
        var high = best * ratio
        let golden = (5.0.squareRoot() - 1) / 2
        for _ in 0 ..< 80 {
            let a = high - golden * (high - low)
            let b = low + golden * (high - low)
            if cost(a) < cost(b) { high = b } else { low = a }
        }
        return (low + high) / 2
    }
}
