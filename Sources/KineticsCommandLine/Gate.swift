import ArgumentParser
import Foundation
import KineticsBench
import KineticsInput

/// `kinetics gate`: two builds compared in paired rounds, with a verdict.
struct Gate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Compare two builds in paired rounds, in random order; exit 2 on a regression.",
        discussion: """
            --before PATH --after PATH: two builds of one C engine (kinetics_engine.h), each loaded in a \
            worker process of its own as `before` and `after` (--in-process: in this one), both bound to one \
            CPU on Linux. A worker that crashes, exits, stalls or breaks off ends the gate with the report \
            of what was decided before it and a line naming the side, what happened, the configuration and \
            the round; one that allocates past --worker-memory ends likewise. Each round makes each engine afresh for every configuration \
            of the workload options, runs its warm-up frames and times its measured frames; the round's \
            time is their median. --before-command CMD --after-command CMD: any two programs that print \
            a `kinetics bench --format json` document (run with /bin/sh -c); a round runs each once and \
            compares the p50 of every configuration they share.

            The order within a round is random. After 20 rounds, and each time the rounds have grown by \
            a quarter, every configuration still open is looked at: the change is the Hodges–Lehmann \
            estimate of after/before with the interval of Wilcoxon's signed-rank test, the k-th look's at \
            1 − (1 − --confidence)·6/(π²k²), so that all the looks together hold at --confidence. A \
            verdict stands when two looks in a row reach it; \
            `regression` when the interval lies above no change and the estimate above --min-effect, \
            `improvement` the other way, `unchanged` when the interval lies within ±--min-effect. \
            Configurations still open when --max-seconds have passed are `inconclusive`.

            Exit status: 0 no regression (inconclusive ones are named on stderr), 2 a regression (or an \
            inconclusive one with --fail-inconclusive), 64 usage error, 65 a build that crashes, fails, refuses \
            the workload, prints no bench document or one whose configurations do not match, or a frame \
            past --frame-timeout, 66 a missing library, 73 an output that cannot be written.
            """
    )

    @Option(help: ArgumentHelp("The build to compare against: a shared library.", valueName: "path"))
    var before: String?
    @Option(help: ArgumentHelp("The build under test: a shared library.", valueName: "path"))
    var after: String?
    @Option(
        help: ArgumentHelp(
            "The build to compare against: a command that prints a bench JSON document.", valueName: "cmd"))
    var beforeCommand: String?
    @Option(help: ArgumentHelp("The build under test: a command that prints a bench JSON document.", valueName: "cmd"))
    var afterCommand: String?
    @OptionGroup var workload: WorkloadOptions
    @Option(parsing: .unconditional, help: "The confidence of the intervals, in (0, 1).")
    var confidence = 0.99
    @Option(parsing: .unconditional, help: "The smallest change that counts, in percent, in [0, 100).")
    var minEffect = 2.0
    @Option(
        name: .customLong("max-seconds"), parsing: .unconditional,
        help:
            "The time for the whole comparison, in seconds, in (0, 86400]. Default: 60 for libraries; for commands, 1,000 rounds at the first round's time, from 60 to 1,800."
    )
    var givenMaxSeconds: Double?

    /// The budget of two libraries unless --max-seconds is given.
    static let libraryBudget = 60.0

    /// The rounds the commands' default budget holds: identical builds of
    /// the Swift example decided within 25 to 425 rounds (15 runs, docs/ci.md).
    static let commandBudgetRounds = 1_000.0

    /// The budget of two commands, unless --max-seconds is given, after a
    /// first round of `roundSeconds`.
    static func commandBudget(roundSeconds: Double) -> Double {
        min(max(commandBudgetRounds * roundSeconds, 60), 1_800)
    }
    @Option(
        parsing: .unconditional,
        help: "Seconds one run of a command may take before it is ended (exit 65), in (0, 86400].")
    var commandTimeout = 600.0
    @Option(
        help:
            "Count instead of timing: 'instructions' runs each build once per configuration under valgrind's callgrind (libraries), or reads the counts of each command's document (run them with --count instructions)."
    )
    var count: CountKind?
    @Option(
        parsing: .unconditional,
        help: "With --count: the percent change in instructions per frame that counts, in (0, 1000] (1).")
    var maxCountIncrease = 1.0
    @OptionGroup var workers: WorkerOptions
    @Option(
        help: ArgumentHelp(
            "Load this side alone in this process, the other in a worker: to measure what a worker moves.",
            valueName: "before|after"))
    var inProcessSide: GateSide?
    @Flag(help: "Exit 2 when a configuration is inconclusive.")
    var failInconclusive = false
    @Flag(help: "Do not check each build's values against GSL (nor fail when after's error grows).")
    var noValueCheck = false
    @Option(help: "Output: table, json, csv or markdown.")
    var format: ReportFormat = .table
    @Option(help: "Write the output to FILE instead of standard output.")
    var output: String?

    init() {}

    func validate() throws {
        let libraries = before != nil || after != nil
        let commands = beforeCommand != nil || afterCommand != nil
        guard libraries != commands else {
            throw ValidationError(
                "give --before and --after (two engine libraries) or --before-command and --after-command (two commands)"
                    + (libraries ? ", not both" : "")
            )
        }
        if libraries && (before == nil || after == nil) {
            throw ValidationError("--before and --after go together: give both libraries")
        }
        if commands && (beforeCommand == nil || afterCommand == nil) {
            throw ValidationError("--before-command and --after-command go together: give both commands")
        }
        if (workers.inProcess || inProcessSide != nil || workers.workerMemory != nil) && !libraries {
            throw ValidationError(
                "--in-process, --in-process-side and --worker-memory are for --before/--after libraries")
        }
        if workers.inProcess && inProcessSide != nil {
            throw ValidationError("--in-process loads both sides in this process; --in-process-side only one: give one")
        }
        if commands && workload.isGiven {
            throw ValidationError(
                "the workload options (\(workload.given.joined(separator: ", "))) are for --before/--after; a command measures what its own arguments say"
            )
        }
        guard confidence.isFinite, confidence > 0, confidence < 1 else {
            throw ValidationError("--confidence must be a number in (0, 1), got \(confidence)")
        }
        guard minEffect.isFinite, minEffect >= 0, minEffect < 100 else {
            throw ValidationError("--min-effect must be a percentage in [0, 100), got \(minEffect)")
        }
        if let maxSeconds = givenMaxSeconds, !(maxSeconds.isFinite && maxSeconds > 0 && maxSeconds <= 86_400) {
            throw ValidationError("--max-seconds must be a number of seconds in (0, 86400], got \(maxSeconds)")
        }
        guard maxCountIncrease.isFinite, maxCountIncrease > 0, maxCountIncrease <= 1_000 else {
            throw ValidationError(
                "--max-count-increase must be a percentage in (0, 1000], got \(maxCountIncrease)")
        }
        guard commandTimeout.isFinite, commandTimeout > 0, commandTimeout <= 86_400 else {
            throw ValidationError(
                "--command-timeout must be a number of seconds in (0, 86400], got \(commandTimeout)")
        }
    }

    func run() throws {
        try checkWritable(output)
        let start = Date()
        let results: [GateResult]
        var report: GateReport
        var failure: GateFailure?
        if let before, let after {
            var exchange: Double?
            if count == nil {
                let compared = try compareLibraries(before, after, start: start)
                (results, failure, exchange) = (compared.results, compared.failure, compared.exchange)
            } else {
                results = try countLibraries(before, after)
            }
            report = makeReport("library", before, after, results, start, budget: maxSeconds)
            report.failure = failure
            report.inProcess = inProcessSides.map(\.rawValue)
            report.workerExchange = exchange
        } else if let beforeCommand, let afterCommand {
            var budget = maxSeconds
            if count == nil {
                (results, budget) = try compareCommands(beforeCommand, afterCommand, start: start)
            } else {
                results = try countCommands(beforeCommand, afterCommand)
            }
            report = makeReport("command", beforeCommand, afterCommand, results, start, budget: budget)
        } else {
            preconditionFailure("validate() lets one pair through")
        }
        try writeOutput(
            try format.text(report, table: GateText.table, markdown: GateText.markdown, csv: GateText.csv), to: output)
        if let failure {
            throw CLIError(message: failure.sentence, status: .badData)
        }
        for result in report.results(.inconclusive) {
            warnLine(
                "inconclusive: \(result.configuration): \(describe(result)) when the \(String(format: "%.0f", report.maxSeconds)) s of --max-seconds ran out; more time gives more rounds"
            )
        }
        let regressions = report.results(.regression)
        for result in regressions { warnLine("regression: \(result.configuration): \(describe(result))") }
        for result in report.valueRegressions {
            let after = result.afterValueError!
            let why =
                after.isFinite
                ? "more than 1.1 × before's + 1e-12: after computes something else"
                : "not a finite number: after's values are not numbers or overflow"
            warnLine(
                "regression: \(result.configuration): after's value error \(scientific(after)) against before's \(scientific(result.beforeValueError!)), \(why)"
            )
        }
        let failed = regressions.count + report.valueRegressions.count
        if failed > 0 {
            throw CLIError(
                message: "\(failed) regression\(failed == 1 ? "" : "s") of after against before",
                status: .regression)
        }
        if failInconclusive && !report.results(.inconclusive).isEmpty {
            throw CLIError(
                message: "\(report.results(.inconclusive).count) inconclusive (--fail-inconclusive)",
                status: .regression)
        }
    }

    /// `change +5.0% (+4.1% … +5.8% at 99.39%) over 22 rounds`, or
    /// `instructions per frame 33117.0 → 33450.0 (+1.01%)`.
    private func describe(_ result: GateResult) -> String {
        if let counts = result.instructions {
            return String(
                format: "instructions per frame %.1f → %.1f (%+.2f%%, %g%% counts)", counts.before.instructionsPerFrame,
                counts.after.instructionsPerFrame, counts.change, counts.threshold)
        }
        guard let comparison = result.comparison else { return "nothing measured" }
        return
            "change \(GateText.change(comparison.ratio)) (\(GateText.interval(comparison)) at \(GateText.percent(comparison.confidence))) over \(comparison.rounds) rounds"
    }

    /// The time for the whole comparison: --max-seconds, or the libraries'
    /// default (the commands' is set after their first round).
    var maxSeconds: Double { givenMaxSeconds ?? Self.libraryBudget }

    private func makeReport(
        _ mode: String, _ before: String, _ after: String, _ results: [GateResult], _ start: Date, budget: Double
    ) -> GateReport {
        GateReport(
            kinetics: KineticsVersion.current, mode: mode, counted: count != nil, before: before, after: after,
            confidence: confidence,
            minimumEffect: minEffect / 100, maxSeconds: budget, seconds: Date().timeIntervalSince(start),
            results: results)
    }

    private func newComparison(_ name: String) -> SequentialComparison {
        SequentialComparison(name: name, confidence: confidence, minimumEffect: minEffect / 100)
    }
}

