import ArgumentParser
import Foundation
import KineticsBench
import KineticsInput

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What a parent asks of an engine worker, one JSON line each.
enum WorkerRequest: Codable {
    /// One round of `configuration` (``RoundSampler``): its median frame.
    case sample(BenchConfiguration)
    /// The value check of `configuration` (``BenchRunner/checkValues(_:)``).
    case check(BenchConfiguration)
    /// `configuration` measured as `kinetics bench` measures it
    /// (``BenchRunner/measure(_:checkingValues:)``).
    case measure(BenchConfiguration, checkingValues: Bool)
}

/// What an engine worker answers, one JSON line each.
enum WorkerAnswer: Codable {
    /// The library loaded; its engine's name in this worker.
    case ready(engine: String)
    /// A round's median frame, and the nanoseconds the worker spent on the
    /// request, from its line read to its answer made.
    case round(median: Double, work: Double)
    /// A value check's error, nil when nothing was checked.
    case valueError(Double?)
    /// A configuration measured.
    case measured(BenchResult)
    /// A frame has not returned within the frame timeout (`what`: `frame
    /// 31 (warm-up included)`); the worker ends.
    case stalled(what: String, seconds: Double)
    /// The request failed without a crash (the library does not load, the
    /// engine refuses the workload): the exit status it stands for and
    /// the reason, as the in-process route would have said them.
    case failed(status: ExitStatus, message: String)
}

/// The most one answer line may hold before the worker counts as broken:
/// an answer is a few hundred bytes, and a measured configuration that
/// much beside its frame times (``WorkerRequest/answerLimit``).
let workerAnswerLimit = 1 << 20

extension WorkerRequest {
    /// The most the answer to this request may hold: a measured
    /// configuration carries every measured frame's time, at most 32
    /// bytes each in JSON.
    var answerLimit: Int {
        guard case .measure(let configuration, _) = self else { return workerAnswerLimit }
        return workerAnswerLimit + 32 * configuration.repetitions * configuration.frames
    }
}

/// `kinetics engine-worker`: loads one engine library and measures it for
/// the `kinetics` process that started it (``EngineWorker``), reading
/// requests on descriptor 3 and answering on descriptor 4, so that what the
/// engine writes to its standard output or error cannot mix with the
/// answers. Not for users: `gate` starts it.
struct EngineWorkerCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "engine-worker",
        abstract: "Measure one engine library for a parent kinetics process (started by gate).",
        shouldDisplay: false
    )

    @OptionGroup var library: WorkerLibraryOptions
    @Option(name: .customLong("as"), help: "The name its engine takes (default: its own).")
    var label: String?
    @Option(help: "Seconds a frame may take.")
    var frameTimeout = 60.0
    @Option(help: "The CPU to run on (Linux).")
    var cpu: Int?

    init() {}

    func run() throws {
        WorkerProcess.endWithParent()
        var channel = WorkerChannel.ofWorker
        if let cpu { CPUBinding.bind(to: cpu) }
        guard
            try library.load(
                as: label, answering: &channel, ready: { WorkerAnswer.ready(engine: $0.engine.rawValue) },
                failed: WorkerAnswer.failed) != nil
        else { return }
        let answers = channel.write
        FrameWatchdog.onStall { what, seconds in
            try? WorkerChannel(read: -1, write: answers).send(WorkerAnswer.stalled(what: what, seconds: seconds))
        }
        FrameWatchdog.start(timeout: frameTimeout)
        var samplers: [BenchConfiguration: RoundSampler] = [:]
        while let line = try channel.receiveLine(limit: workerAnswerLimit) {
            let received = DispatchTime.now().uptimeNanoseconds
            let answer: WorkerAnswer
            do {
                switch try WorkerChannel.decoder.decode(WorkerRequest.self, from: line) {
                case .sample(let configuration):
                    let sampler = samplers[configuration] ?? RoundSampler(configuration)
                    samplers[configuration] = sampler
                    let median = try sampler.sample()
                    answer = .round(
                        median: median, work: Double(DispatchTime.now().uptimeNanoseconds - received))
                case .check(let configuration):
                    answer = .valueError(try BenchRunner.checkValues(configuration)?.error)
                case .measure(let configuration, let checkingValues):
                    answer = .measured(try BenchRunner.measure(configuration, checkingValues: checkingValues))
                }
            } catch let error as BenchError {
                answer = .failed(status: .badData, message: error.description)
            }
            try channel.send(answer)
        }
    }
}

