import ArgumentParser
import Foundation
import Kinetics
import KineticsBench
import KineticsReport

/// `kinetics bench`: the per-frame cost of many concurrent animations.
package struct Bench: ParsableCommand {
    package static let configuration = CommandConfiguration(
        abstract: "Measure the per-frame cost of N concurrent animations; gate on a baseline.",
        discussion: """
            Every combination of the engines, counts, mixes, frame rates and scenarios given is measured: \
            warm-up frames, then --repetitions runs of --frames frames, each frame timed; allocations \
            are counted exactly over three more frames; a memory-streaming kernel over the same bytes \
            is timed in the same run, and p50 divided by it is the calibrated figure that baselines \
            compare. Exit status: 0 success, 2 a regression against --baseline, 64 usage error, \
            65 a malformed baseline, 66 a missing baseline, 73 an output that cannot be written.

            --engine-library PATH loads an engine from a shared library that exports the C interface \
            of kinetics_engine.h and measures it beside the built-in engines (docs/bench.md): 66 when \
            the file is missing, 65 when it is not such a library, speaks another interface version, \
            or its engine refuses the workload.
            """
    )

    @Option(
        name: .customLong("engine"),
        help:
            "Engines (repeatable): animator, batch, reference (Pop's frame in Swift), pop-c (Pop's frame in C), abi-null (the harness alone), or a library's engine. Default: the first four, and any library's engine with abi-null beside it."
    )
    var engines: [BenchEngine] = []
    @Option(
        name: .customLong("engine-library"),
        help: ArgumentHelp(
            "Also measure the engine of this shared library (the C interface of kinetics_engine.h; repeatable).",
            valueName: "path"))
    var libraries: [String] = []
    @Option(
        name: .customLong("animations"),
        help: "Animation counts (repeatable), 1 … 1,000,000. Default: 1000, 10000, 100000.")
    var counts: [Int] = []
    @Option(
        name: .customLong("mix"), help: "Mixes (repeatable): spring, decay, basic, keyframe, mixed. Default: spring.")
    var mixes: [BenchMix] = []
    @Option(name: .customLong("fps"), help: "Frame rates (repeatable). Default: 60.")
    var rates: [Double] = []
    @Option(
        name: .customLong("scenario"),
        help: "Scenarios (repeatable): steady, jitter, churn, mass-completion, retarget-storm, burst. Default: steady.")
    var scenarios: [BenchScenario] = []
    @Option(
        help: "Spring method: pop, fixed, rk4 or analytic (the Pop models, reference and pop-c, always step as Pop).")
    var method: SpringMethod = .pop
    @Option(parsing: .unconditional, help: "Measured frames per repetition.")
    var frames = 30
    @Option(parsing: .unconditional, help: "Repetitions (at least 7).")
    var repetitions = 7
    @Option(parsing: .unconditional, help: "Warm-up frames before measuring.")
    var warmup = 10
    @Option(
        name: .customLong("churn-fraction"), parsing: .unconditional,
        help: "Fraction of animations replaced per frame under churn, in (0, 1].")
    var churnFraction = 0.1
    @Option(help: "Output: table, json, csv or markdown.")
    var format: ReportFormat = .table
    @Option(help: "Write the output to FILE instead of standard output.")
    var output: String?
    @Option(name: .customLong("save-baseline"), help: "Also write the results as a baseline to FILE.")
    var saveBaseline: String?
    @Option(help: "Compare with this baseline; exit 2 on a regression.")
    var baseline: String?
    @Option(
        name: .customLong("max-regression"), parsing: .unconditionalSingleValue,
        help:
            "Percent slower (calibrated) that counts as a regression (25); SCENARIO=PERCENT sets it for one scenario (repeatable)."
    )
    var maxRegressions: [String] = []

    /// The bound for every scenario, and those given for one.
    var regressionBounds: (all: Double, scenarios: [BenchScenario: Double]) {
        get throws {
            var all = 25.0
            var scenarios: [BenchScenario: Double] = [:]
            for text in maxRegressions {
                let parts = text.split(separator: "=", maxSplits: 1).map(String.init)
                let number = Double(parts.last ?? "")
                guard let number, number.isFinite, number >= 0 else {
                    throw ValidationError(
                        "--max-regression must be a finite number >= 0 or SCENARIO=NUMBER, got '\(text)'")
                }
                if parts.count == 2 {
                    guard let scenario = BenchScenario(rawValue: parts[0]) else {
                        let names = BenchScenario.allCases.map(\.rawValue).joined(separator: ", ")
                        throw ValidationError("--max-regression: unknown scenario '\(parts[0])' (\(names))")
                    }
                    scenarios[scenario] = number
                } else {
                    all = number
                }
            }
            return (all, scenarios)
        }
    }
    @Flag(name: .customLong("no-bezier"), help: "Skip the bezier evaluation timings.")
    var noBezier = false
    @Flag(
        name: .customLong("no-value-check"),
        help: "Skip checking each engine's values against GSL (instruction counts run the measured frames only).")
    var noValueCheck = false

    package init() {}

    package func validate() throws {
        for engine in engines where !engine.isBuiltIn && libraries.isEmpty && !BenchEngine.registered.contains(engine) {
            throw ValidationError(
                "--engine must be one of \(BenchEngine.allCases.map(\.rawValue).joined(separator: ", ")) or the engine of an --engine-library, got '\(engine)'"
            )
        }
        for count in counts where !(1 ... 1_000_000).contains(count) {
            throw ValidationError("--animations must be a whole number in [1, 1000000], got \(count)")
        }
        for rate in rates where !(rate.isFinite && rate > 0 && rate <= 1_000) {
            throw ValidationError("--fps must be a number in (0, 1000], got \(rate)")
        }
        guard (1 ... 100_000).contains(frames) else {
            throw ValidationError("--frames must be a whole number in [1, 100000], got \(frames)")
        }
        guard (7 ... 1_000).contains(repetitions) else {
            throw ValidationError("--repetitions must be a whole number in [7, 1000], got \(repetitions)")
        }
        guard (0 ... 100_000).contains(warmup) else {
            throw ValidationError("--warmup must be a whole number in [0, 100000], got \(warmup)")
        }
        guard churnFraction.isFinite, churnFraction > 0, churnFraction <= 1 else {
            throw ValidationError("--churn-fraction must be in (0, 1], got \(churnFraction)")
        }
        _ = try regressionBounds
    }

    /// Every configuration asked for, engines innermost so that each
    /// workload's engines are measured back to back; `loaded`, the engines
    /// of libraries and Swift packages, are measured by default.
    func configurations(loaded: [BenchEngine] = []) -> [BenchConfiguration] {
        // By default, the engines from elsewhere and, beside them, the
        // harness alone (abi-null): what it adds to their frames.
        let chosen = engines.isEmpty ? BenchEngine.allCases + loaded + (loaded.isEmpty ? [] : [.abiNull]) : engines
        var list: [BenchConfiguration] = []
        for mix in mixes.isEmpty ? [.spring] : mixes {
            for scenario in scenarios.isEmpty ? [.steady] : scenarios {
                for rate in rates.isEmpty ? [60] : rates {
                    for count in counts.isEmpty ? [1_000, 10_000, 100_000] : counts {
                        for engine in chosen where Self.measures(engine, scenario, chosenByDefault: engines.isEmpty) {
                            list.append(
                                BenchConfiguration(
                                    engine: engine, animations: count, mix: mix, fps: rate, scenario: scenario,
                                    method: method, frames: frames, repetitions: repetitions, warmupFrames: warmup,
                                    churnFraction: churnFraction))
                        }
                    }
                }
            }
        }
        return list
    }

    /// Whether `engine` is measured in `scenario`: the harness alone
    /// (abi-null) finishes nothing, and only the engines that can add
    /// animations after their workload take a burst; asked for by name, an
    /// engine is measured (and a burst it cannot take is an error).
    static func measures(_ engine: BenchEngine, _ scenario: BenchScenario, chosenByDefault: Bool) -> Bool {
        switch scenario {
        case .massCompletion: engine != .abiNull
        case .burst: !chosenByDefault || [.animator, .batch, .reference].contains(engine)
        default: true
        }
    }

    package func run() throws {
        try checkWritable(output, saveBaseline)
        // A missing or malformed baseline is reported before anything is measured.
        var base: BenchReport?
        if let baseline {
            do {
                base = try BaselineGate.load(baseline)
            } catch {
                switch error {
                case .missing: throw CLIError(message: error.description, status: CLIError.missingInput)
                case .malformed: throw CLIError(message: error.description, status: CLIError.badData)
                }
            }
        }
        let loaded = try loadLibraries()
        let bar = ProgressBar()
        let list = configurations(loaded: loaded)
        var results: [BenchResult] = []
        for (index, configuration) in list.enumerated() {
            bar.update("bench", index, list.count)
            do {
                results.append(try BenchRunner.measure(configuration, checkingValues: !noValueCheck))
            } catch {
                bar.finish()
                throw CLIError(message: error.description, status: CLIError.badData)
            }
        }
        let bezier = noBezier ? nil : BezierBench.measure()
        bar.finish()
        let report = BenchReport(kinetics: KineticsVersion.current, results: results, bezier: bezier)
        let text: String
        switch format {
        case .table: text = BenchText.table(report)
        case .markdown: text = BenchText.markdown(report)
        case .csv: text = BenchText.csv(report)
        case .json: text = try jsonText(report, pretty: true) + "\n"
        }
        try writeOutput(text, to: output)
        if let saveBaseline { try writeOutput(try jsonText(report, pretty: true) + "\n", to: saveBaseline) }
        if let base {
            let bounds = try regressionBounds
            let regressions = BaselineGate.regressions(
                report, baseline: base, maxRegression: bounds.all, perScenario: bounds.scenarios)
            for regression in regressions { warnLine("regression: \(regression)") }
            if !regressions.isEmpty {
                throw CLIError(
                    message: "\(regressions.count) regression\(regressions.count == 1 ? "" : "s") against \(baseline!)",
                    status: CLIError.regression)
            }
        }
    }
}

