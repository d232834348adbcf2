import Foundation
import Kinetics
import KineticsCompare

extension Verifier {
    /// Measures `answers` to the cases of `set` against GSL, as the built-in
    /// methods are measured, and names the scheme of each 60 Hz trace
    /// (unless `namingSchemes` is false: the candidates' replays are most of
    /// the work); a case without an answer is left out (and counted), and
    /// `refusals` (case id to the engine's message) are kept by suite.
    ///
    /// - Throws: ``VerificationError/reference(_:)`` when GSL fails on a case.
    public static func measure(
        _ set: EngineCaseSet, answers: [String: EngineAnswer], refusals: [String: String] = [:], engine: String,
        tolerances: Tolerances, namingSchemes: Bool = true, jobs: Int = ProcessInfo.processInfo.activeProcessorCount,
        progress: @escaping Progress = { _, _, _ in }
    ) throws -> EngineMeasures {
        var measures = EngineMeasures(
            engine: engine, shard: set.shard, gates: tolerances.engineGateValues, casesAsked: set.cases.count,
            casesAnswered: set.cases.count { answers[$0.id] != nil })
        measures.schemesNamed = namingSchemes ? nil : false
        measures.region = set.region
        let refused = EngineRefusal.grouped(set.cases.map(\.id), refusals: refusals)
        measures.refusals = refused.isEmpty ? nil : refused
        let rates = verificationFrameRates
        measures.springs = try parallelMap(
            count: set.springs.count, jobs: jobs, progress: { progress("spring", $0, set.springs.count) }
        ) { index in
            let (position, springCase) = set.springs[index]
            let ids = rates.map { EngineCaseSet.id("spring", position, fps: $0) }
            let measured = try SpringSuite.measure(springCase, keys: [0]) { _, rate, _ in answers[ids[rate]]?.values }
            var measure = EngineSpringMeasure(
                position: position,
                errors: measured.errors.map { $0[0].map { EngineTrajectoryMeasure($0) } },
                spread: measured.frameRateSpread[0]?.value, spreadFPS: measured.frameRateSpread[0]?.fps)
            if let answer = answers[ids[rates.firstIndex(of: 60)!]] {
                let times = frameTimes(fps: 60, seconds: springCase.seconds)
                if answer.values.allSatisfy(\.isFinite) {
                    let comparison = try reference(springCase.label) {
                        try Comparison.spring(
                            trace(times, answer), parameters: springCase.parameters, from: 0, to: 1,
                            velocity: springCase.velocity, namingScheme: namingSchemes)
                    }
                    measure.timeScale = comparison.timeScale
                    measure.lag = comparison.lag
                    measure.timeFitAtEdge = comparison.timeFitAtEdge
                    measure.scheme = namingSchemes ? scheme(comparison) : nil
                } else {
                    measure.scheme = namingSchemes ? "diverged" : nil
                }
            }
            return measure
        }
        measures.decays = try parallelMap(
            count: set.decays.count, jobs: jobs, progress: { progress("decay", $0, set.decays.count) }
        ) { index in
            let (position, decayCase) = set.decays[index]
            let ids = rates.map { EngineCaseSet.id("decay", position, fps: $0) }
            let laws: [DecayMethod] = [.continuous, .pop]
            let measured = try DecaySuite.measure(decayCase, keys: laws, law: { $0 }) { _, rate, _ in
                answers[ids[rate]]?.values
            }
            var measure = EngineDecayMeasure(
                position: position,
                errors: measured.map { $0[.continuous].map { EngineTrajectoryMeasure($0) } },
                discreteErrors: measured.map { $0[.pop].map { EngineTrajectoryMeasure($0) } })
            if namingSchemes, let answer = answers[ids[rates.firstIndex(of: 60)!]] {
                let times = frameTimes(fps: 60, seconds: decayCase.seconds)
                measure.scheme =
                    answer.values.allSatisfy(\.isFinite)
                    ? scheme(
                        try reference(decayCase.label) {
                            try Comparison.decay(
                                trace(times, answer), parameters: decayCase.parameters, from: 0,
                                velocity: decayCase.velocity)
                        }) : "diverged"
            }
            return measure
        }
        let gate = tolerances.engineGate(.bezier)?.value
        let curves = try parallelMap(
            count: set.curves.count, jobs: jobs, progress: { progress("bezier", $0, set.curves.count) }
        ) { index -> EngineCurveMeasure? in
            let (position, curve) = set.curves[index]
            guard let answer = answers[EngineCaseSet.id("bezier", position)] else { return nil }
            let measured = try BezierSuite.measure(
                curve, samples: set.samples, keys: [0], tolerance: { _ in gate }
            ) { _, sample, _, _ in answer.values[sample] }
            let result = measured.methods[0]!
            let xs = (0 ..< set.samples).map { Double($0) / Double(set.samples - 1) }
            var scheme: String?
            if namingSchemes {
                scheme =
                    answer.values.allSatisfy(\.isFinite)
                    ? self.scheme(
                        try reference(curveLabel(curve)) {
                            try Comparison.bezier(trace(xs, answer), curve: curve)
                        }, creditingTwins: false) : "diverged"
            }
            let held = gate.map { gate in
                (
                    regular: BezierSuite.held(
                        result.maxRegular, result.regularExcess, allowance: measured.regularAllowance, tolerance: gate),
                    flat: BezierSuite.held(
                        result.maxFlat, result.flatExcess, allowance: measured.flatAllowance, tolerance: gate)
                )
            }
            return EngineCurveMeasure(
                position: position, regularPoints: measured.regularPoints, maxRegular: result.maxRegular,
                worstX: result.worstX, regularHeld: held?.regular, regularExcess: result.regularExcess,
                regularAllowance: measured.regularAllowance, flatPoints: result.flatPoints, maxFlat: result.maxFlat,
                flatHeld: result.flatPoints > 0 ? held?.flat : held.map { _ in true }, flatExcess: result.flatExcess,
                flatAllowance: measured.flatAllowance, steepness: measured.steepness, scheme: scheme)
        }
        measures.curves = curves.compactMap { $0 }
        return measures
    }

