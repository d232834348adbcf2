import Foundation
@_exported import KineticsBench
import KineticsInput

/// The `kinetics bench` command for a package's own Swift engines: an
/// executable target's `main.swift` (or `@main` type) hands its engines to
/// ``main(_:)``, and the executable then takes every option of `kinetics
/// bench` and measures them beside the built-in engines, with the same
/// tables, value check against GSL's motion, baselines (`--save-baseline`,
/// `--baseline`) and exit status (2 on a regression).
///
/// ```swift
/// import KineticsCommandLine  // exports KineticsBench and KineticsEngine
/// BenchSuite.main([MySprings.self])
/// ```
public enum BenchSuite {
    private static let running = Locked(false)

    /// Whether this program is a package's bench executable (``main(_:)``
    /// runs), whose bench command is the program itself.
    static var isRunning: Bool { running.withLock { $0 } }

    /// Registers `engines` and runs the bench command on the process's
    /// arguments; exits with its status.
    public static func main(_ engines: [any BenchableEngine.Type]) -> Never {
        running.withLock { $0 = true }
        BenchRunner.motionReference = .gsl
        for engine in engines {
            do {
                try BenchEngine.register(engine)
            } catch {
                writeStandardError("\(programName): error: \(error)\n")
                exit(ExitStatus.badData.code)
            }
        }
        // The copy of this program that measures an --engine-library (EngineWorker).
        let arguments = CommandLine.arguments.dropFirst()
        if arguments.first == EngineWorkerCommand.configuration.commandName {
            runCommand(EngineWorkerCommand.self, arguments: Array(arguments.dropFirst()))
        }
        runCommand(Bench.self)
    }
}
