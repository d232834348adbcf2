import ArgumentParser
import Foundation
import Kinetics
import KineticsBench
import KineticsInput
import KineticsVerify

/// The options that verify an outside engine instead of Kinetics' own methods.
struct EngineOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Verify the engine this shell command starts (the line protocol of docs/engines.md).",
            valueName: "command"))
    var engineCommand: String?
    @Option(
        help: ArgumentHelp(
            "Verify the engine in this shared library (the C interface of kinetics_engine.h, as bench --engine-library loads).",
            valueName: "path"))
    var engineLibrary: String?
    @Option(help: "The engine's name in the report (default: a library's table name, otherwise 'engine').")
    var engineName: String?
    @Option(help: "Seconds an engine may go without reading a case or giving an answer before it is stopped.")
    var caseTimeout: Double = 60
    @Option(
        help: ArgumentHelp(
            "Write the cases an engine is asked, one JSON line each, to FILE and stop.", valueName: "file"))
    var exportCases: String?
    @Option(
        help: ArgumentHelp("Verify an engine's recorded answers (JSON lines) to the exported cases.", valueName: "file")
    )
    var results: String?
    @Flag(
        inversion: .prefixedNo,
        help: ArgumentHelp(
            "Name the scheme of each 60 Hz trace with the candidates of kinetics compare, a few hundred replays a trace (--no-schemes: skip it and leave the scheme rows out)."
        ))
    var schemes = true
    @Option(
        name: .customLong("only-fps"), parsing: .singleValue,
        help:
            "Region: ask the engine its springs and decays at this frame rate only (repeatable; 30, 60, 90, 120, 144 or 240)."
    )
    var onlyRates: [Double] = []
    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("Region: only springs whose damping ratio ζ is in [LOW, HIGH].", valueName: "LOW:HIGH"))
    var dampingRatio: String?
    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Region: only springs whose natural frequency ω₀ (rad/s) is in [LOW, HIGH].", valueName: "LOW:HIGH"))
    var naturalFrequency: String?
    @Option(
        help: ArgumentHelp(
            "Region: only the springs this scheme of kinetics compare (as the scheme rows name it) steps stably at each frame rate.",
            valueName: "scheme"))
    var stableUnder: String?

    /// The region asked for, nil for the whole grid.
    ///
    /// - Throws: `ValidationError` for a value out of its range.
    func region() throws -> VerificationRegion? {
        guard !onlyRates.isEmpty || dampingRatio != nil || naturalFrequency != nil || stableUnder != nil else {
            return nil
        }
        func range(_ text: String?, _ option: String) throws -> ClosedRange<Double>? {
            guard let text else { return nil }
            let parts = text.split(separator: ":", omittingEmptySubsequences: false).map { Double($0) }
            guard parts.count == 2, let low = parts[0], let high = parts[1], low <= high else {
                throw ValidationError("\(option) must be LOW:HIGH with LOW <= HIGH, for example 0.1:2, got '\(text)'")
            }
            return low ... high
        }
        do {
            return try VerificationRegion(
                frameRates: onlyRates.isEmpty ? nil : onlyRates,
                dampingRatio: try range(dampingRatio, "--damping-ratio"),
                naturalFrequency: try range(naturalFrequency, "--natural-frequency"), stableUnder: stableUnder)
        } catch let error as VerificationError {
            // The region's words, as the options that set them.
            var message = error.description
            for (words, option) in [
                ("a frame rate of the region", "--only-fps"), ("the region's damping ratio", "--damping-ratio"),
                ("the region's natural frequency", "--natural-frequency"),
            ] {
                message = message.replacingOccurrences(of: words, with: option)
            }
            throw ValidationError(message)
        }
    }

    /// Whether any engine route is asked for.
    var isUsed: Bool { engineCommand != nil || engineLibrary != nil || exportCases != nil || results != nil }

    /// The engine's name in the report, for an engine that is not a library.
    var name: String { engineName ?? "engine" }

    func validate(methods: [String], suites: [Verify.SuiteChoice]) throws {
        let routes = [engineCommand, engineLibrary, exportCases, results].compactMap { $0 }
        guard routes.count <= 1 else {
            throw ValidationError(
                "--engine-command, --engine-library, --export-cases and --results are alternatives; give one")
        }
        if !schemes && engineCommand == nil && engineLibrary == nil && results == nil {
            throw ValidationError(
                "--no-schemes applies to an engine run: give --engine-command, --engine-library or --results")
        }
        guard isUsed else {
            if try region() != nil {
                throw ValidationError(
                    "--only-fps, --damping-ratio, --natural-frequency and --stable-under restrict an engine run: give --engine-command, --engine-library, --export-cases or --results"
                )
            }
            return
        }
        _ = try region()
        if !methods.isEmpty { throw ValidationError("--method picks built-in methods; an engine run has none") }
        if suites.contains(.conversions) {
            throw ValidationError(
                "--suite conversions checks Kinetics' own mappings; an engine runs spring, decay, bezier")
        }
        do {
            if let engineCommand { _ = try EngineCommand(engineCommand, caseTimeout: caseTimeout) }
        } catch {
            throw ValidationError(error.description)
        }
        guard let name = engineName else { return }
        guard !name.isEmpty, name.count <= 40, !name.contains(where: { $0.isNewline || $0 == "," }) else {
            throw ValidationError(
                "--engine-name must be 1 to 40 characters without commas or line breaks, got '\(name)'")
        }
    }

    /// The cases of `suites` on `grid`, in `shard`.
    func caseSet(_ suites: [VerificationSuite], grid: VerificationGrid, shard: VerificationShard?) throws
        -> EngineCaseSet
    {
        do {
            let set = try EngineCaseSet(grid: grid, suites: suites, shard: shard)
            return try region().map(set.restricted) ?? set
        } catch let error as VerificationError {
            throw CLIError.usage(error.description)
        }
    }
}

