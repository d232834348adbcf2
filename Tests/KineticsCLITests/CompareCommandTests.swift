import Foundation
import KineticsTestSupport
import Testing

#if canImport(FoundationXML)
    import FoundationXML
#endif

@Suite("CLI: kinetics compare")
struct CompareCommandTests {
    /// The repository's synthetic traces, found from this file.
    static let traces = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("data/traces/synthetic")
    static let engines = traces.deletingLastPathComponent().appendingPathComponent("engines")

    /// A `time,value[,…]` trace as `time,value` with each time mapped by
    /// `time`, its first `frames` samples only when given.
    static func retimed(_ trace: String, frames: Int = .max, _ time: (Double) -> Double) -> String {
        let samples = trace.split(separator: "\n").dropFirst().prefix(frames).map { line in
            let fields = line.split(separator: ",")
            return "\(time(Double(fields[0])!)),\(fields[1])"
        }
        return (["time,value"] + samples).joined(separator: "\n")
    }

    @Test(
        "Qt Quick's whole milliseconds: its 16 ms step is named, and --exact-times takes the times' printing out of the noise"
    )
    func exactTimes() throws {
        let file = Self.engines.appendingPathComponent("qtquick-spring-k300-c12-60hz.csv").path
        struct Document: Decodable {
            let scheme: String
            let noise: Double
        }
        let arguments = ["compare", "spring", file, "--tension", "300", "--friction", "12", "--format", "json"]
        let qt =
            "velocity-first symplectic Euler, damping as a force, fixed steps of 16 ms, leftover carried, snapped to the target at its end (Qt Quick's SpringAnimation, Qt 6.4)"
        // Times to 1 ms are noise of 1 ms × the speed, so that every stepper
        // explains the trace; Qt's replica is ten times closer than the
        // simpler ones and is named all the same.
        let printed = try decodeJSON(Document.self, try kinetics(arguments).stdout)
        #expect(printed.scheme == qt)
        let exact = try decodeJSON(Document.self, try kinetics(arguments + ["--exact-times"]).stdout)
        #expect(exact.scheme == qt)
        #expect(exact.noise * 100 < printed.noise, "\(exact.noise) against \(printed.noise)")
    }

