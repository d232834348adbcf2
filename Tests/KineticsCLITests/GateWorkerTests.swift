import Foundation
import KineticsTestSupport
import Testing

/// `kinetics gate` with each library in a worker process: an engine that
/// crashes, aborts, exits, hangs or chatters (Examples/engines/
/// faulty_springs.c, armed at 1,000 animations) ends the gate with a
/// verdict, and the report of what was decided before it is written.
@Suite("CLI: gate with engine workers")
struct GateWorkerTests {
    /// faulty_springs.c built with `fault`.
    static func faulty(_ fault: String) throws -> String {
        try BenchEngineLibraryTests.build(
            BenchEngineLibraryTests.root.appendingPathComponent("Examples/engines/faulty_springs.c").path,
            named: "faulty_\(fault)", in: try temporaryFolder("gate-worker"), flags: "-DFAULT=\(fault)")
    }

    /// A gate of the example engine against `after`: 100 animations (the
    /// fault is not armed), then 1,000 (41 frames reach 0.68 s of animation
    /// time: past the fault's 0.5 s in the first round).
    static func gate(after: String, _ extra: [String]) throws -> (CLIResult, base: String) {
        let base = try BenchEngineLibraryTests.example()
        let run = try kinetics(
            [
                "gate", "--before", base, "--after", after, "--animations", "100", "--animations", "1000", "--frames",
                "40", "--warmup", "1", "--max-seconds", "2",
            ] + extra)
        return (run, base)
    }

    @Test(
        "a crash, an abort or an exit in after's tick: exit 65, the side, what happened, configuration and round named; the report written with the configuration decided before it",
        arguments: EngineWorkerTests.crashes)
    func crash(fault: String, what: String) throws {
        let crash = try Self.faulty(fault)
        let folder = try temporaryFolder("gate-worker")
        let markdown = folder.appendingPathComponent("gate.md")
        let (run, _) = try Self.gate(after: crash, ["--format", "markdown", "--output", markdown.path])
        let sentence = "after (\(crash)): \(what) during round 1 of 1000 spring steady 60 Hz"
        #expect(run.status == 65, "\(run.stderr)")
        #expect(run.stderr.contains("kinetics: error: \(sentence)\n"), "\(run.stderr)")
        let text = try String(contentsOf: markdown, encoding: .utf8)
        #expect(text.contains("**Crashed:** \(sentence)."), "\(text)")
        #expect(text.contains("each in a worker process"), "\(text)")
        // The configuration before it was measured and is kept.
        #expect(text.contains("| 100 spring steady 60 Hz | "), "\(text)")
        #expect(!text.contains("| 1000 spring steady 60 Hz | "), "\(text)")
    }

