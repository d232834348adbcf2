import Foundation
import Kinetics
import KineticsReference

/// The suites a verification can run.
public enum VerificationSuite: String, CaseIterable, Sendable, Codable {
    /// Spring methods against GSL's rk8pd, frame-rate dependence, time scale, RK4's order.
    case spring
    /// Decay methods against GSL's trajectory of the continuous and discrete laws.
    case decay
    /// Bezier methods against GSL's cubic and brent roots.
    case bezier
    /// Parameter mappings and the settling duration.
    case conversions
}

/// What to verify.
public struct VerificationRequest: Sendable {
    /// The suites, in order.
    public var suites: [VerificationSuite]
    /// The grid.
    public var grid: VerificationGrid
    /// Method names to keep (`pop`, `rk4`, `webkit`, …); empty keeps all.
    public var methods: Set<String>
    /// The tolerances.
    public var tolerances: Tolerances
    /// Worker threads.
    public var jobs: Int
    /// The shard, if the run is one part of a larger one (see
    /// ``Verifier/merge(_:)``).
    public var shard: VerificationShard?
    /// A deliberate fault, for tests that show a check can fail.
    package var fault: InjectedFault?

    /// Creates a request.
    public init(
        suites: [VerificationSuite] = VerificationSuite.allCases, grid: VerificationGrid = .quick,
        methods: Set<String> = [], tolerances: Tolerances, jobs: Int = ProcessInfo.processInfo.activeProcessorCount,
        shard: VerificationShard? = nil
    ) {
        self.shard = shard
        self.suites = suites
        self.grid = grid
        self.methods = methods
        self.tolerances = tolerances
        self.jobs = jobs
    }

    /// Every method name a request may name.
    public static let methodNames: [String] = {
        var names: [String] = []
        for name in SpringMethod.allCases.map(\.rawValue) + DecayMethod.allCases.map(\.rawValue)
            + BezierMethod.allCases.map(\.rawValue) where !names.contains(name)
        {
            names.append(name)
        }
        return names
    }()

    /// The methods of a kind that the request keeps, in their order.
    func kept<Method: CaseIterable & RawRepresentable<String>>(_: Method.Type) -> [Method] {
        Method.allCases.filter { methods.isEmpty || methods.contains($0.rawValue) }
    }
}

/// Runs the verification suites and gathers their rows.
public enum Verifier {
    /// Progress of a run: the suite and how many of its jobs are done.
    public typealias Progress = @Sendable (_ suite: String, _ done: Int, _ total: Int) -> Void

    /// Runs `request`.
    ///
    /// - Throws: ``VerificationError`` for an unknown method or when the GSL
    ///   reference fails on a case (that is an error, never a number).
    public static func run(
        _ request: VerificationRequest, progress: @escaping Progress = { _, _, _ in }
    ) throws -> VerificationReport {
        for method in request.methods where !VerificationRequest.methodNames.contains(method) {
            throw VerificationError.usage(
                "unknown method '\(method)'; the methods are \(VerificationRequest.methodNames.joined(separator: ", "))"
            )
        }
        let start = Date()
        let measures = try measure(request, progress: progress)
        var report = report(measures, grid: request.grid, suites: request.suites, tolerances: request.tolerances)
        // Only a shard keeps its measures: merging needs them, a whole run does not.
        if request.shard != nil { report.methodMeasures = measures }
        report.seconds = Date().timeIntervalSince(start)
        return report
    }

    /// The rows of a run of Kinetics' own methods, from its measures.
    static func report(
        _ measures: MethodMeasures, grid: VerificationGrid, suites: [VerificationSuite], tolerances: Tolerances
    ) -> VerificationReport {
        let report = VerificationReport(
            grid: grid.rawValue, suites: suites.map(\.rawValue), reference: referenceDescription, seconds: 0, rows: [],
            springCases: [], decayCases: [], bezierCases: [])
        var rows = SuiteRows(measures: measures, grid: grid, tolerances: tolerances, report: report)
        for suite in suites {
            switch suite {
            case .spring: rows.springRows()
            case .decay: rows.decayRows()
            case .bezier: rows.bezierRows()
            case .conversions: rows.report.rows += (measures.conversions ?? []).map { $0.judged(by: tolerances) }
            }
        }
        return rows.report
    }