/// Limits this process's address space to `bytes` (Linux; elsewhere
/// nothing is done): an engine that allocates without end meets the limit
/// (its malloc returns NULL) and ends its worker, not the run.
func limitAddressSpace(to bytes: Double) {
    #if os(Linux)
        var limit = rlimit(rlim_cur: rlim_t(bytes), rlim_max: rlim_t(bytes))
        setrlimit(__rlimit_resource_t(RLIMIT_AS.rawValue), &limit)
    #endif
}

/// A worker process's engine library: `--library` and the address space
/// the process may take, `--memory`.
struct WorkerLibraryOptions: ParsableArguments {
    @Option(help: "The engine library.")
    var library: String
    @Option(help: "The address space it may take, in bytes (Linux).")
    var memory: Double?

    /// A worker's first step: limits its address space if asked, loads the
    /// library (its engine named `label`, if given) and sends `ready`'s
    /// answer on `channel`; or, when the library cannot be loaded, sends
    /// `failed`'s with the status (66 missing, 65 otherwise) and the
    /// reason, and returns nil.
    func load<Answer: Encodable>(
        as label: String? = nil, answering channel: inout WorkerChannel, ready: (EngineLibrary) -> Answer,
        failed: (_ status: ExitStatus, _ message: String) -> Answer
    ) throws -> EngineLibrary? {
        if let memory { limitAddressSpace(to: memory) }
        do {
            try InputFile.checkReadable(library)
        } catch {
            if !error.isMissing {
                try channel.send(failed(.missingInput, error.description))
                return nil
            }
        }
        do {
            let loaded = try EngineLibrary.load(library, as: label)
            try channel.send(ready(loaded))
            return loaded
        } catch let error as EngineLibraryError {
            let status: ExitStatus = if case .missing = error { .missingInput } else { .badData }
            try channel.send(failed(status, error.description))
            return nil
        }
    }
}

/// One end of a worker's channel: JSON lines over two descriptors.
struct WorkerChannel {
    let read: Int32
    let write: Int32
    private var buffer: [UInt8] = []

    /// The channel over descriptors 3 and 4 of a worker process.
    static var ofWorker: WorkerChannel { WorkerChannel(read: 3, write: 4) }

    /// JSON with `nan`, `inf` and `-inf` as strings: an engine's value may be any double.
    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.nonConformingFloatEncodingStrategy = .convertToString(
            positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        return encoder
    }()
    /// Reads what ``encoder`` writes.
    static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(
            positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        return decoder
    }()

    /// A channel reading `read` and writing `write`.
    init(read: Int32, write: Int32) {
        self.read = read
        self.write = write
    }

