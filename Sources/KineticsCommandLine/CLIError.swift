import ArgumentParser
import Foundation
import KineticsBench
import KineticsInput

/// The version of the tool and of its output formats.
enum KineticsVersion {
    /// The tool's version.
    static let current = KineticsBuildInfo.version

    /// What `--version` prints: `0.2.0 (commit 1a2b3c4d5e6f)`.
    static let described = "\(current) (commit \(buildCommit))"
}

/// The tool's exit statuses: sysexits(3)'s where one fits.
struct ExitStatus: Codable, Equatable {
    /// The number the process exits with.
    let code: Int32

    /// 1: a check failed.
    static let checkFailed = ExitStatus(code: 1)
    /// 2: a performance regression.
    static let regression = ExitStatus(code: 2)
    /// 64: the command line was wrong.
    static let usage = ExitStatus(code: EX_USAGE)
    /// 65: input data was malformed.
    static let badData = ExitStatus(code: EX_DATAERR)
    /// 66: an input file is missing.
    static let missingInput = ExitStatus(code: EX_NOINPUT)
    /// 69: a tool this needs is not installed (valgrind for instruction
    /// counts), or a program given cannot be run.
    static let unavailable = ExitStatus(code: EX_UNAVAILABLE)
    /// 73: an output file cannot be written.
    static let cannotWrite = ExitStatus(code: EX_CANTCREAT)
}

/// A failure after parsing: a one-line message and a sysexits status.
struct CLIError: Error {
    let message: String
    let status: ExitStatus

    init(message: String, status: ExitStatus) {
        self.message = message
        self.status = status
    }

    static func usage(_ message: String) -> CLIError { CLIError(message: message, status: .usage) }
}

/// Parses the arguments as `Command`, runs it and turns every error into
/// one line on stderr (`kinetics: error: …`) and a sysexits status; --help
/// and --version print their text and succeed. `arguments`: the process's
/// arguments after the program's name unless given.
func runCommand<Command: ParsableCommand>(_: Command.Type, arguments: [String]? = nil) -> Never {
    holdStandardDescriptors()
    WorkerGroups.unblockEndingSignals()
    // A copy of this program started by `--count instructions` runs only
    // what it was started for (``CountedRun``).
    if let counted = CountedRun.requested { counted.execute() }
    let status: Int32
    do {
        var command = try Command.parseAsRoot(arguments)
        try command.run()
        status = 0
    } catch let error as CLIError {
        reportError(error.message)
        status = error.status.code
    } catch {
        let code = Command.exitCode(for: error)
        if code == .success {
            do {
                try writeStandardOutput(Command.fullMessage(for: error) + "\n")
                status = 0
            } catch let error as CLIError {
                reportError(error.message)
                status = error.status.code
            } catch {
                status = ExitStatus.cannotWrite.code
            }
        } else {
            // A typo first: an error about the options that were recognised
            // may only be the typo's consequence.
            let message = Command.message(for: error)
            let typo =
                message.hasPrefix("Unknown option")
                ? nil : UnknownOptions.first(in: Array(CommandLine.arguments.dropFirst()), of: Command.self)
            reportError(typo ?? message)
            status = typo == nil ? code.rawValue : ExitCode.validationFailure.rawValue  // EX_USAGE, 64
        }
    }
    Foundation.exit(status)
}

/// Writes `kinetics: error: …` to stderr as one line.
private func reportError(_ message: String) {
    // swift-argument-parser lists an option's values one a line, each
    // after "- ": on one line they read as a list.
    var lines = message.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
    if let first = lines.firstIndex(where: { $0.hasPrefix("- ") }), first > 0,
        lines[first...].allSatisfy({ $0.hasPrefix("- ") })
    {
        let values = lines[first...].map { $0.dropFirst(2) }.joined(separator: ", ")
        lines = Array(lines[..<first])
        lines[first - 1] =
            lines[first - 1].replacingOccurrences(of: "one of the following:", with: "one of:") + " " + values
    }
    let oneLine =
        lines
        .map { $0.trimmingCharacters(in: .whitespaces) }
        .filter { !$0.isEmpty }
        .joined(separator: "; ")
    writeStandardError("\(programName): error: \(oneLine)\n")
}