    /// What the checks compare with.
    static var referenceDescription: String {
        "GSL \(GSL.version): gsl_odeiv2 rk8pd at epsabs = epsrel = 1e-13; gsl_poly_solve_cubic polished by gsl_root_fsolver_brent"
    }

    /// Each measure with the grid entry it measured.
    private static func gridCases<Case, Value>(
        _ grid: [Case], _ measures: [MethodMeasures.Positioned<Value>]
    ) -> [(Case, Value)] {
        measures.map { (grid[$0.position], $0.value) }
    }

    /// A run's rows, suite by suite, added to ``report``: from Kinetics'
    /// own methods' measures (``MethodMeasures``) or from an engine's
    /// (``EngineMeasures``).
    struct SuiteRows<Measures> {
        let measures: Measures
        let grid: VerificationGrid
        let tolerances: Tolerances
        var report: VerificationReport
    }

    static func parameters(_ springCase: SpringCase, fps: Double) -> [String: Double] {
        let p = springCase.parameters
        return [
            "tension": p.tension, "friction": p.friction, "mass": p.mass, "velocity": springCase.velocity,
            "dampingRatio": p.dampingRatio, "fps": fps,
        ]
    }

    static func curveLabel(_ curve: UnitBezier) -> String {
        "cubic-bezier(\([curve.x1, curve.y1, curve.x2, curve.y2].map(brief).joined(separator: ", ")))"
    }

    // MARK: Conversions

    /// The conversion checks' rows: they check mappings over the whole
    /// grid at once, so a sharded run makes them in its first shard.
    static func conversionRows(
        _ springs: [SpringCase], _ request: VerificationRequest, _ progress: @escaping Progress
    ) throws -> [VerificationRow] {
        var rows = ConversionsSuite.popRows(request.grid, springs: springs, tolerances: request.tolerances)
        rows += ConversionsSuite.swiftUIRows(springs: springs, tolerances: request.tolerances)
        let subset = Array(springs.prefix(request.grid == .full ? 2_000 : 60))
        let results = try parallelMap(
            count: subset.count, jobs: request.jobs, progress: { progress("conversions", $0, subset.count) }
        ) {
            index -> (Double, Double)? in
            do {
                return try ConversionsSuite.settling(subset[index])
            } catch {
                throw VerificationError.reference("settling duration of \(subset[index].label): \(error)")
            }
        }
        var worst = WorstCase()
        for (springCase, result) in zip(subset, results) {
            guard let result else { continue }
            let p = springCase.parameters
            worst.consider(
                abs(result.0 - result.1) / max(result.1, 1e-300),
                at: "\(springCase.label): \(result.0) s vs \(result.1) s",
                ["tension": p.tension, "friction": p.friction, "mass": p.mass, "velocity": springCase.velocity])
        }
        rows.append(
            row(
                "conversions", "settling duration", "vs GSL brent (relative)", worst,
                toleranceName: "conversions.settling", tolerances: request.tolerances,
                note: "band 1e-3 of a unit step; undamped springs left out"))
        return rows
    }

    // MARK: Rows

    /// A row for the worst case over a suite's cases; `location` replaces
    /// the worst case's own, `rms` adds the RMS over the cases.
    static func row(
        _ suite: String, _ mode: String, _ check: String, _ worst: WorstCase, rms: Bool = false,
        location: String? = nil, toleranceName: String?, tolerances: Tolerances, note: String? = nil
    ) -> VerificationRow {
        row(
            suite, mode, check, worst, rms: rms, location: location,
            gate: toleranceName.map { ($0, tolerances[$0]) }, note: note)
    }

    /// A row for the worst case, checked against `gate` (a name and a value) if given.
    static func row(
        _ suite: String, _ mode: String, _ check: String, _ worst: WorstCase, rms: Bool = false,
        location: String? = nil, gate: (name: String, value: Double)?, note: String? = nil
    ) -> VerificationRow {
        row(
            suite, mode, check, worst.count, worst.value, rms: rms ? worst.rms : nil,
            location: location ?? worst.location, parameters: worst.parameters, gate: gate, note: note)
    }

