import CCallgrind
import Dispatch
import Histogram
import Kinetics
import KineticsAllocations

/// The measured result of one configuration.
public struct BenchResult: Codable, Sendable, Equatable {
    /// What was measured.
    public var configuration: BenchConfiguration
    /// The median frame time over every measured frame, in nanoseconds.
    public var p50: Double
    /// The 90th percentile of the frame times, in nanoseconds.
    public var p90: Double
    /// The 99th percentile of the frame times, in nanoseconds.
    public var p99: Double
    /// The longest frame, in nanoseconds.
    public var max: Double
    /// The mean frame time, in nanoseconds.
    public var mean: Double
    /// The median frame time of each repetition (their spread is the noise).
    public var repetitionMedians: [Double]
    /// `p50 / animations`.
    public var nanosecondsPerAnimation: Double
    /// `p50` as a fraction of the frame budget `1/fps`.
    public var budgetShare: Double
    /// Heap allocations per frame, counted exactly over extra frames (0
    /// when ``allocationsCounted`` is false).
    public var allocationsPerFrame: Double
    /// Whether allocations were counted: false when the malloc interposer
    /// was not active in the process, so that ``allocationsPerFrame`` says
    /// nothing; nil in reports written before this field existed.
    public var allocationsCounted: Bool?
    /// The bytes a frame of the batch engine touches for this workload.
    public var bytesPerFrame: Int
    /// The median time of the calibration kernel streaming those bytes,
    /// sampled between the repetitions (so it sees the same machine state).
    public var calibrationNanoseconds: Double
    /// `p50 / calibrationNanoseconds`: the machine-independent figure.
    public var calibrated: Double
    /// The smallest and largest of the calibration kernel's per-repetition
    /// medians (the median of the passes after each repetition) in this
    /// configuration's run, in nanoseconds; nil in reports written before
    /// they were kept. Where their spread is wider than the repetitions'
    /// medians', dividing by the kernel adds noise instead of removing it.
    public var calibrationMinimum: Double?
    /// The largest of those medians (see ``calibrationMinimum``).
    public var calibrationMaximum: Double?
    /// Mass completion: the median time of the steady frame just before the
    /// completing one; burst: of the steady frame just after the burst (all
    /// running); measured in the same repetitions.
    public var steadyNanoseconds: Double?
    /// Every measured frame's time, repetition after repetition (`frames`
    /// per repetition; for mass completion, the completing frames).
    public var frameTimes: [Double]?
    /// The engine's values against the exact motion of the workload
    /// (``BenchRunner/checkValues(_:)``); nil where not checked.
    public var valueCheck: ValueCheck?
    /// What the measured frames execute, under callgrind (`--count
    /// instructions`); nil where not counted.
    public var instructions: InstructionCount?

    /// The smallest and largest repetition median.
    public var repetitionRange: (min: Double, max: Double) {
        (repetitionMedians.min() ?? p50, repetitionMedians.max() ?? p50)
    }

    /// The spread of the repetition medians, max − min over p50, in percent.
    public var repetitionSpread: Double {
        let range = repetitionRange
        return p50 > 0 ? (range.max - range.min) / p50 * 100 : 0
    }

    /// The spread of the calibration kernel's per-repetition medians,
    /// max − min over the median pass, in percent; nil where not kept.
    public var calibrationSpread: Double? {
        guard let low = calibrationMinimum, let high = calibrationMaximum, calibrationNanoseconds > 0 else {
            return nil
        }
        return (high - low) / calibrationNanoseconds * 100
    }

    /// Two results are equal when they measured the same configuration to
    /// the same frame times.
    public static func == (lhs: BenchResult, rhs: BenchResult) -> Bool {
        lhs.configuration == rhs.configuration && lhs.p50 == rhs.p50 && lhs.repetitionMedians == rhs.repetitionMedians
    }
}

/// Measures configurations.
public enum BenchRunner {
    /// Frames whose allocations are counted after the timed ones.
    static let countedFrames = 3

