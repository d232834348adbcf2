import Foundation
import KineticsTestSupport
import Testing

/// The CI gates: each one fails when it should.
@Suite("CI gates")
struct GateScriptTests {
    /// The repository's root, from this file's place in it.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static func run(
        _ script: String, _ arguments: [String], environment: [String: String] = [:]
    ) throws -> (status: Int32, stderr: String) {
        let process = Process()
        process.executableURL = root.appendingPathComponent("scripts/\(script)")
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let err = Pipe()
        process.standardError = err
        process.standardOutput = Pipe()
        try process.run()
        let data = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    @Test("the harness-overhead gate fails when the engine's frame is too small for the harness to vanish in it")
    func harnessGate() throws {
        let result = try Self.run(
            "harness-overhead.sh", [], environment: ["ANIMATIONS": "10", "KINETICS": try kineticsBinary().path])
        #expect(result.status == 2)
        #expect(result.stderr.contains("more than 0.01 (--max-instruction-ratio)"), "\(result.stderr)")
    }

    @Test(
        "the instruction gate: counts alone against a baseline, 5% more fails at 2%, an interaction over its ceiling fails, --runs keeps one row a configuration"
    )
    func instructionGate() throws {
        let folder = try temporaryFolder("kinetics-instructions")
        defer { try? FileManager.default.removeItem(at: folder) }
        let baseline = folder.appendingPathComponent("batch.json").path
        let counted = [
            "bench", "--engine", "batch", "--mix", "spring", "--animations", "1000", "--scenario", "steady",
            "--scenario", "churn", "--frames", "2", "--warmup", "1", "--no-bezier", "--no-value-check", "--count",
            "instructions",
        ]
        let saved = try kinetics(
            counted + ["--save-baseline", baseline, "--max-instructions", "batch.replacement=1e9"])
        #expect(saved.status == 0, "\(saved.stderr)")
        #expect(saved.stdout.contains("batch 1000 spring churn 60 Hz pop: "), "\(saved.stdout)")
        // The baseline's churn frame 5% cheaper than this build's: a regression
        // by counts, whatever the times; and a replacement's ceiling of 1.
        var report = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: baseline))) as? [String: Any])
        var results = try #require(report["results"] as? [[String: Any]])
        var churn = results[1]
        var count = try #require(churn["instructions"] as? [String: Any])
        let perFrame = try #require(count["instructionsPerFrame"] as? Double)
        count["instructionsPerFrame"] = perFrame / 1.05
        churn["instructions"] = count
        results[1] = churn
        report["results"] = results
        try JSONSerialization.data(withJSONObject: report).write(to: URL(fileURLWithPath: baseline))
        let checked = try kinetics(
            counted + [
                "--baseline", baseline, "--compare-by", "instructions", "--max-count-increase", "2",
                "--max-instructions", "batch.replacement=1",
            ])
        #expect(checked.status == 2, "\(checked.stderr)")
        #expect(checked.stderr.contains("batch 1000 spring steady 60 Hz pop: "), "\(checked.stderr)")
        // Counts of a few frames move by a few hundredths of a percent run
        // to run (the workload's heap); the steady frame is not flagged.
        #expect(!checked.stderr.contains("regression: batch 1000 spring steady"), "\(checked.stderr)")
        #expect(
            checked.stderr.contains("regression: batch 1000 spring churn 60 Hz pop: ")
                && checked.stderr.contains("%, 2% or more)"), "\(checked.stderr)")
        #expect(checked.stderr.contains("more than the ceiling 1 (--max-instructions)"), "\(checked.stderr)")
        #expect(checked.stderr.hasSuffix("kinetics: error: 2 regressions against \(baseline)\n"), "\(checked.stderr)")
        // Counts alone need counts.
        let uncounted = try kinetics(["bench", "--engine", "batch", "--compare-by", "instructions", "--no-bezier"])
        #expect(uncounted.status == 64 && uncounted.stderr.contains("needs --count instructions"))
        // Three runs of each configuration, one row each: the median.
        let three = try kinetics([
            "bench", "--engine", "batch", "--animations", "100", "--frames", "2", "--warmup", "1", "--no-bezier",
            "--runs", "3", "--format", "json",
        ])
        #expect(three.status == 0, "\(three.stderr)")
        let rows = try #require(
            (try JSONSerialization.jsonObject(with: Data(three.stdout.utf8)) as? [String: Any])?["results"]
                as? [Any])
        #expect(rows.count == 1)
        #expect(try kinetics(["bench", "--runs", "0"]).status == 64)
    }
}