    /// Writes `value` as one JSON line.
    ///
    /// - Throws: ``WorkerChannelClosed`` when the other end is gone.
    func send<Value: Encodable>(_ value: Value) throws {
        var bytes = Array(try Self.encoder.encode(value))
        bytes.append(UInt8(ascii: "\n"))
        var offset = 0
        while offset < bytes.count {
            let count = bytes.withUnsafeBytes { systemWrite(write, $0.baseAddress! + offset, $0.count - offset) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { throw WorkerChannelClosed() }
            offset += count
        }
    }

    /// The next line, without its newline; nil at the end of input. A
    /// line longer than `limit` bytes comes in pieces of `limit` bytes when
    /// `splitting` is set.
    ///
    /// - Throws: ``WorkerLineTooLong`` when a line passes `limit` bytes
    ///   and `splitting` is not set.
    mutating func receiveLine(
        limit: Int, splitting: Bool = false, beforeReading: () throws -> Void = {}
    ) throws -> Data? {
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        // Where the search for the newline goes on: the bytes before it
        // hold none, so a long line is read in linear time.
        var searched = 0
        while true {
            let found = buffer.withUnsafeBytes { bytes -> Int? in
                guard let base = bytes.baseAddress, bytes.count > searched else { return nil }
                return memchr(base + searched, Int32(UInt8(ascii: "\n")), bytes.count - searched)
                    .map { UnsafeRawPointer($0) - base }
            }
            if let newline = found {
                let line = Data(buffer[..<newline])
                buffer.removeSubrange(...newline)
                return line
            }
            searched = buffer.count
            if buffer.count > limit {
                guard splitting else { throw WorkerLineTooLong(limit: limit) }
                let piece = Data(buffer[..<limit])
                buffer.removeSubrange(..<limit)
                return piece
            }
            try beforeReading()
            let count = chunk.withUnsafeMutableBytes { systemRead(read, $0.baseAddress!, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return nil }
            buffer += chunk[..<count]
        }
    }
}

/// The other end of a worker's pipe is gone; in a worker, most likely
/// because the engine closed descriptors it does not own.
struct WorkerChannelClosed: Error, CustomStringConvertible {
    var description: String {
        "the pipe to the other kinetics process is closed (did the engine close descriptors 3 and 4, which are not its own?)"
    }
}

struct WorkerLineTooLong: Error {
    var limit: Int
}

#if canImport(Glibc)
    private let systemWrite = Glibc.write
    private let systemRead = Glibc.read
#elseif canImport(Darwin)
    private let systemWrite = Darwin.write
    private let systemRead = Darwin.read
#endif

/// How a worker stopped answering: `killed by signal 11 (SIGSEGV)`,
/// `exited with status 3`, `sent an answer of over 1048576 bytes`.
struct WorkerFailure: Error, CustomStringConvertible {
    var what: String
    var description: String { what }
}

/// A copy of this program started to run code Kinetics does not control
/// (an engine library), spoken to in JSON lines over two descriptors of its
/// own, 3 (requests) and 4 (answers): a crash, an `exit` or an `abort` in
/// it ends the worker, not this process, and becomes a ``WorkerFailure``
/// that says how it ended. What it writes to its standard output and error
/// is passed to this process's standard error, each line marked with its
/// name (``mark``).
///
/// The worker leads a process group of its own, and the group is what ends:
/// helpers an engine forks end with it, whether the worker exits, crashes,
/// is stopped (SIGSTOP), passes ``answerDeadline``, or this process ends
/// on SIGTERM, SIGINT or SIGHUP. While it waits for an answer this process
/// looks at the worker every second, so that neither a stopped worker nor a
/// helper holding its pipes open keeps it waiting; the worker, for its
/// part, ends when this process does (``endWithParent()``).
final class WorkerProcess {
    private let pid: pid_t
    private var channel: WorkerChannel
    private let forwarding = DispatchGroup()
    private let marking: Locked<String>
    private var ended: String?
    /// The worker's wait status once it has been reaped.
    private var reaped: Int32?

    /// The most seconds one answer may take, set by the caller for each
    /// request from the worker's own timeouts (a backstop behind the
    /// worker's watchdog); nil: no deadline but the worker's.
    var answerDeadline: Double?

    /// Starts `arguments` (the program first), its lines marked `[mark] `,
    /// with `environment` added to this process's.
    ///
    /// - Throws: ``CLIError`` (65) when no pipe can be made or the program
    ///   cannot be started.
    init(_ arguments: [String], mark: String, environment: [String: String] = [:]) throws {
        // A closed pipe must be an error from write(2), not a signal that ends Kinetics.
        signal(SIGPIPE, SIG_IGN)
        var requests: [Int32] = [0, 0]
        var answers: [Int32] = [0, 0]
        var output: [Int32] = [0, 0]
        var errors: [Int32] = [0, 0]
        guard pipe(&requests) == 0, pipe(&answers) == 0, pipe(&output) == 0, pipe(&errors) == 0 else {
            throw CLIError(
                message: "cannot make a pipe for the engine worker: \(String(cString: strerror(errno)))",
                status: .badData)
        }
        for fd in [requests[1], answers[0], output[0], errors[0]] { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        WorkerGroups.installHandlers()
        let spawned = Self.spawn(
            arguments[0], arguments, environment: environment,
            descriptors: [(requests[0], 3), (answers[1], 4), (output[1], 1), (errors[1], 2)])
        for fd in [requests[0], answers[1], output[1], errors[1]] { close(fd) }
        guard spawned > 0 else {
            for fd in [requests[1], answers[0], output[0], errors[0]] { close(fd) }
            throw CLIError(
                message: "cannot start the engine worker \(arguments[0]): \(String(cString: strerror(-spawned)))",
                status: .badData)
        }
        pid = spawned
        WorkerGroups.add(spawned)
        channel = WorkerChannel(read: answers[0], write: requests[1])
        marking = Locked(mark)
        Self.forward(output[0], mark: marking, group: forwarding)
        Self.forward(errors[0], mark: marking, group: forwarding)
    }

    deinit {
        if ended == nil {
            close(channel.write)
            _ = waitStatus()
            endGroup()
            close(channel.read)
        }
    }

    /// Ends what is left of the worker's process group (helpers an engine
    /// started) and forgets it.
    private func endGroup() {
        kill(-pid, SIGKILL)
        WorkerGroups.remove(pid)
    }

    /// The worker runs this first: it ends when the process that started
    /// it does (a thread looks at its parent every second), so that no
    /// worker outlives a `kinetics` that was killed.
    static func endWithParent() {
        let parent = getppid()
        Thread.detachNewThread {
            while getppid() == parent { sleep(1) }
            _exit(EX_SOFTWARE)
        }
    }

    /// Why ``awaitAnswer(on:)`` stopped waiting: nil when the worker ended
    /// (its status says how), else what it did.
    private struct StoppedWaiting: Error {
        var reason: String?
    }

    /// Waits until `answers` has something to read (or is closed), looking
    /// at the worker every second meanwhile: a worker stopped by a signal,
    /// or ended while a helper holds its pipes open, or past
    /// ``answerDeadline`` throws ``StoppedWaiting`` (and a stopped worker's
    /// group is ended).
    private func awaitAnswer(on answers: Int32) throws {
        let start = DispatchTime.now().uptimeNanoseconds
        while true {
            var entry = pollfd(fd: answers, events: Int16(POLLIN), revents: 0)
            let ready = poll(&entry, 1, 1_000)
            if ready > 0 || (ready < 0 && errno != EINTR) { return }
            var status: Int32 = 0
            if reaped == nil, waitpid(pid, &status, WNOHANG | WUNTRACED) == pid {
                if status & 0xff == 0x7f {
                    let signal = (status >> 8) & 0xff
                    endGroup()
                    reaped = waitStatus()
                    throw StoppedWaiting(
                        reason: "was stopped by signal \(signal)\(Self.signalNames[signal].map { " (\($0))" } ?? "")")
                }
                reaped = status
                throw StoppedWaiting(reason: nil)
            }
            let waited = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            if let deadline = answerDeadline, waited > deadline {
                throw StoppedWaiting(
                    reason:
                        "gave no answer for \(String(format: "%.0f", waited)) s, past the \(String(format: "%.0f", deadline)) s its timeouts allow"
                )
            }
        }
    }

    /// This program, which workers run: `Bundle.main`'s executable.
    static var program: String { Bundle.main.executablePath ?? CommandLine.arguments[0] }

    /// What marks the lines the worker writes (its engine's name, once known).
    var mark: String {
        get { marking.withLock { $0 } }
        set { marking.withLock { $0 = newValue } }
    }

    /// Sends `request` as one JSON line.
    ///
    /// - Throws: ``WorkerFailure`` when the worker has ended.
    func send<Request: Encodable>(_ request: Request) throws {
        do {
            try channel.send(request)
        } catch {
            throw failure(nil)
        }
    }

    /// The next answer, at most `limit` bytes of JSON.
    ///
    /// - Throws: ``WorkerFailure`` when the worker has ended, or sends more
    ///   than `limit` bytes or a line that is no `Answer` (it is stopped).
    func receive<Answer: Decodable>(_: Answer.Type, limit: Int) throws -> Answer {
        let line: Data?
        let answers = channel.read
        do {
            line = try channel.receiveLine(limit: limit, beforeReading: { try awaitAnswer(on: answers) })
        } catch let stopped as StoppedWaiting {
            throw failure(stopped.reason)
        } catch let error as WorkerLineTooLong {
            throw failure("sent an answer of over \(error.limit) bytes")
        }
        guard let line else { throw failure(nil) }
        guard let answer = try? WorkerChannel.decoder.decode(Answer.self, from: line) else {
            throw failure("sent a line that is no answer")
        }
        return answer
    }

    /// The failure of a worker that ended, or broke the protocol (`broke`):
    /// the worker is stopped, and the failure says how it ended.
    func failure(_ broke: String?) -> WorkerFailure {
        if let ended { return WorkerFailure(what: ended) }
        if broke != nil { kill(pid, SIGKILL) }
        close(channel.write)
        let status = waitStatus()
        endGroup()
        close(channel.read)
        // A helper outside the group may still hold the output's pipes:
        // what it writes later is not waited for. What the group wrote is
        // in the pipe already, and read in well under a second; a longer
        // wait would cost each halving of a batch that ends such a worker.
        _ = forwarding.wait(timeout: .now() + 1)
        let how = broke ?? Self.describe(status)
        ended = how
        return WorkerFailure(what: how)
    }

    /// Ends the worker's input and waits for it to end.
    ///
    /// - Throws: ``WorkerFailure`` unless it exits with status 0.
    func finish() throws {
        guard ended == nil else { throw WorkerFailure(what: ended!) }
        let failure = failure(nil)
        guard failure.what == Self.describe(0) else { throw failure }
    }

    private func waitStatus() -> Int32 {
        if let reaped { return reaped }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        reaped = status
        return status
    }

    /// `killed by signal 11 (SIGSEGV)`, `exited with status 3`.
    static func describe(_ status: Int32) -> String {
        let signal = status & 0x7f
        guard signal != 0 else { return "exited with status \((status >> 8) & 0xff)" }
        return "killed by signal \(signal)" + (signalNames[signal].map { " (\($0))" } ?? "")
    }

    static let signalNames: [Int32: String] = [
        SIGSEGV: "SIGSEGV", SIGABRT: "SIGABRT", SIGBUS: "SIGBUS", SIGFPE: "SIGFPE", SIGILL: "SIGILL",
        SIGKILL: "SIGKILL", SIGTERM: "SIGTERM", SIGTRAP: "SIGTRAP", SIGSTOP: "SIGSTOP", SIGTSTP: "SIGTSTP",
        SIGTTIN: "SIGTTIN", SIGTTOU: "SIGTTOU",
    ]

    /// Passes what the worker writes on `fd` to this process's standard
    /// error, a line at a time, each marked `[mark] `. A thread of its own,
    /// not Dispatch's pool: its reads block, and a pool the size of the
    /// machine's cores, taken by one worker's readers, left the next
    /// worker's waiting about a second.
    private static func forward(_ fd: Int32, mark: Locked<String>, group: DispatchGroup) {
        group.enter()
        Thread.detachNewThread {
            defer { group.leave() }
            var reader = WorkerChannel(read: fd, write: -1)
            // A line the engine never ends is passed on in pieces.
            while let line = try? reader.receiveLine(limit: 1 << 16, splitting: true) {
                let name = mark.withLock { $0 }
                writeStandardError(bytes: Array("[\(name)] ".utf8) + Array(line) + [0x0A])
            }
            close(fd)
        }
    }

    /// Starts `arguments` with each `(from, to)` descriptor as `to`, with
    /// the Swift runtime's backtracer off (an engine's crash is reported by
    /// its signal, at once); the process id, or minus the error number.
    private static func spawn(
        _ executable: String, _ arguments: [String], environment: [String: String], descriptors: [(Int32, Int32)]
    ) -> pid_t {
        #if canImport(Glibc)
            var actions = posix_spawn_file_actions_t()
        #else
            var actions: posix_spawn_file_actions_t?
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for (from, to) in descriptors { posix_spawn_file_actions_adddup2(&actions, from, to) }
        #if canImport(Glibc)
            var attributes = posix_spawnattr_t()
        #else
            var attributes: posix_spawnattr_t?
        #endif
        // A process group of its own, led by the worker.
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
        var variables = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        variables["SWIFT_BACKTRACE"] = "enable=no"
        let words = arguments.map { strdup($0) } + [nil]
        let pairs = variables.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            words.forEach { free($0) }
            pairs.forEach { free($0) }
        }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, executable, &actions, &attributes, words, pairs)
        return result == 0 ? pid : -result
    }
}

/// An engine library measured in a worker process of its own (``WorkerProcess``
/// running `kinetics engine-worker`), for `bench` and `gate`.
final class EngineWorker {
    /// The name its engine takes (`before`, `after`, or the engine's own),
    /// which marks the lines it writes.
    let engine: BenchEngine
    private let process: WorkerProcess
    private let frameTimeout: Double

