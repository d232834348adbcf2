/// A built-in engine (the animator or the batch path) running a bench
/// configuration's workload frame by frame, on the workload's own clock.
///
/// The package benchmarks in `Benchmarks/` (a package of their own, so that
/// the package-benchmark dependency stays out of this one) time these
/// frames, so that they and `kinetics bench` measure the same thing. Not a
/// stable interface: it is spelled for them alone.
@_spi(PackageBenchmarks)
public final class BenchScene {
    private let engine: MeasuredEngine
    private let times: [Double]

    /// How many frames have run.
    public private(set) var framesRun = 0

    /// Makes the engine of `configuration`, with its workload added at
    /// time 0, and a clock of `frames` frames.
    ///
    /// - Precondition: `configuration.engine` is built in (the animator or
    ///   the batch path), and `frames` is positive.
    public init(_ configuration: BenchConfiguration, frames: Int) {
        precondition(frames > 0, "a scene needs a frame, not \(frames)")
        engine = makeBuiltInEngine(configuration)
        times = Workload(configuration).frameTimes(frames)
    }

    /// How many animations are running.
    public var running: Int { engine.running }

    /// Runs the next frame: the scenario's changes, then the tick.
    ///
    /// - Precondition: fewer frames have run than the clock holds.
    @inline(__always)
    public func frame() {
        precondition(framesRun < times.count, "more frames than the scene's clock holds (\(times.count))")
        engine.frame(framesRun, at: times[framesRun])
        framesRun += 1
    }
}
