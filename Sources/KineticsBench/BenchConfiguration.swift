import Kinetics

/// What is measured: the animator, its batches alone, a model of Pop (in
/// Swift and in C), or an engine loaded from a library (``EngineLibrary``),
/// named by its own table.
public struct BenchEngine: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
    /// The engine's name in tables, baselines and `--engine`.
    public let rawValue: String

    /// The engine named `rawValue`: a built-in one, or one a loaded library
    /// registered under that name (nil for an empty name).
    public init?(rawValue: String) {
        guard !rawValue.isEmpty else { return nil }
        self.rawValue = rawValue
    }

    private init(_ name: String) { rawValue = name }

    /// The Kinetics animator on a manual frame clock.
    public static let animator = BenchEngine("animator")
    /// The animator's structure-of-arrays batches alone: no registry, no
    /// callbacks. The floor the animator's bookkeeping is measured against.
    public static let batch = BenchEngine("batch")
    /// A plain Swift model of Pop's frame: one object per animation behind a
    /// protocol call, springs one RK4 step at a time with the fraction blend,
    /// the list copied into a new array every frame, removal by linear search.
    public static let reference = BenchEngine("reference")
    /// The same model of Pop's frame in C, compiled with optimisation: heap
    /// objects behind function pointers, the list copied every frame,
    /// removal by linear search. It computes the `reference` engine's values,
    /// and runs through the C engine interface (`kinetics_engine.h`).
    public static let popC = BenchEngine("pop-c")

    /// An engine that does nothing, behind the C interface: its frame is the
    /// harness alone (the scenario's loop, one indirect call to tick, the
    /// clock read around it), measured beside engines from libraries and
    /// Swift packages. Not among ``allCases``.
    public static let abiNull = BenchEngine("abi-null")

    /// The animator with every key made once (`AnimationKey`) instead of
    /// passed as a `String` to each add: what adds cost under keys hashed
    /// once. Measured when asked for by name. Not among ``allCases``.
    public static let animatorKeys = BenchEngine("animator-keys")

    /// The animator with no keys: each add names its animation
    /// (`animation-N`), and a replacement under churn removes the running
    /// animation and adds the new one. Measured when asked for by name.
    /// Not among ``allCases``.
    public static let animatorUnkeyed = BenchEngine("animator-unkeyed")

    /// The animator with every key made once, each spring added from its
    /// numbers (`Animator.addSpring`) instead of as an `Animation`: what an
    /// add costs without the animation's build, settings' check and
    /// destruction. Other kinds are added as `animator-keys` adds them.
    /// Measured when asked for by name. Not among ``allCases``.
    public static let animatorSprings = BenchEngine("animator-springs")

    /// The engines measured only when named.
    package static let namedOnly: [BenchEngine] = [.abiNull, .animatorKeys, .animatorUnkeyed, .animatorSprings]

    /// The built-in engines measured by default, in table order.
    public static let allCases: [BenchEngine] = [.animator, .batch, .reference, .popC]

    /// Whether the engine models Pop (`reference` and `pop-c`): the
    /// baselines that "× faster" ratios divide by.
    public var isPopModel: Bool { self == .reference || self == .popC }

    /// Whether the engine is one of Kinetics' own (not from a library).
    public var isBuiltIn: Bool { Self.allCases.contains(self) || Self.namedOnly.contains(self) }

    /// Whether the engine keeps its animations in Kinetics' batches (the
    /// animator in each of its forms, and the batches alone), whose bytes
    /// ``BenchResult/bytesPerFrame`` counts: for every other engine that
    /// count is the workload's in the batches' layout, not the engine's.
    public var usesBatchLayout: Bool {
        self == .animator || self == .batch || (Self.namedOnly.contains(self) && self != .abiNull)
    }

    /// Whether `--method` means anything to the engine: only Kinetics' own
    /// engines with springs take one. An engine from a library or a
    /// package steps as it steps, and abi-null steps nothing; their
    /// configurations are made with `pop` (so that a baseline matches
    /// whatever --method said) and their rows show `-`.
    public var takesMethod: Bool { Self.allCases.contains(self) || (Self.namedOnly.contains(self) && self != .abiNull) }

    /// The name.
    public var description: String { rawValue }
}

/// Which animations make up the workload.
public enum BenchMix: String, CaseIterable, Sendable, Codable {
    /// Scalar springs (four shared parameter sets).
    case spring
    /// Scalar decays.
    case decay
    /// Basic animations along Core Animation's ease-in-ease-out curve.
    case basic
    /// Four-value keyframe animations with three curves.
    case keyframe
    /// A realistic blend: 40% scalar springs, 20% point springs, 15% decays,
    /// 15% basics, 10% keyframes.
    case mixed
}