    /// The address space a worker may take unless told otherwise: half the
    /// machine's memory.
    static var defaultMemory: Double { Double(ProcessInfo.processInfo.physicalMemory / 2) }

    /// Starts a worker on the library at `path`, its engine named `name`
    /// (nil: the engine's own name), with at most `memory` bytes of address
    /// space (Linux; elsewhere no limit is set), bound to `cpu` where given.
    /// `launcher` runs it (valgrind and its options; empty: started
    /// directly), from `executable` (default: this program).
    ///
    /// - Throws: ``CLIError`` with 66 for a missing library and 65 for one
    ///   that does not load, as the in-process route says them;
    ///   ``WorkerFailure`` when the worker ends before it answers.
    init(
        library path: String, as name: String?, frameTimeout: Double, memory: Double = defaultMemory,
        cpu: Int? = nil, launcher: [String] = [], executable: String? = nil, environment: [String: String] = [:]
    ) throws {
        var arguments =
            launcher + [
                executable ?? WorkerProcess.program, "engine-worker", "--library=\(path)", "--frame-timeout",
                String(frameTimeout), "--memory", String(memory),
            ]
        if let name { arguments += ["--as=\(name)"] }
        if let cpu { arguments += ["--cpu", String(cpu)] }
        // Until the engine is known, its lines are marked with its file's name.
        process = try WorkerProcess(
            arguments, mark: name ?? URL(fileURLWithPath: path).lastPathComponent, environment: environment)
        self.frameTimeout = frameTimeout
        // Loading and the engine's creation, which the watchdog times as a frame.
        process.answerDeadline = frameTimeout + 30
        switch try Self.receive(process) {
        case .ready(let loaded):
            guard let named = BenchEngine(rawValue: loaded) else { throw process.failure("named its engine ''") }
            engine = named
            process.mark = loaded
        case .failed(let status, let message):
            throw CLIError(message: (name.map { "\($0): " } ?? "") + message, status: status)
        default: throw process.failure("answered its start with something else than ready")
        }
    }

