import Foundation
import KineticsBench
import KineticsInput

/// A progress bar on stderr, drawn only on a terminal and never under CI=true.
final class ProgressBar: @unchecked Sendable {
    private let enabled: Bool
    private let lock = NSLock()
    private var lastDrawn = ""

    init() {
        enabled = isatty(STDERR_FILENO) == 1 && ProcessInfo.processInfo.environment["CI"] != "true"
    }

    func update(_ label: String, _ done: Int, _ total: Int) {
        guard enabled, total > 0 else { return }
        let fraction = Double(done) / Double(total)
        let width = 30
        let filled = Int(fraction * Double(width))
        let text =
            "\r\(label.padding(toLength: 12, withPad: " ", startingAt: 0)) [\(String(repeating: "=", count: filled))\(String(repeating: " ", count: width - filled))] \(Int(fraction * 100))%"
        lock.lock()
        defer { lock.unlock() }
        guard text != lastDrawn else { return }
        lastDrawn = text
        FileHandle.standardError.write(Data(text.utf8))
    }

    func finish() {
        guard enabled else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
    }
}

/// Writes `text` to `path` through a temporary file and a rename (no partial
/// file is ever left), or to standard output when `path` is nil.
func writeOutput(_ text: String, to path: String?) throws {
    guard let path else {
        FileHandle.standardOutput.write(Data(text.utf8))
        return
    }
    let destination = URL(fileURLWithPath: path)
    let temporary = destination.deletingLastPathComponent()
        .appendingPathComponent(".\(destination.lastPathComponent).\(ProcessInfo.processInfo.processIdentifier).tmp")
    do {
        try Data(text.utf8).write(to: temporary)
        // rename(2) replaces an existing file atomically (Foundation's
        // replaceItemAt fails on Linux when the destination exists).
        guard rename(temporary.path, destination.path) == 0 else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: String(cString: strerror(errno))])
        }
    } catch {
        try? FileManager.default.removeItem(at: temporary)
        throw CLIError(message: "cannot write \(path): \(error.localizedDescription)", status: .cannotWrite)
    }
}

/// Fails at once, with exit 73, when `path` (if given) cannot be written:
/// its folder is missing or not writable, or it names a folder. Commands
/// that work for a while call this first, so that a typo in an output path
/// costs nothing.
func checkWritable(_ paths: String?...) throws {
    for case let path? in paths {
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        var isFolder: ObjCBool = false
        let problem: String? =
            if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue {
                "it is a folder"
            } else if !FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder) || !isFolder.boolValue {
                "no folder \(folder)"
            } else if access(folder, W_OK) != 0 { "the folder \(folder) is not writable" } else { nil }
        if let problem { throw CLIError(message: "cannot write \(path): \(problem)", status: .cannotWrite) }
    }
}

/// Writes a line to standard error.
func warnLine(_ message: String) {
    FileHandle.standardError.write(Data("\(programName): \(message)\n".utf8))
}

/// The largest input file read, 64 MiB: every input kinetics reads is far
/// smaller, and a larger one is refused before it is read.
let inputSizeLimit = 64 << 20

/// Reads a whole input file of at most `limit` bytes, refusing a larger one
/// before reading it (and stopping a pipe or a growing file at the limit):
/// a missing or unreadable file is exit 66, one over the limit exit 65.
func readInput(_ path: String, limit: Int = inputSizeLimit, what: String = "an input") throws -> Data {
    do {
        return try InputFile.read(path, limit: limit, what: what)
    } catch {
        throw inputError(error)
    }
}

/// Reads the file at `path` a chunk at a time (``InputFile/stream``), with
/// the errors and statuses of ``readInput(_:limit:what:)``.
func streamInput(
    _ path: String, limit: Int = inputSizeLimit, what: String = "an input", _ body: (ArraySlice<UInt8>) -> Bool
) throws {
    do {
        try InputFile.stream(path, limit: limit, what: what, body)
    } catch {
        throw inputError(error)
    }
}

/// The command line's error for an input file that cannot be read.
private func inputError(_ error: InputFileError) -> CLIError {
    switch error {
    case .missing, .unreadable: CLIError(message: error.description, status: .missingInput)
    case .tooLarge: CLIError(message: error.description, status: .badData)
    }
}
