import ArgumentParser
import Foundation
import Kinetics
import KineticsBench
import KineticsInput

/// `kinetics bench`: the per-frame cost of many concurrent animations.
struct Bench: ParsableCommand {
    /// The command's name: `bench` under `kinetics`, the program's own
    /// name where it is the program (a package's bench executable).
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: BenchSuite.isRunning ? programName : "bench",
            abstract: "Measure the per-frame cost of N concurrent animations; gate on a baseline.",
            discussion: """
                Every combination of the engines, counts, mixes, frame rates and scenarios given is measured: \
                warm-up frames, then --repetitions runs of --frames frames, each frame timed; allocations \
                are counted exactly over three more frames; a memory-streaming kernel over the same bytes \
                is timed in the same run, and p50 divided by it is the calibrated figure that baselines \
                compare. Exit status: 0 success, 2 a regression against --baseline, 64 usage error, \
                65 a malformed baseline or a frame past --frame-timeout, 66 a missing baseline, 69 no valgrind \
                for --count instructions, 73 an output that cannot be written.

                --engine-library PATH loads an engine from a shared library that exports the C interface \
                of kinetics_engine.h and measures it beside the built-in engines (docs/bench.md): 66 when \
                the file is missing, 65 when it is not such a library, speaks another interface version, \
                or its engine refuses the workload. Each library runs in a worker process of its own \
                (--in-process: in this one): a worker that crashes, exits, stalls or breaks off costs the \
                configuration it was measuring, reported with what happened, and the run goes on with a new \
                worker; every other result is written, then the exit status is 65.
                """
        )
    }

    @Option(name: .customLong("engine"), help: ArgumentHelp(Bench.engineHelp))
    var engines: [BenchEngine] = []

    /// The help of --engine, with the engines this program registered (a
    /// package's own bench executable, BenchSuite).
    static var engineHelp: String {
        let own = BenchEngine.registered.map(\.rawValue)
        return
            "Engines (repeatable): animator, batch, reference (Pop's frame in Swift), pop-c (Pop's frame in C), abi-null (the harness alone), animator-keys and animator-unkeyed (the animator with keys made once, or none), animator-springs (keys made once, springs added from their numbers), "
            + (own.isEmpty ? "" : "this program's own (\(own.joined(separator: ", "))), ")
            + "or a library's engine. Default: the first four, "
            + (own.isEmpty ? "" : "this program's own, ") + "and any library's engine with abi-null beside it."
    }
    @Option(
        name: .customLong("engine-library"),
        help: ArgumentHelp(
            "Also measure the engine of this shared library (the C interface of kinetics_engine.h; repeatable).",
            valueName: "path"))
    var libraries: [String] = []
    @OptionGroup var workers: WorkerOptions
    @OptionGroup var workload: WorkloadOptions
    @Option(
        help:
            "Spring method of the animator and the batch path: pop, fixed, rk4 or analytic (the Pop models, reference and pop-c, always step as Pop; an engine from a library or package has no method, and its rows show -)."
    )
    var method: SpringMethod = .pop
    @Option(
        parsing: .unconditional, help: "Repetitions, 7 … 1,000. Default: 7.",
        transform: OptionCheck.wholeNumber(in: 7 ... 1_000))
    var repetitions = 7
    @Option(
        parsing: .unconditional,
        help:
            "Measure every configuration this many times, the whole list in turn, and keep each one's median run by the calibrated figure (1 to 100): a baseline less at the mercy of one moment of a shared machine. Default: 1.",
        transform: OptionCheck.wholeNumber(in: 1 ... 100)
    )
    var runs = 1
    @Option(help: "Output: table, json, csv or markdown.")
    var format: ReportFormat = .table
    @Option(help: "Write the output to FILE instead of standard output.")
    var output: String?
    @Option(help: "Also write the results as a baseline to FILE.")
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
    @Option(
        help:
            "Also count what the measured frames execute: 'instructions' runs each configuration again under valgrind's callgrind (instructions, simulated cache misses, estimated cycles)."
    )
    var count: CountKind?
    @Option(
        parsing: .unconditional,
        help: "Percent more instructions per frame than --baseline's that counts as a regression (1), in [0, 1000].")
    var maxCountIncrease = 1.0
    @Option(
        help:
            "What --baseline compares: calibrated (times, and instruction counts where both runs counted them) or instructions (the counts alone, with --count instructions: exact, so a tight bound holds on a noisy machine)."
    )
    var compareBy: BaselineMeasure = .calibrated
    @Option(
        parsing: .unconditionalSingleValue,
        help: ArgumentHelp(
            "ENGINE.INTERACTION=N: with --count instructions, exit 2 when one interaction (retarget, replacement, add, completion: its scenario's frame less the steady frame, over the animations it touches) costs ENGINE more than N instructions (repeatable).",
            valueName: "engine.interaction=n"))
    var maxInstructions: [String] = []
    @Option(
        name: .customLong("max-instruction-ratio"), parsing: .unconditionalSingleValue,
        help: ArgumentHelp(
            "A/B=R: with --count instructions, exit 2 when engine A's instructions per frame are more than R times engine B's in a workload both ran (repeatable).",
            valueName: "a/b=r"))
    var maxInstructionRatios: [String] = []

    /// The ceilings of --max-instructions and the limits of --max-instruction-ratio.
    var instructionLimits: (ceilings: [InteractionCeiling], ratios: [InstructionRatioLimit]) {
        get throws {
            do {
                return (
                    try maxInstructions.map { text throws(BenchError) in try InteractionCeiling(parsing: text) },
                    try maxInstructionRatios.map { text throws(BenchError) in try InstructionRatioLimit(parsing: text) }
                )
            } catch {
                throw ValidationError(error.description)
            }
        }
    }
    @Flag(
        help:
            "Run a bench whose least time is past an hour (its animation frames at 1 ns each); without it, such a bench is refused before it starts."
    )
    var long = false
    @Flag(help: "Skip the bezier evaluation timings.")
    var noBezier = false
    @Flag(help: "Skip checking each engine's values against GSL (instruction counts run the measured frames only).")
    var noValueCheck = false

    init() {}

    func validate() throws {
        for engine in engines where !engine.isBuiltIn && libraries.isEmpty && !BenchEngine.registered.contains(engine) {
            throw ValidationError(
                "--engine must be one of \((BenchEngine.allCases + BenchEngine.namedOnly + BenchEngine.registered).map(\.rawValue).joined(separator: ", ")) or the engine of an --engine-library, got '\(engine)'"
            )
        }
        guard maxCountIncrease.isFinite, (0 ... 1_000).contains(maxCountIncrease) else {
            throw ValidationError("--max-count-increase must be a percentage in [0, 1000], got \(maxCountIncrease)")
        }
        _ = try regressionBounds
        let limits = try instructionLimits
        if count != .instructions {
            if compareBy == .instructions {
                throw ValidationError("--compare-by instructions needs --count instructions")
            }
            if !limits.ceilings.isEmpty || !limits.ratios.isEmpty {
                throw ValidationError("--max-instructions and --max-instruction-ratio need --count instructions")
            }
        }
    }

    /// Every configuration asked for, engines innermost so that each
    /// workload's engines are measured back to back; `loaded`, the engines
    /// of libraries and Swift packages, are measured by default.
    func configurations(loaded: [BenchEngine] = []) -> [BenchConfiguration] {
        // By default, the engines from elsewhere and, beside them, the
        // harness alone (abi-null): what it adds to their frames.
        let chosen = engines.isEmpty ? BenchEngine.allCases + loaded + (loaded.isEmpty ? [] : [.abiNull]) : engines
        return workload.configurations(
            engines: chosen, defaultCounts: [1_000, 10_000, 100_000], method: method, repetitions: repetitions
        ) { engine, scenario in Self.measures(engine, scenario, chosenByDefault: engines.isEmpty) }
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

    func run() throws {
        try checkWritable(output, saveBaseline)
        // A missing or malformed baseline is reported before anything is measured.
        var base: BenchReport?
        if let baseline {
            try checkReadable(baseline)
            do {
                base = try BaselineGate.load(baseline)
            } catch {
                switch error {
                case .missing: throw CLIError(message: error.description, status: .missingInput)
                case .malformed: throw CLIError(message: error.description, status: .badData)
                }
            }
        }
        let (loaded, inWorkers) = try loadLibraries()
        FrameWatchdog.start(timeout: workload.frameTimeout)
        let counter = count == .instructions ? try InstructionCounter(frameTimeout: workload.frameTimeout) : nil
        let bar = ProgressBar()
        let list = configurations(loaded: loaded)
        try checkDuration(list)
        let (results, failures) = try measureAll(list, counter: counter, inWorkers: inWorkers, bar: bar)
        let bezier = noBezier ? nil : BezierBench.measure()
        let bezierInstructions = noBezier ? nil : try counter?.countBezier()
        bar.finish()
        var report = BenchReport(kinetics: KineticsVersion.current, results: results, bezier: bezier)
        report.bezierInstructions = bezierInstructions
        let costs = InteractionCost.costs(report)
        report.interactionCosts = costs.isEmpty ? nil : costs
        report.failures = failures.isEmpty ? nil : failures
        try writeOutput(
            try format.text(report, table: BenchText.table, markdown: BenchText.markdown, csv: BenchText.csv),
            to: output)
        if let saveBaseline { try writeOutput(try jsonText(report, pretty: true) + "\n", to: saveBaseline) }
        var regressions = try limitRegressions(report)
        if let base { regressions += try baselineRegressions(report, base) }
        for regression in regressions { warnLine("regression: \(regression)") }
        if !regressions.isEmpty && failures.isEmpty {
            let against = baseline.map { " against \($0)" } ?? ""
            throw CLIError(
                message: "\(regressions.count) regression\(regressions.count == 1 ? "" : "s")\(against)",
                status: .regression)
        }
        if let first = failures.first {
            let more =
                failures.count > 1
                ? " (and \(failures.count - 1) more configuration\(failures.count > 2 ? "s" : ""))" : ""
            throw CLIError(message: first.sentence + more, status: .badData)
        }
    }
}