/// Reads the JSON of `kinetics verify --format json` (whose numbers that
/// are not numbers are the strings "nan", "inf" and "-inf"): exit 66 for a
/// missing file, 65 for one that is not such a report.
func readVerificationReport(_ path: String) throws -> VerificationReport {
    let data = try readInput(path, limit: Verify.reportSizeLimit, what: "a verify report")
    // Decoded, a report takes about four times its text (a 123 MB one took
    // 490 MB in all): room for twice that.
    try checkMemory(
        data.count * 8, for: "\(path): reading a verify report of \(data.count) bytes (8 bytes a byte of the file)")
    do {
        if let problem = JSONInput.problem(in: data) { throw JSONInputError(problem) }
        return try VerificationReport(json: data)
    } catch {
        let reason = (error as? JSONInputError)?.description ?? JSONInput.reason(error, data: data)
        throw CLIError(message: "\(path): not a kinetics verify report in JSON (\(reason))", status: .badData)
    }
}

extension Verify {
    /// The largest results file read: 4 GiB, room for the full grid's answers.
    static let resultsSizeLimit = 4 << 30
    /// The largest verify report read (`plot verify`, `merge`): 256 MiB, room
    /// for the full grid's per-case measures.
    static let reportSizeLimit = 256 << 20

    /// `--engine-command`, `--export-cases` or `--results`.
    func runEngine() throws {
        let set = try engine.caseSet(suites(engine: true), grid: grid, shard: try part())
        if let path = engine.exportCases {
            try checkWritable(path)
            var text = ""
            for engineCase in set.cases { text += engineCase.line() + "\n" }
            try writeOutput(text, to: path)
            warnLine("wrote \(set.cases.count) cases to \(path)")
            return
        }
        let start = Date()
        let tolerances = try makeTolerances()
        var answers = EngineAnswers(for: set.cases)
        var fault: EngineFault?
        var name = engine.name
        // An engine library's answers and refusals by case id.
        var libraryRun: (answers: [String: EngineAnswer], refusals: [String: String])?
        if let path = engine.engineLibrary, workers.inProcess {
            let library = try loadEngineLibrary(path)
            name = engine.engineName ?? library.tableName
            let bar = ProgressBar()
            let run = LibraryAnswers(set.cases, library: library) { bar.update("engine", $0, set.cases.count) }
            bar.finish()
            libraryRun = (run.answers, run.refusals)
        } else if let path = engine.engineLibrary {
            let bar = ProgressBar()
            let run = try LibraryWorkerAnswers(
                set.cases, library: path, caseTimeout: engine.caseTimeout, memory: workers.memory
            ) { bar.update("engine", $0, set.cases.count) }
            bar.finish()
            name = engine.engineName ?? run.engine
            (libraryRun, fault) = ((run.answers, run.refusals), run.fault)
        } else if let command = engine.engineCommand {
            let bar = ProgressBar()
            let run = try EngineCommand(command, caseTimeout: engine.caseTimeout).run(set.cases) {
                bar.update("engine", $0, set.cases.count)
            }
            bar.finish()
            (answers, fault) = (run.answers, run.fault)
        } else if let path = engine.results {
            fault = try readResults(path, into: &answers, cases: set.cases.count)
        }
        let bar = ProgressBar()
        let report: VerificationReport
        do {
            report = try Verifier.report(
                set, answers: libraryRun?.answers ?? answers.answers,
                refusals: libraryRun?.refusals ?? answers.refusals, engine: name,
                tolerances: tolerances, fault: fault, namingSchemes: engine.schemes, jobs: jobs,
                start: start
            ) { suite, done, total in bar.update(suite, done, total) }
        } catch {
            bar.finish()
            throw CLIError(message: "\(error)", status: .checkFailed)
        }
        bar.finish()
        warnRefusals(report)
        for warning in report.warnings ?? [] { warnLine("warning: " + warning) }
        // The answers read until a fault are reported all the same.
        try destination.write(report)
    }

