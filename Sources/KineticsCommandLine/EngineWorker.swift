import ArgumentParser
import Foundation
import KineticsBench

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
    /// A frame has not returned within the frame timeout (`what`: `frame
    /// 31 (warm-up included)`); the worker ends.
    case stalled(what: String, seconds: Double)
    /// The request failed without a crash (the library does not load, the
    /// engine refuses the workload): the exit status it stands for and
    /// the reason, as the in-process route would have said them.
    case failed(status: Int32, message: String)
}

/// The most one answer line may hold before the worker counts as broken:
/// an answer is a few hundred bytes.
let workerAnswerLimit = 1 << 20

/// `kinetics engine-worker`: loads one engine library and measures it for
/// the `kinetics` process that started it (``EngineWorker``), reading
/// requests on descriptor 3 and answering on descriptor 4, so that what the
/// engine writes to its standard output or error cannot mix with the
/// answers. Not for users: `gate` starts it.
package struct EngineWorkerCommand: ParsableCommand {
    package static let configuration = CommandConfiguration(
        commandName: "engine-worker",
        abstract: "Measure one engine library for a parent kinetics process (started by gate).",
        shouldDisplay: false
    )

    @Option(help: "The engine library.")
    var library: String
    @Option(name: .customLong("as"), help: "The name its engine takes.")
    var label: String
    @Option(name: .customLong("frame-timeout"), help: "Seconds a frame may take.")
    var frameTimeout = 60.0
    @Option(help: "The address space it may take, in bytes (Linux).")
    var memory: Double?
    @Option(help: "The CPU to run on (Linux).")
    var cpu: Int?

    package init() {}

    package func run() throws {
        var channel = WorkerChannel(read: 3, write: 4)
        if let cpu { CPUBinding.bind(to: cpu) }
        #if os(Linux)
            // An engine that allocates without end meets this limit (its
            // malloc returns NULL) and ends the worker, not the gate.
            if let memory {
                var limit = rlimit(rlim_cur: rlim_t(memory), rlim_max: rlim_t(memory))
                setrlimit(__rlimit_resource_t(RLIMIT_AS.rawValue), &limit)
            }
        #endif
        do {
            let loaded = try EngineLibrary.load(library, as: label)
            try channel.send(WorkerAnswer.ready(engine: loaded.engine.rawValue))
        } catch let error as EngineLibraryError {
            let status = if case .missing = error { CLIError.missingInput } else { CLIError.badData }
            try channel.send(WorkerAnswer.failed(status: status, message: error.description))
            return
        }
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
                switch try JSONDecoder().decode(WorkerRequest.self, from: line) {
                case .sample(let configuration):
                    let sampler = samplers[configuration] ?? RoundSampler(configuration)
                    samplers[configuration] = sampler
                    let median = try sampler.sample()
                    answer = .round(
                        median: median, work: Double(DispatchTime.now().uptimeNanoseconds - received))
                case .check(let configuration):
                    answer = .valueError(try BenchRunner.checkValues(configuration)?.error)
                }
            } catch let error as BenchError {
                answer = .failed(status: CLIError.badData, message: error.description)
            }
            try channel.send(answer)
        }
    }
}

/// One end of a worker's channel: JSON lines over two descriptors.
struct WorkerChannel {
    let read: Int32
    let write: Int32
    private var buffer: [UInt8] = []

    init(read: Int32, write: Int32) {
        self.read = read
        self.write = write
    }

    /// Writes `value` as one JSON line.
    ///
    /// - Throws: ``WorkerChannelClosed`` when the other end is gone.
    func send<Value: Encodable>(_ value: Value) throws {
        var bytes = Array(try JSONEncoder().encode(value))
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
    mutating func receiveLine(limit: Int, splitting: Bool = false) throws -> Data? {
        var chunk = [UInt8](repeating: 0, count: 1 << 14)
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = Data(buffer[..<newline])
                buffer.removeSubrange(...newline)
                return line
            }
            if buffer.count > limit {
                guard splitting else { throw WorkerLineTooLong(limit: limit) }
                let piece = Data(buffer[..<limit])
                buffer.removeSubrange(..<limit)
                return piece
            }
            let count = chunk.withUnsafeMutableBytes { systemRead(read, $0.baseAddress!, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return nil }
            buffer += chunk[..<count]
        }
    }
}

