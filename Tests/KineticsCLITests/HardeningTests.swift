import Foundation
import KineticsTestSupport
import Testing

/// Malformed, missing, huge and hostile input files for every command that
/// reads one, unwritable outputs, and options at the edges: one line on
/// stderr, the documented exit status, no stack trace, no partial file.
@Suite("CLI: hostile input files and outputs")
struct HardeningTests {
    /// A fresh folder of bad inputs.
    static func badFiles() throws -> (folder: URL, files: [(name: String, status: Int32)]) {
        let folder = try temporaryFolder("kinetics-hardening")
        func write(_ name: String, _ text: String) throws {
            try Data(text.utf8).write(to: folder.appendingPathComponent(name))
        }
        try write("empty.json", "")
        try write("truncated.json", #"{"clock": {"fps": 60, "seconds": 1}, "properties": [{"name": "x", "val"#)
        try write(
            "types.json",
            #"{"clock": "fast", "properties": 3, "animations": {"a": true}, "kind": 7, "results": "none"}"#)
        try write("huge-number.json", #"{"clock": {"fps": 1e400, "seconds": 1e400}, "formatVersion": 1e400}"#)
        // JSONDecoder keeps one of the two: which one was meant?
        try write("twice.json", #"{"kind": "kinetics-bench", "formatVersion": 1, "kind": "kinetics-verify"}"#)
        try write("deep-arrays.json", String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000))
        try write(
            "deep-objects.json",
            String(repeating: #"{"a":"#, count: 50_000) + "1" + String(repeating: "}", count: 50_000))
        try write("not-utf8.json", String(decoding: [0xFF, 0xFE, 0x00, 0x7B] as [UInt8], as: UTF8.self))
        try Data([0xFF, 0xFE, 0x00, 0x7B, 0x80]).write(to: folder.appendingPathComponent("binary.json"))
        // 100 MB, sparse: refused by its size before it is read.
        let big = folder.appendingPathComponent("100MB.json")
        #expect(FileManager.default.createFile(atPath: big.path, contents: Data("{".utf8)))
        let handle = try FileHandle(forWritingTo: big)
        try handle.truncate(atOffset: 100_000_000)
        try handle.close()
        let files: [(String, Int32)] = [
            ("empty.json", 65), ("truncated.json", 65), ("types.json", 65), ("huge-number.json", 65),
            ("twice.json", 65),
            ("deep-arrays.json", 65), ("deep-objects.json", 65), ("not-utf8.json", 65), ("binary.json", 65),
            ("100MB.json", 65), ("missing.json", 66),
        ]
        return (folder, files)
    }

    /// The commands that read a file, with the file's place marked.
    static let readers: [[String]] = [
        ["animate", "FILE"],
        ["bench", "--baseline", "FILE", "--animations", "1000", "--mix", "spring"],
        ["plot", "verify", "--input", "FILE"],
        ["plot", "bench", "--input", "FILE"],
    ]

    static func expectOneLine(_ result: CLIResult, _ context: String) {
        #expect(result.stderr.hasPrefix("kinetics: error: "), "\(context): \(result.stderr)")
        #expect(result.stderr.filter { $0 == "\n" }.count == 1, "\(context): \(result.stderr)")
        #expect(!result.stderr.contains("Fatal error") && !result.stderr.contains("Stack dump"), "\(context)")
    }

    @Test("every reader refuses every bad file with one line naming it: 65 bad data, 66 missing")
    func badInputFiles() throws {
        let (folder, files) = try Self.badFiles()
        defer { try? FileManager.default.removeItem(at: folder) }
        for reader in Self.readers {
            for (name, status) in files {
                let path = folder.appendingPathComponent(name).path
                let arguments = reader.map { $0 == "FILE" ? path : $0 }
                let result = try kinetics(arguments)
                let context = "\(reader.prefix(2).joined(separator: " ")) \(name)"
                #expect(result.status == status, "\(context): \(result.stderr)")
                #expect(result.stderr.contains(name), "\(context): \(result.stderr)")
                Self.expectOneLine(result, context)
            }
        }
        // A folder where a file should be: 66, as for a missing file, for
        // every reader (engine libraries, loaded in-process or in workers, too).
        let libraries: [[String]] = [
            ["bench", "--engine-library", "FILE", "--animations", "10", "--frames", "1"],
            ["verify", "--engine-library", "FILE", "--suite", "decay"],
            ["gate", "--before", "FILE", "--after", "FILE", "--animations", "10", "--frames", "1"],
        ]
        for reader in Self.readers + libraries {
            let result = try kinetics(reader.map { $0 == "FILE" ? folder.path : $0 })
            #expect(result.status == 66, "\(reader): \(result.stderr)")
            #expect(
                result.stderr.contains("\(folder.path): cannot be read (it is a folder)"), "\(reader): \(result.stderr)"
            )
            Self.expectOneLine(result, "\(reader) folder")
        }
    }

    @Test(
        "an unwritable output exits 73 with one line; a failed run leaves an existing output untouched and creates none"
    )
    func outputs() throws {
        let folder = try temporaryFolder("kinetics-outputs")
        defer { try? FileManager.default.removeItem(at: folder) }
        for arguments in [
            ["plot", "spring", "--output"], ["verify", "--suite", "conversions", "--output"],
            ["report", "--animations", "1000", "--output"],
        ] {
            for target in ["/nonexistent-\(UUID().uuidString)/out", folder.path] {
                let result = try kinetics(arguments + [target])
                #expect(result.status == 73, "\(arguments) \(target): \(result.stderr)")
                Self.expectOneLine(result, "\(arguments) \(target)")
            }
        }
        // A run that fails after parsing: the old file stays, no new file appears.
        let bad = folder.appendingPathComponent("bad.json")
        try Data("{".utf8).write(to: bad)
        let existing = folder.appendingPathComponent("existing.svg")
        try Data("old".utf8).write(to: existing)
        let fresh = folder.appendingPathComponent("fresh.svg")
        for output in [existing, fresh] {
            let result = try kinetics(["plot", "verify", "--input", bad.path, "--output", output.path])
            #expect(result.status == 65)
        }
        #expect(try String(contentsOf: existing, encoding: .utf8) == "old")
        #expect(!FileManager.default.fileExists(atPath: fresh.path))
        // Nothing but the inputs and the old file: no temporary files left.
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["bad.json", "existing.svg"])
    }

    @Test(
        "options at the edges: overflowing numbers and springs Pop's step cannot run exit 64 naming the option",
        arguments: [
            (["trace", "spring", "--tension", "1e400", "--friction", "10"], "--tension"),
            (["trace", "spring", "--bounciness", "4", "--speed", "12", "--fps", "1e400"], "--fps"),
            (["trace", "spring", "--bounciness", "4", "--speed", "12", "--from", "-1e400"], "--from"),
            (["trace", "decay", "--velocity", "1e400"], "--velocity"),
            (
                ["trace", "spring", "--tension", "1e9", "--friction", "10", "--mass", "1e-6", "--method", "pop"],
                "--method pop"
            ),
            (["plot", "spring", "--tension", "1", "--friction", "5000", "--method", "fixed"], "--method fixed"),
            (["bench", "--animations", "0"], "--animations"),
            (["bench", "--fps", "nan"], "--fps"),
        ])
    func edges(arguments: [String], option: String) throws {
        let result = try kinetics(arguments)
        #expect(result.status == 64, "\(arguments): \(result.stderr)")
        #expect(result.stderr.contains(option), "\(result.stderr)")
        Self.expectOneLine(result, "\(arguments)")
    }

    @Test("extreme but valid springs trace finite numbers with rk4 and analytic")
    func extremeSprings() throws {
        for spring in [
            ["--tension", "1e9", "--friction", "10", "--mass", "1e-6"],
            ["--response", "1", "--damping-fraction", "1e6"],
            ["--tension", "100", "--friction", "10", "--velocity", "1e12"],
        ] {
            for method in ["rk4", "analytic"] {
                let result = try kinetics(["trace", "spring"] + spring + ["--method", method, "--seconds", "0.5"])
                #expect(result.status == 0, "\(spring) \(method): \(result.stderr)")
                let numbers = result.lines.dropFirst().flatMap { $0.split(separator: ",").map { Double($0) } }
                #expect(!numbers.isEmpty && numbers.allSatisfy { $0?.isFinite == true }, "\(spring) \(method)")
            }
        }
        // Ten million seconds in one frame.
        let late = try kinetics([
            "trace", "spring", "--tension", "1", "--friction", "1e6", "--method", "analytic", "--fps", "1e-7",
            "--seconds", "1e7",
        ])
        #expect(late.status == 0 && late.lines.count == 3, "\(late.stderr)")
    }
}