    /// Calibration passes after each repetition.
    static let calibrationPasses = 3

    /// Whether the allocation counter works in this process (it counts one
    /// known allocation), checked once.
    static let countsAllocations = AllocationCounter.isActive

    /// Measures `configuration`: warm-up frames, then `repetitions` runs of
    /// `frames` frames, each frame timed on the monotonic clock and each run
    /// followed by a few passes of the calibration kernel; then a few frames
    /// with allocations counted.
    ///
    /// - Throws: ``BenchError`` when an engine from a library refuses the
    ///   workload, or does not finish every animation in the frame in which
    ///   they all finish (mass completion).
    ///
    /// `checkingValues` adds ``BenchResult/valueCheck`` (``checkValues(_:)``),
    /// on a workload of its own after the measured frames.
    public static func measure(
        _ configuration: BenchConfiguration, checkingValues: Bool = true
    ) throws(BenchError) -> BenchResult {
        FrameWatchdog.begin(configuration.key)
        defer { FrameWatchdog.end() }
        if configuration.scenario == .massCompletion { return try measureCompletion(configuration) }
        if configuration.scenario == .burst { return try measureBurst(configuration) }
        let workload = Workload(configuration)
        let engine = try makeEngine(configuration)
        let calibration = Calibration(streaming: bytesPerFrame(configuration))
        var kernel: [UInt64] = []
        let times = workload.frameTimes(
            configuration.warmupFrames + configuration.repetitions * configuration.frames + countedFrames)
        var histogram = Histogram<UInt64>(numberOfSignificantValueDigits: .three)
        var medians: [Double] = []
        var sum = 0.0
        var frameTimes: [Double] = []
        frameTimes.reserveCapacity(configuration.repetitions * configuration.frames)
        var frame = runRepetitions(configuration, engine, times, calibration, &kernel) { samples in
            for sample in samples {
                _ = histogram.record(sample)
                sum += Double(sample)
            }
            medians.append(median(samples))
            // Not map(Double.init): that reference picks init(bitPattern:).
            frameTimes += samples.map { Double($0) }
        }
        var allocations = 0
        for _ in 0 ..< countedFrames {
            let index = frame
            allocations += AllocationCounter.count { engine.markedFrame(index, at: times[index]) }
            frame += 1
        }
        let count = Double(configuration.repetitions * configuration.frames)
        var measured = result(
            configuration, histogram: histogram, mean: sum / count, medians: medians,
            allocations: Double(allocations) / Double(countedFrames), steady: nil, kernel: kernel)
        measured.frameTimes = frameTimes
        if checkingValues { measured.valueCheck = try checkValues(configuration) }
        return measured
    }

    /// The measured frames of ``measure(_:checkingValues:)`` without their
    /// statistics: what a run under callgrind needs (`countedFrame`
    /// executes the same frames, after the same calibration passes).
    package static func runFrames(_ configuration: BenchConfiguration) throws(BenchError) {
        guard configuration.scenario != .massCompletion, configuration.scenario != .burst else {
            _ = try measure(configuration, checkingValues: false)
            return
        }
        FrameWatchdog.begin(configuration.key)
        defer { FrameWatchdog.end() }
        let workload = Workload(configuration)
        let engine = try makeEngine(configuration)
        let calibration = Calibration(streaming: bytesPerFrame(configuration))
        var kernel: [UInt64] = []
        let times = workload.frameTimes(configuration.warmupFrames + configuration.repetitions * configuration.frames)
        _ = runRepetitions(configuration, engine, times, calibration, &kernel) { _ in }
    }