// MARK: - Two libraries

extension Gate {
    /// What comparing two libraries gave.
    struct LibraryComparison {
        /// Each configuration's outcome, up to a worker's failure.
        var results: [GateResult]
        /// The worker that ended the run, where one did.
        var failure: GateFailure?
        /// The median exchange per round with the workers, in nanoseconds
        /// (nil without workers).
        var exchange: Double?
    }

    /// The libraries as `before` and `after`, every configuration in turn,
    /// each given an equal share of the time left.
    func compareLibraries(_ beforePath: String, _ afterPath: String, start: Date) throws -> LibraryComparison {
        let paths = [beforePath, afterPath]
        let names = GateSide.allCases.map(\.rawValue)
        // Both sides on one CPU (CPUBinding): the workers, and this thread
        // when it measures a side itself.
        let cpu = inProcessSides.count == 2 ? nil : CPUBinding.current
        if let cpu, !inProcessSides.isEmpty { CPUBinding.bind(to: cpu) }
        let builds: [any GateBuild] = try GateSide.allCases.enumerated().map { side, name in
            if inProcessSides.contains(name) {
                _ = try loadEngineLibrary(paths[side], as: name.rawValue)
                FrameWatchdog.start(timeout: workload.frameTimeout)
                return InProcessBuild()
            }
            do {
                return try EngineWorker(
                    library: paths[side], as: name.rawValue, frameTimeout: workload.frameTimeout,
                    memory: workers.memory, cpu: cpu)
            } catch let failure as WorkerFailure {
                throw CLIError(
                    message: "\(name) (\(paths[side])): \(failure.what) while loading", status: .badData)
            }
        }
        let sides = names.map { BenchEngine(rawValue: $0)! }
        let configurations = workload.configurations(
            engines: [sides[0]], defaultCounts: [10_000], method: .pop, repetitions: 1)
        let bar = ProgressBar()
        defer { bar.finish() }
        var results: [GateResult] = []
        for (index, configuration) in configurations.enumerated() {
            let name = Self.name(configuration)
            let measured = sides.map { engine in
                var side = configuration
                side.engine = engine
                return side
            }
            func crashed(_ side: Int, _ failure: WorkerFailure, during: String) -> LibraryComparison {
                LibraryComparison(
                    results: results,
                    failure: GateFailure(
                        side: names[side], build: paths[side], what: failure.what, configuration: name, during: during),
                    exchange: Self.medianExchange(builds))
            }
            let left = maxSeconds - Date().timeIntervalSince(start)
            let deadline = Date().addingTimeInterval(left / Double(configurations.count - index))
            var comparison = newComparison(name)
            repeat {
                bar.update("gate", index, configurations.count)
                var times = [0.0, 0.0]
                for side in Bool.random() ? [0, 1] : [1, 0] {
                    do {
                        times[side] = try builds[side].sample(measured[side])
                    } catch let failure as WorkerFailure {
                        return crashed(side, failure, during: "round \(comparison.before.count + 1)")
                    } catch {
                        throw CLIError(
                            message: "\(names[side]) (\(paths[side])): \(Self.reason(error))", status: .badData)
                    }
                }
                if comparison.add(before: times[0], after: times[1]) { break }
            } while Date() < deadline
            var result = comparison.result
            if !noValueCheck {
                var errors: [Double?] = []
                for side in builds.indices {
                    do {
                        errors.append(try builds[side].valueError(measured[side]))
                    } catch let failure as WorkerFailure {
                        return crashed(side, failure, during: "the value check")
                    } catch {
                        throw CLIError(message: "\(names[side]): \(Self.reason(error))", status: .badData)
                    }
                }
                (result.beforeValueError, result.afterValueError) = (errors[0], errors[1])
            }
            results.append(result)
        }
        return LibraryComparison(results: results, exchange: Self.medianExchange(builds))
    }

