import Foundation
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
    /// `s·t + lag` fits the trace best (nil for a bezier).
    public var timeScale: Double?
    /// The trace's lag behind (negative) or lead on the exact motion, in
    /// seconds, fitted with the time scale: a trace one frame late has a
    /// lag of minus one frame and a time scale near 1.
    public var lag: Double?
    /// Whether the time fit stopped at the edge of its search range (scale
    /// 0.25 to 4, lag ±0.25 s), where its scale and lag say little.
    public var timeFitAtEdge = false
    /// The median interval between samples, in seconds (x for a bezier).
    public var frameInterval: Double
    /// When the trace enters the settling band for good, and when the exact
    /// motion does (springs; seconds; nil when the trace never does).
    public var settling: (trace: Double?, exact: Double, band: Double)?
    /// The candidate schemes ranked against the trace, and the verdict.
    public var verdict: SchemeVerdict?
    /// What a reader should know before trusting the numbers: times that
    /// look like milliseconds, a first sample far from 0, a fit at the edge
    /// of its range, a snap to the target, time kept in whole milliseconds.
    public var warnings: [String] = []

    /// The scheme that explains the trace, or the sentence saying none does.
    public var scheme: String? { verdict?.sentence }

    /// Whether the largest error is within `tolerance`: false when it is
    /// not a number.
    public func holds(_ tolerance: Double) -> Bool { Limit.atMost(tolerance).admits(maxError) }
}

/// Why a comparison could not be made.
public enum ComparisonError: Error, Equatable, Sendable, CustomStringConvertible {
    /// GSL failed computing the exact motion.
    case reference(GSLError)
    /// A value derived from the inputs is not a finite number (a distance
    /// or the exact motion beyond a double's range): the sentence says
    /// which, from what, and the range that is accepted.
    case notFinite(String)

    /// The sentence.
    public var description: String {
        switch self {
        case .reference(let error): "\(error)"
        case .notFinite(let sentence): sentence
        }
    }
}

extension Comparison {
    /// Throws unless every value of the exact motion `exact` (with its
    /// velocities) at `times` is finite: beyond a double's range the errors
    /// would be NaN and every verdict meaningless.
    private static func checkFinite(
        _ exact: [Double], velocities: [Double], times: [Double], motion: String
    ) throws(ComparisonError) {
        for index in exact.indices where !exact[index].isFinite || !velocities[index].isFinite {
            throw .notFinite(
                "the exact motion \(motion) leaves a double's range at t = \(times[index]) s (value \(exact[index]), velocity \(velocities[index])): the values and velocities it reaches must be finite, within \(Limit.doubleRange)"
            )
        }
    }