struct WorkerChannelClosed: Error {}

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
package struct WorkerFailure: Error, CustomStringConvertible {
    package var what: String
    package var description: String { what }
}

/// An engine library measured in a process of its own (`kinetics
/// engine-worker`, this same program): a crash, an `exit` or an `abort` in
/// the engine ends the worker, not this process, and becomes a
/// ``WorkerFailure`` that says how it ended. What the worker writes to its
/// standard output and error is passed to this process's standard error,
/// each line marked with the worker's name.
package final class EngineWorker {
    /// `before`, `after`: the name its engine takes, which marks its lines.
    package let name: String
    private let pid: pid_t
    private var channel: WorkerChannel
    private let forwarding = DispatchGroup()
    private var ended: String?

    /// The address space a worker may take unless told otherwise: half the
    /// machine's memory.
    package static var defaultMemory: Double { Double(ProcessInfo.processInfo.physicalMemory / 2) }

    /// Starts a worker on the library at `path`, with at most `memory`
    /// bytes of address space (Linux; elsewhere no limit is set).
    ///
    /// - Throws: ``CLIError`` with 66 for a missing library and 65 for one
    ///   that does not load, as the in-process route says them;
    ///   ``WorkerFailure`` when the worker ends before it answers.
    package init(
        library path: String, as name: String, frameTimeout: Double, memory: Double = defaultMemory, cpu: Int? = nil
    ) throws {
        self.name = name
        // A closed pipe must be an error from write(2), not a signal that ends Kinetics.
        signal(SIGPIPE, SIG_IGN)
        var requests: [Int32] = [0, 0]
        var answers: [Int32] = [0, 0]
        var output: [Int32] = [0, 0]
        var errors: [Int32] = [0, 0]
        guard pipe(&requests) == 0, pipe(&answers) == 0, pipe(&output) == 0, pipe(&errors) == 0 else {
            throw CLIError(
                message: "cannot make a pipe for the engine worker: \(String(cString: strerror(errno)))",
                status: CLIError.badData)
        }
        for fd in [requests[1], answers[0], output[0], errors[0]] { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        let executable = Bundle.main.executablePath ?? CommandLine.arguments[0]
        let arguments =
            [
                executable, "engine-worker", "--library", path, "--as", name, "--frame-timeout",
                String(frameTimeout), "--memory", String(memory),
            ] + (cpu.map { ["--cpu", String($0)] } ?? [])
        let spawned = Self.spawn(
            executable, arguments, descriptors: [(requests[0], 3), (answers[1], 4), (output[1], 1), (errors[1], 2)])
        for fd in [requests[0], answers[1], output[1], errors[1]] { close(fd) }
        guard spawned > 0 else {
            for fd in [requests[1], answers[0], output[0], errors[0]] { close(fd) }
            throw CLIError(
                message: "cannot start the engine worker \(executable): \(String(cString: strerror(-spawned)))",
                status: CLIError.badData)
        }
        pid = spawned
        channel = WorkerChannel(read: answers[0], write: requests[1])
        Self.forward(output[0], name: name, group: forwarding)
        Self.forward(errors[0], name: name, group: forwarding)
        switch try receive() {
        case .ready: break
        case .failed(let status, let message): throw CLIError(message: "\(name): \(message)", status: status)
        default: throw failure("answered its start with something else than ready")
        }
    }

    deinit {
        if ended == nil {
            close(channel.write)
            _ = waitStatus()
            close(channel.read)
        }
    }

    /// Each round's exchange with the worker, in nanoseconds: the round's
    /// time here, from its request sent to its answer read, less the time
    /// the worker spent on it. It is outside the timed frames.
    package private(set) var exchanges: [Double] = []

    /// One round of `configuration` in the worker: its median frame, in nanoseconds.
    package func sample(_ configuration: BenchConfiguration) throws -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        try send(.sample(configuration))
        let answer = try receive()
        let wall = Double(DispatchTime.now().uptimeNanoseconds - start)
        switch answer {
        case .round(let time, let work) where time.isFinite && time >= 0 && work.isFinite && work >= 0:
            exchanges.append(wall - work)
            return time
        case .failed(let status, let message): throw CLIError(message: message, status: status)
        default: throw failure("answered a round with something else than its time")
        }
    }

    /// The value check of `configuration` in the worker.
    package func valueError(_ configuration: BenchConfiguration) throws -> Double? {
        try send(.check(configuration))
        switch try receive() {
        case .valueError(let error): return error
        case .failed(let status, let message): throw CLIError(message: message, status: status)
        default: throw failure("answered a value check with something else than its error")
        }
    }

    private func send(_ request: WorkerRequest) throws {
        do {
            try channel.send(request)
        } catch {
            throw failure(nil)
        }
    }

    private func receive() throws -> WorkerAnswer {
        let line: Data?
        do {
            line = try channel.receiveLine(limit: workerAnswerLimit)
        } catch let error as WorkerLineTooLong {
            throw failure("sent an answer of over \(error.limit) bytes")
        }
        guard let line else { throw failure(nil) }
        guard let answer = try? JSONDecoder().decode(WorkerAnswer.self, from: line) else {
            throw failure("sent a line that is no answer")
        }
        if case .stalled(let what, let seconds) = answer {
            throw failure("gave no frame for \(String(format: "%.0f", seconds)) s (--frame-timeout), at \(what)")
        }
        return answer
    }

    /// The failure of a worker that ended, or broke the protocol (`broke`):
    /// the worker is stopped, and the failure says how it ended.
    private func failure(_ broke: String?) -> WorkerFailure {
        if let ended { return WorkerFailure(what: ended) }
        if broke != nil { kill(pid, SIGKILL) }
        close(channel.write)
        let status = waitStatus()
        close(channel.read)
        forwarding.wait()
        let how = broke ?? Self.describe(status)
        ended = how
        return WorkerFailure(what: how)
    }

    private func waitStatus() -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return status
    }

    /// `killed by signal 11 (SIGSEGV)`, `exited with status 3`.
    static func describe(_ status: Int32) -> String {
        let signal = status & 0x7f
        guard signal != 0 else { return "exited with status \((status >> 8) & 0xff)" }
        let names: [Int32: String] = [
            SIGSEGV: "SIGSEGV", SIGABRT: "SIGABRT", SIGBUS: "SIGBUS", SIGFPE: "SIGFPE", SIGILL: "SIGILL",
            SIGKILL: "SIGKILL", SIGTERM: "SIGTERM", SIGTRAP: "SIGTRAP",
        ]
        return "killed by signal \(signal)" + (names[signal].map { " (\($0))" } ?? "")
    }

    /// Passes what the worker writes on `fd` to this process's standard
    /// error, a line at a time, each marked `[name] `. A thread of its own,
    /// not Dispatch's pool: its reads block, and a pool the size of the
    /// machine's cores, taken by one worker's readers, left the next
    /// worker's waiting about a second.
    private static func forward(_ fd: Int32, name: String, group: DispatchGroup) {
        group.enter()
        Thread.detachNewThread {
            defer { group.leave() }
            var reader = WorkerChannel(read: fd, write: -1)
            // A line the engine never ends is passed on in pieces.
            while let line = try? reader.receiveLine(limit: 1 << 16, splitting: true) {
                FileHandle.standardError.write(Data("[\(name)] ".utf8) + line + Data("\n".utf8))
            }
            close(fd)
        }
    }

    /// Starts `arguments` with each `(from, to)` descriptor as `to`, with
    /// the Swift runtime's backtracer off (an engine's crash is reported by
    /// its signal, at once); the process id, or minus the error number.
    private static func spawn(_ executable: String, _ arguments: [String], descriptors: [(Int32, Int32)]) -> pid_t {
        #if canImport(Glibc)
            var actions = posix_spawn_file_actions_t()
        #else
            var actions: posix_spawn_file_actions_t?
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for (from, to) in descriptors { posix_spawn_file_actions_adddup2(&actions, from, to) }
        var variables = ProcessInfo.processInfo.environment
        variables["SWIFT_BACKTRACE"] = "enable=no"
        let words = arguments.map { strdup($0) } + [nil]
        let pairs = variables.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            words.forEach { free($0) }
            pairs.forEach { free($0) }
        }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, executable, &actions, nil, words, pairs)
        return result == 0 ? pid : -result
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