    /// The median exchange per round with the workers among `builds`, in
    /// nanoseconds; nil when none is a worker or none measured a round.
    private static func medianExchange(_ builds: [any GateBuild]) -> Double? {
        let exchanges = builds.compactMap { $0 as? EngineWorker }.flatMap(\.exchanges).sorted()
        guard !exchanges.isEmpty else { return nil }
        let middle = exchanges.count / 2
        return exchanges.count % 2 == 1 ? exchanges[middle] : (exchanges[middle - 1] + exchanges[middle]) / 2
    }

    /// What an error says, without the worker's or the bench's framing.
    private static func reason(_ error: any Error) -> String {
        switch error {
        case let error as CLIError: error.message
        case let error as BenchError: error.description
        default: "\(error)"
        }
    }
}

/// A side of the gate.
enum GateSide: String, CaseIterable, ExpressibleByArgument {
    case before, after
}

extension Gate {
    /// The sides loaded in this process (`--in-process`, `--in-process-side`).
    var inProcessSides: [GateSide] {
        workers.inProcess ? GateSide.allCases : inProcessSide.map { [$0] } ?? []
    }
}

/// A build as the gate measures it: in a worker process (``EngineWorker``)
/// or in this one.
protocol GateBuild {
    /// One round of `configuration`: its median frame, in nanoseconds.
    func sample(_ configuration: BenchConfiguration) throws -> Double
    /// The value check of `configuration`.
    func valueError(_ configuration: BenchConfiguration) throws -> Double?
}