    /// The warm-up frames, then `repetitions` runs of `frames` timed frames,
    /// each run handed to `repetition` and followed by calibration passes
    /// (appended to `kernel`); returns the index of the next frame.
    private static func runRepetitions(
        _ configuration: BenchConfiguration, _ engine: MeasuredEngine, _ times: [Double], _ calibration: Calibration,
        _ kernel: inout [UInt64], repetition: ([UInt64]) -> Void
    ) -> Int {
        kinetics_callgrind_start_instrumentation()
        var frame = 0
        while frame < configuration.warmupFrames {
            engine.markedFrame(frame, at: times[frame])
            frame += 1
        }
        var samples = [UInt64](repeating: 0, count: configuration.frames)
        for _ in 0 ..< configuration.repetitions {
            timeFrames(engine, times, from: frame, into: &samples)
            frame += configuration.frames
            repetition(samples)
            kernel.append(contentsOf: calibration.passes(calibrationPasses))
        }
        return frame
    }

    /// Times `samples.count` frames of `engine` from frame `first`, each
    /// on the monotonic clock, the watchdog's mark before the first read.
    @inline(__always)
    static func timeFrames(_ engine: MeasuredEngine, _ times: [Double], from first: Int, into samples: inout [UInt64]) {
        for sample in samples.indices {
            FrameWatchdog.mark()
            let start = DispatchTime.now().uptimeNanoseconds
            countedFrame(engine, first + sample, times[first + sample])
            samples[sample] = DispatchTime.now().uptimeNanoseconds - start
        }
    }

    /// Runs a timed frame. `--count instructions` counts inside this
    /// function alone (callgrind's `--toggle-collect`), so that it counts
    /// the measured frames and nothing else: not the set-up, the warm-up,
    /// the clock reads nor the value check. Never inlined, so that it is
    /// there to be found; the call costs a few instructions a frame.
    @inline(never)
    static func countedFrame(_ engine: MeasuredEngine, _ frame: Int, _ time: Double) {
        engine.frame(frame, at: time)
    }

    /// Whether this build turns callgrind's instrumentation on where its
    /// engines, made, run their first frame (the warm-up's; an event
    /// scenario's first) and where ``BezierBench`` starts, so that a run
    /// under callgrind may start with it off (`--instr-atstart=no`): true
    /// where valgrind's headers were there to build with.
    public static var startsCallgrindInstrumentation: Bool { kinetics_callgrind_requests() != 0 }

    /// The name `--count instructions` finds `countedFrame(_:_:_:)` by,
    /// as a callgrind pattern over its mangled name.
    public static let countedFrameSymbol = "*RunnerO12countedFrameyy*"

    /// Throws unless every animation finished in the completing frame, as
    /// the workload's own engines finish them.
    private static func finished(_ engine: MeasuredEngine, _ configuration: BenchConfiguration) throws(BenchError) {
        guard engine.running == 0 else {
            throw BenchError(
                description:
                    "\(configuration.engine): \(engine.running) animations still run after the frame in which one of them alone finishes (the mass-completion workload's animations are all alike)"
            )
        }
    }

    /// Mass completion: each repetition builds the workload afresh, runs it
    /// to the frame before all finish (timing that steady frame), then times
    /// the frame in which they all finish.
    static func measureCompletion(_ configuration: BenchConfiguration) throws(BenchError) -> BenchResult {
        let workload = Workload(configuration)
        let times = workload.frameTimes(Int(configuration.fps * 30))
        // Find the completing frame once, on one animation of the engine's
        // own (they are all alike): an engine with another scheme than Pop's
        // finishes them in another frame.
        let probe = try makeEngine(
            BenchConfiguration(
                engine: configuration.engine, animations: 1, mix: configuration.mix, fps: configuration.fps,
                scenario: .massCompletion))
        var last = 0
        while last < times.count - 1 && probe.running > 0 {
            probe.markedFrame(last, at: times[last])
            last += 1
        }
        guard probe.running == 0, last >= 2 else {
            throw BenchError(
                description:
                    "\(configuration.engine): the mass-completion workload's animations do not finish within \(times.count) frames"
            )
        }
        let completing = last - 1
        return try measureEventFrames(
            configuration,
            run: { engine throws(BenchError) in
                for frame in 0 ..< completing - 1 { engine.markedFrame(frame, at: times[frame]) }
                let steady = timed { engine.markedFrame(completing - 1, at: times[completing - 1]) }
                FrameWatchdog.mark()
                let event = timed { countedFrame(engine, completing, times[completing]) }
                try finished(engine, configuration)
                return (event, steady)
            },
            countAllocations: { engine throws(BenchError) in
                for frame in 0 ..< completing { engine.markedFrame(frame, at: times[frame]) }
                let allocations = AllocationCounter.count { engine.markedFrame(completing, at: times[completing]) }
                try finished(engine, configuration)
                return allocations
            })
    }