    /// A spring trace that starts (at time 0) at `from` with `velocity`
    /// towards `to`. With `namingScheme` false the candidate schemes, most
    /// of the work, are not replayed and ``verdict`` is nil; the errors, the
    /// time fit and the settling times are measured all the same.
    ///
    /// - Throws: ``ComparisonError`` if the reference integration fails,
    ///   or if `to − from` or the exact motion is not finite.
    public static func spring(
        _ trace: MotionTrace, parameters: SpringParameters, from: Double, to: Double, velocity: Double,
        settlingBand: Double = 1e-3, namingScheme: Bool = true
    ) throws(ComparisonError) -> Comparison {
        let times = trace.times
        guard (from - to).isFinite else {
            throw .notFinite(
                "from \(from) to \(to) is a distance of \(to - from): it must be finite, within \(Limit.doubleRange)"
            )
        }
        let reference: [ReferenceSample]
        do {
            reference = try ReferenceODE.spring(
                tension: parameters.tension, friction: parameters.friction, mass: parameters.mass,
                displacement: from - to, velocity: velocity, times: times)
        } catch {
            throw .reference(error)
        }
        let exact = reference.map { to + $0.position }
        try checkFinite(
            exact, velocities: reference.map(\.velocity), times: times,
            motion:
                "from \(from) to \(to) with velocity \(velocity) (tension \(parameters.tension), friction \(parameters.friction), mass \(parameters.mass))"
        )
        let amplitude = max(abs(from - to), exact.map { abs($0 - to) }.max() ?? 0, 1e-300)
        var comparison = measure(
            trace, exact: exact, exactVelocity: reference.map(\.velocity), amplitude: amplitude, kind: "spring")
        func motion(_ time: Double) -> Double {
            to
                + SpringPropagator.exact(parameters, time: max(time, 0)).apply(
                    displacement: from - to, velocity: velocity
                ).displacement
        }
        let fit = TimeFit(trace, halfway: halfway(from: from, to: to, motion: motion), exact: motion)
        comparison.timeScale = fit.scale
        comparison.timeFitAtEdge = fit.atEdge
        comparison.lag = fit.lag
        let band = settlingBand * amplitude
        let exactSettling =
            (try? parameters.settlingDuration(displacement: from - to, velocity: velocity, band: band)) ?? .infinity
        let lastOut = trace.samples.lastIndex { abs($0.value - to) > band }
        let traceSettling: Double? =
            switch lastOut {
            case nil: trace.samples[0].time
            case let index? where index + 1 < trace.samples.count: trace.samples[index + 1].time
            default: nil
            }
        comparison.settling = (traceSettling, exactSettling, band)
        guard namingScheme else {
            comparison.warnings = warnings(trace, fit: fit, snap: nil, exact: exact, to: to, amplitude: amplitude)
            return comparison
        }
        let values = trace.values
        let noise = TraceNoise(values: values, times: times, scale: max(amplitude, abs(to)), timeStep: trace.timeStep)
        if let reason = stillReason(values, from: from, to: to) {
            comparison.verdict = SchemeVerdict(unnamed: reason, noise: noise, amplitude: amplitude)
            comparison.warnings = warnings(trace, fit: fit, snap: nil, exact: exact, to: to, amplitude: amplitude)
            return comparison
        }
        // The trace sits exactly on the target from some sample on: a snap.
        var snap: Int?
        if let last = values.lastIndex(where: { $0 != to }), last + 1 < values.count, last > 0 { snap = last + 1 }
        func fits(_ candidates: [SpringCandidate]) -> [ReplayedCandidate] {
            candidates.map { candidate in
                ReplayedCandidate(
                    name: candidate.description, group: candidate.family.title + candidate.arithmetic.rawValue,
                    engine: candidate.engine,
                    assumptions: (candidate.clock == .seconds ? 0 : 1) + (candidate.snap == nil ? 0 : 1)
                        + ((candidate.arithmetic == .single) == noise.singlePrecision ? 0 : 1)
                        + candidate.family.complexity,
                    wholeMilliseconds: candidate.clock != .seconds,
                    values: { candidate.values(parameters, from: from, to: to, velocity: velocity, times: times) })
            }
        }
        let base = SchemeVerdict(
            values: values, candidates: fits(SpringCandidate.base), noise: noise, amplitude: amplitude)
        // The nearest few again, on a clock of whole milliseconds and with
        // the snap the trace shows.
        // The closed form always: engines that evaluate it at a clock in
        // whole milliseconds are common (libadwaita).
        let names = Set(base.fits.prefix(6).map(\.name) + [SpringCandidate(.closedForm).description])
        var refined: [SpringCandidate] = SpringCandidate.base.filter { names.contains($0.description) }
        for candidate in refined {
            for clock in [ClockForm.seconds] + ClockForm.millisecondVariants {
                for snapped in snap.map({ [nil, $0] }) ?? [nil] where clock != .seconds || snapped != nil {
                    refined.append(
                        SpringCandidate(candidate.family, arithmetic: candidate.arithmetic, clock: clock, snap: snapped)
                    )
                }
            }
        }
        var verdict = SchemeVerdict(
            values: values, candidates: fits(SpringCandidate.base.filter { !names.contains($0.description) } + refined),
            noise: noise, amplitude: amplitude)
        verdict.snap = snap.map { ($0, times[$0]) }
        comparison.verdict = verdict
        comparison.warnings =
            warnings(trace, fit: fit, snap: verdict.snap, exact: exact, to: to, amplitude: amplitude)
            + millisecondWarning(verdict)
        return comparison
    }

