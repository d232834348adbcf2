import ArgumentParser
import Foundation
import KineticsReport
import KineticsVerify

/// `kinetics verify`: every solver and mode against GSL over parameter grids.
struct Verify: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check every solver and mode against GSL over parameter grids.",
        discussion: """
            Errors are normalised: springs by the motion's amplitude, decays by the total throw, \
            beziers by max(1, |y1|, |y2|). Pop-compatible modes (spring pop and fixed's accuracy, \
            decay pop, bezier webkit) are reported, not checked. Tolerance names: \
            \(Tolerances.defaults.map(\.name).joined(separator: ", ")).
            Exit status: 0 every tolerance holds, 1 a tolerance failed (the failing rows are listed \
            on stderr), 64 usage error, 73 the output cannot be written.

            An outside engine runs the same grids through --engine-command (the line protocol of \
            docs/engines.md), through --engine-library (a shared library with the C interface of \
            kinetics_engine.h, each batch of cases answered in a worker process of its own: a crash is \
            reported with the case that ends a worker alone, found by halving the batch; --in-process \
            loads it in this one), or through --export-cases and --results for an engine that cannot be \
            started as a process; --tolerance engine=VALUE gates it. Engine faults: 65 a bad answer, a \
            crash or a hang (the answers read until then are reported), or a file that is no engine \
            library; 66 the command, library or results file is missing; 69 the command cannot be \
            executed.
            """,
        subcommands: [Serve.self, Merge.self]
    )

    enum SuiteChoice: String, ExpressibleByArgument, CaseIterable {
        case spring, decay, bezier, conversions, all
    }

    /// A verification report's formats: a bench's, and an HTML page.
    enum VerificationFormat: String, ExpressibleByArgument, CaseIterable {
        case table, json, csv, markdown, html
    }

    @Option(name: .customLong("suite"), help: "Suite to run (repeatable; default all).")
    var suiteChoices: [SuiteChoice] = []

    /// The suites chosen, in the order of `VerificationSuite`; an engine has
    /// no conversions suite, so `all` means spring, decay and bezier there.
    func suites(engine: Bool) -> [VerificationSuite] {
        let all = engine ? [VerificationSuite.spring, .decay, .bezier] : VerificationSuite.allCases
        if suiteChoices.isEmpty || suiteChoices.contains(.all) { return all }
        return VerificationSuite.allCases.filter { suite in suiteChoices.contains { $0.rawValue == suite.rawValue } }
    }
    @Option(help: "Grid: quick (seconds) or full (10,000 springs; minutes).")
    var grid: VerificationGrid = .quick
    @Option(
        name: .customLong("method"),
        help: "Keep only these methods (repeatable): \(VerificationRequest.methodNames.joined(separator: ", ")).")
    var methods: [String] = []
    @Option(name: .customLong("tolerance"), help: "Override a tolerance: NAME=VALUE (repeatable).")
    var tolerances: [String] = []
    @OptionGroup var destination: ReportDestination
    @Option(
        help: "Worker threads, 1 … 1024 (default: the number of cores).",
        transform: OptionCheck.wholeNumber(in: 1 ... 1024))
    var jobs: Int = ProcessInfo.processInfo.activeProcessorCount
    @OptionGroup var engine: EngineOptions
    @OptionGroup var workers: WorkerOptions
    @Option(
        help: ArgumentHelp(
            "Run only part i of n of the grid (each spring, decay and curve in one part); kinetics verify merge joins them.",
            valueName: "i/n"))
    var shard: String?
    @Flag(help: "Print every tolerance, its default and its reason (a Markdown table), and stop.")
    var listTolerances = false

    /// The tolerance table: the one place the documentation takes it from.
    static var toleranceTable: String {
        var lines = ["| name | default | why |", "| --- | --- | --- |"]
        for tolerance in Tolerances.defaults {
            lines.append("| `\(tolerance.name)` | \(String(format: "%g", tolerance.value)) | \(tolerance.reason) |")
        }
        for gate in Tolerances.engineGates {
            lines.append("| `\(gate.name)` | none | \(gate.reason) |")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    func validate() throws {
        for method in methods where !VerificationRequest.methodNames.contains(method) {
            throw ValidationError(
                "--method must be one of \(VerificationRequest.methodNames.joined(separator: ", ")), got '\(method)'")
        }
        _ = try makeTolerances()
        try engine.validate(methods: methods, suites: suiteChoices)
        if engine.engineLibrary == nil && (workers.inProcess || workers.workerMemory != nil) {
            throw ValidationError("--in-process and --worker-memory apply to --engine-library")
        }
        _ = try part()
    }

    /// The shard asked for, if any.
    func part() throws -> VerificationShard? {
        do {
            return try shard.map { text throws(VerificationError) in try VerificationShard(text) }
        } catch {
            throw ValidationError(error.description)
        }
    }

    func makeTolerances() throws -> Tolerances {
        do {
            var overrides: [String: Double] = [:]
            for text in tolerances {
                let (name, value) = try Tolerances.parse(text)
                overrides[name] = value
            }
            return try Tolerances(overrides: overrides)
        } catch {
            throw ValidationError(error.description)
        }
    }

    func run() throws {
        if listTolerances {
            try writeStandardOutput(Self.toleranceTable)
            return
        }
        try checkWritable(destination.output)
        if engine.isUsed {
            try runEngine()
            return
        }
        var request = VerificationRequest(
            suites: suites(engine: false), grid: grid, methods: Set(methods), tolerances: try makeTolerances(),
            jobs: jobs, shard: try part())
        #if DEBUG
            // The test hook that shows a check can fail (see InjectedFault);
            // release builds have no such variable.
            if let text = ProcessInfo.processInfo.environment["KINETICS_TEST_FAULT"] {
                guard let fault = InjectedFault(text) else {
                    throw ValidationError(
                        "KINETICS_TEST_FAULT must be suite:method:case:nan or suite:method:case:OFFSET, got '\(text)'")
                }
                request.fault = fault
            }
        #endif
        let bar = ProgressBar()
        let report: VerificationReport
        do {
            report = try Verifier.run(request) { suite, done, total in bar.update(suite, done, total) }
        } catch let error as VerificationError {
            bar.finish()
            if case .usage(let message) = error { throw CLIError.usage(message) }
            throw CLIError(message: error.description, status: .checkFailed)
        }
        bar.finish()
        try destination.write(report)
    }
}

/// Where a verification report goes, and in which format.
struct ReportDestination: ParsableArguments {
    @Option(help: "Output: table, json, csv, markdown or html (a page with the table and the plot of every case).")
    var format: Verify.VerificationFormat = .table
    @Option(help: "Write the output to FILE instead of standard output.")
    var output: String?

    /// The report in the chosen format.
    func text(_ report: VerificationReport) throws -> String {
        switch format {
        case .table: VerificationText.table(report)
        case .markdown: VerificationText.markdown(report)
        case .csv: VerificationText.csv(report)
        case .json: String(decoding: try report.json(pretty: false), as: UTF8.self) + "\n"
        case .html: QuickReport.html(report)
        }
    }

    /// Writes the report; then an engine fault exits 65 (66 or 69 for a
    /// command that is missing or cannot run), failed checks exit 1, each
    /// listed on stderr.
    func write(_ report: VerificationReport) throws {
        try writeOutput(try text(report), to: output)
        if let fault = report.fault {
            throw CLIError(message: fault.message, status: Self.status(of: fault))
        }
        for failure in report.failures {
            warnLine("check failed: \(VerificationText.describe(failure))")
        }
        if !report.passed {
            throw CLIError(
                message: VerificationText.failedChecks(report) + " failed",
                status: .checkFailed)
        }
    }

    static func status(of fault: EngineFault) -> ExitStatus {
        switch fault.kind {
        case .notFound: .missingInput
        case .notExecutable: .unavailable
        case .ended, .timedOut, .badAnswer, .refused, .threw: .badData
        }
    }
}

extension VerificationGrid: ExpressibleByArgument {}
