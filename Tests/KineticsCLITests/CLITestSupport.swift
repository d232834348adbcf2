import Foundation
import Testing

/// The result of running the built `kinetics` binary.
struct CLIResult {
    let status: Int32
    let stdout: String
    let stderr: String

    /// Standard output split into lines, without the last empty one.
    var lines: [String] { stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init) }
}

enum CLIError: Error { case binaryNotFound(String) }

/// The `kinetics` binary next to the test bundle (both are in the build
/// products folder).
func kineticsBinary() throws -> URL {
    let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
    var folder = bundle.deletingLastPathComponent()
    for _ in 0 ..< 4 {
        let candidate = folder.appendingPathComponent("kinetics")
        if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        folder = folder.deletingLastPathComponent()
    }
    throw CLIError.binaryNotFound("no kinetics binary near \(bundle.path); run `swift build` first")
}

/// Runs `kinetics` with `arguments` and waits for it.
func kinetics(_ arguments: String...) throws -> CLIResult {
    try kinetics(arguments)
}

func kinetics(_ arguments: [String], environment: [String: String] = [:]) throws -> CLIResult {
    try runProcess(try kineticsBinary(), arguments, environment: environment)
}

/// Runs `command` with /bin/sh and waits for it.
func shell(_ command: String) throws -> CLIResult {
    try runProcess(URL(fileURLWithPath: "/bin/sh"), ["-c", command])
}

/// Runs python3 with `arguments` (`-c` is put before the first) and waits for it.
func python(_ arguments: [String]) throws -> CLIResult {
    try runProcess(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c"] + arguments)
}

private func runProcess(_ executable: URL, _ arguments: [String], environment: [String: String] = [:]) throws
    -> CLIResult
{
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    // Read both pipes fully, at once, before waiting: read one after the
    // other, a program that fills the second (an engine worker's 10 MB of
    // chatter on standard error) while the first is still open blocks.
    let errors = ErrorsRead()
    let reader = Thread {
        errors.data = err.fileHandleForReading.readDataToEndOfFile()
        errors.done.signal()
    }
    reader.start()
    let outData = out.fileHandleForReading.readDataToEndOfFile()
    errors.done.wait()
    let errData = errors.data
    process.waitUntilExit()
    return CLIResult(
        status: process.terminationStatus,
        stdout: String(decoding: outData, as: UTF8.self),
        stderr: String(decoding: errData, as: UTF8.self))
}

/// What a program wrote on its standard error, read on a thread of its own.
private final class ErrorsRead: @unchecked Sendable {
    var data = Data()
    let done = DispatchSemaphore(value: 0)
}

/// Decodes JSON text with JSONDecoder, which reads every double back exactly
/// (Foundation's JSONSerialization on Linux can be off by an ulp).
func decodeJSON<T: Decodable>(_ type: T.Type, _ text: String) throws -> T {
    try JSONDecoder().decode(type, from: Data(text.utf8))
}