extension Bench {
    /// The longest bench run without ``long``, at its least time: an hour.
    static let longestUnasked = 3_600.0

    /// A warning when `list` takes at least a minute, and a refusal (64)
    /// past ``longestUnasked`` unless ``long`` is set: the least time of
    /// its animation frames (``BenchConfiguration/leastFrameCost``, 50
    /// times more under callgrind), ``runs`` times. Every engine is slower
    /// than that least, so the bench takes at least this long.
    func checkDuration(_ list: [BenchConfiguration]) throws {
        let frames = list.reduce(0) { $0 + $1.animationFrames } * Double(runs)
        let slowdown = count == .instructions ? 50.0 : 1
        let least = frames * BenchConfiguration.leastFrameCost * slowdown
        guard least >= 60 else { return }
        let estimate =
            "this bench runs \(String(format: "%.3g", frames)) animation frames, at least \(Self.duration(least)) at \(String(format: "%g", BenchConfiguration.leastFrameCost * 1e9)) ns each\(count == .instructions ? " and 50 times that under callgrind" : "")"
        guard least <= Self.longestUnasked || long else {
            throw CLIError.usage(
                "\(estimate), past the \(Self.duration(Self.longestUnasked)) a bench runs without --long (fewer --animations, --frames, --repetitions or --runs make it shorter)"
            )
        }
        warnLine("warning: \(estimate); real engines take many times longer")
    }