    /// The parent's own deadline for a request of `frames` frames, behind
    /// the worker's watchdog: each frame and the engine's creation at the
    /// frame timeout, and half a minute.
    private func allow(frames: Int) {
        process.answerDeadline = Double(frames + 2) * frameTimeout + 30
    }

    /// Each round's exchange with the worker, in nanoseconds: the round's
    /// time here, from its request sent to its answer read, less the time
    /// the worker spent on it. It is outside the timed frames.
    private(set) var exchanges: [Double] = []

    /// One round of `configuration` in the worker: its median frame, in nanoseconds.
    func sample(_ configuration: BenchConfiguration) throws -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        allow(frames: configuration.warmupFrames + configuration.frames)
        try process.send(WorkerRequest.sample(configuration))
        let answer = try Self.receive(process)
        let wall = Double(DispatchTime.now().uptimeNanoseconds - start)
        switch answer {
        case .round(let time, let work) where time.isFinite && time >= 0 && work.isFinite && work >= 0:
            exchanges.append(wall - work)
            return time
        case .failed(let status, let message): throw CLIError(message: message, status: status)
        default: throw process.failure("answered a round with something else than its time")
        }
    }

    /// `configuration` measured in the worker, as `kinetics bench` measures
    /// it in-process.
    func measure(_ configuration: BenchConfiguration, checkingValues: Bool) throws -> BenchResult {
        let request = WorkerRequest.measure(configuration, checkingValues: checkingValues)
        allow(frames: configuration.warmupFrames + configuration.repetitions * configuration.frames)
        try process.send(request)
        switch try Self.receive(process, limit: request.answerLimit) {
        case .measured(let result) where result.configuration == configuration: return result
        case .failed(let status, let message): throw CLIError(message: message, status: status)
        default: throw process.failure("answered a measurement with something else than its result")
        }
    }