    /// Reads an engine's answers from a results file into `answers`, as a
    /// stream: a line longer than any answer is refused as soon as it is,
    /// and the file is never held whole. Returns the fault that ended the
    /// reading, or that `cases` cases were not all answered.
    private func readResults(_ path: String, into answers: inout EngineAnswers, cases: Int) throws -> EngineFault? {
        var fault: EngineFault?
        var lines = AnswerLines(limit: answers.lineLimit)
        func take(_ line: String, _ number: Int) throws(EngineFault) {
            try answers.take(line: line, number: number)
        }
        try streamInput(path, limit: Self.resultsSizeLimit, what: "a results file") { chunk in
            chunk.withUnsafeBytes { buffer in
                do throws(EngineFault) { try lines.append(buffer, to: take) } catch {
                    fault = EngineFault(error.kind, "\(path): \(error.message)")
                }
            }
            return fault == nil
        }
        if fault == nil {
            do throws(EngineFault) { try lines.finish(to: take) } catch {
                fault = EngineFault(error.kind, "\(path): \(error.message)")
            }
        }
        if fault == nil && !answers.isComplete {
            fault = EngineFault(
                .ended,
                "\(path) answers \(cases - answers.missingCount) of \(cases) cases; no answer for case \(answers.firstMissing ?? "?") (are --grid, --suite and --shard those of the export?)"
            )
        }
        return fault
    }

    /// Says on stderr which suites the engine refused, and how to run the
    /// others alone.
    private func warnRefusals(_ report: VerificationReport) {
        let refusals = report.engineMeasures?.refusals ?? []
        let others = report.suites.filter { suite in !refusals.contains { $0.suite == suite } }
        for refusal in refusals {
            warnLine(
                "the engine refused \(refusal.cases) \(refusal.suite) case\(refusal.cases == 1 ? "" : "s") (the first, \(refusal.firstCase): \(refusal.message)): the \(refusal.suite) suite is reported as refused"
                    + (others.isEmpty
                        ? "" : "; to run the others alone: " + others.map { "--suite \($0)" }.joined(separator: " ")))
        }
    }

