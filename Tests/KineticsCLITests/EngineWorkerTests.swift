import Foundation
import KineticsTestSupport
import Testing

/// `kinetics bench` and `kinetics verify --engine-library` with each
/// library in a worker process: an engine that dies costs the
/// configuration or case it died in, named, and every other result is
/// kept (Examples/engines/faulty_springs.c).
@Suite("CLI: bench and verify with engine workers")
struct EngineWorkerTests {
    /// faulty_springs.c built with `fault`, armed at `armedAt` animations.
    static func faulty(_ fault: String, armedAt: Int = 1_000) throws -> String {
        try BenchEngineLibraryTests.build(
            BenchEngineLibraryTests.root.appendingPathComponent("Examples/engines/faulty_springs.c").path,
            named: "faulty_\(fault)_\(armedAt)", in: try temporaryFolder("engine-worker"),
            flags: "-DFAULT=\(fault) -DARM_AT=\(armedAt)")
    }

    /// The faults that end a worker (`-DFAULT=` of faulty_springs.c), and
    /// how its parent names each.
    static let crashes = [
        ("segv", "killed by signal 11 (SIGSEGV)"), ("abort", "killed by signal 6 (SIGABRT)"),
        ("exit", "exited with status 3"),
    ]

    /// A short bench of the animator, the example engine and `library` at
    /// 100 animations (the fault is not armed) and 1,000 (41 frames reach
    /// 0.68 s of animation time, past the fault's 0.5 s).
    static func bench(_ library: String, _ extra: [String]) throws -> CLIResult {
        try kinetics(
            [
                "bench", "--engine", "animator", "--engine", "soa-springs", "--engine", "faulty-springs",
                "--engine-library", try BenchEngineLibraryTests.example(), "--engine-library", library,
                "--animations", "100", "--animations", "1000", "--frames", "40", "--warmup", "1", "--no-bezier",
            ] + extra)
    }

    @Test(
        "bench: a crash, an abort or an exit costs its configuration alone; the other engines' rows and the engine's other configurations are written; exit 65",
        arguments: crashes)
    func benchCrash(fault: String, what: String) throws {
        let library = try Self.faulty(fault)
        let output = try temporaryFolder("engine-worker").appendingPathComponent("bench.md")
        let run = try Self.bench(library, ["--format", "markdown", "--output", output.path, "--no-value-check"])
        let sentence = "faulty-springs (\(library)): \(what) measuring faulty-springs 1000 spring steady 60 Hz pop"
        #expect(run.status == 65, "\(run.stderr)")
        #expect(run.stderr.hasSuffix("kinetics: error: \(sentence)\n"), "\(run.stderr)")
        let text = try String(contentsOf: output, encoding: .utf8)
        #expect(text.contains("- **Crashed:** \(sentence); no result."), "\(text)")
        for row in [
            "| animator | 100 |", "| soa-springs | 100 |", "| faulty-springs | 100 |", "| animator | 1000 |",
            "| soa-springs | 1000 |",
        ] {
            #expect(text.contains(row), "\(row) in \(text)")
        }
        #expect(!text.contains("| faulty-springs | 1000 |"), "\(text)")
    }

    @Test("bench: the crash in JSON (a failures list) and CSV (a row whose last field says crashed)")
    func benchFormats() throws {
        let library = try Self.faulty("exit")
        let run = try Self.bench(library, ["--format", "json", "--no-value-check"])
        #expect(run.status == 65, "\(run.stderr)")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        let failures = try #require(document["failures"] as? [[String: Any]], "\(run.stdout.prefix(500))")
        #expect(failures.count == 1)
        #expect(failures.first?["what"] as? String == "exited with status 3")
        #expect(failures.first?["library"] as? String == library)
        let configuration = try #require(failures.first?["configuration"] as? [String: Any])
        #expect(configuration["animations"] as? Int == 1_000 && configuration["engine"] as? String == "faulty-springs")
        #expect((document["results"] as? [[String: Any]])?.count == 5)
        let csv = try Self.bench(library, ["--format", "csv", "--no-value-check"])
        #expect(csv.status == 65)
        let lines = csv.stdout.split(separator: "\n")
        #expect(lines.first?.hasSuffix(",estimated_cycles_per_frame,failure") == true)
        let expected =
            "faulty-springs,1000,spring,steady,60.0,pop" + String(repeating: ",", count: 19)
            + "crashed: \(library): exited with status 3"
        #expect(lines.last.map(String.init) == expected)
    }