extension EngineWorker: GateBuild {}

/// A library loaded in this process (`--in-process`): each configuration's
/// ``RoundSampler`` kept from round to round, as a worker keeps it.
final class InProcessBuild: GateBuild {
    private var samplers: [BenchConfiguration: RoundSampler] = [:]

    func sample(_ configuration: BenchConfiguration) throws -> Double {
        let sampler = samplers[configuration] ?? RoundSampler(configuration)
        samplers[configuration] = sampler
        return try sampler.sample()
    }

    func valueError(_ configuration: BenchConfiguration) throws -> Double? {
        try BenchRunner.checkValues(configuration)?.error
    }
}

// MARK: - Counted

extension Gate {
    /// Each library's engine counted once per configuration under
    /// callgrind, and the counts compared.
    func countLibraries(_ beforePath: String, _ afterPath: String) throws -> [GateResult] {
        let paths = [beforePath, afterPath]
        let sides = GateSide.allCases
        // In-process, each library is loaded here for its engine's name
        // and counted in a copy of this program; otherwise each is counted
        // in a worker of its own under callgrind, its engine named by its side.
        let engines = try sides.indices.map { side in
            try inProcessSides.contains(sides[side])
                ? loadEngineLibrary(paths[side], as: sides[side].rawValue).tableName : sides[side].rawValue
        }
        let counter = try InstructionCounter(frameTimeout: workload.frameTimeout)
        // Seven repetitions of the measured frames, as `kinetics bench` runs them.
        let configurations = workload.configurations(
            engines: [BenchEngine(rawValue: engines[0])!], defaultCounts: [10_000], method: .pop, repetitions: 7)
        let bar = ProgressBar()
        defer { bar.finish() }
        return try configurations.enumerated().map { index, configuration in
            bar.update("gate", index, configurations.count)
            let counts = try sides.indices.map { side in
                var measured = configuration
                measured.engine = BenchEngine(rawValue: engines[side])!
                guard !inProcessSides.contains(sides[side]) else {
                    return try counter.count(measured, libraries: [paths[side]])
                }
                do {
                    return try counter.countInWorker(measured, library: paths[side], as: sides[side].rawValue)
                } catch let failure as WorkerFailure {
                    throw CLIError(
                        message:
                            "\(sides[side]) (\(paths[side])): \(failure.what) counting \(Self.name(configuration)) under callgrind",
                        status: .badData)
                }
            }
            return GateResult(
                configuration: Self.name(configuration),
                instructions: InstructionComparison(before: counts[0], after: counts[1], threshold: maxCountIncrease))
        }
    }