    /// Burst: each repetition builds the workload afresh and runs its
    /// warm-up, then times the frame that adds the burst and the steady
    /// frame after it, in which every animation runs (the ratio the table
    /// shows). The allocations counted are the burst frame's: an engine
    /// grows to hold the new animations.
    static func measureBurst(_ configuration: BenchConfiguration) throws(BenchError) -> BenchResult {
        let workload = Workload(configuration)
        let times = workload.frameTimes(workload.burstFrame + 2)
        let burst = workload.burstFrame
        func warmUp(_ engine: MeasuredEngine) throws(BenchError) {
            guard engine.addsAnimations else {
                throw BenchError(
                    description:
                        "\(configuration.engine): the burst scenario adds animations after the workload, which an engine behind the engine interface cannot (it has no add); it measures the animator, batch and reference engines"
                )
            }
            for frame in 0 ..< burst { engine.markedFrame(frame, at: times[frame]) }
        }
        return try measureEventFrames(
            configuration,
            run: { engine throws(BenchError) in
                try warmUp(engine)
                FrameWatchdog.mark()
                let event = timed { countedFrame(engine, burst, times[burst]) }
                let steady = timed { engine.markedFrame(burst + 1, at: times[burst + 1]) }
                guard engine.running == workload.allCount else {
                    throw BenchError(
                        description:
                            "\(configuration.engine): \(engine.running) animations run after the burst, not \(workload.allCount)"
                    )
                }
                return (event, steady)
            },
            countAllocations: { engine throws(BenchError) in
                try warmUp(engine)
                return AllocationCounter.count { engine.markedFrame(burst, at: times[burst]) }
            })
    }

    /// A scenario timed one frame per repetition (mass completion, burst):
    /// each repetition makes the engine afresh, and `run` returns the time
    /// of its event frame and of a steady frame beside it; a last engine gives the event frame's
    /// allocations through `countAllocations`.
    private static func measureEventFrames(
        _ configuration: BenchConfiguration,
        run: (MeasuredEngine) throws(BenchError) -> (event: UInt64, steady: UInt64),
        countAllocations: (MeasuredEngine) throws(BenchError) -> Int
    ) throws(BenchError) -> BenchResult {
        let calibration = Calibration(streaming: bytesPerFrame(configuration))
        var kernel: [UInt64] = []
        var histogram = Histogram<UInt64>(numberOfSignificantValueDigits: .three)
        var events: [Double] = []
        var steady: [Double] = []
        for _ in 0 ..< configuration.repetitions {
            let engine = try makeEngine(configuration)
            kinetics_callgrind_start_instrumentation()
            let (event, steadyTime) = try run(engine)
            _ = histogram.record(event)
            events.append(Double(event))
            steady.append(Double(steadyTime))
            kernel.append(contentsOf: calibration.passes(calibrationPasses))
        }
        let allocations = try countAllocations(try makeEngine(configuration))
        var measured = result(
            configuration, histogram: histogram, mean: events.reduce(0, +) / Double(events.count), medians: events,
            allocations: Double(allocations), steady: median(steady), kernel: kernel)
        measured.frameTimes = events
        return measured
    }

    /// The nanoseconds `body` takes.
    private static func timed(_ body: () -> Void) -> UInt64 {
        let start = DispatchTime.now().uptimeNanoseconds
        body()
        return DispatchTime.now().uptimeNanoseconds - start
    }

