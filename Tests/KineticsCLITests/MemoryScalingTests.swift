import Foundation
import KineticsTestSupport
import Testing

/// compare and animate take memory in proportion to their input, within the
/// bounds docs/errors.md states (800 bytes a sample; 48 bytes a byte of a
/// scenario, whatever its frames), and refuse an input that needs more
/// than the process may take. Measured by each child's own peak resident
/// memory (wait4), never by a clock.
@Suite("CLI: memory in proportion to the input")
struct MemoryScalingTests {
    /// A spring trace of `samples` samples at 1000 Hz, as `kinetics trace` writes it.
    static func trace(_ samples: Int, in folder: URL) throws -> String {
        let path = folder.appendingPathComponent("trace-\(samples).csv").path
        var text = "time,value\n"
        for index in 0 ..< samples {
            let t = Double(index) / 1_000
            text += "\(t),\(1 - exp(-5 * t) * cos(10 * t))\n"
        }
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test("compare: each sample more costs less than 800 bytes (the candidates' replays are not all kept)")
    func compareScales() throws {
        let folder = try temporaryFolder("kinetics-memory")
        defer { try? FileManager.default.removeItem(at: folder) }
        let arguments = ["compare", "spring", "--stiffness", "100", "--damping", "10"]
        let small = try InputLimitTests.runMeasured(arguments + [try Self.trace(5_000, in: folder)])
        let large = try InputLimitTests.runMeasured(arguments + [try Self.trace(25_000, in: folder)])
        #expect(small.status == 1 && large.status == 1, "a trace of the exact motion without velocities: over 1e-3")
        let perSample = Double(large.peakKiB - small.peakKiB) * 1_024 / 20_000
        // All 400 replays kept at once came to about 3,400 bytes a sample: 68 MB more
        // here, against 16 MB at the bound (the code now keeps about 190: 4 MB).
        #expect(perSample < 800, "\(perSample) bytes a sample (\(small.peakKiB) and \(large.peakKiB) KiB)")
    }

    /// A scenario of `springs` springs, run for `seconds` at 60 Hz.
    static func scenario(springs: Int, seconds: Int, in folder: URL) throws -> String {
        let path = folder.appendingPathComponent("scenario-\(springs)-\(seconds).json").path
        let animations = (0 ..< springs).map {
            #"{"key":"k\#($0)","type":"spring","tension":300,"friction":20,"to":\#($0 % 7)}"#
        }
        let text = #"{"fps":60,"seconds":\#(seconds),"animations":["# + animations.joined(separator: ",") + "]}"
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test("animate: memory follows the file, not the frames it prints")
    func animateScales() throws {
        let folder = try temporaryFolder("kinetics-memory")
        defer { try? FileManager.default.removeItem(at: folder) }
        let short = try InputLimitTests.runMeasured([
            "animate", try Self.scenario(springs: 3_000, seconds: 1, in: folder),
        ])
        let long = try InputLimitTests.runMeasured([
            "animate", try Self.scenario(springs: 3_000, seconds: 4, in: folder),
        ])
        let wide = try Self.scenario(springs: 9_000, seconds: 1, in: folder)
        let wider = try InputLimitTests.runMeasured(["animate", wide])
        #expect(short.status == 0 && long.status == 0 && wider.status == 0)
        // Four times the frames (540,000 rows more, which kept as frames
        // took about 40 MB): a few MB at most.
        #expect(long.peakKiB - short.peakKiB < 8 << 10, "\(short.peakKiB) KiB for 1 s, \(long.peakKiB) KiB for 4 s")
        let bytes = try FileManager.default.attributesOfItem(atPath: wide)[.size] as! Int
        let perByte = Double(wider.peakKiB - short.peakKiB) * 1_024 / Double(bytes * 2 / 3)
        #expect(perByte < 48, "\(perByte) bytes of memory a byte of scenario")
    }

    @Test("an input that needs more memory than the process may take is refused before the work, naming both")
    func refusedPastTheLimit() throws {
        let folder = try temporaryFolder("kinetics-memory")
        defer { try? FileManager.default.removeItem(at: folder) }
        // 400,000 short rows: up to 320 MB at 800 bytes a sample.
        let trace = folder.appendingPathComponent("long.csv").path
        try Data(("time,value\n" + String(repeating: "0,0\n", count: 400_000)).utf8).write(
            to: URL(fileURLWithPath: trace))
        let binary = try kineticsBinary().path
        let compare = try shell(
            "ulimit -v 250000; exec '\(binary)' compare spring '\(trace)' --stiffness 1 --damping 1")
        #expect(compare.status == 65)
        #expect(
            compare.stderr.hasPrefix(
                "kinetics: error: \(trace): comparing up to 400002 samples (800 bytes a sample, and the file's 1600011) needs up to 322 MB, more than the "
            ), "\(compare.stderr)")
        #expect(
            compare.stderr.hasSuffix("left by the address-space limit (ulimit -v) of 256 MB\n"), "\(compare.stderr)")
        // 8 MB of scenario, mostly spaces: up to 403 MB at 48 bytes a byte.
        let scenario = folder.appendingPathComponent("padded.json").path
        try Data((#"{"fps":60,"seconds":1,"animations":[]}"# + String(repeating: " ", count: 8_000_000)).utf8).write(
            to: URL(fileURLWithPath: scenario))
        let animate = try shell("ulimit -v 250000; exec '\(binary)' animate '\(scenario)'")
        #expect(animate.status == 65)
        #expect(
            animate.stderr.hasPrefix(
                "kinetics: error: \(scenario): running a scenario of 8000038 bytes (48 bytes a byte of the file) needs up to 385 MB, more than the "
            ), "\(animate.stderr)")
        #expect(animate.stdout.isEmpty)
    }
}