    @Test("the crash in JSON and CSV: a failure object; a row whose verdict says crashed")
    func formats() throws {
        let crash = try Self.faulty("segv")
        let folder = try temporaryFolder("gate-worker")
        let json = folder.appendingPathComponent("gate.json")
        let (run, _) = try Self.gate(after: crash, ["--format", "json", "--output", json.path, "--no-value-check"])
        #expect(run.status == 65, "\(run.stderr)")
        let document = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: json)) as? [String: Any])
        let failure = try #require(document["failure"] as? [String: String], "\(document)")
        #expect(
            failure == [
                "side": "after", "build": crash, "what": "killed by signal 11 (SIGSEGV)",
                "configuration": "1000 spring steady 60 Hz", "during": "round 1",
            ])
        #expect(document["inProcess"] as? [String] == [])
        #expect((document["results"] as? [[String: Any]])?.count == 1)
        let csv = folder.appendingPathComponent("gate.csv")
        let again = try kinetics([
            "gate", "--before", crash, "--after", crash, "--animations", "1000", "--frames", "40", "--warmup", "1",
            "--format", "csv", "--output", csv.path,
        ])
        #expect(again.status == 65, "\(again.stderr)")
        let last = try String(contentsOf: csv, encoding: .utf8).split(separator: "\n").last
        // Whichever side ran first in the round crashed first.
        #expect(
            last?.hasPrefix("1000 spring steady 60 Hz,,,,,,,,,crashed: ") == true
                && last?.contains("(\(crash)): killed by signal 11 (SIGSEGV) during round 1,,") == true,
            "\(last ?? "")")
    }

    @Test(
        "a tick that never returns ends at the worker's watchdog, an engine that allocates until malloc refuses at the worker's memory limit: the gate names each",
        arguments: [
            (
                "hang", ["--frame-timeout", "1"],
                "gave no frame for 1 s (--frame-timeout), at frame 31 (warm-up included)"
            ),
            ("leak", ["--worker-memory", "1"], "killed by signal 6 (SIGABRT)"),
            // The parent sees a stopped worker, whose watchdog is stopped too.
            ("stop", [], "was stopped by signal 19 (SIGSTOP)"),
            // The helper holds the worker's pipes open: the parent does not
            // wait for it, and ends it with the worker's group.
            ("fork", [], "killed by signal 11 (SIGSEGV)"),
        ])
    func stopped(fault: String, options: [String], what: String) throws {
        let library = try Self.faulty(fault)
        let (run, _) = try Self.gate(after: library, options + ["--no-value-check"])
        #expect(run.status == 65, "\(run.stderr)")
        #expect(
            run.stderr.contains(
                "kinetics: error: after (\(library)): \(what) during round 1 of 1000 spring steady 60 Hz"),
            "\(run.stderr)")
        let left = try Self.processes(naming: library)
        #expect(left.isEmpty, "left running: \(left)")
    }

    /// The processes whose command line names `text` (pgrep's lines).
    static func processes(naming text: String) throws -> [String] {
        try shell("pgrep -f -a '\(text)' | grep -v pgrep || true").lines
    }

    @Test(
        "kinetics ended by SIGTERM or SIGKILL while an engine hangs: its worker ends too, at once or within seconds",
        arguments: ["TERM", "KILL"])
    func parentEnded(signal: String) throws {
        let library = try Self.faulty("hang")
        let base = try BenchEngineLibraryTests.example()
        let binary = try kineticsBinary().path
        // The gate, in the background; once its worker on the hanging
        // library is seen, the signal; then the worker's end is awaited (a
        // SIGKILLed parent's worker sees it within a second).
        let script = """
            '\(binary)' gate --before '\(base)' --after '\(library)' --animations 1000 --frames 40 --warmup 1 \
                --max-seconds 2 --frame-timeout 600 --no-value-check >/dev/null 2>&1 &
            parent=$!
            for _ in $(seq 600); do pgrep -f 'engine-worke[r].*\(library)' >/dev/null && break; sleep 0.1; done
            kill -\(signal) $parent
            wait $parent
            echo "status $?"
            for _ in $(seq 100); do pgrep -f 'engine-worke[r].*\(library)' >/dev/null || break; sleep 0.1; done
            pgrep -f -a 'engine-worke[r].*\(library)' | grep -v pgrep || echo "no worker left"
            """
        let run = try shell(script)
        #expect(run.lines.first == "status \(signal == "TERM" ? 143 : 137)", "\(run.stdout)")
        #expect(run.lines.last == "no worker left", "\(run.stdout)")
    }

    @Test(
        "an engine that prints 10 MB on its standard output: the output is passed on marked, and the report reads right"
    )
    func chatter() throws {
        let chatter = try Self.faulty("chatter")
        let (run, _) = try Self.gate(after: chatter, ["--format", "json", "--no-value-check", "--max-seconds", "1"])
        // A verdict, whichever the machine's load makes it (0 or 2): what
        // is tested is that the chatter neither breaks the report nor the run.
        #expect(run.status == 0 || run.status == 2, "\(run.stderr.suffix(2_000))")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        #expect((document["results"] as? [[String: Any]])?.count == 2)
        let marked = run.stderr.split(separator: "\n").filter { $0.hasPrefix("[after] xxxx") }
        #expect(marked.count == 10_000, "\(marked.count) lines of chatter")
    }

    @Test("one side in this process, the other in a worker, said in the header; bad worker options exit 64")
    func oneSideInProcess() throws {
        let base = try BenchEngineLibraryTests.example()
        let run = try kinetics([
            "gate", "--before", base, "--after", base, "--animations", "100", "--frames", "5", "--warmup", "1",
            "--max-seconds", "1", "--in-process-side", "after",
        ])
        // A verdict, whichever the machine's load makes it: the route is tested.
        #expect(run.status == 0 || run.status == 2, "\(run.stderr)")
        #expect(
            run.stdout.contains("(engine libraries, after in this process, the other in a worker)"), "\(run.stdout)")
        for (arguments, message) in [
            (["--worker-memory", "0.5"], "--worker-memory must be a number of GiB in [1, 1024], got 0.5"),
            (["--in-process", "--in-process-side", "before"], "--in-process-side only one: give one"),
        ] {
            let bad = try kinetics(["gate", "--before", base, "--after", base] + arguments)
            #expect(bad.status == 64 && bad.stderr.contains(message), "\(bad.stderr)")
        }
    }

    @Test("--in-process keeps the old route: both libraries in this process, said in the header")
    func inProcess() throws {
        let base = try BenchEngineLibraryTests.example()
        let run = try kinetics([
            "gate", "--before", base, "--after", base, "--animations", "100", "--frames", "5", "--warmup", "1",
            "--max-seconds", "1", "--in-process",
        ])
        // A verdict, whichever the machine's load makes it: the route is tested.
        #expect(run.status == 0 || run.status == 2, "\(run.stderr)")
        #expect(run.stdout.contains("(engine libraries, in one process)"), "\(run.stdout)")
    }
}