    /// Each command run once (counts repeat), and the counts of every
    /// configuration both documents hold compared.
    func countCommands(_ beforeCommand: String, _ afterCommand: String) throws -> [GateResult] {
        let documents = try [(beforeCommand, "before"), (afterCommand, "after")].map { command, side in
            let measured = try measurements(of: command, side: side)
            return try measured.map { item in
                guard let counts = item.instructions else {
                    throw CLIError(
                        message:
                            "\(side) (\(command)): \(item.key) has no instruction counts; run the command with --count instructions",
                        status: .badData)
                }
                return (item.key, counts)
            }
        }
        let before = Dictionary(documents[0], uniquingKeysWith: { first, _ in first })
        let after = Dictionary(documents[1], uniquingKeysWith: { first, _ in first })
        try checkMatch(before.mapValues(\.instructionsPerFrame), after.mapValues(\.instructionsPerFrame))
        return documents[0].map { key, counts in
            GateResult(
                configuration: key,
                instructions: InstructionComparison(before: counts, after: after[key]!, threshold: maxCountIncrease))
        }
    }

    /// `10000 spring steady 60 Hz`: a configuration without engine and method.
    static func name(_ configuration: BenchConfiguration) -> String {
        "\(configuration.animations) \(configuration.mix.rawValue) \(configuration.scenario.rawValue) \(String(format: "%g", configuration.fps)) Hz"
    }
}

// MARK: - Two commands