extension Bench {
    /// Loads every --engine-library, checks that each --engine names a
    /// built-in engine or a registered one, and returns the registered ones.
    func loadLibraries() throws -> [BenchEngine] {
        for path in libraries {
            do {
                _ = try EngineLibrary.load(path)
            } catch {
                switch error {
                case .missing: throw CLIError(message: error.description, status: CLIError.missingInput)
                case .unusable: throw CLIError(message: error.description, status: CLIError.badData)
                }
            }
        }
        // The libraries' engines and those a package registered (BenchSuite).
        let loaded = BenchEngine.registered
        for engine in engines where !engine.isBuiltIn && !loaded.contains(engine) {
            let names = (BenchEngine.allCases + loaded).map(\.rawValue).joined(separator: ", ")
            throw CLIError.usage("--engine must be one of \(names), got '\(engine)'")
        }
        return loaded
    }
}

/// The formats of a report: a table for people, JSON, CSV, Markdown.
package enum ReportFormat: String, ExpressibleByArgument, CaseIterable {
    case table, json, csv, markdown
}

extension BenchEngine: ExpressibleByArgument {}
extension SpringMethod: ExpressibleByArgument {}
extension DecayMethod: ExpressibleByArgument {}
extension BezierMethod: ExpressibleByArgument {}
extension BenchMix: ExpressibleByArgument {}
extension BenchScenario: ExpressibleByArgument {}