    /// `45 s`, `12 min`, `3.2 h`, `4.1 days`, `2.5 years`.
    static func duration(_ seconds: Double) -> String {
        switch seconds {
        case ..<120: String(format: "%.0f s", seconds)
        case ..<7_200: String(format: "%.0f min", seconds / 60)
        case ..<172_800: String(format: "%.1f h", seconds / 3_600)
        case ..<31_557_600: String(format: "%.1f days", seconds / 86_400)
        default: String(format: "%.3g years", seconds / 31_557_600)
        }
    }

    /// Every configuration of `list`, ``runs`` times in turn, each keeping
    /// its median run; the configurations whose worker died, apart.
    func measureAll(
        _ list: [BenchConfiguration], counter: InstructionCounter?, inWorkers: [BenchEngine: WorkerLibrary],
        bar: ProgressBar
    ) throws -> (results: [BenchResult], failures: [BenchFailure]) {
        // Each run measures the whole list in turn; a configuration keeps
        // its median run, by the calibrated figure (counts are exact: the
        // first run counts).
        var runs: [[BenchResult]] = Array(repeating: [], count: list.count)
        var failures: [BenchFailure] = []
        for run in 0 ..< self.runs {
            for (index, configuration) in list.enumerated() {
                bar.update("bench", run * list.count + index, self.runs * list.count)
                do {
                    let measured = try measure(
                        configuration, counter: run == 0 ? counter : nil, library: inWorkers[configuration.engine])
                    runs[index].append(measured)
                } catch let failure as BenchFailure {
                    // A configuration that fails again in a later run is listed once.
                    guard !failures.contains(where: { $0.configuration == failure.configuration }) else { continue }
                    failures.append(failure)
                    bar.finish()
                    let more = list[(index + 1)...].contains { $0.engine == configuration.engine }
                    warnLine(failure.sentence + (more ? "; its other configurations run in a new worker" : ""))
                } catch let error as BenchError {
                    bar.finish()
                    throw CLIError(message: error.description, status: .badData)
                } catch {
                    bar.finish()
                    throw error
                }
            }
        }
        let results = runs.compactMap { measured -> BenchResult? in
            guard
                var median = measured.sorted(by: { $0.calibrated < $1.calibrated }).dropFirst(measured.count / 2).first
            else { return nil }
            median.instructions = measured.first?.instructions
            return median
        }
        return (results, failures)
    }

