import Foundation
import KineticsTestSupport
import Testing

/// `kinetics gate`: two builds of the C example engine in one process, two
/// commands that print bench documents, the verdicts and exit status, the
/// bad input, and the frame watchdog. The one timed comparison uses a
/// slowdown of about 3× (and a minimum effect of 50% where nothing may be
/// flagged), so that chance cannot fail it; the statistics themselves are
/// tested on fixed timings (PairedComparisonTests).
@Suite("CLI: gate two builds")
struct GateCommandTests {
    typealias Library = BenchEngineLibraryTests

    /// The example engine with `extra` multiply-adds per 1,000 springs a
    /// frame (scripts/gate/soa_springs_slowed.c).
    static func slowed(_ extra: Int) throws -> String {
        let folder = try temporaryFolder("gate")
        let output = folder.appendingPathComponent("libslowed.so").path
        let root = Library.root
        let compiled = try shell(
            "cc -O2 -Wall -Werror -shared -fPIC -DEXTRA=\(extra) -I '\(root.path)/Sources/CKineticsEngine/include' -I '\(root.path)/Examples/engines' -o '\(output)' '\(root.path)/scripts/gate/soa_springs_slowed.c' -lm"
        )
        #expect(compiled.status == 0, "cc: \(compiled.stderr)")
        return output
    }

    @Test("a build about 3× slower is a regression (exit 2, named); the same build is not, at a 50% minimum effect")
    func libraries() throws {
        let before = try Library.example()
        let after = try Self.slowed(4_000)
        let slow = try kinetics([
            "gate", "--before", before, "--after", after, "--animations", "1000", "--max-seconds", "60",
            "--format", "json",
        ])
        #expect(slow.status == 2, "\(slow.stderr)")
        #expect(slow.stderr.contains("regression: 1000 spring steady 60 Hz: change +"), "\(slow.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(slow.stdout.utf8)) as? [String: Any])
        #expect(report["kind"] as? String == "kinetics-gate" && report["mode"] as? String == "library")
        let result = try #require((report["results"] as? [[String: Any]])?.first)
        let comparison = try #require(result["comparison"] as? [String: Any])
        #expect(comparison["verdict"] as? String == "regression")
        let rounds = try #require(comparison["rounds"] as? Int)
        #expect(rounds >= 25 && (result["before"] as? [Double])?.count == rounds)
        #expect((comparison["lower"] as? Double ?? 0) > 1.5, "\(comparison)")

        let same = try kinetics([
            "gate", "--before", before, "--after", before, "--animations", "1000", "--min-effect", "50",
            "--max-seconds", "20",
        ])
        #expect(same.status == 0, "\(same.stderr)")
        let row = try #require(same.lines.first { $0.hasPrefix("1000 spring steady 60 Hz") })
        #expect(row.hasSuffix("unchanged") || row.hasSuffix("inconclusive"), "\(row)")
        #expect(same.stdout.contains("Hodges–Lehmann") && same.stdout.contains("together they hold at 99%"))
    }

