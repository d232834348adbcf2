import CKineticsSupport

/// A source of frame times for an ``Animator``.
public protocol FrameClock {
    /// The time of the next frame, in seconds, waiting for it if the clock is
    /// real; nil when the clock has no more frames.
    mutating func nextFrame() -> Double?
}

extension Animator {
    /// Ticks at every frame of `clock` until it runs out or `stop` says so
    /// (checked after each tick).
    public func run<Clock: FrameClock>(_ clock: inout Clock, until stop: (Animator) -> Bool = { _ in false }) {
        while let time = clock.nextFrame() {
            tick(at: time)
            if stop(self) { return }
        }
    }
}

/// A deterministic clock for tests and scenarios: a fixed rate, an explicit
/// list of times, or a seeded jitter model with dropped frames.
public struct ManualFrameClock: FrameClock, Sendable {
    private enum Source: Sendable {
        case rate(Double)
        case times([Double])
        case jittered(rate: Double, dropRate: Double, jitter: Double)
    }

    private let source: Source
    private let last: Int?
    private var frame = 0
    private var generator: SplitMix64
    private var previous = -Double.infinity

    /// Frames at `k/fps` for k = 1, 2, … (up to `duration` seconds if given).
    ///
    /// - Precondition: `fps` finite and > 0; `duration` finite and >= 0.
    public init(fps: Double, duration: Double? = nil) {
        precondition(fps.isFinite && fps > 0, "a frame rate must be finite and > 0")
        source = .rate(fps)
        last = duration.map { Self.frameCount(fps: fps, duration: $0) }
        generator = SplitMix64(seed: 0)
    }

    /// Frames at exactly `times`, in order.
    public init(times: [Double]) {
        source = .times(times)
        last = times.count
        generator = SplitMix64(seed: 0)
    }

    /// Frames near `k/fps`, each moved by up to `jitter` of a period either
    /// way, and each dropped (skipped) with probability `dropRate`; the same
    /// `seed` gives the same frames. Times never go backwards.
    ///
    /// - Precondition: `dropRate` in [0, 1) and `jitter` in [0, 0.5).
    public static func jittered(
        fps: Double, seed: UInt64, dropRate: Double = 0.1, jitter: Double = 0.1, duration: Double? = nil
    ) -> ManualFrameClock {
        precondition(fps.isFinite && fps > 0, "a frame rate must be finite and > 0")
        precondition(dropRate >= 0 && dropRate < 1, "a drop rate must be in [0, 1)")
        precondition(jitter >= 0 && jitter < 0.5, "jitter must be in [0, 0.5) of a period")
        return ManualFrameClock(
            source: .jittered(rate: fps, dropRate: dropRate, jitter: jitter),
            last: duration.map { frameCount(fps: fps, duration: $0) }, seed: seed)
    }

    private init(source: Source, last: Int?, seed: UInt64) {
        self.source = source
        self.last = last
        generator = SplitMix64(seed: seed)
    }

    private static func frameCount(fps: Double, duration: Double) -> Int {
        precondition(duration.isFinite && duration >= 0, "a duration must be finite and >= 0")
        return Int((duration * fps * (1 + 1e-12)).rounded(.down))
    }

    /// The next frame's time, or nil after the last one.
    public mutating func nextFrame() -> Double? {
        switch source {
        case .rate(let fps):
            frame += 1
            if let last, frame > last { return nil }
            return Double(frame) / fps
        case .times(let times):
            guard frame < times.count else { return nil }
            frame += 1
            return times[frame - 1]
        case .jittered(let fps, let dropRate, let jitter):
            while true {
                frame += 1
                if let last, frame > last { return nil }
                let dropped = generator.nextUnit() < dropRate
                let offset = (generator.nextUnit() * 2 - 1) * jitter
                if dropped { continue }
                let time = max((Double(frame) + offset) / fps, previous.nextUp)
                previous = time
                return time
            }
        }
    }
}

#if !os(Windows)
    /// A real clock on the monotonic time of the system: frames at a refresh
    /// rate, waiting for each (frames already missed are skipped). Times are
    /// seconds since the clock was made.
    public struct SystemFrameClock: FrameClock {
        private let period: Double
        private let origin: Double
        private let end: Double?
        private var frame = 0

        /// A clock at `refreshRate` frames per second, for `duration` seconds if given.
        ///
        /// - Precondition: `refreshRate` finite and > 0.
        public init(refreshRate: Double = 60, duration: Double? = nil) {
            precondition(refreshRate.isFinite && refreshRate > 0, "a refresh rate must be finite and > 0")
            period = 1 / refreshRate
            origin = Self.now()
            end = duration
        }

        /// Waits for the next frame boundary and returns the time it woke at.
        public mutating func nextFrame() -> Double? {
            let elapsed = Self.now() - origin
            frame = max(frame + 1, Int((elapsed / period).rounded(.down)) + 1)
            let deadline = Double(frame) * period
            if let end, deadline > end { return nil }
            Self.sleep(until: origin + deadline)
            return Self.now() - origin
        }

        private static func now() -> Double {
            var spec = timespec()
            clock_gettime(CLOCK_MONOTONIC, &spec)
            return Double(spec.tv_sec) + Double(spec.tv_nsec) * 1e-9
        }

        private static func sleep(until time: Double) {
            var remaining = time - now()
            while remaining > 0 {
                var request = timespec(
                    tv_sec: Int(remaining), tv_nsec: Int((remaining - remaining.rounded(.down)) * 1e9))
                _ = nanosleep(&request, nil)
                remaining = time - now()
            }
        }
    }
#endif

/// SplitMix64: the small seeded generator behind the jitter model, and
/// behind every seeded grid and random test of the package.
package struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// A generator whose sequence depends only on `seed`.
    package init(seed: UInt64) { state = seed }

    /// The next 64 random bits.
    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A double in [0, 1): the next 53 random bits times 2⁻⁵³. The scale is
    /// a `Double` literal, not `Double(1 << 53)`, which is 0 where `Int` has
    /// 32 bits (wasm32, watchOS's arm64_32) and made every jittered time
    /// infinite or NaN there; on 64 bits the two give the same doubles.
    package mutating func nextUnit() -> Double { Double(next() >> 11) * 0x1p-53 }
}
