import ArgumentParser
import Foundation
import KineticsBench
import KineticsReport

/// The `kinetics` command.
///
/// Exit status (sysexits): 0 success; 1 a check failed; 2 a performance
/// regression; 64 a usage error; 65 bad input data; 66 a missing input file;
/// 69 a tool that is needed is missing (valgrind, for instruction counts);
/// 73 an output that cannot be written. Every error is one line on stderr.
struct KineticsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "kinetics",
        abstract: "Animation physics solvers in the style of Pop, cross-checked against GSL.",
        discussion: """
            With no subcommand, runs the report: the quick verification against GSL \
            and a quick bench, written to kinetics-report.html.

            Exit status: 0 success, 1 a check failed, 2 a performance regression, 64 usage error, \
            65 bad input data, 66 missing input, 69 a needed tool missing (valgrind for --count), \
            73 cannot write output.
            """,
        version: KineticsVersion.described,
        subcommands: [
            Report.self, Summary.self, Trace.self, Convert.self, Verify.self, Compare.self, Animate.self, Bench.self,
            Gate.self, EngineWorkerCommand.self, VerifyWorkerCommand.self,
            Plot.self,
            Reference.self,
        ],
        defaultSubcommand: Report.self
    )

}

/// The `kinetics` program: the executable `kinetics` is this one call.
public enum KineticsProgram {
    /// Runs the command on the process's arguments and exits with its
    /// status; every error is one line on stderr and a sysexits status.
    /// Bench and gate check values against GSL's motion.
    public static func main() -> Never {
        BenchRunner.motionReference = .gsl
        runCommand(KineticsCommand.self)
    }
}