    /// One run of `configuration`: in the worker of its library, if it has
    /// one, or here; counted by `counter` when given.
    ///
    /// - Throws: ``BenchFailure`` when the worker dies, ``BenchError`` when
    ///   the engine refuses the workload.
    func measure(_ configuration: BenchConfiguration, counter: InstructionCounter?, library: WorkerLibrary?) throws
        -> BenchResult
    {
        guard let library else {
            var result = try BenchRunner.measure(configuration, checkingValues: !noValueCheck)
            // Libraries in workers stay out of the counted run of another engine.
            result.instructions = try counter?.count(configuration, libraries: workers.inProcess ? libraries : [])
            return result
        }
        do {
            var result = try library.measure(configuration, checkingValues: !noValueCheck)
            result.instructions = try counter?.countInWorker(configuration, library: library.path)
            return result
        } catch let failure as WorkerFailure {
            throw BenchFailure(
                engine: configuration.engine.rawValue, library: library.path, what: failure.what,
                configuration: configuration)
        }
    }
}

/// What `--baseline` compares.
enum BaselineMeasure: String, ExpressibleByArgument, CaseIterable {
    case calibrated, instructions
}

extension Bench {
    /// The interactions over their --max-instructions ceilings and the
    /// workloads over a --max-instruction-ratio, each limit's counts said
    /// on stderr.
    func limitRegressions(_ report: BenchReport) throws -> [Regression] {
        let limits = try instructionLimits
        var found: [Regression] = []
        for ceiling in limits.ceilings { found += ceiling.violations(report.interactionCosts ?? []) }
        for ratio in limits.ratios {
            for line in ratio.lines(report) { warnLine(line) }
            found += ratio.violations(report)
        }
        return found
    }

    /// The comparison with the baseline `base`, said on stderr, and its
    /// regressions.
    func baselineRegressions(_ report: BenchReport, _ base: BenchReport) throws -> [Regression] {
        let bounds = try regressionBounds
        let byTimes = compareBy == .calibrated
        let compared =
            byTimes
            ? BaselineGate.comparisons(report, baseline: base, maxRegression: bounds.all, perScenario: bounds.scenarios)
                .map(\.description)
            : BaselineGate.countComparisons(report, baseline: base)
        let unmeasured = BaselineGate.unmeasured(report, baseline: base)
        guard !compared.isEmpty else {
            let what = byTimes ? "measured" : "counted (--compare-by instructions)"
            throw CLIError(
                message:
                    "nothing compared with \(baseline!): it holds \(listed(base.results.map(\.configuration.key))); this run \(what) \(listed(report.results.map(\.configuration.key)))",
                status: .badData)
        }
        warnLine(
            byTimes
                ? "compared with \(baseline!) (a saved baseline; for changes under 25% use kinetics gate):"
                : "compared with \(baseline!), instructions (at most \(String(format: "%g", maxCountIncrease))% more):")
        for comparison in compared { warnLine("  \(comparison)") }
        if !unmeasured.isEmpty {
            warnLine("not measured in this run, so not compared: \(listed(unmeasured, most: 20))")
        }
        return BaselineGate.regressions(
            report, baseline: base, maxRegression: bounds.all, perScenario: bounds.scenarios,
            maxCountIncrease: maxCountIncrease, comparingTimes: byTimes)
    }
}

/// `a; b; c and 9 more`: at most `most` of `keys`.
func listed(_ keys: [String], most: Int = 4) -> String {
    keys.count <= most
        ? keys.joined(separator: "; ") : keys.prefix(most).joined(separator: "; ") + " and \(keys.count - most) more"
}

/// Loads the engine library at `path` (under `label`, also prefixed to a
/// message, when given): exit 66 when nothing is there, 65 when it is no
/// usable engine library.
func loadEngineLibrary(_ path: String, as label: String? = nil) throws -> EngineLibrary {
    do {
        try InputFile.checkReadable(path)
    } catch {
        // Nothing there: the loader says so below, in its words.
        if !error.isMissing {
            throw CLIError(message: (label.map { "\($0): " } ?? "") + error.description, status: .missingInput)
        }
    }
    do {
        return try EngineLibrary.load(path, as: label)
    } catch {
        let message = label.map { "\($0): " } ?? ""
        switch error {
        case .missing: throw CLIError(message: message + error.description, status: .missingInput)
        case .unusable: throw CLIError(message: message + error.description, status: .badData)
        }
    }
}