    /// A decay trace thrown (at time 0) from `from` with `velocity`.
    ///
    /// - Throws: ``ComparisonError`` if the reference integration fails or
    ///   the exact motion is not finite.
    public static func decay(
        _ trace: MotionTrace, parameters: DecayParameters, from: Double, velocity: Double
    ) throws(ComparisonError) -> Comparison {
        let times = trace.times
        let reference: [ReferenceSample]
        do {
            reference = try ReferenceODE.decay(
                deceleration: parameters.deceleration, position: from, velocity: velocity, times: times)
        } catch {
            throw .reference(error)
        }
        let exact = reference.map(\.position)
        try checkFinite(
            exact, velocities: reference.map(\.velocity), times: times,
            motion: "from \(from) with velocity \(velocity) (deceleration \(parameters.deceleration))")
        let amplitude = max(abs(velocity / parameters.rate), exact.map { abs($0 - from) }.max() ?? 0, 1e-300)
        var comparison = measure(
            trace, exact: exact, exactVelocity: reference.map(\.velocity), amplitude: amplitude, kind: "decay")
        let rate = parameters.rate
        func motion(_ time: Double) -> Double { from - velocity / rate * expm1(-rate * max(time, 0)) }
        let fit = TimeFit(trace, halfway: log(2) / rate, exact: motion)
        comparison.timeScale = fit.scale
        comparison.timeFitAtEdge = fit.atEdge
        comparison.lag = fit.lag
        let values = trace.values
        let noise = TraceNoise(values: values, times: times, scale: max(amplitude, abs(from)), timeStep: trace.timeStep)
        if let reason = stillReason(values, from: from, to: nil) {
            comparison.verdict = SchemeVerdict(unnamed: reason, noise: noise, amplitude: amplitude)
            comparison.warnings = warnings(trace, fit: fit, snap: nil, exact: exact, to: nil, amplitude: amplitude)
            return comparison
        }
        func fits(_ candidates: [DecayCandidate]) -> [ReplayedCandidate] {
            candidates.map { candidate in
                ReplayedCandidate(
                    name: candidate.description, group: candidate.family.title + candidate.arithmetic.rawValue,
                    engine: candidate.engine,
                    assumptions: (candidate.clock == .seconds ? 0 : 1)
                        + ((candidate.arithmetic == .single) == noise.singlePrecision ? 0 : 1)
                        + candidate.family.complexity,
                    wholeMilliseconds: candidate.clock != .seconds,
                    values: { candidate.values(parameters, from: from, velocity: velocity, times: times) })
            }
        }
        let base = SchemeVerdict(
            values: values, candidates: fits(DecayCandidate.base), noise: noise, amplitude: amplitude)
        let laws = [DecayFamily.discreteLaw, .popLaw, .continuousLaw].map { DecayCandidate($0).description }
        let names = Set(base.fits.prefix(4).map(\.name) + laws)
        var refined = DecayCandidate.base.filter { names.contains($0.description) }
        for candidate in refined {
            for clock in ClockForm.millisecondVariants {
                refined.append(DecayCandidate(candidate.family, arithmetic: candidate.arithmetic, clock: clock))
            }
        }
        comparison.verdict = SchemeVerdict(
            values: values, candidates: fits(DecayCandidate.base.filter { !names.contains($0.description) } + refined),
            noise: noise, amplitude: amplitude)
        comparison.warnings =
            warnings(trace, fit: fit, snap: nil, exact: exact, to: nil, amplitude: amplitude)
            + millisecondWarning(comparison.verdict)
        return comparison
    }

    /// Why a trace whose `values` are only its start (and `to`, for a
    /// spring) names no scheme: it holds no motion between them, and every
    /// candidate that snaps would explain it as well as any other. Nil for
    /// a trace that moves.
    static func stillReason(_ values: [Double], from: Double, to: Double?) -> String? {
        guard values.allSatisfy({ $0 == from || $0 == to }) else { return nil }
        let jumps = to.map { to in values.contains(to) && to != from } ?? false
        return "no scheme is named: the trace never moves"
            + (jumps
                ? " between its start \(from) and its target \(to!) (it only jumps from one to the other)"
                : " from its start \(from)")
            + ", so every scheme explains it alike"
    }

    /// A timing-curve trace (`x,y`) of `curve`; the reference y at each x is
    /// GSL's cubic root polished by brent.
    ///
    /// - Throws: ``ComparisonError`` if a root cannot be found.
    public static func bezier(_ trace: MotionTrace, curve: UnitBezier) throws(ComparisonError) -> Comparison {
        let reference = ReferenceBezier(x1: curve.x1, y1: curve.y1, x2: curve.x2, y2: curve.y2)
        var exact: [Double] = []
        for x in trace.times {
            do {
                exact.append(x <= 0 ? 0 : x >= 1 ? 1 : reference.y(at: try reference.parameter(x: x)))
            } catch {
                throw .reference(error)
            }
        }
        let amplitude = max(1, (exact.max() ?? 1) - (exact.min() ?? 0))
        var comparison = measure(trace, exact: exact, exactVelocity: nil, amplitude: amplitude, kind: "bezier")
        // A curve's x are the inputs the engine was given, exact as written:
        // only the printing of y counts as noise.
        let xs = trace.times
        comparison.verdict = SchemeVerdict(
            values: trace.values,
            candidates: BezierCandidate.all.map {
                ReplayedCandidate(
                    name: $0.description, group: $0.description, engine: $0.engine, assumptions: 0,
                    values: { [candidate = $0] in candidate.values(curve, xs: xs) })
            },
            noise: TraceNoise(values: trace.values, times: [], scale: amplitude), amplitude: amplitude)
        return comparison
    }

