// package-benchmark suites for the hot path. Run them from this folder
// (a package of its own) with
//   swift package benchmark --target KineticsBenchmarks
// Every animator and batch frame holds a threshold: its worst iteration
// (p100 of mallocCountTotal, not a percentile that a rare allocating frame
// passes) allocates no more than the committed baseline's, which is none.
// scripts/allocation-gate.sh checks it with `benchmark baseline check`.
//
// The frames are the `kinetics bench` engines' own (KineticsBench's
// workloads), so both harnesses measure the same thing.

import Benchmark
import Foundation
import Kinetics
@_spi(PackageBenchmarks) import KineticsBench

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .mallocCountTotal], warmupIterations: 5, maxDuration: .seconds(1), maxIterations: 500)

    for engine in [BenchEngine.animator, .batch] {
        // A steady frame per mix, at 1,000 and 10,000 animations.
        for mix in BenchMix.allCases {
            for count in [1_000, 10_000] {
                frames(engine, mix, .steady, count)
            }
        }
        // Frames with interaction, once the engine has grown (three full
        // rounds of churn before measuring).
        for mix in [BenchMix.spring, .mixed] {
            frames(engine, mix, .churn, 10_000, growth: 30)
        }
        frames(engine, .spring, .retargetStorm, 10_000)
        // Every animation finishing in one frame: each iteration builds the
        // workload afresh and runs it to the frame before, unmeasured.
        for mix in [BenchMix.spring, .mixed] {
            completion(engine, mix, 10_000)
        }
        // A tenth more springs added in one frame, their room reserved
        // ahead: each iteration builds the workload afresh, as above.
        burst(engine, 10_000)
    }

    // The fast bezier as the animator evaluates it: the curve's table.
    let table = BezierTable(.easeInEaseOut)
    Benchmark("bezier.solve.table", configuration: .init(scalingFactor: .kilo)) { benchmark in
        var sum = 0.0
        var x = 0.0005
        for _ in benchmark.scaledIterations {
            sum += table.solve(x)
            x += 0.001
            if x > 1 { x -= 1 }
        }
        blackHole(sum)
    }

    // The same table, 1,000 x at once into a buffer (its work buffer is on
    // the stack: no allocation).
    let many = (0 ..< 1_000).map { 0.0005 + Double($0) * 0.001 }
    let out = UnsafeMutableBufferPointer<Double>.allocate(capacity: many.count)
    out.initialize(repeating: 0)
    Benchmark("bezier.solve.table.many", configuration: .init(scalingFactor: .kilo)) { benchmark in
        for _ in 0 ..< benchmark.scaledIterations.count / many.count {
            many.withUnsafeBufferPointer { _ = table.solve($0, into: out) }
            blackHole(out[0])
        }
    }

    // Solving a bezier, per mode: 1,000 x values per iteration.
    let curve = UnitBezier.easeInEaseOut
    for method in BezierMethod.allCases {
        Benchmark("bezier.solve.\(method.rawValue)", configuration: .init(scalingFactor: .kilo)) { benchmark in
            var sum = 0.0
            var x = 0.0005
            for _ in benchmark.scaledIterations {
                sum += curve.solve(x, method: method, epsilon: 1.0 / 400)
                x += 0.001
                if x > 1 { x -= 1 }
            }
            blackHole(sum)
        }
    }

    // One 60 Hz frame of one spring with each method (the reference stepper).
    for method in SpringMethod.allCases {
        Benchmark("spring.frame.\(method.rawValue)", configuration: .init(scalingFactor: .kilo)) { benchmark in
            var stepper = SpringStepper(parameters: .popDefault, method: method, value: 0.0, target: 1.0)
            for _ in benchmark.scaledIterations {
                stepper.advance(by: 1.0 / 60)
                if abs(stepper.value - 1) < 1e-6 { stepper.target = stepper.target == 1 ? 0 : 1 }
            }
            blackHole(stepper.value)
        }
    }
}

