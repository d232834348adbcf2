import ArgumentParser
import Foundation
import KineticsBench
import KineticsVerify

/// What `kinetics verify-worker` answers, one JSON line each.
enum VerifyWorkerAnswer: Codable {
    /// The library loaded: its engine's table name.
    case ready(engine: String)
    /// A batch's answers by case id, and its refusals by case id.
    case answered(values: [String: [Double]], refusals: [String: String])
    /// A tick has not returned within the case timeout; the worker ends.
    case stalled(seconds: Double)
    /// The library does not load: the exit status and the reason.
    case failed(status: ExitStatus, message: String)
}

/// `kinetics verify-worker`: loads one engine library and answers batches
/// of cases for the `kinetics verify --engine-library` process that started
/// it (``LibraryWorkerAnswers``), as ``LibraryAnswers`` answers them
/// in-process: requests (a JSON array of cases) on descriptor 3, answers on
/// descriptor 4. Not for users.
struct VerifyWorkerCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify-worker",
        abstract: "Answer engine cases with one engine library for a parent kinetics verify.",
        shouldDisplay: false
    )

    @OptionGroup var library: WorkerLibraryOptions
    @Option(help: "Seconds a tick may take.")
    var caseTimeout = 60.0

    func run() throws {
        WorkerProcess.endWithParent()
        var channel = WorkerChannel.ofWorker
        guard
            let loaded = try library.load(
                answering: &channel, ready: { VerifyWorkerAnswer.ready(engine: $0.tableName) },
                failed: VerifyWorkerAnswer.failed)
        else { return }
        FrameWatchdog.onStall { _, seconds in
            try? WorkerChannel.ofWorker.send(VerifyWorkerAnswer.stalled(seconds: seconds))
        }
        FrameWatchdog.start(timeout: caseTimeout, option: "--case-timeout")
        while let line = try channel.receiveLine(limit: Int.max) {
            let cases = try WorkerChannel.decoder.decode([EngineCase].self, from: line)
            FrameWatchdog.begin(
                "\(loaded.tableName): \(cases.count) cases from case \(cases.first?.id ?? "-")", counting: "tick")
            let run = LibraryAnswers(cases, library: loaded) { _ in }
            FrameWatchdog.end()
            try channel.send(
                VerifyWorkerAnswer.answered(values: run.answers.mapValues(\.values), refusals: run.refusals))
        }
    }
}

/// The answers of an engine library to a set's cases, each batch of
/// ``EngineBatches`` answered in a worker process (`kinetics
/// verify-worker`). A worker that crashes, exits or stalls ends the run
/// with an ``EngineFault`` naming the case: the batch it died in is run
/// again by halves, each in a new worker, down to the one case that ends a
/// worker alone (or, where none does, the batch is named).
struct LibraryWorkerAnswers {
    /// Answers by case id, up to the fault.
    var answers: [String: EngineAnswer] = [:]
    /// Refusals by case id.
    var refusals: [String: String] = [:]
    /// The worker's end, where one ended the run.
    var fault: EngineFault?
    /// The library's engine's table name.
    let engine: String

    private let path: String
    private let caseTimeout: Double
    private let memory: Double

    /// Starts a worker on the library at `path` and answers `cases`;
    /// `progress` is called with how many are answered so far.
    ///
    /// - Throws: ``CLIError``: 66 for a missing library, 65 for one that
    ///   does not load or whose worker ends while loading it.
    init(
        _ cases: [EngineCase], library path: String, caseTimeout: Double, memory: Double,
        progress: (Int) -> Void
    ) throws {
        self.path = path
        self.caseTimeout = caseTimeout
        self.memory = memory
        let (worker, engine) = try Self.start(path, caseTimeout: caseTimeout, memory: memory)
        self.engine = engine
        var done = 0
        for batch in EngineBatches.batches(cases) {
            let members = batch.members.map { cases[$0] }
            do {
                let (values, refused) = try Self.answer(members, worker: worker, caseTimeout: caseTimeout)
                for (id, values) in values { answers[id] = EngineAnswer(values: values) }
                refusals.merge(refused) { $1 }
            } catch let failure as WorkerFailure {
                fault = try locate(failure, in: members, answered: done, of: cases.count)
                return
            }
            done += members.count
            progress(done)
        }
    }