    /// A bench document of the batch engine at 100 animations, measured
    /// once, and a copy whose p50 times `factor`.
    static func documents(_ factor: Double) throws -> (before: String, after: String) {
        let folder = try temporaryFolder("gate")
        let before = folder.appendingPathComponent("before.json")
        let measured = try kinetics([
            "bench", "--engine", "batch", "--animations", "100", "--frames", "2", "--warmup", "1", "--no-bezier",
            "--no-value-check", "--format", "json", "--output", before.path,
        ])
        #expect(measured.status == 0, "\(measured.stderr)")
        var report = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: before)) as? [String: Any])
        var results = try #require(report["results"] as? [[String: Any]])
        for index in results.indices { results[index]["p50"] = (results[index]["p50"] as! Double) * factor }
        report["results"] = results
        let after = folder.appendingPathComponent("after.json")
        try JSONSerialization.data(withJSONObject: report).write(to: after)
        return (before.path, after.path)
    }

    @Test("two commands: twice the time is a regression, half is an improvement, the same is unchanged")
    func commands() throws {
        let slower = try Self.documents(2)
        let regressed = try kinetics([
            "gate", "--before-command", "cat '\(slower.before)'", "--after-command", "cat '\(slower.after)'",
            "--format", "markdown",
        ])
        #expect(regressed.status == 2, "\(regressed.stderr)")
        #expect(regressed.stdout.contains("| batch 100 spring steady 60 Hz pop | 25 |"), "\(regressed.stdout)")
        #expect(regressed.stdout.contains("+100.0% | +100.0% … +100.0% | **regression** |"), "\(regressed.stdout)")
        #expect(regressed.stderr.contains("kinetics: error: 1 regression of after against before"))

        let faster = try Self.documents(0.5)
        let improved = try kinetics([
            "gate", "--before-command", "cat '\(faster.before)'", "--after-command", "cat '\(faster.after)'",
            "--format", "csv",
        ])
        #expect(improved.status == 0, "\(improved.stderr)")
        #expect(
            improved.lines.first
                == "configuration,rounds,before_ns,after_ns,ratio,lower,upper,confidence,min_effect,verdict,before_value_error,after_value_error,seconds"
        )
        #expect(improved.lines.last?.hasPrefix("batch 100 spring steady 60 Hz pop,25,") == true)
        #expect(improved.lines.last?.contains(",0.5,0.5,0.5,0.99848") == true, "\(improved.stdout)")
        #expect(improved.lines.last?.contains(",0.02,improvement,,,") == true, "\(improved.stdout)")
        let seconds = improved.lines.last?.split(separator: ",", omittingEmptySubsequences: false).last
        #expect(seconds.flatMap { Double($0) }.map { $0 >= 0 } == true, "the last column is the run's seconds")

        let same = try kinetics([
            "gate", "--before-command", "cat '\(faster.before)'", "--after-command", "cat '\(faster.before)'",
        ])
        #expect(same.status == 0 && same.stdout.contains("1 unchanged."), "\(same.stdout)\(same.stderr)")
    }

    @Test(
        "two commands without --max-seconds: a budget of 1,000 rounds at the first round's pace (at least 60 s), said on stderr and kept in the report"
    )
    func commandBudget() throws {
        let same = try Self.documents(1)
        // Each round runs two commands of at least 0.1 s: more than 200 s for 1,000 rounds.
        let run = try kinetics([
            "gate", "--before-command", "sleep 0.1; cat '\(same.before)'", "--after-command",
            "sleep 0.1; cat '\(same.after)'", "--format", "json",
        ])
        #expect(run.status == 0, "\(run.stderr)")
        let line = try #require(run.stderr.split(separator: "\n").first { $0.hasPrefix("kinetics: gate: ") })
        let seconds = try #require(Double(line.split(separator: " ")[2]))
        #expect(seconds >= 200 && seconds <= 1_800, "\(line)")
        #expect(line.contains(" s for the comparison (1000 rounds at the first round's "), "\(line)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        #expect(report["maxSeconds"] as? Double == seconds || abs((report["maxSeconds"] as? Double ?? 0) - seconds) < 1)
        // Identical documents decide at the first look, long before the budget.
        #expect((report["seconds"] as? Double ?? .infinity) < 60)
    }

    @Test("a build that computes something else fails on its values, whatever its speed")
    func values() throws {
        let before = try Library.example()
        let source = try String(
            contentsOf: Library.root.appendingPathComponent("Examples/engines/soa_springs.c"), encoding: .utf8)
        let after = try Library.library(
            source.replacingOccurrences(of: "exact(e->kinds[k], h)", with: "exact(e->kinds[k], 0.5 * h)"),
            named: "soa_half")
        let result = try kinetics([
            "gate", "--before", before, "--after", after, "--animations", "1000", "--max-seconds", "5",
        ])
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stdout.contains("  1000 spring steady 60 Hz: before 2.50e-15, after 3.5"), "\(result.stdout)")
        #expect(result.stdout.contains("CHANGED") && result.stdout.contains("1 with changed values."))
        #expect(
            result.stderr.contains("regression: 1000 spring steady 60 Hz: after's value error 3.5"), "\(result.stderr)")
        let unchecked = try kinetics([
            "gate", "--before", before, "--after", after, "--animations", "1000", "--max-seconds", "5",
            "--no-value-check", "--min-effect", "50",
        ])
        #expect(unchecked.status == 0, "\(unchecked.stderr)")
        #expect(!unchecked.stdout.contains("values against GSL"))
    }

    @Test("time out before the first look: inconclusive on stderr, exit 0, or 2 with --fail-inconclusive")
    func inconclusive() throws {
        let pair = try Self.documents(2)
        let arguments = [
            "gate", "--before-command", "cat '\(pair.before)'", "--after-command", "cat '\(pair.after)'",
            "--max-seconds", "0.001",
        ]
        let open = try kinetics(arguments)
        #expect(open.status == 0, "\(open.stderr)")
        #expect(
            open.stderr.contains(
                "inconclusive: batch 100 spring steady 60 Hz pop: change +100.0% (unbounded at 99.39%) over 1 rounds"),
            "\(open.stderr)")
        let strict = try kinetics(arguments + ["--fail-inconclusive"])
        #expect(strict.status == 2, "\(strict.stderr)")
        #expect(strict.stderr.contains("1 inconclusive (--fail-inconclusive)"))
    }

    @Test("bad input: the option or side named, with its status")
    func badInput() throws {
        let library = try Library.example()
        let pair = try Self.documents(1)
        func run(_ arguments: [String]) throws -> CLIResult { try kinetics(["gate"] + arguments) }
        let usage: [([String], String)] = [
            (
                ["--before", library, "--after", library, "--confidence", "1"],
                "--confidence must be a number in (0, 1), got 1.0"
            ),
            (["--before", library, "--after", library, "--confidence", "nine"], "--confidence"),
            (
                ["--before", library, "--after", library, "--min-effect", "-1"],
                "--min-effect must be a percentage in [0, 100)"
            ),
            (
                ["--before", library, "--after", library, "--max-seconds", "0"],
                "--max-seconds must be a number of seconds"
            ),
            (["--before", library, "--after", library, "--frame-timeout", "inf"], "--frame-timeout must be"),
            (["--before", library], "--before and --after go together"),
            ([], "give --before and --after"),
            (
                ["--before", library, "--after", library, "--before-command", "true", "--after-command", "true"],
                "not both"
            ),
            (["--before-command", "true", "--after-command", "true", "--animations", "10"], "the workload options"),
        ]
        for (arguments, message) in usage {
            let result = try run(arguments)
            #expect(result.status == 64, "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains(message), "\(arguments): \(result.stderr)")
        }
        // Neither build given: nothing says "not both".
        let bare = try run([])
        #expect(
            bare.stderr
                == "kinetics: error: give --before and --after (two engine libraries) or --before-command and --after-command (two commands)\n"
        )
        // A bad value of a listed option: the values on the one line, as a list.
        let scenario = try run(["--before", library, "--after", library, "--scenario", "bogus"])
        #expect(scenario.status == 64)
        #expect(
            scenario.stderr
                == "kinetics: error: The value 'bogus' is invalid for '--scenario <scenario>'. Please provide one of: steady, jitter, churn, mass-completion, retarget-storm, burst\n",
            "\(scenario.stderr)")
        let missing = try run(["--before", "/nonexistent/lib.so", "--after", library])
        #expect(
            missing.status == 66 && missing.stderr.contains("before: /nonexistent/lib.so: no such file"),
            "\(missing.stderr)")
        let notLibrary = try run(["--before", library, "--after", pair.before])
        #expect(
            notLibrary.status == 65 && notLibrary.stderr.contains("after: \(pair.before): not a loadable library"),
            "\(notLibrary.stderr)")
        let refused = try run(["--before", library, "--after", library, "--mix", "decay", "--max-seconds", "5"])
        #expect(
            refused.status == 65 && refused.stderr.contains("create failed: animation 0 is not a scalar spring"),
            "\(refused.stderr)")

        let good = "cat '\(pair.before)'"
        let bad: [(String, String, String)] = [
            ("exit 3", good, "before (exit 3): exited with status 3"),
            (good, "echo hello", "after (echo hello): printed no kinetics bench JSON document"),
            (
                good,
                "echo '{\"kind\": \"kinetics-bench\", \"formatVersion\": 1, \"kinetics\": \"x\", \"machine\": \"m\", \"results\": [], \"scaling\": []}'",
                "after ("
            ),
        ]
        for (before, after, message) in bad {
            let result = try run(["--before-command", before, "--after-command", after])
            #expect(result.status == 65, "\(before) / \(after): \(result.stderr)")
            #expect(result.stderr.contains(message), "\(result.stderr)")
        }
        // Different configurations: the document of 100 batch animations against one of 200.
        let other = try temporaryFolder("gate").appendingPathComponent("other.json")
        let measured = try kinetics([
            "bench", "--engine", "batch", "--animations", "200", "--frames", "2", "--warmup", "1", "--no-bezier",
            "--no-value-check", "--format", "json", "--output", other.path,
        ])
        #expect(measured.status == 0)
        let mismatch = try run(["--before-command", good, "--after-command", "cat '\(other.path)'"])
        #expect(mismatch.status == 65, "\(mismatch.stderr)")
        #expect(
            mismatch.stderr.contains(
                "do not match: only before measured batch 100 spring steady 60 Hz pop, only after measured batch 200 spring steady 60 Hz pop"
            ),
            "\(mismatch.stderr)")
        // The command's own children end with it: a shell that started a
        // program in the background, and waits.
        let pidFile = try temporaryFolder("gate").appendingPathComponent("sleeper.pid").path
        let slow = try run([
            "--before-command", "sleep 600 & echo $! > '\(pidFile)'; wait", "--after-command", good,
            "--command-timeout", "1",
        ])
        #expect(
            slow.status == 65 && slow.stderr.contains("still running after 1 s (--command-timeout); ended"),
            "\(slow.stderr)")
        let sleeper = try #require(
            Int32(try String(contentsOfFile: pidFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))
        // Gone, or a zombie where no init reaps orphans (as on this machine).
        let stat = try? String(contentsOfFile: "/proc/\(sleeper)/stat", encoding: .utf8)
        let state = stat?.split(separator: ")").last?.split(separator: " ").first
        #expect(stat == nil || state == "Z", "the background sleep \(sleeper) outlived the command: \(stat ?? "")")
    }

    @Test("--count instructions: the same count run after run, a 1.5% increase fails the baseline, no valgrind is 69")
    func instructions() throws {
        let library = try Library.example()
        let folder = try temporaryFolder("gate")
        let baseline = folder.appendingPathComponent("counted.json").path
        let quick = [
            "--animations", "1000", "--frames", "5", "--warmup", "2", "--no-bezier", "--count", "instructions",
            "--max-regression", "100000",
        ]
        func perFrame(_ result: CLIResult) throws -> Double {
            let report = try #require(
                try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
            let first = try #require((report["results"] as? [[String: Any]])?.first)
            return try #require((first["instructions"] as? [String: Any])?["instructionsPerFrame"] as? Double)
        }
        let first = try kinetics(
            [
                "bench", "--engine-library", library, "--engine", "soa-springs", "--format", "json", "--save-baseline",
                baseline,
            ] + quick)
        #expect(first.status == 0, "\(first.stderr)")
        let second = try kinetics(
            [
                "bench", "--engine-library", library, "--engine", "soa-springs", "--format", "json", "--baseline",
                baseline,
            ]
                + quick)
        #expect(second.status == 0, "\(second.stderr)")
        #expect(try perFrame(first) == perFrame(second), "the same binary counts the same")
        #expect(second.stderr.contains("; instructions per frame +0.00%"), "\(second.stderr)")
        // 15 more multiply-add iterations per frame (about 75 instructions) on about 33,000,
        // against the baseline under the slowed build's name: within the default 1%, it passes.
        let slowed = try Self.slowed(15)
        let renamed = try String(contentsOfFile: baseline, encoding: .utf8)
            .replacingOccurrences(of: "\"soa-springs\"", with: "\"soa-springs-slowed\"")
        try renamed.write(toFile: baseline, atomically: true, encoding: .utf8)
        let within = try kinetics(
            [
                "bench", "--engine-library", slowed, "--engine", "soa-springs-slowed", "--format", "json",
                "--baseline", baseline,
            ] + quick)
        #expect(within.status == 0, "\(within.stderr)")
        let increase = try perFrame(within) / perFrame(first) - 1
        #expect(increase > 0.001 && increase < 0.01, "\(increase)")
        // Under a limit of half the increase, it fails.
        let tight = try kinetics(
            [
                "bench", "--engine-library", slowed, "--engine", "soa-springs-slowed", "--baseline", baseline,
                "--max-count-increase", String(increase * 100 / 2),
            ] + quick)
        #expect(tight.status == 2, "\(tight.stderr)")
        #expect(tight.stderr.contains("instructions per frame vs baseline"), "\(tight.stderr)")
        let missing = try kinetics(
            ["bench", "--engine", "batch", "--animations", "10", "--no-bezier", "--count", "instructions"],
            environment: ["PATH": "/nonexistent"])
        #expect(missing.status == 69, "\(missing.stderr)")
        #expect(missing.stderr.contains("valgrind, which is not installed"), "\(missing.stderr)")
    }

    @Test("gate --count instructions: 1.1% more instructions is a regression every time, an identical build unchanged")
    func countedLibraries() throws {
        let before = try Library.example()
        let copy = try temporaryFolder("gate").appendingPathComponent("libsame.so")
        try FileManager.default.copyItem(atPath: before, toPath: copy.path)
        let after = try Self.slowed(70)
        let quick = ["--animations", "1000", "--frames", "5", "--warmup", "2", "--count", "instructions"]
        let more = try kinetics(["gate", "--before", before, "--after", after, "--format", "json"] + quick)
        #expect(more.status == 2, "\(more.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(more.stdout.utf8)) as? [String: Any])
        #expect(report["counted"] as? Bool == true)
        let result = try #require((report["results"] as? [[String: Any]])?.first)
        let counts = try #require(result["instructions"] as? [String: Any])
        let change = try #require(counts["change"] as? Double)
        #expect(change >= 1 && change < 1.5, "\(counts)")
        #expect(counts["verdict"] as? String == "regression" && result["comparison"] == nil)
        #expect(more.stderr.contains("regression: 1000 spring steady 60 Hz: instructions per frame "), "\(more.stderr)")
        let same = try kinetics(["gate", "--before", before, "--after", copy.path] + quick)
        #expect(same.status == 0, "\(same.stderr)")
        let row = try #require(same.lines.first { $0.hasPrefix("1000 spring steady 60 Hz") })
        #expect(row.contains("+0.00%") && row.hasSuffix("unchanged"), "\(row)")
    }

    @Test("the project's own gate fails on an animator made 5% slower (the test build's knob), counted")
    func slowerAnimator() throws {
        let binary = try kineticsBinary().path
        let bench =
            "'\(binary)' bench --engine animator --animations 1000 --frames 5 --warmup 2 --no-bezier --no-value-check --count instructions --format json"
        let result = try kinetics([
            "gate", "--count", "instructions", "--before-command", bench, "--after-command",
            "KINETICS_TEST_EXTRA_PERCENT=6 \(bench)",
        ])
        #expect(result.status == 2, "\(result.stderr)")
        let row = try #require(result.lines.first { $0.hasPrefix("animator 1000 spring steady 60 Hz pop") })
        #expect(row.hasSuffix("regression"), "\(row)")
        // 6% more springs: a little more than 6% of the test build's instructions (the 60 past 1,024
        // make a second grouping window, whose short runs of each group cost more a spring).
        let change = try #require(
            row.split(separator: " ").first { $0.hasSuffix("%") }.flatMap { Double($0.dropLast()) })
        #expect(change > 4.5 && change < 7.5, "\(row)")
        // Documents without counts are refused.
        let uncounted = try kinetics([
            "gate", "--count", "instructions", "--before-command",
            "'\(binary)' bench --engine batch --animations 10 --frames 1 --warmup 0 --no-bezier --format json",
            "--after-command", "true",
        ])
        #expect(uncounted.status == 65, "\(uncounted.stderr)")
        #expect(uncounted.stderr.contains("has no instruction counts; run the command with --count instructions"))
    }

    @Test("a frame that never returns ends bench and gate with 65, naming the configuration and the frame")
    func watchdog() throws {
        let hanging = try Library.library(
            """
            #include <stdlib.h>
            #include "kinetics_engine.h"
            static volatile int forever = 1;
            static void *hang_create(const kinetics_workload *w, char *e, size_t n) { (void)w; (void)e; (void)n; return malloc(1); }
            static void hang_replace(void *h, int64_t i, const kinetics_animation *a) { (void)h; (void)i; (void)a; }
            static void hang_retarget(void *h, int64_t i, double to) { (void)h; (void)i; (void)to; }
            static void hang_tick(void *h, double t) { (void)h; if (t > 0.05) while (forever) {} }
            static double hang_value(const void *h, int64_t i) { (void)h; (void)i; return 0; }
            static int64_t hang_running(const void *h) { (void)h; return 1; }
            static void hang_destroy(void *h) { free(h); }
            static const kinetics_engine table = KINETICS_ENGINE_TABLE(hang, "hang");
            uint32_t kinetics_engine_abi_version(void) { return KINETICS_ENGINE_ABI_VERSION; }
            const kinetics_engine *kinetics_engine_table(void) { return &table; }
            """, named: "hang")
        let bench = try kinetics([
            "bench", "--engine-library", hanging, "--engine", "hang", "--animations", "10", "--no-bezier",
            "--frame-timeout", "1",
        ])
        #expect(bench.status == 65, "\(bench.stderr)")
        #expect(
            bench.stderr.contains(
                "kinetics: error: hang 10 spring steady 60 Hz pop: frame 4 (warm-up included) has not returned after"),
            "\(bench.stderr)")
        #expect(bench.stderr.contains("(--frame-timeout 1)"))
        let gate = try kinetics([
            "gate", "--before", hanging, "--after", hanging, "--animations", "10", "--frame-timeout", "1",
        ])
        #expect(gate.status == 65, "\(gate.stderr)")
        #expect(gate.stderr.contains(" 10 spring steady 60 Hz pop: frame 4 (warm-up included)"), "\(gate.stderr)")
    }
}
