import ArgumentParser
import Kinetics
import KineticsBench

/// The workload options that `kinetics bench` and `kinetics gate` share:
/// every combination of the counts, mixes, frame rates and scenarios given
/// is one configuration.
struct WorkloadOptions: ParsableArguments {
    @Option(
        name: .customLong("animations"),
        help: "Animation counts (repeatable), 1 … 1,000,000. Default: 1000, 10000, 100000 (gate: 10000).",
        transform: OptionCheck.wholeNumber(in: 1 ... 1_000_000))
    var counts: [Int] = []
    @Option(
        name: .customLong("mix"), help: "Mixes (repeatable): spring, decay, basic, keyframe, mixed. Default: spring.")
    var mixes: [BenchMix] = []
    @Option(name: .customLong("fps"), help: "Frame rates (repeatable). Default: 60.")
    var rates: [Double] = []
    @Option(
        name: .customLong("scenario"),
        help: "Scenarios (repeatable): steady, jitter, churn, mass-completion, retarget-storm, burst. Default: steady.")
    var scenarios: [BenchScenario] = []
    @Option(
        parsing: .unconditional, help: "Measured frames per repetition (gate: per round), 1 … 100,000. Default: 30.",
        transform: OptionCheck.wholeNumber(in: 1 ... 100_000))
    var frames = 30
    @Option(
        parsing: .unconditional, help: "Warm-up frames before measuring, 0 … 100,000. Default: 10.",
        transform: OptionCheck.wholeNumber(in: 0 ... 100_000))
    var warmup = 10
    @Option(
        parsing: .unconditional,
        help: "Fraction of animations replaced per frame under churn, in (0, 1].")
    var churnFraction = 0.1
    @Option(
        parsing: .unconditional,
        help:
            "Seconds a frame may take before the run ends with status 65, naming the engine, configuration and frame (an engine in-process cannot be stopped otherwise), in (0, 86400]."
    )
    var frameTimeout = 60.0

    init() {}

    func validate() throws {
        // At least 1 Hz: a frame of seconds or more is no animation, and at
        // 1e-300 Hz its one frame would be past any time GSL can integrate to.
        for rate in rates where !(rate.isFinite && rate >= 1 && rate <= 1_000) {
            throw ValidationError("--fps must be a number in [1, 1000], got \(rate)")
        }
        guard churnFraction.isFinite, churnFraction > 0, churnFraction <= 1 else {
            throw ValidationError("--churn-fraction must be in (0, 1], got \(churnFraction)")
        }
        guard frameTimeout.isFinite, frameTimeout > 0, frameTimeout <= 86_400 else {
            throw ValidationError("--frame-timeout must be a number of seconds in (0, 86400], got \(frameTimeout)")
        }
    }

    /// Whether any workload option was given (the gate's commands take none).
    var isGiven: Bool { !given.isEmpty }

    /// The workload options given, with their values (`--fps 0.5`), for a
    /// message that refuses them.
    var given: [String] {
        counts.map { "--animations \($0)" } + mixes.map { "--mix \($0.rawValue)" } + rates.map { "--fps \($0)" }
            + scenarios.map { "--scenario \($0.rawValue)" } + (frames != 30 ? ["--frames \(frames)"] : [])
            + (warmup != 10 ? ["--warmup \(warmup)"] : [])
            + (churnFraction != 0.1 ? ["--churn-fraction \(churnFraction)"] : [])
    }

    /// Every configuration: mixes outermost, engines innermost (so that each
    /// workload's engines are measured back to back), those `measures`
    /// accepts; `defaultCounts` when no --animations was given.
    func configurations(
        engines: [BenchEngine], defaultCounts: [Int], method: SpringMethod, repetitions: Int,
        measures: (BenchEngine, BenchScenario) -> Bool = { _, _ in true }
    ) -> [BenchConfiguration] {
        var list: [BenchConfiguration] = []
        for mix in mixes.isEmpty ? [.spring] : mixes {
            for scenario in scenarios.isEmpty ? [.steady] : scenarios {
                for rate in rates.isEmpty ? [60] : rates {
                    for count in counts.isEmpty ? defaultCounts : counts {
                        for engine in engines where measures(engine, scenario) {
                            list.append(
                                BenchConfiguration(
                                    engine: engine, animations: count, mix: mix, fps: rate, scenario: scenario,
                                    method: engine.takesMethod ? method : .pop, frames: frames,
                                    repetitions: repetitions, warmupFrames: warmup,
                                    churnFraction: churnFraction))
                        }
                    }
                }
            }
        }
        return list
    }
}
