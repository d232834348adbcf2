import Foundation
import Kinetics

extension Verifier {
    /// The report of an engine run: rows computed from `measures` (the
    /// grid's cases looked up by position), per-case errors for plots, and
    /// the fault that stopped the engine, if any.
    public static func report(
        _ measures: EngineMeasures, grid: VerificationGrid, suites: [VerificationSuite], tolerances: Tolerances,
        fault: EngineFault? = nil, seconds: Double = 0
    ) -> VerificationReport {
        var report = VerificationReport(
            grid: grid.rawValue, suites: suites.map(\.rawValue), reference: referenceDescription, seconds: seconds,
            rows: [], springCases: [], decayCases: [], bezierCases: [])
        report.engine = measures.engine
        report.fault = fault
        report.engineMeasures = measures
        let name = measures.engine
        var rows = SuiteRows(measures: measures, grid: grid, tolerances: tolerances, report: report)
        let refusals = measures.refusals ?? []
        for suite in [VerificationSuite.spring, .decay, .bezier] where suites.contains(suite) {
            if let refusal = refusals.first(where: { $0.suite == suite.rawValue }) {
                rows.report.rows.append(refusedRow(refusal, engine: name, gate: tolerances.engineGate(suite)))
                continue
            }
            switch suite {
            case .spring: rows.springRows()
            case .decay: rows.decayRows()
            case .bezier: rows.bezierRows()
            case .conversions: break
            }
        }
        report = rows.report
        let warnings = unitWarnings(measures)
        report.warnings = warnings.isEmpty ? nil : warnings
        let refused = refusals.map(\.cases).reduce(0, +)
        if measures.casesAnswered + refused < measures.casesAsked {
            let missing = measures.casesAsked - measures.casesAnswered - refused
            report.rows.append(
                VerificationRow(
                    suite: "engine", mode: name, check: "cases answered", cases: measures.casesAsked,
                    value: Double(measures.casesAnswered), location: fault?.message ?? "",
                    passed: false, note: "\(missing) cases have no answer"))
        }
        return report
    }

    /// What an engine's answers say of its units, as `kinetics compare`
    /// says it of a trace: most trajectories of a suite not numbers (a step
    /// taken in milliseconds where the cases give seconds is 1,000 times too
    /// long, and an explicit step that long diverges), or most of them off
    /// by more than half their scale (a step 1,000 times too short barely
    /// moves). Twenty trajectories at least, so that a run stopped early
    /// does not warn on a few.
    static func unitWarnings(_ measures: EngineMeasures) -> [String] {
        var warnings: [String] = []
        let units =
            "the cases give times in seconds (docs/engines.md); an engine that takes them for milliseconds steps 1,000 times too short, and one that steps in milliseconds with parameters per second steps 1,000 times too far"
        for (suite, errors) in [
            ("spring", measures.springs.flatMap { $0.errors.compactMap { $0?.maxError } }),
            ("decay", measures.decays.flatMap { $0.errors.compactMap { $0?.maxError } }),
        ] where errors.count >= 20 {
            let diverged = errors.count { $0.isNaN }
            let far = errors.count { $0 > 0.5 }
            if 2 * diverged > errors.count {
                warnings.append(
                    "\(diverged) of \(errors.count) \(suite) trajectories hold a value that is not a number: \(units)")
            } else if 2 * (far + diverged) > errors.count {
                warnings.append(
                    "\(far + diverged) of \(errors.count) \(suite) trajectories are off by more than half their scale: \(units)"
                )
            }
        }
        return warnings
    }

    /// The one row of a suite whose cases the engine refused: no value, since
    /// nothing of it was measured; failed when the suite is gated.
    static func refusedRow(
        _ refusal: EngineRefusal, engine name: String, gate: (name: String, value: Double)?
    ) -> VerificationRow {
        let cases = "\(refusal.cases) case\(refusal.cases == 1 ? "" : "s")"
        return VerificationRow(
            suite: refusal.suite, mode: name, check: "refused", cases: refusal.cases, value: .nan,
            location: "\(refusal.firstCase): \(refusal.message)", toleranceName: gate?.name, tolerance: gate?.value,
            passed: gate == nil ? nil : false,
            note: gate == nil
                ? "the engine refused \(cases); the suite is not measured (--suite leaves it out)"
                : "the engine refused \(cases) of a gated suite: the gate cannot hold")
    }

    /// The springs on which time scales are fitted: at rest at the start,
    /// neither nearly undamped nor heavily overdamped, and slow enough for
    /// every frame rate to sample an oscillation well.
    static func isTimeScaleSample(_ springCase: SpringCase) -> Bool {
        springCase.velocity == 0 && (0.1 ... 1.5).contains(springCase.parameters.dampingRatio)
            && (5 ... 60).contains(springCase.parameters.naturalFrequency)
    }

