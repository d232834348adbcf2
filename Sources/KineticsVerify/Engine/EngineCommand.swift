import Foundation
import Kinetics

#if canImport(Glibc)
    import Glibc
    private let systemWrite = Glibc.write
    private var environment: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? { environ }
#elseif canImport(Darwin)
    import Darwin
    private let systemWrite = Darwin.write
    private var environment: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? { _NSGetEnviron().pointee }
#endif

/// An engine that speaks the line protocol on its standard input and
/// output: started as `/bin/sh -c COMMAND` in a process group of its own,
/// sent every case as one JSON line while its answers are read as they
/// come (both directions stream, so neither side waits for the other's
/// pipe to drain), and stopped if it makes no progress for ``caseTimeout``.
/// Its standard error is the caller's.
public struct EngineCommand: Sendable {
    /// The shell command.
    public var command: String
    /// Seconds the engine may go without reading a case or writing an
    /// answer while answers are outstanding, before it is stopped.
    public var caseTimeout: Double

    /// An engine run by `command`.
    ///
    /// - Throws: ``VerificationError/usage(_:)`` for an empty command or a
    ///   timeout outside (0, 86,400] seconds.
    public init(_ command: String, caseTimeout: Double = 60) throws(VerificationError) {
        guard command.contains(where: { !$0.isWhitespace }) else {
            throw .usage("--engine-command needs a command, got an empty one")
        }
        guard caseTimeout > 0, caseTimeout <= 86_400 else {
            throw .usage("--case-timeout must be in (0, 86400] seconds, got \(caseTimeout)")
        }
        self.command = command
        self.caseTimeout = caseTimeout
    }