/// What happens during the measured frames.
public enum BenchScenario: String, CaseIterable, Sendable, Codable {
    /// Every animation runs; nothing is added or removed.
    case steady
    /// A seeded jittered clock with dropped frames (10% dropped, ±25% of a period).
    case jitter
    /// A fraction of the animations (``BenchConfiguration/churnFraction``)
    /// is replaced every frame.
    case churn
    /// All animations finish in the same frame; that frame is measured.
    case massCompletion = "mass-completion"
    /// Every spring gets a new target every frame.
    case retargetStorm = "retarget-storm"
    /// A fraction of the animations (``BenchConfiguration/churnFraction``)
    /// is added in one frame, as new animations of new properties under new
    /// keys, to the animations that run; that frame is measured against the
    /// steady frame after it, in which they all run.
    case burst
}

/// One measured configuration.
public struct BenchConfiguration: Hashable, Sendable, Codable {
    /// The engine measured.
    public var engine: BenchEngine
    /// How many animations run at once.
    public var animations: Int
    /// What kinds of animation they are.
    public var mix: BenchMix
    /// The frame rate, in frames a second.
    public var fps: Double
    /// What happens to the animations from frame to frame.
    public var scenario: BenchScenario
    /// The spring method (the `reference` engine always steps as Pop does).
    public var method: SpringMethod
    /// Measured frames per repetition.
    public var frames: Int
    /// Timed repetitions of those frames.
    public var repetitions: Int
    /// Frames run before the first repetition, untimed.
    public var warmupFrames: Int
    /// The share of the animations a churn frame replaces and a burst adds.
    public var churnFraction: Double

    /// A configuration; the defaults measure 30 frames after 10 warm-up
    /// frames, 7 times.
    public init(
        engine: BenchEngine, animations: Int, mix: BenchMix = .spring, fps: Double = 60,
        scenario: BenchScenario = .steady, method: SpringMethod = .pop, frames: Int = 30,
        repetitions: Int = 7, warmupFrames: Int = 10, churnFraction: Double = 0.1
    ) {
        self.engine = engine
        self.animations = animations
        self.mix = mix
        self.fps = fps
        self.scenario = scenario
        self.method = method
        self.frames = frames
        self.repetitions = repetitions
        self.warmupFrames = warmupFrames
        self.churnFraction = churnFraction
    }

    /// The configuration without its engine, for comparing engines:
    /// `100000 spring steady 60 Hz pop`.
    public var workload: String {
        "\(animations) \(mix.rawValue) \(scenario.rawValue) \(rate) Hz \(method.rawValue)"
    }

    /// The frame rate as names show it: `60`, `59.94`.
    var rate: String { String(format: "%g", fps) }

    /// The first field outside the range `kinetics bench` accepts, with its
    /// value and that range (`fps: 7e+95 is not in [1, 1000]`); nil when
    /// every field is in range.
    public var outOfRange: String? {
        if !(1 ... 1_000_000).contains(animations) { return "animations: \(animations) is not in [1, 1000000]" }
        if !(fps.isFinite && fps >= 1 && fps <= 1_000) { return "fps: \(fps) is not in [1, 1000]" }
        if !(1 ... 100_000).contains(frames) { return "frames: \(frames) is not in [1, 100000]" }
        if !(1 ... 1_000).contains(repetitions) { return "repetitions: \(repetitions) is not in [1, 1000]" }
        if !(0 ... 100_000).contains(warmupFrames) { return "warmupFrames: \(warmupFrames) is not in [0, 100000]" }
        if !(churnFraction.isFinite && churnFraction > 0 && churnFraction <= 1) {
            return "churnFraction: \(churnFraction) is not in (0, 1]"
        }
        return nil
    }

    /// How many animations a churn frame replaces and a burst adds:
    /// ``churnFraction`` of the animations, at least one.
    public var eventCount: Int { max(1, Int((Double(animations) * churnFraction).rounded())) }

    /// The identity of the configuration in baselines.
    public var key: String { "\(engine.rawValue) \(workload)" }

    /// The animation frames a bench of this configuration runs: its warm-up,
    /// its repetitions' frames and the three frames whose allocations are
    /// counted, for each animation.
    public var animationFrames: Double {
        Double(animations) * Double(warmupFrames + repetitions * frames + 3)
    }

    /// The least time an animation's frame takes, in seconds: 1 ns. The
    /// fastest engine here, the batch path, takes 1.1 to 1.8 ns a spring in
    /// its steady frame at 100,000 springs (2-core AMD EPYC, 2026-12-02);
    /// every other engine is slower. A bench's time is at least its
    /// ``animationFrames`` at this cost.
    public static let leastFrameCost = 1e-9
}