    @Test(
        "the synthetic traces get the verdicts data/traces/README.md promises",
        arguments: [
            (
                "semi-implicit-euler-60hz-jittered.csv", Int32(1),
                "velocity-first symplectic Euler, damping as a force, 1 step per frame", 1.0835
            ),
            ("closed-form-120hz-jittered.csv", 0, "exact closed form", 1.0),
            ("kinetics-pop-60hz.csv", 1, "RK4 on a 1 ms grid with Pop's fraction feedback (Pop)", 0.9863),
            ("kinetics-pop-120hz.csv", 1, "RK4 on a 1 ms grid with Pop's fraction feedback (Pop)", 0.9720),
        ])
    func springTraces(file: String, status: Int32, scheme: String, timeScale: Double) throws {
        let result = try kinetics([
            "compare", "spring", Self.traces.appendingPathComponent(file).path, "--tension", "300", "--friction", "12",
            "--format", "json",
        ])
        #expect(result.status == status, "\(file): \(result.stderr)")
        struct Document: Decodable {
            let scheme: String
            let timeScale: Double
            let maxError: Double
            let withinTolerance: Bool
        }
        let document = try decodeJSON(Document.self, result.stdout)
        #expect(document.scheme == scheme)
        #expect(abs(document.timeScale - timeScale) < 2e-4, "\(document.timeScale)")
        #expect(document.withinTolerance == (status == 0))
        if status == 1 {
            #expect(
                result.stderr.hasPrefix("kinetics: error: max error ") && result.stderr.filter { $0 == "\n" }.count == 1
            )
        }
    }

    @Test("a decay trace, a bezier trace, milliseconds, and a looser tolerance")
    func otherKinds() throws {
        let decay = try kinetics([
            "compare", "decay", Self.traces.appendingPathComponent("discrete-decay-120hz.csv").path, "--velocity",
            "1500",
        ])
        #expect(
            decay.status == 0
                && decay.stdout.contains("scheme                         discrete law v·d^(1000t), double precision"),
            "\(decay.stdout)")
        let folder = try temporaryFolder("kinetics-compare")
        defer { try? FileManager.default.removeItem(at: folder) }
        // ease-in-out traced by Kinetics' precise solver, compared with GSL's.
        let bezierTrace = try kinetics([
            "trace", "bezier", "--curve", "ease-in-out", "--method", "precise", "--samples", "101",
        ])
        let bezierFile = folder.appendingPathComponent("curve.csv")
        try Data(bezierTrace.stdout.utf8).write(to: bezierFile)
        let bezier = try kinetics([
            "compare", "bezier", bezierFile.path, "--curve", "ease-in-out", "--tolerance", "1e-12",
        ])
        #expect(bezier.status == 0, "\(bezier.stderr)")
        // A Pop trace in milliseconds, within a 10% tolerance.
        let pop = try String(contentsOf: Self.traces.appendingPathComponent("kinetics-pop-60hz.csv"), encoding: .utf8)
        let milliseconds = Self.retimed(pop) { $0 * 1_000 }
        let msFile = folder.appendingPathComponent("pop-ms.csv")
        try Data(milliseconds.utf8).write(to: msFile)
        let result = try kinetics([
            "compare", "spring", msFile.path, "--tension", "300", "--friction", "12", "--time-unit", "ms",
            "--tolerance", "0.1", "--format", "markdown",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("| time scale (simulated / real) | 0.9863 |"), "\(result.stdout)")
    }

    @Test("--time-unit changes times only; velocities have --velocity-unit (libadwaita logs ms and units per second)")
    func units() throws {
        let file = Self.engines.appendingPathComponent("adwaita-spring-k300-c12.csv").path
        struct Document: Decodable {
            let maxVelocityError: Double
            let scheme: String
            let warnings: [String]
        }
        let arguments = [
            "compare", "spring", file, "--tension", "300", "--friction", "12", "--time-unit", "ms", "--format", "json",
        ]
        let perSecond = try decodeJSON(Document.self, try kinetics(arguments).stdout)
        // Its velocities are right to within the few milliseconds its clock
        // runs apart from the trace's; read as per millisecond, 1000× off.
        #expect(perSecond.maxVelocityError < 0.2, "\(perSecond.maxVelocityError)")
        let perMillisecond = try decodeJSON(Document.self, try kinetics(arguments + ["--velocity-unit", "ms"]).stdout)
        #expect(perMillisecond.maxVelocityError > 100)
        #expect(perSecond.scheme.hasSuffix("(libadwaita's AdwSpringAnimation, among others)"))
        #expect(perSecond.warnings.contains { $0.hasPrefix("the trace jumps to its target at t = ") })
        #expect(perSecond.warnings.contains { $0.hasPrefix("the engine keeps time in whole milliseconds") })
    }

    @Test(
        "common mistakes are warned about, on stderr and in the JSON: milliseconds read as seconds, absolute timestamps"
    )
    func mistakes() throws {
        let folder = try temporaryFolder("kinetics-compare")
        defer { try? FileManager.default.removeItem(at: folder) }
        let pop = try String(contentsOf: Self.traces.appendingPathComponent("kinetics-pop-60hz.csv"), encoding: .utf8)
        // The first 30 frames (a second's trace from 83 s on is slow to
        // replay in 1 ms steps: the mistake makes every candidate start
        // with an 83 s frame).
        func rewrite(_ time: (Double) -> Double) throws -> String {
            let text = Self.retimed(pop, frames: 30, time)
            let file = folder.appendingPathComponent("trace-\(UUID().uuidString).csv")
            try Data(text.utf8).write(to: file)
            return file.path
        }
        let milliseconds = try kinetics([
            "compare", "spring", try rewrite { $0 * 1_000 }, "--tension", "300", "--friction", "12",
        ])
        #expect(
            milliseconds.stderr.contains(
                "kinetics: warning: the samples are 16.67 s apart: times that look like milliseconds"),
            "\(milliseconds.stderr)")
        let absolute = try kinetics([
            "compare", "spring", try rewrite { $0 + 83 }, "--tension", "300", "--friction", "12", "--format", "json",
        ])
        #expect(absolute.stderr.contains("kinetics: warning: the first sample is at 83 s"), "\(absolute.stderr)")
        #expect(absolute.stdout.contains("the first sample is at 83 s"))
    }

    @Test("a malformed trace exits 65 naming the line; a missing one 66; bad options 64")
    func errors() throws {
        let folder = try temporaryFolder("kinetics-compare")
        defer { try? FileManager.default.removeItem(at: folder) }
        let bad = folder.appendingPathComponent("bad.csv")
        try Data("time,value\n0,0\n0.1,0.5\n0.2,oops\n".utf8).write(to: bad)
        let malformed = try kinetics(["compare", "spring", bad.path, "--tension", "300", "--friction", "12"])
        #expect(malformed.status == 65)
        #expect(malformed.stderr == "kinetics: error: \(bad.path): line 4: value 'oops' is not a number\n")
        let missing = try kinetics([
            "compare", "spring", folder.appendingPathComponent("none.csv").path, "--tension", "300", "--friction", "12",
        ])
        #expect(missing.status == 66)
        for arguments in [
            ["compare", "spring", bad.path, "--tension", "300", "--friction", "12", "--tolerance", "0"],
            ["compare", "spring", bad.path],
            ["compare", "decay", bad.path, "--velocity", "1", "--deceleration", "2"],
            ["compare", "bezier", bad.path, "--curve", "2,0,0,1"],
        ] {
            let result = try kinetics(arguments)
            #expect(result.status == 64, "\(arguments): \(result.stderr)")
            #expect(result.stderr.filter { $0 == "\n" }.count == 1)
        }
    }

    @Test("plot compare draws the trace, GSL's motion and the best candidate, as valid XML")
    func plot() throws {
        let result = try kinetics([
            "plot", "compare", "spring",
            Self.traces.appendingPathComponent("semi-implicit-euler-60hz-jittered.csv").path, "--tension", "300",
            "--friction", "12",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let document = try XMLDocument(data: Data(result.stdout.utf8))
        let texts = try document.nodes(forXPath: "//*[local-name()='text']").compactMap(\.stringValue)
        #expect(
            texts.contains("best candidate: velocity-first symplectic Euler, damping as a force, 1 step per frame"),
            "\(texts)")
        #expect(texts.contains("trace") && texts.contains("GSL rk8pd"))
        let decay = try kinetics([
            "plot", "compare", "decay", Self.traces.appendingPathComponent("discrete-decay-120hz.csv").path,
            "--velocity", "1500",
        ])
        #expect(decay.status == 0 && decay.stdout.hasPrefix("<?xml"), "\(decay.stderr)")
    }
}