    private static func measure(
        _ trace: MotionTrace, exact: [Double], exactVelocity: [Double]?, amplitude: Double, kind: String
    ) -> Comparison {
        // NaN is the worst error, and stays the worst once found: a max
        // that skipped it would call a trace of NaN exact.
        var worst = 0.0
        var worstAt = trace.samples[0].time
        var squares = 0.0
        for (sample, value) in zip(trace.samples, exact) {
            let error = abs(sample.value - value) / amplitude
            squares += error * error
            if !worst.isNaN && (error.isNaN || error > worst) {
                worst = error
                worstAt = sample.time
            }
        }
        var velocityError: Double?
        if let exactVelocity, trace.samples.allSatisfy({ $0.velocity != nil }) {
            let speed = max(exactVelocity.map(abs).max() ?? 0, 1e-300)
            velocityError = zip(trace.samples, exactVelocity).reduce(0.0) { worst, pair in
                let error = abs(pair.0.velocity! - pair.1) / speed
                return worst.isNaN || error.isNaN ? .nan : max(worst, error)
            }
        }
        let intervals = zip(trace.times.dropFirst(), trace.times).map { $0 - $1 }.sorted()
        // Squares of errors past 1e154 overflow: such a trace's RMS is taken
        // over the errors divided by the largest.
        var rms = (squares / Double(trace.samples.count)).squareRoot()
        if !rms.isFinite && worst.isFinite && worst > 0 {
            let scaled = zip(trace.samples, exact).reduce(0.0) { sum, pair in
                let error = abs(pair.0.value - pair.1) / amplitude / worst
                return sum + error * error
            }
            rms = worst * (scaled / Double(trace.samples.count)).squareRoot()
        }
        return Comparison(
            kind: kind, samples: trace.samples.count, exact: exact, amplitude: amplitude, maxError: worst,
            rmsError: rms, worstAt: worstAt,
            maxVelocityError: velocityError, timeScale: nil, lag: nil,
            frameInterval: intervals.isEmpty ? 0 : intervals[intervals.count / 2], settling: nil, verdict: nil)
    }

    /// What a reader should know about a motion trace before trusting its
    /// numbers.
    private static func warnings(
        _ trace: MotionTrace, fit: TimeFit, snap: (index: Int, time: Double)?, exact: [Double], to: Double?,
        amplitude: Double
    ) -> [String] {
        var warnings: [String] = []
        let times = trace.times
        let intervals = zip(times.dropFirst(), times).map { $0 - $1 }.sorted()
        let median = intervals.isEmpty ? 0 : intervals[intervals.count / 2]
        if median >= 1 {
            warnings.append(
                "the samples are \(short(median)) s apart: times that look like milliseconds read as seconds (give --time-unit ms)"
            )
        }
        if let first = times.first, first > max(1, 10 * median) {
            warnings.append(
                "the first sample is at \(short(first)) s: times must count from the motion's start, not an absolute clock"
            )
        }
        if fit.atEdge {
            warnings.append(
                "the time fit stopped at the edge of its range (\(fit.range)): its scale and lag say little")
        }
        if let snap, let to {
            let away = abs(exact[snap.index] - to) / amplitude
            warnings.append(
                "the trace jumps to its target at t = \(short(snap.time)) s, where the exact motion is still "
                    + "\(String(format: "%.1e", away)) of the amplitude away (a snap at a rest threshold or an estimated end)"
            )
        }
        return warnings
    }

    /// When `motion` first covers half the way from `from` to `to` (within
    /// 10 s; the end of the scan if it never does).
    private static func halfway(from: Double, to: Double, motion: (Double) -> Double) -> Double {
        var time = 0.0
        while time < 10 {
            if abs(motion(time) - from) >= abs(to - from) / 2 { return time }
            time += 0.0005
        }
        return time
    }

    /// Said when the scheme that explains a trace reads time in whole milliseconds.
    private static func millisecondWarning(_ verdict: SchemeVerdict?) -> [String] {
        guard let best = verdict?.fits.first, best.explains, best.wholeMilliseconds else { return [] }
        return ["the engine keeps time in whole milliseconds: its motion is a step of up to 1 ms off the frame's time"]
    }

    private static func short(_ value: Double) -> String { String(format: "%.4g", value) }
}
