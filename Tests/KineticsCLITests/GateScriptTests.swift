import Foundation
import KineticsTestSupport
import Testing

/// The CI gates are scripts; these show that each one fails when it should.
@Suite("CI gate scripts")
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

    /// A folder of percentile files as the benchmark package writes them:
    /// mallocCountTotal of each named frame, 0 up to p99 and `worst` at p100.
    static func percentiles(_ frames: [String: Int]) throws -> URL {
        let folder = try temporaryFolder("kinetics-gate")
        for (frame, worst) in frames {
            var text = "Percentile\tMalloc (total) *\n"
            for percentile in 0 ... 100 { text += "\(percentile)\t\(percentile == 100 ? worst : 0)\n" }
            let name = "Current_run.KineticsBenchmarks.\(frame).mallocCountTotal.histogram.percentiles.tsv"
            try Data(text.utf8).write(to: folder.appendingPathComponent(name))
        }
        return folder
    }

    @Test("the harness-overhead gate fails when the engine's frame is too small for the harness to vanish in it")
    func harnessGate() throws {
        let result = try Self.run(
            "harness-overhead.sh", [], environment: ["ANIMATIONS": "10", "KINETICS": try kineticsBinary().path])
        #expect(result.status == 2)
        #expect(result.stderr.contains("the harness is 1% or more of the engine's frame"))
    }

    @Test(
        "the instruction gate fails on a count 3% over its baseline (a frame's, a bezier evaluation's), and on an interaction over its ceiling"
    )
    func instructionGate() throws {
        let folder = try temporaryFolder("kinetics-instructions")
        defer { try? FileManager.default.removeItem(at: folder) }
        func report(steady: Double, replacement: Double, bezier: Double = 22.6) throws -> String {
            let file = folder.appendingPathComponent("\(steady)-\(replacement)-\(bezier).json")
            let text = """
                {"kind": "kinetics-instructions", "formatVersion": 2,
                 "frames": [{"configuration": ["animator", "spring", "steady", 10000],
                             "instructionsPerFrame": \(steady), "instructionsPerAnimation": \(steady / 10_000)}],
                 "bezier": [{"method": "fast", "instructionsPerEvaluation": \(bezier)}],
                 "operations": [{"engine": "animator", "operation": "replacement",
                                 "instructionsPerOperation": \(replacement), "derivation": "a churn frame less a steady one"}]}
                """
            try Data(text.utf8).write(to: file)
            return file.path
        }
        let base = try report(steady: 284_000, replacement: 2_900)
        let same = try Self.run("instructions.sh", ["--compare", base, base])
        #expect(same.status == 0, "\(same.stderr)")
        let grown = try Self.run(
            "instructions.sh", ["--compare", base, try report(steady: 292_520, replacement: 2_900)])
        #expect(grown.status == 2)
        #expect(grown.stderr.contains("animator spring steady 10000: 292520.0 > 284000.0 + 2%"), "\(grown.stderr)")
        let bezier = try Self.run(
            "instructions.sh", ["--compare", base, try report(steady: 284_000, replacement: 2_900, bezier: 23.3)])
        #expect(bezier.status == 2)
        #expect(bezier.stderr.contains("bezier fast: 23.3 > 22.6 + 2%"), "\(bezier.stderr)")
        let costly = try Self.run(
            "instructions.sh", ["--compare", base, try report(steady: 284_000, replacement: 3_001)])
        #expect(costly.status == 2)
        #expect(costly.stderr.contains("animator replacement: 3001 instructions > ceiling 3000"), "\(costly.stderr)")
        let missing = try Self.run("instructions.sh", ["--compare", base, folder.appendingPathComponent("no").path])
        #expect(missing.status == 66)
        let malformed = folder.appendingPathComponent("malformed.json")
        try Data("{\"results\": 3}".utf8).write(to: malformed)
        let refused = try Self.run("instructions.sh", ["--compare", base, malformed.path])
        #expect(refused.status == 65)
        #expect(refused.stderr.contains("malformed.json: not an instruction report"), "\(refused.stderr)")
    }

    @Test("the allocation gate fails on a frame that allocated in one iteration, though its p90 is 0")
    func allocationGate() throws {
        let failing = try Self.percentiles(["animator.churn.spring.10000": 1, "batch.steady.spring.1000": 0])
        defer { try? FileManager.default.removeItem(at: failing) }
        let failed = try Self.run("allocation-gate.sh", ["--check", failing.path])
        #expect(failed.status == 1)
        #expect(
            failed.stderr.contains("animator.churn.spring.10000: the worst iteration allocated 1 times (p90 0)"),
            "\(failed.stderr)")

        let passing = try Self.percentiles(["animator.churn.spring.10000": 0, "bezier.solve.fast": 3])
        defer { try? FileManager.default.removeItem(at: passing) }
        #expect(
            try Self.run("allocation-gate.sh", ["--check", passing.path]).status == 0,
            "bezier benchmarks are not frames")

        let empty = try Self.percentiles([:])
        defer { try? FileManager.default.removeItem(at: empty) }
        let nothing = try Self.run("allocation-gate.sh", ["--check", empty.path])
        #expect(nothing.status == 1 && nothing.stderr.contains("no animator or batch benchmark results"))
    }
}