    /// Ends the worker once it has answered everything asked.
    ///
    /// - Throws: ``WorkerFailure`` unless it exits with status 0.
    func finish() throws { try process.finish() }

    /// The value check of `configuration` in the worker.
    func valueError(_ configuration: BenchConfiguration) throws -> Double? {
        allow(frames: configuration.warmupFrames + configuration.repetitions * configuration.frames)
        try process.send(WorkerRequest.check(configuration))
        switch try Self.receive(process) {
        case .valueError(let error): return error
        case .failed(let status, let message): throw CLIError(message: message, status: status)
        default: throw process.failure("answered a value check with something else than its error")
        }
    }

    /// The next answer; a stall is the worker's failure.
    private static func receive(_ process: WorkerProcess, limit: Int = workerAnswerLimit) throws -> WorkerAnswer {
        let answer = try process.receive(WorkerAnswer.self, limit: limit)
        if case .stalled(let what, let seconds) = answer {
            throw process.failure(
                "gave no frame for \(String(format: "%.0f", seconds)) s (--frame-timeout), at \(what)")
        }
        return answer
    }
}

/// One CPU for both sides of a gate, on Linux. Two processes that measure
/// in turn may be run by the scheduler on different CPUs, and on a shared
/// machine one CPU can run at half speed for seconds while the other does
/// not: the rounds of one side then differ from the other's though the
/// builds are the same (measured: 13 of 40 runs of one library against
/// itself called different, against none with both sides in one thread).
/// Bound to the CPU the gate started on, both sides meet the same machine,
/// as two sides in one thread do.
enum CPUBinding {
    /// The CPU this thread runs on; nil where it cannot be known.
    static var current: Int? {
        #if os(Linux)
            typealias GetCPU = @convention(c) () -> Int32
            guard let address = dlsym(dlopen(nil, RTLD_NOW), "sched_getcpu") else { return nil }
            let cpu = unsafeBitCast(address, to: GetCPU.self)()
            return cpu >= 0 ? Int(cpu) : nil
        #else
            return nil
        #endif
    }

