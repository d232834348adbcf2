import Foundation
import KineticsTestSupport
import Testing

@Suite("CLI: bench")
struct BenchCommandTests {
    /// A short run: three engines, 200 animations, the minimum repetitions.
    static let quick = [
        "bench", "--engine", "batch", "--engine", "reference", "--engine", "pop-c", "--animations", "200", "--frames",
        "2",
        "--warmup", "1", "--no-bezier",
    ]

    /// A one-result baseline with the given configuration fields.
    static func baseline(fps: String = "60", animations: String = "1000") -> String {
        """
        {"kind": "kinetics-bench", "formatVersion": 1, "kinetics": "test", "machine": "test", "scaling": [],
         "results": [{"configuration": {"engine": "batch", "animations": \(animations), "mix": "spring", "fps": \(fps),
           "scenario": "steady", "method": "pop", "frames": 2, "repetitions": 7, "warmupFrames": 1, "churnFraction": 0.1},
           "p50": 1, "p90": 1, "p99": 1, "max": 1, "mean": 1, "repetitionMedians": [1], "nanosecondsPerAnimation": 1,
           "budgetShare": 0.1, "allocationsPerFrame": 0, "bytesPerFrame": 1, "calibrationNanoseconds": 1, "calibrated": 1}]}
        """
    }

    static func temporaryFile(_ name: String) -> URL {
        temporaryPath("kinetics-bench", name)
    }

    @Test("the table has one row per configuration and each engine's ratio to the faster model of Pop")
    func table() throws {
        let result = try kinetics(Self.quick)
        #expect(result.status == 0, "\(result.stderr)")
        let rows = result.lines.filter {
            $0.hasPrefix("batch ") || $0.hasPrefix("reference ") || $0.hasPrefix("pop-c ")
        }
        #expect(rows.count == 3)
        let batch = rows.first { $0.hasPrefix("batch") } ?? ""
        #expect(batch.contains("× faster than reference") || batch.contains("× faster than pop-c"), "\(batch)")
        #expect(
            rows.filter { !$0.hasPrefix("batch") }.allSatisfy { !$0.contains("× faster") }, "no ratio for Pop's models")
        #expect(result.stderr.isEmpty, "no progress bar off a terminal")
        // The bytes a frame touches per spring, which the calibration kernel
        // streams: a scalar `pop` spring's flags (1), displacement and
        // velocity (16), whether its slope passes the rest test (1), target
        // (8), slot (4) and the value written (8); its group is read only
        // where a group starts.
        let header = Array(try #require(result.lines.first { $0.hasPrefix("engine ") }))
        let column = try #require(header.indices.first { String(header[$0...]).hasPrefix("bytes/anim") })
        let bytes = String(Array(batch)[column...]).split(separator: " ").first.map(String.init)
        #expect(bytes == "38", "\(batch)")
    }

    @Test("a burst is measured against the steady frame after it, on the engines that can add animations")
    func burst() throws {
        let quick = ["bench", "--animations", "200", "--frames", "2", "--warmup", "2", "--scenario", "burst"]
        let result = try kinetics(quick + ["--no-bezier"])
        #expect(result.status == 0, "\(result.stderr)")
        let rows = result.lines.filter { $0.contains(" burst ") && !$0.hasPrefix("burst, ") }
        #expect(rows.map { String($0.prefix { $0 != " " }) } == ["animator", "batch", "reference"], "\(rows)")
        #expect(rows.allSatisfy { $0.contains("× steady") }, "\(rows)")
        // What an add costs, under the table: the burst frame less the steady one, over the 20 added.
        let adds = result.lines.filter { $0.hasPrefix("burst, ") }
        #expect(adds.count == 3 && adds.allSatisfy { $0.contains(" burst 60 Hz pop: 20 added, ") }, "\(adds)")
        // The steady frame beside the burst, in the JSON and the CSV.
        let json = try kinetics(quick + ["--no-bezier", "--engine", "batch", "--format", "json"])
        #expect(json.status == 0, "\(json.stderr)")
        let report = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as! [String: Any]
        let results = report["results"] as! [[String: Any]]
        #expect((results.first?["steadyNanoseconds"] as? Double ?? 0) > 0, "\(results)")
        let csv = try kinetics(quick + ["--no-bezier", "--engine", "batch", "--format", "csv"])
        let columns = try #require(csv.lines.first?.split(separator: ",", omittingEmptySubsequences: false))
        let row = try #require(csv.lines.dropFirst().first?.split(separator: ",", omittingEmptySubsequences: false))
        let steadyColumn = try #require(columns.firstIndex(of: "steady_ns"))
        #expect(row.count == columns.count, "\(csv.stdout)")
        #expect(Double(row[steadyColumn]) ?? 0 > 0, "\(csv.stdout)")
        // Asked for by name, an engine behind the C interface is refused.
        let refused = try kinetics(quick + ["--engine", "pop-c"])
        #expect(refused.status == 65)
        #expect(refused.stderr.contains("pop-c: the burst scenario adds animations after the workload"))
    }

