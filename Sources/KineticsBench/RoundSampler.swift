/// One configuration's work measured once a round, for a paired
/// comparison of two builds (`kinetics gate`): each round makes the engine
/// afresh, runs its warm-up frames, then times its measured frames; the
/// round's time is their median. Every round thus times the same frames of
/// the same workload, and the engine's memory is laid out anew each time,
/// so a lucky or unlucky placement is one round's, not the whole run's.
///
/// Mass completion and bursts time one event frame a round (their
/// repetition, as `kinetics bench` runs it).
package final class RoundSampler {
    /// What is measured.
    package let configuration: BenchConfiguration
    private let times: [Double]
    private var samples: [UInt64]

    /// A sampler for `configuration` (its repetitions are ignored: a round is one).
    package init(_ configuration: BenchConfiguration) {
        self.configuration = configuration
        times = Workload(configuration).frameTimes(configuration.warmupFrames + configuration.frames)
        samples = [UInt64](repeating: 0, count: configuration.frames)
    }

    /// One round: the median time of the measured frames, in nanoseconds.
    ///
    /// - Throws: ``BenchError`` when the engine refuses the workload.
    package func sample() throws(BenchError) -> Double {
        switch configuration.scenario {
        case .massCompletion, .burst:
            var once = configuration
            once.repetitions = 1
            let result = try BenchRunner.measure(once, checkingValues: false)
            return result.frameTimes?.first ?? result.p50
        case .steady, .jitter, .churn, .retargetStorm:
            FrameWatchdog.begin(configuration.key)
            defer { FrameWatchdog.end() }
            // A block of random size, held through the round, so that the
            // engine's memory starts at another place in the heap each
            // round. Without it an allocator hands a process the same
            // blocks round after round: two processes (a worker per side)
            // kept two placements for a whole run, and at 1,000 springs
            // the gate called one library against itself different in 12
            // of 30 runs; a placement drawn anew each round is noise that
            // falls on both sides.
            let shift = UnsafeMutableRawPointer.allocate(byteCount: 16 * Int.random(in: 1 ... 4_096), alignment: 16)
            defer { shift.deallocate() }
            let engine = try makeEngine(configuration)
            for frame in 0 ..< configuration.warmupFrames { engine.markedFrame(frame, at: times[frame]) }
            BenchRunner.timeFrames(engine, times, from: configuration.warmupFrames, into: &samples)
            return BenchRunner.median(samples)
        }
    }
}