/// One benchmark of `engine` on a workload: each iteration is one frame of
/// one engine, built when the benchmarks are registered and grown by
/// `growth` unmeasured frames.
func frames(_ engine: BenchEngine, _ mix: BenchMix, _ scenario: BenchScenario, _ count: Int, growth: Int = 10) {
    // Room for the most iterations a benchmark runs, and its warm-up.
    let scene = BenchScene(
        BenchConfiguration(engine: engine, animations: count, mix: mix, scenario: scenario), frames: growth + 1_000)
    for _ in 0 ..< growth { scene.frame() }
    let box = SceneBox(scene)
    let name = "\(engine.rawValue).\(scenario.rawValue).\(mix.rawValue).\(count)"
    let planted = PlantedAllocation(name)
    Benchmark(name, configuration: frameConfiguration()) { benchmark in
        for _ in benchmark.scaledIterations { box.scene.frame() }
        planted.allocateOnce()
    }
}

/// The gate's own check: with KINETICS_PLANTED_ALLOCATION naming a frame's
/// benchmark, that benchmark allocates once, in one iteration of hundreds
/// (its p90 stays 0), and `scripts/allocation-gate.sh --planted` expects
/// the gate to fail on it.
final class PlantedAllocation: @unchecked Sendable {
    /// The calls left before the one that allocates (past the warm-up's
    /// five); negative when nothing is planted here.
    private var countdown: Int
    init(_ name: String) {
        countdown = ProcessInfo.processInfo.environment["KINETICS_PLANTED_ALLOCATION"] == name ? 20 : -1
    }
    func allocateOnce() {
        guard countdown >= 0 else { return }
        countdown -= 1
        if countdown == 0 { blackHole([Int](repeating: 1, count: 8)) }
    }
}

/// A frame's configuration: the defaults, and no allocation in its worst
/// iteration beyond the baseline's (`absolute: [.p100: 0]`: not one more).
func frameConfiguration(maxIterations: Int? = nil) -> Benchmark.Configuration {
    var configuration = Benchmark.defaultConfiguration
    if let maxIterations { configuration.maxIterations = maxIterations }
    configuration.thresholds = [.mallocCountTotal: .init(absolute: [.p100: 0])]
    return configuration
}

/// A scene handed to a benchmark's closure: the benchmarks run one at a
/// time, on one thread.
final class SceneBox: @unchecked Sendable {
    let scene: BenchScene
    init(_ scene: BenchScene) { self.scene = scene }
}

/// The frame in which all of `count` animations finish, one per iteration.
func completion(_ engine: BenchEngine, _ mix: BenchMix, _ count: Int) {
    let configuration = BenchConfiguration(engine: engine, animations: count, mix: mix, scenario: .massCompletion)
    let clock = Int(configuration.fps * 30)
    // The completing frame, found once on one animation.
    let probe = BenchScene(
        BenchConfiguration(engine: engine, animations: 1, mix: mix, scenario: .massCompletion), frames: clock)
    while probe.running > 0 { probe.frame() }
    let completing = probe.framesRun - 1
    Benchmark(
        "\(engine.rawValue).mass-completion.\(mix.rawValue).\(count)",
        configuration: frameConfiguration(maxIterations: 20)
    ) { benchmark in
        let running = BenchScene(configuration, frames: clock)
        for _ in 0 ..< completing { running.frame() }
        benchmark.startMeasurement()
        running.frame()
        benchmark.stopMeasurement()
        precondition(running.running == 0, "every animation finishes in the completing frame")
    }
}

/// The frame that adds a tenth more springs to `count` running ones (the
/// burst scenario, whose engines reserve the room ahead), one per iteration.
func burst(_ engine: BenchEngine, _ count: Int) {
    let configuration = BenchConfiguration(engine: engine, animations: count, mix: .spring, scenario: .burst)
    // The adding frame, found once on one animation (the burst adds one).
    let probe = BenchScene(
        BenchConfiguration(engine: engine, animations: 1, mix: .spring, scenario: .burst), frames: 600)
    while probe.running == 1 { probe.frame() }
    let adding = probe.framesRun - 1
    Benchmark("\(engine.rawValue).burst.spring.\(count)", configuration: frameConfiguration(maxIterations: 20)) {
        benchmark in
        let running = BenchScene(configuration, frames: adding + 1)
        for _ in 0 ..< adding { running.frame() }
        benchmark.startMeasurement()
        running.frame()
        benchmark.stopMeasurement()
        precondition(running.running > count, "the burst frame adds springs")
    }
}