    /// `kinetics verify merge`: the shards of a run, as one report.
    struct Merge: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Combine the JSON reports of a verify run's shards into the whole run's report.",
            discussion: """
                Each file is the --format json report of `kinetics verify … --shard i/n` (built-in methods \
                or an engine), for i = 1 … n of one n. The rows are computed again from every case's \
                measures, so the merged report equals what one unsharded run gives. Exit status as for \
                verify; 65 for reports that are not the shards of one run.
                """
        )

        @Argument(help: "The shard reports (JSON).")
        var reports: [String]
        @OptionGroup var destination: ReportDestination

        func validate() throws {
            guard !reports.isEmpty else { throw ValidationError("merge needs the JSON reports of a run's shards") }
        }

        func run() throws {
            try checkWritable(destination.output)
            let parts = try reports.map { try readVerificationReport($0) }
            let merged: VerificationReport
            do {
                merged = try Verifier.merge(parts)
            } catch {
                throw CLIError(message: error.description, status: .badData)
            }
            try destination.write(merged)
        }
    }

    /// `kinetics verify serve`: Kinetics' own methods as an engine on the line protocol.
    struct Serve: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Answer engine cases (JSON lines on stdin) with Kinetics' own methods, on stdout.",
            discussion: """
                The example engine of the protocol: `kinetics verify --engine-command 'kinetics verify serve \
                --spring rk4'` gives the numbers of the built-in rk4 method exactly. With --library, \
                the cases are answered by that library's engine instead, one instance per case, so that an \
                engine behind the C interface can also run on the line protocol (and record --results).
                """
        )

        @Option(help: "Spring method: pop, fixed, rk4 or analytic.")
        var spring: SpringMethod = .rk4
        @Option(help: "Decay method: pop, exact or continuous.")
        var decay: DecayMethod = .exact
        @Option(help: "Bezier method: webkit, precise or fast.")
        var bezier: BezierMethod = .precise
        // Not --engine-library: verify's own option of that name would take it.
        @Option(
            help: ArgumentHelp("Answer with the engine in this shared library (kinetics_engine.h).", valueName: "path"))
        var library: String?

        func run() throws {
            let engine = MethodEngine(spring: spring, decay: decay, bezier: bezier)
            let library = try self.library.map { try loadEngineLibrary($0) }
            let decoder = JSONDecoder()
            let encoder = JSONEncoder()
            encoder.nonConformingFloatEncodingStrategy = .convertToString(
                positiveInfinity: "Infinity", negativeInfinity: "-Infinity", nan: "NaN")
            var output = StandardOutput()
            while let line = readLine(strippingNewline: true) {
                guard line.contains(where: { !$0.isWhitespace }) else { continue }
                let answer: ServedAnswer
                do {
                    let engineCase = try decoder.decode(EngineCase.self, from: Data(line.utf8))
                    if let library {
                        let run = LibraryAnswers([engineCase], library: library) { _ in }
                        answer = ServedAnswer(
                            id: engineCase.id, values: run.answers[engineCase.id]?.values,
                            error: run.refusals[engineCase.id])
                    } else {
                        let result = engine.answer(engineCase)
                        answer = ServedAnswer(id: engineCase.id, values: result.values, velocities: result.velocities)
                    }
                } catch {
                    let id = (try? decoder.decode(CaseID.self, from: Data(line.utf8)))?.id ?? "?"
                    answer = ServedAnswer(id: id, error: "\(error)")
                }
                try output.line(String(decoding: try encoder.encode(answer), as: UTF8.self))
            }
            try output.flush()
        }

        private struct CaseID: Decodable { var id: String }

        private struct ServedAnswer: Encodable {
            var id: String
            var values: [Double]?
            var velocities: [Double]?
            var error: String?
        }
    }
}