    /// Binds this thread, and the threads and processes it starts from
    /// now on, to `cpu`; false where that cannot be done.
    @discardableResult
    static func bind(to cpu: Int) -> Bool {
        #if os(Linux)
            typealias SetAffinity = @convention(c) (pid_t, Int, UnsafeRawPointer) -> Int32
            guard cpu >= 0, cpu < MemoryLayout<cpu_set_t>.size * 8,
                let address = dlsym(dlopen(nil, RTLD_NOW), "sched_setaffinity")
            else { return false }
            var set = cpu_set_t()
            withUnsafeMutableBytes(of: &set) { $0[cpu / 8] |= UInt8(1 << (cpu % 8)) }
            return withUnsafeBytes(of: &set) {
                unsafeBitCast(address, to: SetAffinity.self)(0, $0.count, $0.baseAddress!) == 0
            }
        #else
            return false
        #endif
    }
}

/// The process groups of the workers alive, for the signal handlers that end
/// them when this process is told to end (SIGTERM, SIGINT, SIGHUP): a worker
/// leads a group of its own, which the terminal's signals do not reach.
/// Fixed storage, so that a handler reads it without allocating or locking.
enum WorkerGroups {
    static let capacity = 256
    nonisolated(unsafe) static let slots = UnsafeMutablePointer<pid_t>.allocate(capacity: capacity)
    private static let installed = Locked(false)

    /// Remembers the group of worker `pid` (beyond 256 at once, the
    /// handlers miss the rest; workers are one or two per engine).
    static func add(_ pid: pid_t) {
        installed.withLock { _ in
            for index in 0 ..< capacity where slots[index] == 0 {
                slots[index] = pid
                return
            }
        }
    }

    /// Forgets the group of worker `pid`.
    static func remove(_ pid: pid_t) {
        installed.withLock { _ in
            for index in 0 ..< capacity where slots[index] == pid { slots[index] = 0 }
        }
    }

    /// The signals that end this process and, through the handlers, its workers.
    static let endingSignals = [SIGTERM, SIGINT, SIGHUP]

    /// Unblocks ``endingSignals`` on the calling thread (the main one, at
    /// the start): a process started from a thread that blocks them (as
    /// Dispatch's threads do) inherits the mask, and would leave a SIGTERM
    /// pending for ever.
    static func unblockEndingSignals() {
        var set = sigset_t()
        sigemptyset(&set)
        for number in endingSignals { sigaddset(&set, number) }
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
    }

    /// Installs, once, handlers of SIGTERM, SIGINT and SIGHUP that end
    /// every worker's group and then end this process by the same signal
    /// (a signal this process ignores stays ignored).
    static func installHandlers() {
        installed.withLock { done in
            guard !done else { return }
            done = true
            slots.initialize(repeating: 0, count: capacity)
            for number in endingSignals {
                let previous = signal(number, endWorkersAndThisProcess)
                if let previous, unsafeBitCast(previous, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self) {
                    signal(number, SIG_IGN)
                }
            }
        }
    }
}

/// The handler ``WorkerGroups`` installs: only calls that are safe in a
/// signal handler (kill, signal, raise).
private func endWorkersAndThisProcess(_ number: Int32) {
    for index in 0 ..< WorkerGroups.capacity where WorkerGroups.slots[index] > 0 {
        kill(-WorkerGroups.slots[index], SIGKILL)
    }
    signal(number, SIG_DFL)
    raise(number)
}