    @Test("JSON has the documented fields, and a saved baseline is the same report")
    func json() throws {
        struct Report: Decodable {
            struct Result: Decodable {
                struct Configuration: Decodable {
                    let engine: String
                    let animations: Int
                    let mix, scenario: String
                    let fps: Double
                    let method: String
                }
                let configuration: Configuration
                let p50, p99, nanosecondsPerAnimation, budgetShare, allocationsPerFrame, calibrated: Double
                let repetitionMedians: [Double]
            }
            let formatVersion: Int
            let kind, machine: String
            let results: [Result]
        }
        let baseline = Self.temporaryFile("baseline.json")
        defer { try? FileManager.default.removeItem(at: baseline) }
        let result = try kinetics(Self.quick + ["--format", "json", "--save-baseline", baseline.path])
        #expect(result.status == 0, "\(result.stderr)")
        let report = try decodeJSON(Report.self, result.stdout)
        #expect(report.formatVersion == 1 && report.kind == "kinetics-bench")
        #expect(report.results.map(\.configuration.engine) == ["batch", "reference", "pop-c"])
        #expect(report.results.allSatisfy { $0.repetitionMedians.count == 7 && $0.p50 > 0 && $0.calibrated > 0 })
        #expect(report.results[0].allocationsPerFrame == 0, "the batch path allocates nothing in a steady frame")
        let saved = try decodeJSON(Report.self, try String(contentsOf: baseline, encoding: .utf8))
        #expect(saved.results.map(\.p50) == report.results.map(\.p50))
    }