    @Test(
        "bench: a hang ends at the worker's watchdog, an engine that allocates without end at --worker-memory; 10 MB of chatter is passed on marked and the JSON reads right"
    )
    func benchStopsAndChatter() throws {
        let hang = try Self.bench(try Self.faulty("hang"), ["--frame-timeout", "1", "--no-value-check"])
        #expect(hang.status == 65)
        #expect(
            hang.stderr.contains(
                "gave no frame for 1 s (--frame-timeout), at frame 31 (warm-up included) measuring faulty-springs 1000"),
            "\(hang.stderr)")
        let leak = try Self.bench(try Self.faulty("leak"), ["--worker-memory", "1", "--no-value-check"])
        #expect(leak.status == 65)
        #expect(leak.stderr.contains("killed by signal 6 (SIGABRT) measuring faulty-springs 1000"), "\(leak.stderr)")
        let chatter = try Self.bench(try Self.faulty("chatter"), ["--format", "json"])
        #expect(chatter.status == 0, "\(chatter.stderr.suffix(1_000))")
        let document = try #require(
            try JSONSerialization.jsonObject(with: Data(chatter.stdout.utf8)) as? [String: Any])
        #expect((document["results"] as? [[String: Any]])?.count == 6)
        #expect(document["failures"] == nil)
        let marked = chatter.stderr.split(separator: "\n").filter { $0.hasPrefix("[faulty-springs] xxxx") }
        #expect(marked.count == 10_000, "\(marked.count) lines of chatter")
    }

    @Test("bench: two libraries whose engines share a name exit 65 naming both; --worker-memory out of range exits 64")
    func benchBadInput() throws {
        let first = try BenchEngineLibraryTests.example()
        let copy = try temporaryFolder("engine-worker").appendingPathComponent("libcopy.so")
        try FileManager.default.copyItem(atPath: first, toPath: copy.path)
        let twice = try kinetics(["bench", "--engine-library", first, "--engine-library", copy.path, "--no-bezier"])
        #expect(twice.status == 65)
        #expect(
            twice.stderr.contains("\(copy.path): its engine 'soa-springs' has the name of \(first)'s"),
            "\(twice.stderr)")
        let memory = try kinetics(["bench", "--engine-library", first, "--worker-memory", "0.5"])
        #expect(memory.status == 64)
        #expect(memory.stderr.contains("--worker-memory must be a number of GiB in [1, 1024], got 0.5"))
    }

    @Test(
        "--count instructions: the frames counted in a worker under callgrind are the in-process count within 0.1% (one gate, one side each way)"
    )
    func countsSame() throws {
        let library = try BenchEngineLibraryTests.example()
        let gate = try kinetics([
            "gate", "--before", library, "--after", library, "--animations", "1000", "--frames", "5", "--count",
            "instructions", "--in-process-side", "after", "--format", "csv",
        ])
        #expect(gate.status == 0, "\(gate.stderr)")
        let row = try #require(gate.stdout.split(separator: "\n").last).split(separator: ",")
        let (worker, inProcess) = (try #require(Double(row[1])), try #require(Double(row[2])))
        // soa_springs.c's frame at 1,000 springs: some 30 instructions a spring.
        #expect(worker > 10_000 && abs(worker / inProcess - 1) <= 0.001 && row.last == "unchanged", "\(row)")
    }

    @Test("verify: the same report from a worker as in-process, number for number")
    func verifySame() throws {
        let library = try BenchEngineLibraryTests.example()
        let folder = try temporaryFolder("engine-worker")
        var reports: [String] = []
        for route in [[], ["--in-process"]] {
            let path = folder.appendingPathComponent("verify\(route.count).json").path
            let run = try kinetics(
                [
                    "verify", "--engine-library", library, "--suite", "spring", "--shard", "1/4", "--format", "json",
                    "--output", path,
                ] + route)
            #expect(run.status == 0, "\(run.stderr)")
            var document = try #require(
                try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
            // The run's duration alone may differ.
            document["seconds"] = nil
            let data = try JSONSerialization.data(withJSONObject: document, options: [.sortedKeys])
            reports.append(String(decoding: data, as: UTF8.self))
        }
        #expect(reports[0] == reports[1])
        #expect(reports[0].contains("\"springCases\""))
    }

    @Test(
        "verify: a crash names the case that ends a worker alone (each batch halved in new workers); the report is written with the fault; exit 65",
        arguments: [
            ("segv", "killed by signal 11 (SIGSEGV)"), ("exit", "exited with status 3"),
            // Seen by the parent: the worker's own watchdog is stopped with it.
            ("stop", "was stopped by signal 19 (SIGSTOP)"),
            // A helper holding the pipes open is not waited for.
            ("fork", "killed by signal 11 (SIGSEGV)"),
        ])
    func verifyCrash(fault: String, what: String) throws {
        let library = try Self.faulty(fault, armedAt: 1)
        let path = try temporaryFolder("engine-worker").appendingPathComponent("verify.json").path
        let run = try kinetics(
            ["verify", "--engine-library", library, "--suite", "spring", "--format", "json", "--output", path])
        #expect(run.status == 65, "\(run.stderr)")
        let message = try #require(run.stderr.split(separator: "\n").last.map(String.init))
        #expect(
            message.hasPrefix("kinetics: error: the engine library's worker ended answering case spring/")
                && message.contains("(run alone, in a worker of its own): \(what); 0 of "),
            "\(message)")
        let document = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
        let recorded = try #require(document["fault"] as? [String: String])
        #expect("kinetics: error: " + (recorded["message"] ?? "") == message)
        #expect(recorded["kind"] == "ended")
        // The case named crashes a worker alone: it is the first whose
        // animation passes 0.5 s, and every spring case does.
        let id = String(message.split(separator: " ")[9])
        #expect(id.hasPrefix("spring/"), "\(id)")
    }

    @Test("verify: a tick that never returns ends at --case-timeout, naming its batch")
    func verifyHang() throws {
        let library = try Self.faulty("hang", armedAt: 1)
        let run = try kinetics(["verify", "--engine-library", library, "--suite", "spring", "--case-timeout", "1"])
        #expect(run.status == 65, "\(run.stderr)")
        #expect(
            run.stderr.contains("kinetics: error: the engine library's worker stopped in a batch of ")
                && run.stderr.contains(": it gave no answer for 1 s (--case-timeout); 0 of "), "\(run.stderr)")
        #expect(run.stderr.contains("[faulty-springs] kinetics: error: faulty-springs: "), "\(run.stderr)")
    }
}
