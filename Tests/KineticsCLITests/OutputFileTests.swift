import Foundation
import KineticsTestSupport
import Testing

/// What stands at an output path, and standard output that cannot take
/// what is written: the one writer behind every --output and every line
/// kinetics prints (Sources/KineticsCommandLine/OutputFile.swift).
@Suite("CLI: outputs written whole, nothing clobbered, write errors exit 73")
struct OutputFileTests {
    /// The quickest command with --output: a verification of the decay suite.
    static func verify(_ output: String) throws -> CLIResult {
        try kinetics("verify", "--suite", "decay", "--format", "json", "--output", output)
    }

    static func mode(_ path: String) throws -> Int {
        try (FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber)?.intValue ?? -1
    }

    @Test("--output replaces a regular file whole and keeps its mode; no temporary file is left")
    func replacesRegularFile() throws {
        let folder = try temporaryFolder("kinetics-output")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("report.json").path
        try Data("old".utf8).write(to: URL(fileURLWithPath: path))
        try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: path)
        let result = try Self.verify(path)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try String(contentsOfFile: path, encoding: .utf8).hasPrefix("{"))
        #expect(try Self.mode(path) == 0o640)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["report.json"])
        // A new file gets what the umask leaves of 0666, as any tool's would.
        let fresh = folder.appendingPathComponent("new.json").path
        #expect(try Self.verify(fresh).status == 0)
        let mask = umask(0)
        umask(mask)
        #expect(try Self.mode(fresh) == 0o666 & ~Int(mask))
    }

    @Test("what is not a regular file is refused before the run, exit 73 naming it, and left as it was")
    func refusesWhatIsNotARegularFile() throws {
        let folder = try temporaryFolder("kinetics-output")
        defer { try? FileManager.default.removeItem(at: folder) }
        let victim = folder.appendingPathComponent("victim.txt").path
        try Data("keep me".utf8).write(to: URL(fileURLWithPath: victim))
        let link = folder.appendingPathComponent("link.json").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: victim)
        let pipe = folder.appendingPathComponent("pipe").path
        #expect(mkfifo(pipe, 0o600) == 0)
        let sub = folder.appendingPathComponent("sub").path
        try FileManager.default.createDirectory(atPath: sub, withIntermediateDirectories: false)
        for (path, what) in [
            (link, "it is a symbolic link"), (pipe, "it is a named pipe"), (sub, "it is a folder"),
            ("/dev/null", "it is a character device"), ("", "the path is empty"),
            (folder.appendingPathComponent("missing/out.json").path, "no folder"),
        ] {
            let result = try Self.verify(path)
            #expect(result.status == 73, "\(path): \(result.stderr)")
            let shown = path.isEmpty ? "''" : path
            #expect(result.stderr.hasPrefix("kinetics: error: cannot write \(shown): \(what)"), "\(result.stderr)")
            #expect(result.stderr.split(separator: "\n").count == 1)
        }
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "keep me")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == victim)
        var info = stat()
        #expect(lstat(pipe, &info) == 0 && info.st_mode & S_IFMT == S_IFIFO)
        #expect(lstat("/dev/null", &info) == 0 && info.st_mode & S_IFMT == S_IFCHR)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
                == ["link.json", "pipe", "sub", "victim.txt"])
    }

    @Test(
        "standard output on a full disk or closed is exit 73 with one line, for lines, tables, help and reports",
        arguments: [
            ["trace", "spring", "--bounciness", "4", "--speed", "12"], ["verify", "--list-tolerances"],
            ["verify", "--suite", "decay"], ["summary"], ["--help"], ["trace", "bezier", "--curve", "ease-in"],
        ])
    func standardOutput(arguments: [String]) throws {
        let binary = try kineticsBinary().path
        let command = ([binary] + arguments).map { "'\($0)'" }.joined(separator: " ")
        for (redirect, reason) in [("> /dev/full", "No space left on device"), (">&-", "Bad file descriptor")] {
            let result = try shell("\(command) \(redirect)")
            #expect(result.status == 73, "\(arguments) \(redirect): \(result.status) \(result.stderr)")
            #expect(
                result.stderr == "kinetics: error: cannot write standard output: \(reason)\n",
                "\(arguments) \(redirect)")
        }
    }
}
