import Foundation
import KineticsTestSupport
import Testing

/// Every verdict fails on a measure that is not a number: each gate, the
/// merge of verification shards and compare are given a planted NaN (or a
/// motion beyond a double's range) and must fail, where a comparison written
/// `value > limit` would have passed it.
@Suite("CLI: NaN fails every verdict")
struct NotANumberTests {
    typealias Library = BenchEngineLibraryTests

    /// faulty_springs.c with `-DFAULT=nan`: every value NaN from `armedAt`
    /// animations on (1: always; a million: never, the engine is sound).
    static func nanEngine(armedAt: Int) throws -> String { try EngineWorkerTests.faulty("nan", armedAt: armedAt) }

    @Test("gate of two libraries: after's values all NaN is a regression, exit 2, however the times compare")
    func gateLibraries() throws {
        let result = try kinetics([
            "gate", "--before", try Library.example(), "--after", try Self.nanEngine(armedAt: 1), "--animations",
            "1000", "--max-seconds", "3",
        ])
        #expect(result.status == 2, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("  1000 spring steady 60 Hz: before 2.50e-15, after nan"), "\(result.stdout)")
        #expect(
            result.stderr.contains("after's value error nan against before's 2.50e-15, not a finite number"),
            "\(result.stderr)")
        // The times may be a regression too (NaN arithmetic is not always
        // as fast): one or two regressions, the value's always among them.
        #expect(
            result.stderr.contains("kinetics: error: 1 regression of after against before")
                || result.stderr.contains("kinetics: error: 2 regressions of after against before"),
            "\(result.stderr)")
    }

    /// A bench document of the batch engine with its value check, and a copy
    /// whose value errors are `error` (as JSON: a number or "nan").
    static func documents(valueError error: Any) throws -> (before: String, after: String) {
        let folder = try temporaryFolder("nan")
        let before = folder.appendingPathComponent("before.json")
        let measured = try kinetics([
            "bench", "--engine", "batch", "--animations", "100", "--frames", "2", "--warmup", "1", "--no-bezier",
            "--format", "json", "--output", before.path,
        ])
        #expect(measured.status == 0, "\(measured.stderr)")
        var report = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: before)) as? [String: Any])
        var results = try #require(report["results"] as? [[String: Any]])
        for index in results.indices {
            var check = try #require(results[index]["valueCheck"] as? [String: Any], "the batch engine is checked")
            check["error"] = error
            results[index]["valueCheck"] = check
        }
        report["results"] = results
        let after = folder.appendingPathComponent("after.json")
        try JSONSerialization.data(withJSONObject: report).write(to: after)
        return (before.path, after.path)
    }

    @Test(
        "gate of two commands: a document whose value error is \"nan\" or \"inf\" is a regression; the same numbers are not"
    )
    func gateCommands() throws {
        for planted in ["nan", "inf"] {
            let pair = try Self.documents(valueError: planted)
            let result = try kinetics([
                "gate", "--before-command", "cat '\(pair.before)'", "--after-command", "cat '\(pair.after)'",
                "--max-seconds", "5",
            ])
            #expect(result.status == 2, "\(planted): \(result.stdout)\(result.stderr)")
            #expect(result.stderr.contains("after's value error \(planted) against before's"), "\(result.stderr)")
            #expect(result.stderr.contains("not a finite number"), "\(result.stderr)")
        }
        let pair = try Self.documents(valueError: 1e-15)
        let same = try kinetics([
            "gate", "--before-command", "cat '\(pair.before)'", "--after-command", "cat '\(pair.before)'",
            "--max-seconds", "5",
        ])
        #expect(same.status == 0, "\(same.stdout)\(same.stderr)")
    }

    @Test(
        "bench --baseline: NaN values against a baseline of numbers, or against a NaN baseline, are a regression; numbers against a NaN baseline are not"
    )
    func benchBaseline() throws {
        let sound = try Self.nanEngine(armedAt: 1_000_000)
        let broken = try Self.nanEngine(armedAt: 1)
        let folder = try temporaryFolder("nan")
        func bench(_ library: String, _ extra: [String]) throws -> CLIResult {
            try kinetics(
                [
                    "bench", "--engine", "faulty-springs", "--engine-library", library, "--animations", "100",
                    "--frames", "2", "--warmup", "1", "--no-bezier", "--max-regression", "100000",
                ] + extra)
        }
        let numbers = folder.appendingPathComponent("numbers.json").path
        let nan = folder.appendingPathComponent("nan.json").path
        let savedNumbers = try bench(sound, ["--save-baseline", numbers])
        #expect(savedNumbers.status == 0, "\(savedNumbers.stderr)")
        let savedNaN = try bench(broken, ["--save-baseline", nan])
        #expect(savedNaN.status == 0, "\(savedNaN.stderr)")
        // The engine's own figures only: its bytes are not the batches', and it takes no method.
        let row = try #require(savedNaN.lines.first { $0.hasPrefix("faulty-springs ") })
        let cells = row.split(separator: " ", omittingEmptySubsequences: true)
        #expect(cells[5] == "-", "the method column: \(row)")
        #expect(savedNaN.stdout.contains("  faulty-springs spring steady 60 Hz: nan at spring 0"), "\(savedNaN.stdout)")

        for baseline in [numbers, nan] {
            let result = try bench(broken, ["--baseline", baseline])
            #expect(result.status == 2, "against \(baseline): \(result.stderr)")
            #expect(
                result.stderr.contains("value error nan vs baseline")
                    && result.stderr.contains("(not a finite number): the engine's values are not numbers"),
                "\(result.stderr)")
        }
        let fixed = try bench(sound, ["--baseline", nan])
        #expect(fixed.status == 0, "a sound engine against a NaN baseline: \(fixed.stderr)")
    }

    /// `verify --suite SUITE --method METHOD` as two shards, their JSON
    /// reports written to a fresh folder.
    static func shards(suite: String, method: String) throws -> [URL] {
        let folder = try temporaryFolder("nan-shards")
        return try (1 ... 2).map { index in
            let path = folder.appendingPathComponent("shard\(index).json")
            let run = try kinetics([
                "verify", "--suite", suite, "--method", method, "--shard", "\(index)/2", "--format", "json",
                "--output", path.path,
            ])
            #expect(run.status == 0, "\(run.stderr)")
            return path
        }
    }

    /// Sets every member `key` found anywhere in the JSON file at `url` to
    /// `value`, and returns how many were set.
    @discardableResult
    static func plant(_ key: String, _ value: Any, in url: URL) throws -> Int {
        var count = 0
        func walk(_ node: Any) -> Any {
            if var object = node as? [String: Any] {
                for (name, member) in object {
                    if name == key {
                        object[name] = value
                        count += 1
                    } else {
                        object[name] = walk(member)
                    }
                }
                return object
            }
            if let array = node as? [Any] { return array.map(walk) }
            return node
        }
        let planted = walk(try JSONSerialization.jsonObject(with: Data(contentsOf: url)))
        try JSONSerialization.data(withJSONObject: planted).write(to: url)
        return count
    }

    @Test(
        "verify merge judges a built-in shard again: a precise bezier error edited to 1.0 or \"nan\" fails the merged report (exit 1)",
        arguments: ["1.0", "nan"])
    func mergeJudgesAgain(_ text: String) throws {
        // As JSON: the number 1.0, or the string "nan" as Kinetics writes NaN.
        let planted: Any = text == "nan" ? text : Double(text)!
        let honest = try Self.shards(suite: "bezier", method: "precise")
        let merged = try kinetics(["verify", "merge"] + honest.map(\.path))
        #expect(merged.status == 0, "\(merged.stderr)")
        let edited = try Self.shards(suite: "bezier", method: "precise")
        #expect(try Self.plant("maxRegular", planted, in: edited[0]) > 0)
        let result = try kinetics(["verify", "merge"] + edited.map(\.path))
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        let row = try #require(result.lines.first { $0.contains("precise") && $0.contains("x'(t) >= 1e-3") })
        #expect(row.contains("FAIL"), "\(row)")
        #expect(!row.contains("pass"), "\(row)")
    }

    @Test("verify merge judges a shard's conversion rows again from their values")
    func mergeConversions() throws {
        let shards = try Self.shards(suite: "conversions", method: "pop")
        var report = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: shards[0])) as? [String: Any])
        var measures = try #require(report["methodMeasures"] as? [String: Any])
        var rows = try #require(measures["conversions"] as? [[String: Any]], "the first shard carries the rows")
        #expect(rows.allSatisfy { $0["passed"] as? Bool == true })
        rows[0]["value"] = 1.0
        measures["conversions"] = rows
        report["methodMeasures"] = measures
        try JSONSerialization.data(withJSONObject: report).write(to: shards[0])
        let result = try kinetics(["verify", "merge"] + shards.map(\.path))
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("FAIL"), "\(result.stdout)")
    }

    @Test(
        "compare: a motion beyond a double is refused (64) naming the values; one that fits gives finite figures, never nan or inf"
    )
    func compareExtremes() throws {
        let folder = try temporaryFolder("nan")
        let spring = folder.appendingPathComponent("spring.csv")
        let traced = try kinetics(["trace", "spring", "--bounciness", "4", "--speed", "12"])
        try traced.stdout.write(to: spring, atomically: true, encoding: .utf8)
        let decay = folder.appendingPathComponent("decay.csv")
        try (try kinetics(["trace", "decay", "--velocity", "1000"])).stdout.write(
            to: decay, atomically: true, encoding: .utf8)
        let pop = ["--bounciness", "4", "--speed", "12"]
        let apart = try kinetics(["compare", "spring", spring.path] + pop + ["--from=-1e308", "--to", "1e308"])
        #expect(apart.status == 64, "\(apart.stdout)\(apart.stderr)")
        #expect(apart.stderr.contains("--from -1e+308 and --to 1e+308 are inf apart"), "\(apart.stderr)")
        #expect(apart.stderr.contains("within ±1.8e308"), "\(apart.stderr)")
        // Far from the trace, but within a double: a failed comparison with numbers.
        for run in [
            ["compare", "spring", spring.path] + pop + ["--velocity", "1e306"],
            ["compare", "spring", spring.path] + pop + ["--velocity", "1e307"],
            ["compare", "decay", decay.path, "--velocity", "1e307"],
        ] {
            let result = try kinetics(run)
            #expect(result.status == 1, "\(run): \(result.stdout)\(result.stderr)")
            for word in ["nan", "inf"] {
                #expect(!result.stdout.lowercased().contains(word), "\(run) printed \(word): \(result.stdout)")
            }
            #expect(result.stdout.contains("OUTSIDE the tolerance"), "\(result.stdout)")
        }
    }

    @Test("trace and animate: a motion that leaves a double's range is refused, printing no value")
    func traceAndAnimate() throws {
        let trace = try kinetics([
            "trace", "spring", "--bounciness", "4", "--speed", "12", "--from=-1e308", "--to", "1e308", "--method",
            "analytic",
        ])
        #expect(trace.status == 64 && trace.stdout.isEmpty, "\(trace.stdout)\(trace.stderr)")
        // Thrown at 1e307 on a spring of ω = 0.001 rad/s: it would swing out to 1e310.
        let slow = try kinetics([
            "trace", "spring", "--tension", "1e-6", "--friction", "0", "--velocity", "1e307", "--method", "analytic",
            "--seconds", "2000", "--fps", "1",
        ])
        #expect(slow.status == 64 && slow.stdout.isEmpty, "\(slow.stdout.prefix(200))\(slow.stderr)")
        #expect(slow.stderr.contains("leaves a double's range at t = "), "\(slow.stderr)")
        // 1e148 RK4 steps a frame (ω = 1e150), which trapped converting the
        // count to an Int: finite, every frame.
        let stiff = try kinetics([
            "trace", "spring", "--tension", "1e300", "--friction", "0", "--velocity", "1e300", "--method", "rk4",
        ])
        #expect(stiff.status == 0, "\(stiff.stderr)")
        #expect(!stiff.stdout.contains("nan") && !stiff.stdout.contains("inf"), "\(stiff.stdout.prefix(200))")
        let folder = try temporaryFolder("nan")
        for (name, animation, message) in [
            (
                "basic", #"{"key": "x", "type": "basic", "duration": 0.5, "from": -1e308, "to": 1e308}"#,
                "animations[0].to: is inf from animations[0].from"
            ),
            ("decay", #"{"key": "x", "type": "decay", "velocity": 1e308, "from": 1e308}"#, "the value of x leaves"),
        ] {
            let file = folder.appendingPathComponent("\(name).json")
            try #"{"fps": 60, "seconds": 1, "animations": [\#(animation)]}"#.write(
                to: file, atomically: true, encoding: .utf8)
            for extra in [[], ["--events"]] {
                let result = try kinetics(["animate", file.path] + extra)
                #expect(result.status == 65, "\(name) \(extra): \(result.stdout.prefix(200))\(result.stderr)")
                #expect(result.stderr.contains(message), "\(result.stderr)")
                #expect(
                    !result.stdout.contains("nan") && !result.stdout.contains("inf"), "\(result.stdout.prefix(200))")
            }
        }
    }
}