    /// How many cases each scheme explains, the commonest first:
    /// `position-first symplectic Euler in 9,940 of 10,000 cases; no
    /// candidate explains 40; diverged 20`.
    static func schemeRow(_ suite: String, _ name: String, _ schemes: [String?]) -> VerificationRow {
        let answered = schemes.compactMap { $0 }
        var counts: [String: Int] = [:]
        for scheme in answered { counts[scheme, default: 0] += 1 }
        let ranked = counts.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
        let parts = ranked.map { entry in
            switch entry.key {
            case "none": "no candidate explains \(entry.value)"
            case "diverged": "diverged \(entry.value)"
            case "alike": "schemes of several engines give the same values in \(entry.value)"
            default: "\(entry.key) in \(entry.value) of \(answered.count)"
            }
        }
        let top = ranked.first { !["none", "diverged", "alike"].contains($0.key) }?.value ?? 0
        return VerificationRow(
            suite: suite, mode: name, check: suite == "bezier" ? "scheme" : "scheme at 60 Hz", cases: answered.count,
            value: answered.isEmpty ? .nan : Double(top) / Double(answered.count),
            location: parts.isEmpty ? "nothing was answered" : parts.joined(separator: "; "),
            note: "the candidates of `kinetics compare`; the value is the share of the commonest named scheme")
    }
}

extension WorstCase {
    /// Takes one trajectory's error into account, located as `label at
    /// 60 Hz, t = 0.25 s`.
    fileprivate mutating func consider(
        _ error: EngineTrajectoryMeasure, of label: String, fps: Double, _ parameters: [String: Double]
    ) {
        consider(
            error.maxError, rms: error.rmsError, at: "\(label) at \(brief(fps)) Hz, t = \(brief(error.worstTime)) s",
            parameters)
    }
}

/// An engine run's rows, suite by suite, added to ``report``.
extension Verifier.SuiteRows where Measures == EngineMeasures {
    mutating func springRows() {
        let springs = VerificationGrids.springs(grid)
        let name = measures.engine
        var worst = WorstCase()
        var spread = WorstCase(startingAt: 0)
        var diverged = 0
        var scales: [Double] = []
        var lags: [Double] = []
        var atEdge = 0
        for measure in measures.springs {
            let springCase = springs[measure.position]
            for (rate, fps) in verificationFrameRates.enumerated() {
                guard let error = measure.errors[rate] else { continue }
                if error.maxError.isNaN { diverged += 1 }
                worst.consider(error, of: springCase.label, fps: fps, Verifier.parameters(springCase, fps: fps))
                let p = springCase.parameters
                report.springCases.append(
                    SpringCaseResult(
                        tension: p.tension, friction: p.friction, mass: p.mass, velocity: springCase.velocity,
                        dampingRatio: p.dampingRatio, naturalFrequency: p.naturalFrequency, fps: fps,
                        errors: error.maxError.isNaN ? [:] : [name: error.maxError]))
            }
            if let value = measure.spread, let fps = measure.spreadFPS {
                spread.consider(
                    value, at: "\(springCase.label), 60 vs \(brief(fps)) Hz", Verifier.parameters(springCase, fps: fps))
            }
            if Verifier.isTimeScaleSample(springCase), let scale = measure.timeScale, let lag = measure.lag {
                scales.append(scale)
                lags.append(lag)
                if measure.timeFitAtEdge == true { atEdge += 1 }
            }
        }
        let gate = tolerances.engineGate(.spring)
        report.rows.append(
            Verifier.row(
                "spring", name, "error", worst, rms: true, gate: gate,
                note: diverged > 0 ? "\(diverged) trajectories hold a value that is not a number" : nil))
        report.rows.append(
            Verifier.row(
                "spring", name, "frame-rate dependence", spread,
                location: spread.count > 0 && spread.value == 0 ? "identical at every common time" : nil, gate: nil)
        )
        scales.sort()
        lags.sort()
        if let median = scales.middle, let lag = lags.middle {
            report.rows.append(
                VerificationRow(
                    suite: "spring", mode: name, check: "time scale 60 Hz", cases: scales.count, value: median,
                    minimum: scales.first, maximum: scales.last,
                    location: "median of \(scales.count) springs (ζ 0.1 … 1.5, ω₀ 5 … 60 rad/s, at rest)",
                    note: "median lag \(brief(lag * 1000)) ms (\(brief(lag * 60)) frames; + ahead, - behind)"
                        + (atEdge > 0
                            ? "; \(atEdge) of \(scales.count) fits stopped at the edge of their range (scale 0.25 to 4, lag ±0.25 s): the scale and lag say little"
                            : "")))
        }
        appendSchemeRow("spring", measures.springs.map(\.scheme))
    }