    static func row(
        _ suite: String, _ mode: String, _ check: String, _ cases: Int, _ value: Double, rms: Double? = nil,
        location: String, parameters: [String: Double] = [:], toleranceName: String?, tolerances: Tolerances,
        note: String? = nil
    ) -> VerificationRow {
        row(
            suite, mode, check, cases, value, rms: rms, location: location, parameters: parameters,
            gate: toleranceName.map { ($0, tolerances[$0]) }, note: note)
    }

    static func row(
        _ suite: String, _ mode: String, _ check: String, _ cases: Int, _ value: Double, rms: Double? = nil,
        location: String, parameters: [String: Double] = [:], gate: (name: String, value: Double)?,
        note: String? = nil
    ) -> VerificationRow {
        let toleranceName = gate?.name
        let tolerance = gate?.value
        // A check that compared nothing has not held.
        if tolerance != nil && cases == 0 {
            return VerificationRow(
                suite: suite, mode: mode, check: check, cases: 0, value: .nan, location: "nothing was checked",
                toleranceName: toleranceName, tolerance: tolerance, passed: false,
                note: note ?? "nothing was checked: every case was left out")
        }
        // Nor has one that measured nothing a value, though it checks nothing.
        if cases == 0 {
            return VerificationRow(
                suite: suite, mode: mode, check: check, cases: 0, value: .nan, location: "nothing was measured",
                note: note)
        }
        return VerificationRow(
            suite: suite, mode: mode, check: check, cases: cases, value: value.isNaN ? value : max(value, 0), rms: rms,
            location: location, parameters: parameters, toleranceName: toleranceName, tolerance: tolerance,
            passed: tolerance.map { Limit.atMost($0).admits(value) }, note: note)
    }
}

extension Array where Element == Double {
    /// The median of a sorted array.
    var middle: Double? {
        guard !isEmpty else { return nil }
        return count % 2 == 1 ? self[count / 2] : (self[count / 2 - 1] + self[count / 2]) / 2
    }
}

/// A run's rows for Kinetics' own methods, suite by suite, added to ``report``.
extension Verifier.SuiteRows where Measures == MethodMeasures {
    mutating func springRows() {
        let methods = measures.kept(SpringMethod.self)
        guard !methods.isEmpty else { return }
        let cases = Verifier.gridCases(VerificationGrids.springs(grid), measures.springs)
        for method in methods {
            springErrorRows(method, cases)
            springTimeScaleRows(method)
            if method == .rk4 { rk4OrderRow() }
        }
        springCaseResults(cases)
    }

    /// A method's error against GSL and its dependence on the frame rate.
    private mutating func springErrorRows(
        _ method: SpringMethod, _ cases: [(SpringCase, SpringCaseMeasurement<SpringMethod>)]
    ) {
        // Which trajectories are left out is decided from the parameters,
        // never from the results: `pop` and `fixed` take fixed 1 ms RK4
        // steps, which grow without bound for springs outside RK4's
        // stability region (as Pop's own solver does). Every other
        // trajectory counts, NaN included.
        var worst = WorstCase()
        var leftOut = 0
        var spread = WorstCase(startingAt: 0)
        for (springCase, measurement) in cases {
            guard method.isStable(for: springCase.parameters) else {
                leftOut += verificationFrameRates.count
                continue
            }
            for (index, fps) in verificationFrameRates.enumerated() {
                guard let error = measurement.errors[index][method] else { continue }
                worst.consider(
                    error.maxError, rms: error.rmsError,
                    at: "\(springCase.label) at \(brief(fps)) Hz, t = \(brief(error.worstTime)) s",
                    Verifier.parameters(springCase, fps: fps))
            }
            if let caseSpread = measurement.frameRateSpread[method] {
                spread.consider(
                    caseSpread.value, at: "\(springCase.label), 60 vs \(brief(caseSpread.fps)) Hz",
                    Verifier.parameters(springCase, fps: caseSpread.fps))
            }
        }
        let checked: String? =
            switch method {
            case .analytic: "spring.analytic"
            case .rk4: "spring.rk4"
            case .pop, .fixed: nil
            }
        let note =
            leftOut > 0
            ? "\(leftOut) trajectories left out: their springs are outside the stability region of a 1 ms RK4 step (|λ|·h up to about 2.8), where this method grows without bound"
            : nil
        report.rows.append(
            Verifier.row(
                "spring", method.rawValue, "error", worst, rms: true, toleranceName: checked,
                tolerances: tolerances, note: note))
        let spreadTolerance: String? =
            switch method {
            case .analytic, .fixed: "spring.frame-rate"
            case .rk4: "spring.rk4.frame-rate"
            case .pop: nil
            }
        report.rows.append(
            Verifier.row(
                "spring", method.rawValue, "frame-rate dependence", spread,
                location: spread.value == 0 ? "identical at every common time" : nil,
                toleranceName: spreadTolerance, tolerances: tolerances))
    }