extension Bench {
    /// Starts a worker for every --engine-library (with --in-process, loads
    /// each here instead), checks that each --engine names a built-in engine
    /// or one of theirs, and returns the engines from elsewhere (libraries
    /// and those a package registered, BenchSuite) and the libraries in
    /// workers by their engine.
    func loadLibraries() throws -> (engines: [BenchEngine], inWorkers: [BenchEngine: WorkerLibrary]) {
        var inWorkers: [BenchEngine: WorkerLibrary] = [:]
        var fromWorkers: [BenchEngine] = []
        // A library named twice is measured once, as in-process.
        var seen: Set<String> = []
        for path in libraries where seen.insert(path).inserted {
            guard !workers.inProcess else {
                _ = try loadEngineLibrary(path)
                continue
            }
            let library = try WorkerLibrary(path, frameTimeout: workload.frameTimeout, memory: workers.memory)
            let engine = library.engine
            if engine.isBuiltIn || BenchEngine.registered.contains(engine) || inWorkers[engine] != nil {
                let other = inWorkers[engine].map { "\($0.path)'s" } ?? "an engine of this program"
                throw CLIError(
                    message:
                        "\(path): its engine '\(engine)' has the name of \(other); each engine needs a name of its own",
                    status: .badData)
            }
            inWorkers[engine] = library
            fromWorkers.append(engine)
        }
        let loaded = BenchEngine.registered + fromWorkers
        for engine in engines where !engine.isBuiltIn && !loaded.contains(engine) {
            let names = (BenchEngine.allCases + loaded).map(\.rawValue).joined(separator: ", ")
            throw CLIError.usage("--engine must be one of \(names), got '\(engine)'")
        }
        return (loaded, inWorkers)
    }
}

/// An engine library measured in a worker process (``EngineWorker``), and
/// in a new one after a worker dies.
final class WorkerLibrary {
    let path: String
    let engine: BenchEngine
    private let frameTimeout: Double
    private let memory: Double
    private var worker: EngineWorker?

    /// Starts the first worker on the library at `path`.
    ///
    /// - Throws: ``CLIError`` for a library that is missing or does not
    ///   load (66, 65), or whose worker ends before it answers (65).
    init(_ path: String, frameTimeout: Double, memory: Double) throws {
        self.path = path
        self.frameTimeout = frameTimeout
        self.memory = memory
        let worker = try Self.start(path, frameTimeout: frameTimeout, memory: memory)
        engine = worker.engine
        self.worker = worker
    }

    /// `configuration` measured in the worker, started anew if the last one died.
    ///
    /// - Throws: ``WorkerFailure`` when the worker dies, stalls or breaks
    ///   off; ``CLIError`` when the engine refuses the workload.
    func measure(_ configuration: BenchConfiguration, checkingValues: Bool) throws -> BenchResult {
        let worker = try self.worker ?? Self.start(path, frameTimeout: frameTimeout, memory: memory)
        self.worker = worker
        do {
            return try worker.measure(configuration, checkingValues: checkingValues)
        } catch let failure as WorkerFailure {
            self.worker = nil
            throw failure
        }
    }

    private static func start(_ path: String, frameTimeout: Double, memory: Double) throws -> EngineWorker {
        do {
            return try EngineWorker(library: path, as: nil, frameTimeout: frameTimeout, memory: memory)
        } catch let failure as WorkerFailure {
            throw CLIError(message: "\(path): \(failure.what) while loading", status: .badData)
        }
    }
}

/// The formats of a report: a table for people, JSON, CSV, Markdown.
enum ReportFormat: String, ExpressibleByArgument, CaseIterable {
    case table, json, csv, markdown

    /// `report` in this format: through the renderers given for a table,
    /// Markdown and CSV; as JSON, indented, with a newline at the end.
    func text<Report: Encodable>(
        _ report: Report, table: (Report) -> String, markdown: (Report) -> String, csv: (Report) -> String
    ) throws -> String {
        switch self {
        case .table: table(report)
        case .markdown: markdown(report)
        case .csv: csv(report)
        case .json: try jsonText(report, pretty: true) + "\n"
        }
    }
}

extension BenchEngine: ExpressibleByArgument {}
extension SpringMethod: ExpressibleByArgument {}
extension DecayMethod: ExpressibleByArgument {}
extension BezierMethod: ExpressibleByArgument {}
extension BenchMix: ExpressibleByArgument {}
extension BenchScenario: ExpressibleByArgument {}