    @Test("a baseline ten times faster than reality exits 2 and lists each regression")
    func regression() throws {
        let baseline = Self.temporaryFile("fast.json")
        defer { try? FileManager.default.removeItem(at: baseline) }
        let saved = try kinetics(Self.quick + ["--save-baseline", baseline.path])
        #expect(saved.status == 0, "\(saved.stderr)")
        // Every calibrated figure divided by 10.
        var json = try JSONSerialization.jsonObject(with: Data(contentsOf: baseline)) as! [String: Any]
        var results = json["results"] as! [[String: Any]]
        for index in results.indices { results[index]["calibrated"] = (results[index]["calibrated"] as! Double) / 10 }
        json["results"] = results
        try JSONSerialization.data(withJSONObject: json).write(to: baseline)
        let result = try kinetics(Self.quick + ["--baseline", baseline.path])
        #expect(result.status == 2)
        let lines = result.stderr.split(separator: "\n")
        #expect(
            lines.filter {
                $0.contains("regression: batch") || $0.contains("regression: reference")
                    || $0.contains("regression: pop-c")
            }.count == 3)
        #expect(lines.last?.contains("kinetics: error: 3 regressions against \(baseline.path)") == true)
        // Against itself (unchanged) it passes.
        let same = Self.temporaryFile("same.json")
        defer { try? FileManager.default.removeItem(at: same) }
        _ = try kinetics(Self.quick + ["--save-baseline", same.path])
        let pass = try kinetics(Self.quick + ["--baseline", same.path, "--max-regression", "1000"])
        #expect(pass.status == 0, "\(pass.stderr)")
    }

    @Test(
        "a missing baseline exits 66; an empty, malformed or other-version one exits 65; each names the file",
        arguments: [
            ("missing", nil, 66, "no such baseline file"),
            ("empty", "", 65, "the file is empty"),
            ("text", "not json at all", 65, "not valid JSON (invalid value at column 2)"),
            (
                "string version", #"{"kind": "kinetics-bench", "formatVersion": "1"}"#, 65,
                "at formatVersion: a string, where a whole number belongs"
            ),
            (
                "twice", #"{"kind": "kinetics-bench", "formatVersion": 1, "kind": "x"}"#, 65,
                "the key \"kind\" appears twice in one object (column 48)"
            ),
            ("other kind", #"{"kind": "kinetics-verify", "formatVersion": 1}"#, 65, "no \"kind\": \"kinetics-bench\""),
            ("version", #"{"kind": "kinetics-bench", "formatVersion": 99}"#, 65, "format version 99"),
            ("fields", #"{"kind": "kinetics-bench", "formatVersion": 1, "results": []}"#, 65, "missing"),
            // Found by fuzzing in CI: naming a configuration with this fps trapped.
            (
                "fps", BenchCommandTests.baseline(fps: "7e95"), 65,
                "results[0].configuration.fps: 7e+95 is not in [1, 1000]"
            ),
            (
                "count", BenchCommandTests.baseline(animations: "0"), 65,
                "results[0].configuration.animations: 0 is not in [1, 1000000]"
            ),
        ] as [(String, String?, Int32, String)])
    func badBaselines(name: String, contents: String?, status: Int32, message: String) throws {
        let file = Self.temporaryFile("bad.json")
        defer { try? FileManager.default.removeItem(at: file) }
        if let contents { try Data(contents.utf8).write(to: file) }
        let result = try kinetics(Self.quick + ["--baseline", file.path])
        #expect(result.status == status, "\(name): \(result.stderr)")
        #expect(result.stderr.hasPrefix("kinetics: error: \(file.path): "), "\(name): \(result.stderr)")
        #expect(result.stderr.contains(message), "\(name): \(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1, "one line")
        #expect(result.stdout.isEmpty, "nothing is measured first")
    }

    @Test("out-of-range options exit 64 and name the option and the accepted range")
    func usage() throws {
        for (arguments, message) in [
            (
                ["--animations", "0"],
                "The value '0' is invalid for '--animations <animations>': the accepted values are whole numbers in [1, 1000000]"
            ),
            (
                ["--animations", "1e12"],
                "The value '1e12' is invalid for '--animations <animations>': the accepted values are whole numbers in [1, 1000000]"
            ),
            (
                ["--repetitions", "3"],
                "The value '3' is invalid for '--repetitions <repetitions>': the accepted values are whole numbers in [7, 1000]"
            ),
            (["--fps", "nan"], "--fps must be a number in [1, 1000], got nan"),
            // Years of frames, refused before the first: the least time is named.
            (
                ["--engine", "batch", "--animations", "1000000", "--frames", "100000", "--repetitions", "1000"],
                "this bench runs 1e+14 animation frames, at least 27.8 h at 1 ns each, past the 60 min a bench runs without --long"
            ),
            (["--fps", "5e-324"], "--fps must be a number in [1, 1000], got 5e-324"),
            (["--churn-fraction", "2"], "--churn-fraction must be in (0, 1], got 2.0"),
            (
                ["--max-regression", "churn=x"],
                "--max-regression must be a finite number >= 0 or SCENARIO=NUMBER, got 'churn=x'"
            ),
            (["--max-regression", "stormy=10"], "--max-regression: unknown scenario 'stormy'"),
        ] {
            let result = try kinetics(["bench"] + arguments)
            #expect(result.status == 64, "\(arguments)")
            #expect(result.stderr.contains(message), "\(arguments): \(result.stderr)")
        }
    }
}