    /// A method's time scale: Pop's per frame rate (its time runs slow),
    /// the others' largest |s - 1|.
    private mutating func springTimeScaleRows(_ method: SpringMethod) {
        let scales = measures.samples.map(\.value.scales)
        let fitted = scales.flatMap { $0[method] ?? [] }
        if method == .pop {
            for (index, fps) in verificationFrameRates.enumerated() {
                let values = scales.map { $0[method]![index] }.sorted()
                guard let median = values.middle else { continue }
                report.rows.append(
                    VerificationRow(
                        suite: "spring", mode: "pop", check: "time scale \(brief(fps)) Hz", cases: values.count,
                        value: median, minimum: values.first, maximum: values.last,
                        location: "median of \(values.count) springs (ζ 0.1 … 1.5, ω₀ 5 … 60 rad/s)"))
            }
        } else if let deviation = fitted.map({ abs($0 - 1) }).reduce(
            nil,
            { worst, next in
                worst.map { isWorse(next, than: $0) ? next : $0 } ?? next
            })
        {
            report.rows.append(
                Verifier.row(
                    "spring", method.rawValue, "time scale |s - 1|", fitted.count, deviation,
                    location:
                        "over \(measures.samples.count) springs × \(verificationFrameRates.count) frame rates",
                    toleranceName: method == .fixed ? "spring.fixed.time-scale" : "spring.time-scale",
                    tolerances: tolerances))
        }
    }

    /// RK4's order of convergence, halving the step.
    private mutating func rk4OrderRow() {
        let orders = measures.samples.compactMap(\.value.rk4Order).sorted()
        if let median = orders.middle {
            let tolerance = tolerances["spring.rk4.order"]
            report.rows.append(
                VerificationRow(
                    suite: "spring", mode: "rk4", check: "convergence order", cases: orders.count,
                    value: median,
                    minimum: orders.first, maximum: orders.last, location: "halving the step from 1 ms",
                    toleranceName: "spring.rk4.order", tolerance: tolerance,
                    passed: !orders.isEmpty && orders.allSatisfy { Limit.atMost(tolerance).admits(abs($0 - 4)) }))
        }
    }

    /// Each trajectory's errors by method, for the plots.
    private mutating func springCaseResults(_ cases: [(SpringCase, SpringCaseMeasurement<SpringMethod>)]) {
        for (springCase, measurement) in cases {
            for (index, fps) in verificationFrameRates.enumerated() {
                var errors: [String: Double] = [:]
                for (method, error) in measurement.errors[index] where method.isStable(for: springCase.parameters) {
                    errors[method.rawValue] = error.maxError
                }
                let p = springCase.parameters
                report.springCases.append(
                    SpringCaseResult(
                        tension: p.tension, friction: p.friction, mass: p.mass, velocity: springCase.velocity,
                        dampingRatio: p.dampingRatio, naturalFrequency: p.naturalFrequency, fps: fps, errors: errors
                    ))
            }
        }
    }

    mutating func decayRows() {
        let methods = measures.kept(DecayMethod.self)
        guard !methods.isEmpty else { return }
        let cases = Verifier.gridCases(VerificationGrids.decays(grid), measures.decays)
        for method in methods {
            var worst = WorstCase()
            for (decayCase, measurement) in cases {
                for (index, fps) in verificationFrameRates.enumerated() {
                    let error = measurement[index][method]!
                    worst.consider(
                        error.maxError, rms: error.rmsError,
                        at: "\(decayCase.label) at \(brief(fps)) Hz, t = \(brief(error.worstTime)) s",
                        [
                            "deceleration": decayCase.parameters.deceleration, "velocity": decayCase.velocity,
                            "fps": fps,
                        ])
                }
            }
            let checked: String? =
                switch method {
                case .pop: nil
                case .exact: "decay.exact"
                case .continuous: "decay.continuous"
                }
            let check = method == .continuous ? "error vs continuous law" : "error vs discrete law"
            report.rows.append(
                Verifier.row(
                    "decay", method.rawValue, check, worst, rms: true, toleranceName: checked,
                    tolerances: tolerances))
        }
        for (decayCase, measurement) in cases {
            for (index, fps) in verificationFrameRates.enumerated() {
                report.decayCases.append(
                    DecayCaseResult(
                        deceleration: decayCase.parameters.deceleration, velocity: decayCase.velocity, fps: fps,
                        errors: Dictionary(
                            uniqueKeysWithValues: measurement[index].map { ($0.key.rawValue, $0.value.maxError) })))
            }
        }
    }

