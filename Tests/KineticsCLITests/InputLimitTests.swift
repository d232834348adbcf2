import Foundation
import KineticsTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Size limits hold before and while reading: a huge file is refused from
/// its size, a pipe is cut off at the limit, and neither costs memory.
@Suite("CLI: input size limits")
struct InputLimitTests {
    /// Every command that reads a file, with the file's place marked, and
    /// the limit it applies.
    static let readers: [(arguments: [String], limit: Int)] = [
        (["animate", "FILE"], 16 << 20),
        (["bench", "--baseline", "FILE", "--animations", "1000", "--mix", "spring"], 64 << 20),
        (["plot", "verify", "--input", "FILE"], 256 << 20),
        (["verify", "merge", "FILE"], 256 << 20),
        (["plot", "bench", "--input", "FILE"], 64 << 20),
        (["compare", "spring", "FILE", "--tension", "300", "--friction", "12"], 64 << 20),
    ]

    /// Runs `kinetics` and returns its exit status and its own peak resident
    /// memory in KiB (wait4's rusage of that one process, not a clock),
    /// taken by a small Python process that starts it. Started straight from
    /// this test process, its peak would include this process's: Linux keeps
    /// the peak of the memory a process leaves at exec, and posix_spawn's
    /// child shares its parent's memory until then (a peak that moved by
    /// 17 MB between two runs as the other tests ran).
    static func runMeasured(_ arguments: [String]) throws -> (status: Int32, peakKiB: Int) {
        let launcher = """
            import os, sys
            pid = os.fork()
            if pid == 0:
                null = os.open("/dev/null", os.O_WRONLY)
                os.dup2(null, 1)
                os.dup2(null, 2)
                os.execv(sys.argv[1], sys.argv[1:])
            _, status, usage = os.wait4(pid, 0)
            print(os.waitstatus_to_exitcode(status), usage.ru_maxrss)
            """
        let result = try python([launcher, try kineticsBinary().path] + arguments)
        let fields = result.stdout.split(separator: " ").compactMap {
            Int($0.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        try #require(fields.count == 2, "the launcher printed '\(result.stdout)' \(result.stderr)")
        return (Int32(fields[0]), fields[1])
    }

    @Test("a sparse file of 100 GB is refused with exit 65 by every reader, and reading costs no memory")
    func sparseFile() throws {
        let folder = try temporaryFolder("kinetics-limits")
        defer { try? FileManager.default.removeItem(at: folder) }
        let huge = folder.appendingPathComponent("huge.json")
        #expect(FileManager.default.createFile(atPath: huge.path, contents: Data("{".utf8)))
        let handle = try FileHandle(forWritingTo: huge)
        try handle.truncate(atOffset: 100 << 30)
        try handle.close()
        let small = folder.appendingPathComponent("small.json")
        try Data("{".utf8).write(to: small)
        for reader in Self.readers {
            let context = reader.arguments.prefix(2).joined(separator: " ")
            let refused = try kinetics(reader.arguments.map { $0 == "FILE" ? huge.path : $0 })
            #expect(refused.status == 65, "\(context): \(refused.stderr)")
            #expect(
                refused.stderr.contains("the file is \(100 << 30) bytes;")
                    && refused.stderr.contains("at most \(reader.limit) bytes"),
                "\(context): \(refused.stderr)")
            // Peak memory against the same command refusing a one-byte file:
            // reading even a hundredth of the file would add over 1 GB.
            let hugeRun = try Self.runMeasured(reader.arguments.map { $0 == "FILE" ? huge.path : $0 })
            let smallRun = try Self.runMeasured(reader.arguments.map { $0 == "FILE" ? small.path : $0 })
            #expect(hugeRun.status == 65 && smallRun.status == 65 || smallRun.status == 66, "\(context)")
            #expect(
                hugeRun.peakKiB - smallRun.peakKiB < 8 << 10,
                "\(context): peak \(hugeRun.peakKiB) KiB for 100 GB, \(smallRun.peakKiB) KiB for one byte")
        }
    }

    /// Makes a named pipe at `path` and, on a thread of its own, writes 40 MiB
    /// of spaces into it, stopping early when the reader closes it.
    static func offer40MiB(through path: String) throws {
        try #require(mkfifo(path, 0o600) == 0, "mkfifo \(path)")
        Thread {
            signal(SIGPIPE, SIG_IGN)
            let descriptor = open(path, O_WRONLY)
            guard descriptor >= 0 else { return }
            let block = [UInt8](repeating: 0x20, count: 1 << 20)
            for _ in 0 ..< 40 where block.withUnsafeBytes({ write(descriptor, $0.baseAddress, $0.count) }) > 0 {}
            close(descriptor)
        }.start()
    }

