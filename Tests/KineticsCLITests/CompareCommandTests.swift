import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing

@Suite("CLI: kinetics compare")
struct CompareCommandTests {
    /// The repository's data folder, found from this file.
    static let traces = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("data/traces")

    @Test(
        "the example traces get the verdicts data/traces/README.md promises",
        arguments: [
            ("browser-60hz.csv", Int32(1), "semi-implicit (symplectic) Euler, 1 step per frame", 1.1549),
            ("flutter-120hz.csv", 0, "exact closed form", 1.0),
            ("pop-60hz.csv", 1, "RK4 on a 1 ms grid with Pop's fraction feedback", 0.9752),
            ("pop-120hz.csv", 1, "RK4 on a 1 ms grid with Pop's fraction feedback", 0.9546),
        ])
    func springTraces(file: String, status: Int32, scheme: String, timeScale: Double) throws {
        let result = try kinetics([
            "compare", "spring", Self.traces.appendingPathComponent(file).path, "--tension", "300", "--friction", "12", "--format", "json",
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
        #expect(abs(document.timeScale - timeScale) < 1e-4, "\(document.timeScale)")
        #expect(document.withinTolerance == (status == 0))
        if status == 1 {
            #expect(result.stderr.hasPrefix("kinetics: error: max error ") && result.stderr.filter { $0 == "\n" }.count == 1)
        }
    }

    @Test("a decay trace, a bezier trace, milliseconds, and a looser tolerance")
    func otherKinds() throws {
        let decay = try kinetics(["compare", "decay", Self.traces.appendingPathComponent("scroll-decay-120hz.csv").path, "--velocity", "1500"])
        #expect(decay.status == 0 && decay.stdout.contains("scheme                         discrete law v·d^(1000t), double precision"), "\(decay.stdout)")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("kinetics-compare-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        // ease-in-out traced by Kinetics' precise solver, compared with GSL's.
        let bezierTrace = try kinetics(["trace", "bezier", "--curve", "ease-in-out", "--method", "precise", "--samples", "101"])
        let bezierFile = folder.appendingPathComponent("curve.csv")
        try Data(bezierTrace.stdout.utf8).write(to: bezierFile)
        let bezier = try kinetics(["compare", "bezier", bezierFile.path, "--curve", "ease-in-out", "--tolerance", "1e-12"])
        #expect(bezier.status == 0, "\(bezier.stderr)")
        // A Pop trace in milliseconds, within a 10% tolerance.
        let pop = try String(contentsOf: Self.traces.appendingPathComponent("pop-60hz.csv"), encoding: .utf8)
        let milliseconds = pop.split(separator: "\n").enumerated().map { index, line -> String in
            guard index > 0 else { return "time,value" }
            let fields = line.split(separator: ",")
            return "\(Double(fields[0])! * 1_000),\(fields[1])"
        }.joined(separator: "\n")
        let msFile = folder.appendingPathComponent("pop-ms.csv")
        try Data(milliseconds.utf8).write(to: msFile)
        let result = try kinetics([
            "compare", "spring", msFile.path, "--tension", "300", "--friction", "12", "--time-unit", "ms", "--tolerance", "0.1", "--format", "markdown",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("| time scale (simulated / real) | 0.9752 |"), "\(result.stdout)")
    }

    @Test("a malformed trace exits 65 naming the line; a missing one 66; bad options 64")
    func errors() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("kinetics-compare-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let bad = folder.appendingPathComponent("bad.csv")
        try Data("time,value\n0,0\n0.1,0.5\n0.2,oops\n".utf8).write(to: bad)
        let malformed = try kinetics(["compare", "spring", bad.path, "--tension", "300", "--friction", "12"])
        #expect(malformed.status == 65)
        #expect(malformed.stderr == "kinetics: error: \(bad.path): line 4: value 'oops' is not a number\n")
        let missing = try kinetics(["compare", "spring", folder.appendingPathComponent("none.csv").path, "--tension", "300", "--friction", "12"])
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
            "plot", "compare", "spring", Self.traces.appendingPathComponent("browser-60hz.csv").path, "--tension", "300", "--friction", "12",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let document = try XMLDocument(data: Data(result.stdout.utf8))
        let texts = try document.nodes(forXPath: "//*[local-name()='text']").compactMap(\.stringValue)
        #expect(texts.contains("best candidate: semi-implicit (symplectic) Euler, 1 step per frame"))
        #expect(texts.contains("trace") && texts.contains("GSL rk8pd"))
        let decay = try kinetics(["plot", "compare", "decay", Self.traces.appendingPathComponent("scroll-decay-120hz.csv").path, "--velocity", "1500"])
        #expect(decay.status == 0 && decay.stdout.hasPrefix("<?xml"), "\(decay.stderr)")
    }
}
