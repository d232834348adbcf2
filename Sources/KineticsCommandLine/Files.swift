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
        writeStandardError(text)
    }

    func finish() {
        guard enabled else { return }
        writeStandardError("\r\u{1B}[K")
    }
}

/// Writes a line to standard error.
func warnLine(_ message: String) {
    writeStandardError("\(programName): \(message)\n")
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

/// Exit 65 unless `bytes` fit in the memory this process may still take
/// (``MemoryBudget``): `job` names the input and how the need was estimated.
func checkMemory(_ bytes: Int, for job: String) throws {
    do {
        try MemoryBudget.check(bytes, for: job)
    } catch {
        throw CLIError(message: error.message, status: .badData)
    }
}

/// Exit 66 for a folder or a file that cannot be read at `path`, as
/// ``readInput(_:limit:what:)`` says it, for the inputs that another
/// reader opens (baselines); nothing there is left to that reader to say.
func checkReadable(_ path: String) throws {
    do {
        try InputFile.checkReadable(path)
    } catch {
        if case .missing = error { return }
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