extension Gate {
    /// Runs the commands in turn, round after round, until every
    /// configuration they share is decided or the time is up.
    func compareCommands(_ beforeCommand: String, _ afterCommand: String, start: Date) throws -> (
        results: [GateResult], budget: Double
    ) {
        var budget = maxSeconds
        var deadline = start.addingTimeInterval(budget)
        var names: [String] = []
        var comparisons: [String: SequentialComparison] = [:]
        // The first round's: an engine's values do not change from run to run.
        var valueErrors: [String: [Double?]] = [:]
        let bar = ProgressBar()
        defer { bar.finish() }
        repeat {
            var reports: [[String: Double]] = [[:], [:]]
            var firstOrder: [String] = []
            for side in Bool.random() ? [0, 1] : [1, 0] {
                let measured = try measurements(
                    of: side == 0 ? beforeCommand : afterCommand, side: side == 0 ? "before" : "after")
                reports[side] = Dictionary(measured.map { ($0.key, $0.p50) }, uniquingKeysWith: { first, _ in first })
                if side == 0 { firstOrder = measured.map(\.key) }
                if names.isEmpty {
                    for item in measured { valueErrors[item.key, default: [nil, nil]][side] = item.valueError }
                }
            }
            if names.isEmpty {
                try checkMatch(reports[0], reports[1])
                names = firstOrder
                for name in names { comparisons[name] = newComparison(name) }
                if givenMaxSeconds == nil {
                    // Room for the rounds identical builds take to decide, at this round's pace.
                    budget = Self.commandBudget(roundSeconds: Date().timeIntervalSince(start))
                    deadline = start.addingTimeInterval(budget)
                    warnLine(
                        String(
                            format:
                                "gate: %.0f s for the comparison (%.0f rounds at the first round's %.2f s; --max-seconds sets it)",
                            budget, Self.commandBudgetRounds, Date().timeIntervalSince(start)))
                }
            } else {
                for (side, report) in reports.enumerated() where Set(report.keys) != Set(names) {
                    throw CLIError(
                        message:
                            "\(side == 0 ? "before" : "after"): its configurations changed between rounds (now \(report.keys.sorted().joined(separator: "; ")))",
                        status: .badData)
                }
            }
            var open = 0
            for name in names where !comparisons[name]!.add(before: reports[0][name]!, after: reports[1][name]!) {
                open += 1
            }
            bar.update("gate", names.count - open, names.count)
            if open == 0 { break }
        } while Date() < deadline
        let results = names.map { name in
            var result = comparisons[name]!.result
            if !noValueCheck, let errors = valueErrors[name] {
                (result.beforeValueError, result.afterValueError) = (errors[0], errors[1])
            }
            return result
        }
        return (results, budget)
    }

    /// Both commands measured the same configurations, or a 65 naming the difference.
    private func checkMatch(_ before: [String: Double], _ after: [String: Double]) throws {
        let onlyBefore = Set(before.keys).subtracting(after.keys).sorted()
        let onlyAfter = Set(after.keys).subtracting(before.keys).sorted()
        guard onlyBefore.isEmpty && onlyAfter.isEmpty else {
            var parts: [String] = []
            if !onlyBefore.isEmpty { parts.append("only before measured \(onlyBefore.joined(separator: "; "))") }
            if !onlyAfter.isEmpty { parts.append("only after measured \(onlyAfter.joined(separator: "; "))") }
            throw CLIError(
                message: "the commands' configurations do not match: \(parts.joined(separator: ", "))",
                status: .badData)
        }
    }

    /// Runs `command` and reads its bench document: each configuration's
    /// key, p50 in nanoseconds and value error, in the document's order.
    private func measurements(of command: String, side: String) throws -> [(
        key: String, p50: Double, valueError: Double?, instructions: InstructionCount?
    )] {
        let run = try runProgram("/bin/sh", ["-c", command], timeout: commandTimeout)
        func fail(_ why: String) -> CLIError {
            CLIError(message: "\(side) (\(command)): \(why)", status: .badData)
        }
        if run.timedOut {
            throw fail("still running after \(String(format: "%g", commandTimeout)) s (--command-timeout); ended")
        }
        guard run.status == 0 else {
            let last = run.stderr.split(whereSeparator: \.isNewline).last.map(String.init) ?? "no message"
            throw fail("exited with status \(run.status): \(last)")
        }
        let report: BenchReport
        do {
            report = try BaselineGate.baseline(from: run.stdout, name: "its output")
        } catch {
            throw fail("printed no kinetics bench JSON document (\(error.description)); run it with --format json")
        }
        guard !report.results.isEmpty else { throw fail("its bench document has no results") }
        return try report.results.map { result in
            guard result.p50.isFinite, result.p50 > 0 else {
                throw fail("\(result.configuration.key): p50 \(result.p50) is not a positive time")
            }
            return (result.configuration.key, result.p50, result.valueCheck?.error, result.instructions)
        }
    }
}