    mutating func bezierRows() {
        let methods = measures.kept(BezierMethod.self)
        guard !methods.isEmpty else { return }
        let cases = Verifier.gridCases(VerificationGrids.curves(grid), measures.curves)
        let measurements = cases.map(\.1)
        let regular = measurements.map(\.regularPoints).reduce(0, +)
        for method in methods {
            let name: String? =
                switch method {
                case .webkit: nil
                case .precise: "bezier.precise"
                case .fast: "bezier.fast"
                }
            let tolerance = name.map { tolerances[$0] } ?? .nan
            var worst = WorstCase()
            var held = true
            var flatPoints = 0
            var worstFlat = 0.0
            var flatHeld = true
            for (curve, measurement) in cases {
                let result = measurement.methods[method]!
                worst.consider(
                    result.maxRegular, at: "\(Verifier.curveLabel(curve)) at x = \(brief(result.worstX))",
                    ["x1": curve.x1, "y1": curve.y1, "x2": curve.x2, "y2": curve.y2, "x": result.worstX])
                if measurement.regularPoints > 0 {
                    held =
                        held
                        && BezierSuite.held(
                            result.maxRegular, result.regularExcess, allowance: measurement.regularAllowance,
                            tolerance: tolerance)
                }
                flatPoints += result.flatPoints
                if isWorse(result.maxFlat, than: worstFlat) { worstFlat = result.maxFlat }
                if result.flatPoints > 0 {
                    flatHeld =
                        flatHeld
                        && BezierSuite.held(
                            result.maxFlat, result.flatExcess, allowance: measurement.flatAllowance,
                            tolerance: tolerance)
                }
            }
            var errorRow = Verifier.row(
                "bezier", method.rawValue, BezierSuite.regularCheck, regular, worst.value,
                location: worst.location,
                parameters: worst.parameters, toleranceName: name, tolerances: tolerances,
                note: method == .webkit
                    ? "epsilon 1/400, Pop's for a 0.4 s animation"
                    : "plus GSL's own uncertainty |y'|·4 ulp/x' per point")
            if name != nil && regular > 0 { errorRow.passed = held }
            report.rows.append(errorRow)
            if flatPoints > 0 {
                report.rows.append(
                    VerificationRow(
                        suite: "bezier", mode: method.rawValue, check: "error where x(t) is flat",
                        cases: flatPoints,
                        value: worstFlat, location: "points with x'(t) < 1e-3",
                        toleranceName: name, tolerance: name.map { tolerances[$0] },
                        passed: name == nil ? nil : flatHeld,
                        note: name == nil
                            ? nil : "allowed: the tolerance plus the spread of y over t with x(t) within 8 ulps"))
            }
        }
        if let worst = cases.max(by: { $0.1.cubicVersusBrent < $1.1.cubicVersusBrent }) {
            report.rows.append(
                VerificationRow(
                    suite: "bezier", mode: "reference", check: "|t cubic - t brent|", cases: regular,
                    value: worst.1.cubicVersusBrent, location: Verifier.curveLabel(worst.0),
                    note: "gsl_poly_solve_cubic against brent's polish, where x'(t) >= 1e-3"))
        }
        for (curve, measurement) in cases {
            report.bezierCases.append(
                BezierCaseResult(
                    curve: [curve.x1, curve.y1, curve.x2, curve.y2], steepness: measurement.steepness,
                    errors: Dictionary(
                        uniqueKeysWithValues: measurement.methods.map { ($0.key.rawValue, $0.value.maxRegular) })))
        }
    }
}