    private static func result(
        _ configuration: BenchConfiguration, histogram: Histogram<UInt64>, mean: Double, medians: [Double],
        allocations: Double, steady: Double?, kernel: [UInt64]
    ) -> BenchResult {
        let p50 = Double(histogram.valueAtPercentile(50))
        let bytes = bytesPerFrame(configuration)
        let calibration = median(kernel)
        // Each repetition's median pass, so that the kernel's spread is
        // measured as the repetitions' is: medians against medians.
        let perRepetition = stride(from: 0, to: kernel.count, by: calibrationPasses).map {
            median(Array(kernel[$0 ..< min($0 + calibrationPasses, kernel.count)]))
        }
        return BenchResult(
            configuration: configuration, p50: p50, p90: Double(histogram.valueAtPercentile(90)),
            p99: Double(histogram.valueAtPercentile(99)), max: Double(histogram.max), mean: mean,
            repetitionMedians: medians, nanosecondsPerAnimation: p50 / Double(configuration.animations),
            budgetShare: p50 / (1e9 / configuration.fps), allocationsPerFrame: allocations,
            allocationsCounted: countsAllocations, bytesPerFrame: bytes,
            calibrationNanoseconds: calibration, calibrated: p50 / calibration,
            calibrationMinimum: perRepetition.min(), calibrationMaximum: perRepetition.max(),
            steadyNanoseconds: steady)
    }

    /// The bytes a frame of the batch engine touches for the workload.
    static func bytesPerFrame(_ configuration: BenchConfiguration) -> Int {
        let workload = Workload(configuration)
        var bytes = 0
        let sample = min(workload.count, 20)
        for index in 0 ..< sample {
            let item = workload.item(index)
            let kind: ElementKind =
                switch item.kind {
                case .spring, .pointSpring: .spring(configuration.method)
                case .decay: .decay(.pop)
                case .basic: .basic
                case .keyframes: .keyframe
                }
            bytes += BatchSet.bytesPerElement(kind, points: item.kind == .pointSpring)
        }
        return bytes * workload.count / sample
    }

    /// The median of `values` (0 for none).
    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return 0 }
        return sorted.count % 2 == 1
            ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
    }

    /// The median of times in nanoseconds.
    static func median(_ values: [UInt64]) -> Double { median(values.map { Double($0) }) }
}

/// The calibration kernel: a loop that reads and writes every double of a
/// buffer of the given size, `x = x·a + b`, timed on the same machine in
/// the same run, between the repetitions of the measurement. Results divided
/// by it are comparable across machines.
public final class Calibration {
    private var buffer: [Double]
    private var passes = 0

    /// A kernel over `bytes` bytes, run once to fault the buffer in.
    public init(streaming bytes: Int) {
        buffer = [Double](repeating: 1, count: max(bytes / 8, 1))
        _ = pass()
    }

    /// Streams the buffer `count` times; returns each pass's nanoseconds.
    public func passes(_ count: Int) -> [UInt64] { (0 ..< count).map { _ in pass() } }

    /// Streams the buffer once; returns the time taken in nanoseconds.
    public func pass() -> UInt64 {
        passes += 1
        let offset = Double(passes) * 1e-9
        let start = DispatchTime.now().uptimeNanoseconds
        Self.stream(&buffer, scale: 0.999_999, offset: offset)
        let elapsed = DispatchTime.now().uptimeNanoseconds - start
        blackHole(buffer[buffer.count / 2])
        return elapsed
    }

    /// The median time, in nanoseconds, of `repetitions` passes over `bytes` bytes.
    public static func nanoseconds(streaming bytes: Int, repetitions: Int = 7) -> Double {
        let kernel = Calibration(streaming: bytes)
        return BenchRunner.median((0 ..< repetitions).map { _ in kernel.pass() })
    }

    @inline(never)
    static func stream(_ buffer: inout [Double], scale: Double, offset: Double) {
        buffer.withUnsafeMutableBufferPointer { values in
            for index in values.indices { values[index] = values[index] * scale + offset }
        }
    }
}

/// Keeps a value alive so the optimiser cannot drop the work behind it.
@inline(never)
func blackHole<T>(_ value: T) {
    withExtendedLifetime(value) {}
}
