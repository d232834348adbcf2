import ArgumentParser
import Foundation
import KineticsReport

/// The `kinetics` command.
///
/// Exit status (sysexits): 0 success; 1 a check failed; 2 a performance
/// regression; 64 a usage error; 65 bad input data; 66 a missing input file;
/// 73 an output that cannot be written. Every error is one line on stderr.
@main
struct KineticsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "kinetics",
        abstract: "Animation physics solvers in the style of Pop, cross-checked against GSL.",
        discussion: """
            With no subcommand, runs the report: the quick verification against GSL \
            and a quick bench, written to kinetics-report.html.

            Exit status: 0 success, 1 a check failed, 2 a performance regression, 64 usage error, \
            65 bad input data, 66 missing input, 73 cannot write output.
            """,
        version: KineticsVersion.current,
        subcommands: [
            Report.self, Summary.self, Trace.self, Convert.self, Verify.self, Compare.self, Animate.self, Bench.self,
            Plot.self,
            Reference.self,
        ],
        defaultSubcommand: Report.self
    )

    /// Parses the arguments, runs the command and turns every error into one
    /// line on stderr and a sysexits status.
    static func main() {
        let status: Int32
        do {
            var command = try parseAsRoot()
            try command.run()
            status = 0
        } catch let error as CLIError {
            report(error.message)
            status = error.status
        } catch {
            let code = exitCode(for: error)
            if code == .success {
                // --help and --version print their text and succeed.
                print(fullMessage(for: error))
                status = 0
            } else {
                report(message(for: error))
                status = code.rawValue  // usage errors are EX_USAGE, 64
            }
        }
        Foundation.exit(status)
    }

    /// Writes `error: …` to stderr as one line.
    private static func report(_ message: String) {
        let oneLine =
            message
            .split(whereSeparator: \.isNewline)
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
            .joined(separator: "; ")
        FileHandle.standardError.write(Data("kinetics: error: \(oneLine)\n".utf8))
    }
}

/// The version of the tool and of its output formats.
enum KineticsVersion {
    /// The tool's version.
    static let current = KineticsReportInfo.version
}

/// A failure after parsing: a one-line message and a sysexits status.
struct CLIError: Error {
    /// 1: a check failed.
    static let checkFailed: Int32 = 1
    /// 2: a performance regression.
    static let regression: Int32 = 2
    /// 64: the command line was wrong.
    static let usage: Int32 = 64
    /// 65: input data was malformed.
    static let badData: Int32 = 65
    /// 66: an input file is missing.
    static let missingInput: Int32 = 66
    /// 73: an output file cannot be written.
    static let cannotWrite: Int32 = 73

    let message: String
    let status: Int32

    static func usage(_ message: String) -> CLIError { CLIError(message: message, status: usage) }
}