    /// The fault for a worker that ended (`failure`) answering `members`:
    /// the case that ends a worker alone, found by halving.
    private func locate(_ failure: WorkerFailure, in members: [EngineCase], answered: Int, of total: Int) throws
        -> EngineFault
    {
        let before = "\(answered) of \(total) cases answered before"
        guard !failure.what.hasPrefix("gave no answer") else {
            // A stall is not sought by halves: each half would wait out the timeout.
            return EngineFault(
                .timedOut,
                "the engine library's worker stopped in a batch of \(members.count) cases from case \(members[0].id): it \(failure.what); \(before)"
            )
        }
        var suspects = members
        var how = failure.what
        while suspects.count > 1 {
            let halves = [Array(suspects[..<(suspects.count / 2)]), Array(suspects[(suspects.count / 2)...])]
            var next: [EngineCase]?
            for half in halves where next == nil {
                let worker = try Self.start(path, caseTimeout: caseTimeout, memory: memory).worker
                do {
                    _ = try Self.answer(half, worker: worker, caseTimeout: caseTimeout)
                } catch let failure as WorkerFailure {
                    (next, how) = (half, failure.what)
                }
            }
            guard let next else {
                return EngineFault(
                    .ended,
                    "the engine library's worker ended in a batch of \(suspects.count) cases run together (case \(suspects[0].id) to case \(suspects[suspects.count - 1].id)), though neither half of it ends a worker alone: \(failure.what); \(before)"
                )
            }
            suspects = next
        }
        return EngineFault(
            .ended,
            "the engine library's worker ended answering case \(suspects[0].id) (run alone, in a worker of its own): \(how); \(before)"
        )
    }

    /// `members` answered by `worker`: values and refusals by case id.
    private static func answer(_ members: [EngineCase], worker: WorkerProcess, caseTimeout: Double) throws
        -> (values: [String: [Double]], refusals: [String: String])
    {
        // The parent's own deadline, behind the worker's watchdog: every
        // case at its timeout, and half a minute.
        worker.answerDeadline = Double(members.count + 1) * caseTimeout + 30
        try worker.send(members)
        // Each value is at most 32 bytes of JSON; each case's id and refusal a few hundred.
        let limit = (1 << 20) + members.reduce(0) { $0 + 32 * $1.valueCount + 1_024 }
        switch try worker.receive(VerifyWorkerAnswer.self, limit: limit) {
        case .answered(let values, let refusals):
            let counts = Dictionary(members.map { ($0.id, $0.valueCount) }, uniquingKeysWith: { first, _ in first })
            for (id, answer) in values where counts[id] != answer.count {
                throw worker.failure("answered case \(id), which it was not asked, or with the wrong count")
            }
            guard Set(values.keys).union(refusals.keys) == Set(counts.keys) else {
                throw worker.failure("left cases of its batch unanswered")
            }
            return (values, refusals)
        case .stalled(let seconds):
            throw worker.failure("gave no answer for \(String(format: "%.0f", seconds)) s (--case-timeout)")
        default:
            throw worker.failure("answered a batch with something else than its answers")
        }
    }

    /// A worker on the library at `path`, and its engine's table name.
    private static func start(_ path: String, caseTimeout: Double, memory: Double) throws -> (
        worker: WorkerProcess, engine: String
    ) {
        let process = try WorkerProcess(
            [
                WorkerProcess.program, "verify-worker", "--library=\(path)", "--case-timeout", String(caseTimeout),
                "--memory", String(memory),
            ], mark: URL(fileURLWithPath: path).lastPathComponent)
        process.answerDeadline = caseTimeout + 30
        do {
            switch try process.receive(VerifyWorkerAnswer.self, limit: 1 << 20) {
            case .ready(let engine):
                process.mark = engine
                return (process, engine)
            case .failed(let status, let message): throw CLIError(message: message, status: status)
            default: throw process.failure("answered its start with something else than ready")
            }
        } catch let failure as WorkerFailure {
            throw CLIError(message: "\(path): \(failure.what) while loading", status: .badData)
        }
    }
}
