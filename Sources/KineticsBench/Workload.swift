import Kinetics

/// The workload of a configuration.
package struct Workload {
    let configuration: BenchConfiguration
    let keyframes: Keyframes<Double>
    /// The deceleration of every decay: slow, so steady decays run for
    /// minutes (Pop's default for mass completion).
    let deceleration: DecayParameters
    /// The timing curve of every basic animation: ease-in-ease-out's
    /// control points (computed, not a static: a static is read through
    /// its lazy initialiser on every item).
    static var curve: SIMD4<Double> { SIMD4(0.42, 0, 0.58, 1) }

    /// Four shared, lightly damped parameter sets (ζ ≈ 0.1): steady springs
    /// keep moving for the whole measurement.
    static let steadySprings: [SpringParameters] = [
        try! SpringParameters(tension: 300, friction: 3.5), try! SpringParameters(tension: 200, friction: 3),
        try! SpringParameters(tension: 400, friction: 4), try! SpringParameters(tension: 250, friction: 2.5),
    ]

    package init(_ configuration: BenchConfiguration) {
        self.configuration = configuration
        let duration = configuration.scenario == .massCompletion ? Self.completionDuration : 1_000
        keyframes = try! Keyframes(
            values: [0, 40, 25, 100], keyTimes: [0, 0.3, 0.7, 1], timingFunctions: [.easeOut, .linear, .easeInEaseOut],
            duration: duration)
        deceleration =
            configuration.scenario == .massCompletion ? .popDefault : try! DecayParameters(deceleration: 0.9995)
    }

    /// The duration of timed animations in the mass-completion scenario.
    static let completionDuration = 0.5

    var count: Int { configuration.animations }

    /// Animation `index`, as every engine is given it (a C engine in the
    /// interface's struct). For mass completion every animation of a kind
    /// is the same, so they all finish in one frame (the mixed workload uses
    /// basics and keyframes there, the kinds whose end is a time).
    func item(_ index: Int) -> BenchAnimation {
        let completing = configuration.scenario == .massCompletion
        let kind: BenchAnimation.Kind
        switch configuration.mix {
        case .spring: kind = .spring
        case .decay: kind = .decay
        case .basic: kind = .basic
        case .keyframe: kind = .keyframes
        case .mixed:
            if completing {
                kind = index % 2 == 0 ? .basic : .keyframes
            } else {
                switch index % 20 {
                case 0 ..< 8: kind = .spring
                case 8 ..< 12: kind = .pointSpring
                case 12 ..< 15: kind = .decay
                case 15 ..< 18: kind = .basic
                default: kind = .keyframes
                }
            }
        }
        if completing {
            return BenchAnimation(
                kind: kind, spring: .popDefault, to: 100, velocity: kind == .decay ? 2_000 : 0,
                deceleration: deceleration, threshold: 0.01, duration: Self.completionDuration,
                controlPoints: Self.curve)
        }
        let spread = Double(index % 50)
        return BenchAnimation(
            kind: kind, spring: Self.steadySprings[index % 4], to: 1_000 + spread,
            velocity: kind == .decay ? 1_000 + 10 * spread : 0, deceleration: deceleration,
            threshold: kind == .decay ? 1e-6 : 1e-9, duration: 1_000, controlPoints: Self.curve)
    }

    /// The initial value of property `index` (a point starts at (v, v)).
    func initial(_ index: Int) -> Double {
        configuration.scenario == .massCompletion ? 0 : Double(index % 50)
    }

    /// The workload as a Swift engine is given it.
    var description: BenchWorkload {
        BenchWorkload(
            initial: (0 ..< count).map(initial), animations: (0 ..< count).map(item), keyframes: keyframes)
    }

    /// How many animations the burst adds: they are numbered from ``count``
    /// on, with properties of their own.
    var burstCount: Int { configuration.scenario == .burst ? fraction : 0 }

    /// Every animation the workload has, a burst's included: the properties
    /// an engine makes.
    var allCount: Int { count + burstCount }

    /// The key of every animation, a burst's included (`a0`, `a1`, …): the
    /// animator's engine adds under them.
    func keys() -> [String] { (0 ..< allCount).map { "a\($0)" } }

    /// The frame in which the burst is added: the first after the warm-up.
    var burstFrame: Int { configuration.warmupFrames }

    /// How many animations are replaced each frame under churn.
    var churnPerFrame: Int { configuration.scenario == .churn ? fraction : 0 }

    /// ``BenchConfiguration/eventCount``.
    private var fraction: Int { configuration.eventCount }

    /// The target of spring `index` at frame `frame` of a retarget storm.
    func stormTarget(_ index: Int, frame: Int) -> Double {
        (frame % 2 == 0 ? 1_000 : 500) + Double(index % 50)
    }

    /// The frame times: `k/fps`, or the seeded jittered clock.
    package func frameTimes(_ count: Int) -> [Double] {
        var times: [Double] = []
        times.reserveCapacity(count)
        if configuration.scenario == .jitter {
            var clock = ManualFrameClock.jittered(fps: configuration.fps, seed: 2026, dropRate: 0.1, jitter: 0.25)
            while times.count < count, let time = clock.nextFrame() { times.append(time) }
        } else {
            var clock = ManualFrameClock(fps: configuration.fps)
            while times.count < count, let time = clock.nextFrame() { times.append(time) }
        }
        return times
    }
}
