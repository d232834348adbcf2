import Kinetics

/// What animation number `index` of a workload is. The same configuration
/// always gives the same workload, whatever the engine.
struct WorkItem {
    enum Kind {
        case spring
        case pointSpring
        case decay
        case basic
        case keyframe
    }

    var kind: Kind
    var parameters: SpringParameters
    var from, to, velocity, threshold, duration: Double
}

/// The workload of a configuration.
package struct Workload {
    let configuration: BenchConfiguration
    let keyframes: Keyframes<Double>

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
    }

    /// The duration of timed animations in the mass-completion scenario.
    static let completionDuration = 0.5

    var count: Int { configuration.animations }

    /// Animation `index`. For mass completion every animation of a kind is
    /// the same, so they all finish in one frame (the mixed workload uses
    /// basics and keyframes there, the kinds whose end is a time).
    func item(_ index: Int) -> WorkItem {
        let completing = configuration.scenario == .massCompletion
        let kind: WorkItem.Kind
        switch configuration.mix {
        case .spring: kind = .spring
        case .decay: kind = .decay
        case .basic: kind = .basic
        case .keyframe: kind = .keyframe
        case .mixed:
            if completing {
                kind = index % 2 == 0 ? .basic : .keyframe
            } else {
                switch index % 20 {
                case 0 ..< 8: kind = .spring
                case 8 ..< 12: kind = .pointSpring
                case 12 ..< 15: kind = .decay
                case 15 ..< 18: kind = .basic
                default: kind = .keyframe
                }
            }
        }
        if completing {
            return WorkItem(
                kind: kind, parameters: .popDefault, from: 0, to: 100, velocity: kind == .decay ? 2_000 : 0,
                threshold: 0.01, duration: Self.completionDuration)
        }
        let spread = Double(index % 50)
        return WorkItem(
            kind: kind, parameters: Self.steadySprings[index % 4], from: spread, to: 1_000 + spread,
            velocity: kind == .decay ? 1_000 + 10 * spread : 0, threshold: kind == .decay ? 1e-6 : 1e-9,
            duration: 1_000)
    }

    /// The deceleration of every decay: slow, so steady decays run for minutes.
    var deceleration: DecayParameters {
        configuration.scenario == .massCompletion ? .popDefault : try! DecayParameters(deceleration: 0.9995)
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

    /// ``BenchConfiguration/churnFraction`` of the animations, at least one.
    private var fraction: Int { max(1, Int((Double(count) * configuration.churnFraction).rounded())) }

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