    /// Runs the engine on `cases`: the answers read, and the fault that
    /// stopped it before it answered them all (nil when it did).
    /// `progress` is told how many answers have come.
    public func run(
        _ cases: [EngineCase], progress: (Int) -> Void = { _ in }
    ) -> (answers: EngineAnswers, fault: EngineFault?) {
        var answers = EngineAnswers(for: cases)
        // A closed pipe must be an error from write(2), not a signal that ends Kinetics.
        signal(SIGPIPE, SIG_IGN)
        var input: [Int32] = [0, 0]
        var output: [Int32] = [0, 0]
        guard pipe(&input) == 0, pipe(&output) == 0 else {
            return (
                answers, EngineFault(.ended, "cannot make a pipe for the engine: \(String(cString: strerror(errno)))")
            )
        }
        _ = fcntl(input[1], F_SETFD, FD_CLOEXEC)
        _ = fcntl(output[0], F_SETFD, FD_CLOEXEC)
        let child: pid_t
        switch spawn(stdin: input[0], stdout: output[1]) {
        case .success(let pid): child = pid
        case .failure(let fault):
            for fd in input + output { close(fd) }
            return (answers, fault)
        }
        close(input[0])
        close(output[1])

        let written = Written()
        let writer = DispatchGroup()
        let writeEnd = input[1]
        DispatchQueue.global().async(group: writer) { Self.write(cases, to: writeEnd, counting: written) }

        var fault: EngineFault?
        var lines = AnswerLines(limit: answers.lineLimit)
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 1)
        defer { chunk.deallocate() }
        var lastProgress = Date()
        var lastWritten = 0
        reading: while !answers.isComplete {
            let now = Date()
            let moved = Int(written.bytes.load())
            if moved != lastWritten {
                lastWritten = moved
                lastProgress = now
            }
            let idle = now.timeIntervalSince(lastProgress)
            if idle >= caseTimeout {
                fault = EngineFault(
                    .timedOut,
                    "the engine gave no answer and read no case for \(brief(caseTimeout)) s; it was stopped while case \(answers.firstMissing ?? "?") was outstanding (--case-timeout sets the limit)"
                )
                break
            }
            var descriptor = pollfd(fd: output[0], events: Int16(POLLIN), revents: 0)
            let wait = Int32(min(max((caseTimeout - idle) * 1000, 1), 250))
            let ready = poll(&descriptor, 1, wait)
            if ready == 0 || (ready < 0 && errno == EINTR) { continue }
            let count = read(output[0], chunk.baseAddress, chunk.count)
            if count < 0 {
                if errno == EINTR { continue }
                fault = EngineFault(.ended, "cannot read the engine's output: \(String(cString: strerror(errno)))")
                break
            }
            do throws(EngineFault) {
                if count == 0 {
                    // The engine closed its output: a last line without a newline counts.
                    try lines.finish { line, number throws(EngineFault) in try answers.take(line: line, number: number)
                    }
                    break
                }
                let before = answers.answers.count
                try lines.append(UnsafeRawBufferPointer(rebasing: chunk[0 ..< count])) {
                    line, number throws(EngineFault) in try answers.take(line: line, number: number)
                }
                if answers.answers.count != before {
                    lastProgress = Date()
                    progress(answers.answers.count)
                }
            } catch {
                fault = error
                break reading
            }
        }
        close(output[0])
        let status = finish(child, stop: fault != nil || !answers.isComplete)
        writer.wait()
        if fault == nil && !answers.isComplete {
            fault = ended(status, answers: answers, asked: cases.count)
        }
        return (answers, fault)
    }

    // MARK: The process

    private func spawn(stdin: Int32, stdout: Int32) -> Result<pid_t, EngineFault> {
        #if canImport(Glibc)
            var actions = posix_spawn_file_actions_t()
            var attributes = posix_spawnattr_t()
        #else
            var actions: posix_spawn_file_actions_t?
            var attributes: posix_spawnattr_t?
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, stdin, 0)
        posix_spawn_file_actions_adddup2(&actions, stdout, 1)
        posix_spawn_file_actions_addclose(&actions, stdin)
        posix_spawn_file_actions_addclose(&actions, stdout)
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // A group of its own, so that stopping it stops what the shell started;
        // SIGPIPE back to its default, which the engine expects.
        var defaults = sigset_t()
        sigemptyset(&defaults)
        sigaddset(&defaults, SIGPIPE)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF))
        let words: [String] = ["/bin/sh", "-c", command]
        let arguments: [UnsafeMutablePointer<CChar>?] = words.map { strdup($0) }
        defer { arguments.forEach { free($0) } }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, "/bin/sh", &actions, &attributes, arguments + [nil], environment)
        guard result == 0 else {
            return .failure(EngineFault(.notExecutable, "cannot start /bin/sh: \(String(cString: strerror(result)))"))
        }
        return .success(pid)
    }

    /// Waits for the engine to end, stopping its process group first when
    /// `stop` is set or when it lingers past the timeout; its wait status.
    private func finish(_ child: pid_t, stop: Bool) -> Int32 {
        if stop { kill(-child, SIGKILL) }
        var status: Int32 = 0
        let deadline = Date().addingTimeInterval(caseTimeout)
        while true {
            let result = waitpid(child, &status, WNOHANG)
            if result == child || (result < 0 && errno != EINTR) { break }
            if Date() >= deadline { kill(-child, SIGKILL) }
            usleep(2_000)
        }
        // Whatever the shell started and left behind goes with it.
        kill(-child, SIGKILL)
        return status
    }

    /// The fault for an engine that ended before answering every case.
    private func ended(_ status: Int32, answers: EngineAnswers, asked: Int) -> EngineFault {
        let exited = status & 0x7f == 0
        let code = (status >> 8) & 0xff
        let signal = status & 0x7f
        if exited && answers.answers.isEmpty && code == 127 {
            return EngineFault(.notFound, "the engine command was not found: \(command)")
        }
        if exited && answers.answers.isEmpty && code == 126 {
            return EngineFault(.notExecutable, "the engine command cannot be executed: \(command)")
        }
        let how =
            exited
            ? "exited with status \(code)"
            : "was killed by signal \(signal)\(signal == SIGSEGV ? " (SIGSEGV)" : signal == SIGABRT ? " (SIGABRT)" : "")"
        return EngineFault(
            .ended,
            "the engine \(how) after answering \(answers.answers.count) of \(asked) cases; no answer for case \(answers.firstMissing ?? "?")"
        )
    }

    // MARK: Writing the cases

    /// Bytes written to the engine so far, shared with the reader.
    private final class Written: Sendable {
        let bytes = AtomicInteger(0)
    }

    /// Writes every case, one JSON line each, in blocks of about 64 KB;
    /// stops at the first failed write (the engine ended or was stopped)
    /// and closes the pipe, which is the engine's end of input.
    private static func write(_ cases: [EngineCase], to fd: Int32, counting written: Written) {
        defer { close(fd) }
        var block: [UInt8] = []
        block.reserveCapacity(1 << 17)
        func flush() -> Bool {
            var offset = 0
            while offset < block.count {
                let count = block.withUnsafeBytes { systemWrite(fd, $0.baseAddress! + offset, $0.count - offset) }
                if count < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                offset += count
                written.bytes.add(Int64(count))
            }
            block.removeAll(keepingCapacity: true)
            return true
        }
        for engineCase in cases {
            block.append(contentsOf: engineCase.line().utf8)
            block.append(UInt8(ascii: "\n"))
            if block.count >= 1 << 16, !flush() { return }
        }
        _ = flush()
    }
}