    mutating func decayRows() {
        let decays = VerificationGrids.decays(grid)
        let name = measures.engine
        var continuous = WorstCase()
        var discrete = WorstCase()
        for measure in measures.decays {
            let decayCase = decays[measure.position]
            for (rate, fps) in verificationFrameRates.enumerated() {
                let parameters = [
                    "deceleration": decayCase.parameters.deceleration, "velocity": decayCase.velocity, "fps": fps,
                ]
                if let error = measure.errors[rate] {
                    continuous.consider(error, of: decayCase.label, fps: fps, parameters)
                    report.decayCases.append(
                        DecayCaseResult(
                            deceleration: decayCase.parameters.deceleration, velocity: decayCase.velocity, fps: fps,
                            errors: error.maxError.isNaN ? [:] : [name: error.maxError]))
                }
                if let error = measure.discreteErrors[rate] {
                    discrete.consider(error, of: decayCase.label, fps: fps, parameters)
                }
            }
        }
        report.rows.append(
            Verifier.row(
                "decay", name, "error vs continuous law", continuous, rms: true, gate: tolerances.engineGate(.decay)
            ))
        report.rows.append(
            Verifier.row(
                "decay", name, "error vs discrete law", discrete, rms: true, gate: nil,
                note: "Pop's law, x(t) = v/1000·d/(1 - d)·(1 - d^(1000t)); reported, not checked"))
        appendSchemeRow("decay", measures.decays.map(\.scheme))
    }

    mutating func bezierRows() {
        let curves = VerificationGrids.curves(grid)
        let name = measures.engine
        let gate = tolerances.engineGate(.bezier)
        var worst = WorstCase()
        var worstFlat = WorstCase(startingAt: 0)
        var regular = 0
        var flat = 0
        for measure in measures.curves {
            let curve = curves[measure.position]
            regular += measure.regularPoints
            flat += measure.flatPoints
            worst.consider(
                measure.maxRegular, at: "\(Verifier.curveLabel(curve)) at x = \(brief(measure.worstX))",
                ["x1": curve.x1, "y1": curve.y1, "x2": curve.x2, "y2": curve.y2, "x": measure.worstX])
            if measure.flatPoints > 0 { worstFlat.consider(measure.maxFlat, at: Verifier.curveLabel(curve), [:]) }
            report.bezierCases.append(
                BezierCaseResult(
                    curve: [curve.x1, curve.y1, curve.x2, curve.y2], steepness: measure.steepness,
                    errors: measure.maxRegular.isNaN ? [:] : [name: measure.maxRegular]))
        }
        var errorRow = Verifier.row(
            "bezier", name, BezierSuite.regularCheck, regular, worst.value, location: worst.location,
            parameters: worst.parameters, gate: gate,
            note: gate == nil ? nil : "plus GSL's own uncertainty |y'|·4 ulp/x' per point")
        if let gate, regular > 0 {
            errorRow.passed = measures.curves.allSatisfy {
                $0.regularPoints == 0
                    || BezierSuite.held(
                        $0.maxRegular, $0.regularExcess, allowance: $0.regularAllowance ?? 0, tolerance: gate.value)
            }
        }
        report.rows.append(errorRow)
        if flat > 0 {
            report.rows.append(
                VerificationRow(
                    suite: "bezier", mode: name, check: "error where x(t) is flat", cases: flat,
                    value: worstFlat.value,
                    location: "points with x'(t) < 1e-3", toleranceName: gate?.name, tolerance: gate?.value,
                    passed: gate.map { gate in
                        measures.curves.allSatisfy {
                            $0.flatPoints == 0
                                || BezierSuite.held(
                                    $0.maxFlat, $0.flatExcess, allowance: $0.flatAllowance ?? 0, tolerance: gate.value)
                        }
                    },
                    note: gate == nil
                        ? nil : "allowed: the tolerance plus the spread of y over t with x(t) within 8 ulps"))
        }
        appendSchemeRow("bezier", measures.curves.map(\.scheme))
    }

    /// The scheme row of `suite`, unless the schemes were not named
    /// (`--no-schemes`).
    private mutating func appendSchemeRow(_ suite: String, _ schemes: [String?]) {
        if measures.schemesNamed != false { report.rows.append(Verifier.schemeRow(suite, measures.engine, schemes)) }
    }
}
