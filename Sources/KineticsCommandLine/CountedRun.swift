import Foundation
import KineticsBench
import KineticsInput

/// The run that ``InstructionCounter`` starts under callgrind: the frames of
/// one configuration, or the bezier's evaluations, in a copy of this
/// program. What to run comes in the environment (``variable``, as JSON),
/// not as a command line, so that the run under valgrind parses none: in a
/// debug build, swift-argument-parser's checks of the command's definition
/// were most of such a run's instructions (docs/performance.md). Counting
/// is limited to the measured functions either way, so the counts are the
/// same.
struct CountedRun: Codable {
    /// The configuration whose frames run; nil: the bezier's evaluations.
    var configuration: BenchConfiguration?
    /// Engine libraries loaded first.
    var libraries: [String]
    /// Seconds a frame may take before the run ends with status 65.
    var frameTimeout: Double

    /// The environment variable that asks for a counted run.
    static let variable = "KINETICS_COUNTED_RUN"

    /// The counted run this process was started for, if any.
    static var requested: CountedRun? {
        guard let text = ProcessInfo.processInfo.environment[variable] else { return nil }
        return try? JSONDecoder().decode(CountedRun.self, from: Data(text.utf8))
    }

    /// The environment that asks for this run.
    func environment() throws -> String {
        String(decoding: try JSONEncoder().encode(self), as: UTF8.self)
    }

    /// Runs it and exits: 0, or 65 with the reason on standard error.
    func execute() -> Never {
        do {
            for path in libraries { _ = try EngineLibrary.load(path) }
            FrameWatchdog.start(timeout: frameTimeout)
            if let configuration {
                try BenchRunner.runFrames(configuration)
            } else {
                _ = BezierBench.measure()
            }
            Foundation.exit(0)
        } catch {
            writeStandardError("\(programName): error: \(error)\n")
            Foundation.exit(ExitStatus.badData.code)
        }
    }
}