    /// The scheme that explains a compared trace, or `none`.
    /// The scheme that explains a trace. Unless `creditingTwins`, "alike"
    /// when a candidate of another engine gives the very same values (a
    /// curve's solvers on the linear curve, which most answer exactly), so
    /// that no engine is credited by the order the candidates are tried in.
    /// (A spring's variants of one scheme, clocks and precisions, may agree
    /// exactly and are credited to the simplest, as `compare` names it.)
    private static func scheme(_ comparison: Comparison, creditingTwins: Bool = true) -> String {
        guard let verdict = comparison.verdict, verdict.explained, let best = verdict.fits.first else { return "none" }
        let twin = verdict.explaining.dropFirst().contains { $0.engine != best.engine && $0.max == best.max }
        return twin && !creditingTwins ? "alike" : best.title
    }

    private static func trace(_ times: [Double], _ answer: EngineAnswer) -> MotionTrace {
        MotionTrace(
            samples: times.indices.map {
                MotionTrace.Sample(time: times[$0], value: answer.values[$0], velocity: answer.velocities?[$0])
            })
    }

    private static func reference<T>(_ label: String, _ body: () throws -> T) throws -> T {
        do { return try body() } catch {
            throw VerificationError.reference("GSL failed while comparing the engine's trace of \(label): \(error)")
        }
    }
}

extension EngineTrajectoryMeasure {
    init(_ error: SpringTrajectoryError) {
        self.init(maxError: error.maxError, rmsError: error.rmsError, worstTime: error.worstTime)
    }

    init(_ error: DecayTrajectoryError) {
        self.init(maxError: error.maxError, rmsError: error.rmsError, worstTime: error.worstTime)
    }
}