    @Test("a pipe that carries more than the limit is cut off at it: exit 65, memory bounded by the limit")
    func pipe() throws {
        let folder = try temporaryFolder("kinetics-limits")
        defer { try? FileManager.default.removeItem(at: folder) }
        // animate's limit is 16 MiB; the writer offers 40 MiB and stops when
        // the reader closes the pipe.
        let fifo = folder.appendingPathComponent("scenario.fifo").path
        try Self.offer40MiB(through: fifo)
        let run = try Self.runMeasured(["animate", fifo])
        #expect(run.status == 65)
        // The reader holds at most the limit, twice over while it hands the
        // bytes on (32 MiB); all 40 MiB, copied, would be 80 MiB.
        let small = folder.appendingPathComponent("small.json")
        try Data("{".utf8).write(to: small)
        let baseline = try Self.runMeasured(["animate", small.path])
        #expect(
            run.peakKiB - baseline.peakKiB < 40 << 10,
            "peak \(run.peakKiB) KiB reading a 40 MiB pipe, \(baseline.peakKiB) KiB for one byte")
        // And the message, from a second pipe.
        let second = folder.appendingPathComponent("second.fifo").path
        try Self.offer40MiB(through: second)
        let result = try kinetics(["animate", second])
        #expect(result.status == 65)
        #expect(
            result.stderr
                == "kinetics: error: \(second): more than \(16 << 20) bytes; a scenario is at most \(16 << 20) bytes (16 MiB)\n"
        )
    }

    @Test("an engine's endless line is refused once it is longer than any answer: exit 65, memory bounded")
    func endlessEngineLine() throws {
        // 400 MB of 'x' and no newline, from a pipeline that holds none of it.
        let endless = "head -c 400000000 /dev/zero | tr '\\0' x"
        // The line is refused at the longest answer's length (about 100 KB
        // here); read whole it would be 400 MB, and more as a string.
        try Self.expectRefusedWithin8MiB(
            ["verify", "--suite", "decay", "--no-schemes", "--engine-command"], endless, "a 400 MB line",
            short: "echo x", message: "line 1 of the engine's output is longer than any answer to these cases can be")
    }

    /// `verify` with `input` and with `short`, a short bad one: both exit
    /// 65, `input`'s saying `message`, and its peak memory within 8 MiB of
    /// the short one's.
    private static func expectRefusedWithin8MiB(
        _ verify: [String], _ input: String, _ what: String, short: String, message: String
    ) throws {
        let run = try runMeasured(verify + [input])
        let baseline = try runMeasured(verify + [short])
        #expect(run.status == 65 && baseline.status == 65)
        #expect(
            run.peakKiB - baseline.peakKiB < 8 << 10,
            "peak \(run.peakKiB) KiB for \(what), \(baseline.peakKiB) KiB for a short bad one")
        let result = try kinetics(verify + [input])
        #expect(result.status == 65)
        #expect(result.stderr.contains(message), "\(result.stderr)")
    }

    @Test("a results file whose one answer has 20,000,000 values is refused before it is read whole")
    func oversizedResultsLine() throws {
        let folder = try temporaryFolder("kinetics-limits")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("answers.jsonl").path
        #expect(
            FileManager.default.createFile(atPath: path, contents: Data("{\"id\": \"decay/0\", \"values\": [".utf8)))
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.seekToEnd()
        let block = Data(String(repeating: "1,", count: 1 << 20).utf8)
        for _ in 0 ..< 19 { try handle.write(contentsOf: block) }
        try handle.write(contentsOf: Data((String(repeating: "1,", count: 20_000_000 - 19 << 20 - 1) + "1]}\n").utf8))
        try handle.close()
        let short = folder.appendingPathComponent("short.jsonl").path
        try Data("x\n".utf8).write(to: URL(fileURLWithPath: short))
        try Self.expectRefusedWithin8MiB(
            ["verify", "--suite", "decay", "--no-schemes", "--results"], path, "a 40 MB answer", short: short,
            message: "\(path): line 1 of the engine's output is longer than any answer")
    }
}
