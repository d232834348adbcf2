import Foundation
import Kinetics
import KineticsTestSupport
import Testing

@testable import KineticsBench

/// The three engines compute the same numbers; the fit and the gate do
/// what they say.
@Suite("Bench: engines, scaling fit and baseline gate")
struct EngineParityTests {
    /// Runs `frames` frames of `configuration` on its engine and returns
    /// every property's value after each frame.
    static func run(_ configuration: BenchConfiguration, frames: Int) -> [[Double]] {
        let workload = Workload(configuration)
        let engine = makeBuiltInEngine(configuration)
        var values: [[Double]] = []
        for (frame, time) in workload.frameTimes(frames).enumerated() {
            engine.frame(frame, at: time)
            values.append(engine.sampleValues(workload.allCount))
        }
        return values
    }

    /// Animations of a parity run: 200 with KINETICS_LONG_TESTS (CI), else
    /// 50 (the workload's kinds and events are the same, fewer of each).
    static let animations = sized(50, full: 200)

    /// ``animations`` animations of `mix` under `scenario` at 60 Hz, Pop's
    /// method, on `engine`.
    static func parity(_ engine: BenchEngine, _ mix: BenchMix, _ scenario: BenchScenario) -> BenchConfiguration {
        BenchConfiguration(
            engine: engine, animations: Self.animations, mix: mix, fps: 60, scenario: scenario, method: .pop)
    }

    @Test(
        "the animator and the batch path compute the Pop-model reference's values",
        arguments: BenchMix.allCases, [BenchScenario.steady, .jitter, .churn, .retargetStorm, .burst])
    func enginesAgree(mix: BenchMix, scenario: BenchScenario) {
        // 90 frames at 60 Hz; values move over about 1,000.
        // Springs and decays: to 1e-12 of that, which allows for the rounding
        // of matrix products against single RK4 steps (about 1e-14 relative
        // in practice). Basic and keyframe animations: the reference solves
        // their curves as Pop does, with WebKit's solver to an x-tolerance
        // of 1/(1000·duration) = 1e-6, which moves y by up to that times the
        // curve's slope (under 2 here); the engines use the fast method
        // (1e-7). So 5e-6 of the distance covered.
        func configuration(_ engine: BenchEngine) -> BenchConfiguration { Self.parity(engine, mix, scenario) }
        let workload = Workload(configuration(.reference))
        if mix == .mixed {
            // Every kind is in the run, however few the animations.
            let kinds = (0 ..< Self.animations).map { workload.item($0).kind }
            for kind in [BenchAnimation.Kind.spring, .pointSpring, .decay, .basic, .keyframes] {
                #expect(kinds.contains(kind), "\(kind)")
            }
        }
        // A burst adds a tenth more in frame 10, the warm-up's end.
        let tolerances = (0 ..< Self.animations + workload.burstCount).map { index -> Double in
            switch workload.item(index).kind {
            case .spring, .pointSpring, .decay: 1e-12 * 1_000
            case .basic, .keyframes: 5e-6 * 1_000
            }
        }
        let reference = Self.run(configuration(.reference), frames: 90)
        for engine in [BenchEngine.animator, .animatorKeys, .animatorUnkeyed, .animatorSprings, .batch] {
            let values = Self.run(configuration(engine), frames: 90)
            var failures = 0
            var worst = (difference: 0.0, index: 0, frame: 0)
            for (frame, row) in values.enumerated() {
                for (index, value) in row.enumerated() {
                    let difference = abs(value - reference[frame][index])
                    if !(difference <= tolerances[index]) { failures += 1 }
                    if difference > worst.difference { worst = (difference, index, frame) }
                }
            }
            #expect(failures == 0, "\(engine) \(mix) \(scenario): \(failures) values off; worst \(worst)")
        }
    }

    @Test(
        "the C model of Pop's frame computes the Swift model's values, and finishes the same animations",
        arguments: BenchMix.allCases, [BenchScenario.steady, .jitter, .churn, .retargetStorm, .massCompletion])
    func popModelsAgree(mix: BenchMix, scenario: BenchScenario) {
        // The two models do the same operations in the same order (RK4
        // stages, Pop's blend, single-precision decay factors, WebKit's
        // solver), so they agree to rounding: 1e-12 of the distance covered
        // (about 1,000; 100 under mass completion) for every kind, over 90
        // frames, or under mass completion 400 (6.7 s: its decays, the
        // slowest, rest after about 5.3 s).
        let reference = Self.parity(.reference, mix, scenario)
        let swift = makeBuiltInEngine(reference)
        let c = makeBuiltInEngine(Self.parity(.popC, mix, scenario))
        var worst = (difference: 0.0, index: 0, frame: 0)
        let frames = scenario == .massCompletion ? 400 : 90
        for (frame, time) in Workload(reference).frameTimes(frames).enumerated() {
            swift.frame(frame, at: time)
            c.frame(frame, at: time)
            #expect(c.running == swift.running, "frame \(frame): \(c.running) running in C, \(swift.running) in Swift")
            for (index, pair) in zip(swift.sampleValues(Self.animations), c.sampleValues(Self.animations)).enumerated()
            {
                let difference = abs(pair.0 - pair.1)
                if !(difference <= worst.difference) { worst = (difference, index, frame) }
            }
        }
        #expect(worst.difference <= 1e-12 * 1_000, "\(mix) \(scenario): worst \(worst)")
        if scenario == .massCompletion { #expect(c.running == 0 && swift.running == 0) }
    }

    @Test("ratios divide by the faster of the two models of Pop measured on the same workload")
    func fasterPopModel() {
        func result(_ engine: BenchEngine, p50: Double, animations: Int = 1_000) -> BenchResult {
            BenchResult(
                configuration: BenchConfiguration(engine: engine, animations: animations), p50: p50, p90: 0, p99: 0,
                max: 0,
                mean: 0, repetitionMedians: [], nanosecondsPerAnimation: 0, budgetShare: 0, allocationsPerFrame: 0,
                bytesPerFrame: 0, calibrationNanoseconds: 1, calibrated: 1, steadyNanoseconds: nil)
        }
        let animator = result(.animator, p50: 10)
        let swiftFaster = BenchReport(
            kinetics: "test",
            results: [
                animator, result(.reference, p50: 900), result(.popC, p50: 1_000),
                result(.popC, p50: 5, animations: 10),
            ])
        #expect(swiftFaster.popModel(for: animator)?.configuration.engine == .reference)
        let cFaster = BenchReport(
            kinetics: "test", results: [animator, result(.reference, p50: 900), result(.popC, p50: 800)])
        #expect(cFaster.popModel(for: animator)?.p50 == 800)
        #expect(BenchReport(kinetics: "test", results: [animator]).popModel(for: animator) == nil)
    }

    @Test("the scaling fit recovers known exponents from synthetic timings")
    func scalingFit() throws {
        let counts = [1_000.0, 10_000, 100_000, 1_000_000]
        for exponent in [0.5, 1.0, 1.37, 2.0] {
            // Multiplicative noise that averages out on the log scale.
            let noise = [1.05, 0.95, 1.05, 0.95]
            let times = zip(counts, noise).map { 3.2e3 * pow($0.0 / 1_000, exponent) * $0.1 }
            let fitted = try #require(ScalingFit.exponent(counts: counts, times: times))
            #expect(abs(fitted - exponent) < 0.02, "\(exponent) fitted as \(fitted)")
            let exact = try #require(ScalingFit.exponent(counts: counts, times: counts.map { 7 * pow($0, exponent) }))
            #expect(abs(exact - exponent) < 1e-12)
        }
        #expect(ScalingFit.exponent(counts: [1_000, 1_000], times: [1, 2]) == nil, "one distinct count fits nothing")
    }

    @Test("the gate flags a slower configuration and a new allocation, and ignores one the baseline lacks")
    func gate() throws {
        func result(_ engine: BenchEngine, calibrated: Double, allocations: Double) -> BenchResult {
            BenchResult(
                configuration: BenchConfiguration(
                    engine: engine, animations: 1_000, mix: .spring, fps: 60, scenario: .steady),
                p50: calibrated * 1_000, p90: 0, p99: 0, max: 0, mean: 0, repetitionMedians: [],
                nanosecondsPerAnimation: 0,
                budgetShare: 0, allocationsPerFrame: allocations, bytesPerFrame: 0, calibrationNanoseconds: 1_000,
                calibrated: calibrated, steadyNanoseconds: nil)
        }
        let baseline = BenchReport(
            kinetics: "test",
            results: [
                result(.animator, calibrated: 2, allocations: 0), result(.batch, calibrated: 2, allocations: 0),
            ])
        let current = BenchReport(
            kinetics: "test",
            results: [
                result(.animator, calibrated: 2.4, allocations: 0),  // 20%: within 25%
                result(.batch, calibrated: 2, allocations: 3),  // allocates now
                result(.reference, calibrated: 100, allocations: 1),  // not in the baseline
            ])
        let regressions = BaselineGate.regressions(current, baseline: baseline, maxRegression: 25)
        #expect(regressions.count == 1 && regressions[0].description.contains("alloc"))
        #expect(BaselineGate.regressions(current, baseline: baseline, maxRegression: 10).count == 2)
        // A bound of its own for a scenario: the steady animator's +20% is
        // within 30% there, and past 10% everywhere else.
        #expect(
            BaselineGate.regressions(current, baseline: baseline, maxRegression: 10, perScenario: [.steady: 30]).count
                == 1)
        #expect(
            BaselineGate.regressions(current, baseline: baseline, maxRegression: 30, perScenario: [.churn: 10]).count
                == 1)

        // Found by the baseline fuzz target: a configuration listed twice
        // made a baseline regress against itself. Such a file is refused.
        let twice = BenchReport(
            kinetics: "test",
            results: [
                result(.animator, calibrated: 2, allocations: 0), result(.animator, calibrated: 3, allocations: 0),
            ])
        let data = try JSONEncoder().encode(twice)
        #expect(throws: BaselineError.malformed("twice.json", "\(twice.results[0].configuration.key) appears twice")) {
            try BaselineGate.baseline(from: data, name: "twice.json")
        }
        let once = try BaselineGate.baseline(from: try JSONEncoder().encode(baseline), name: "once.json")
        #expect(BaselineGate.regressions(once, baseline: once, maxRegression: 0).isEmpty)

        // A run whose allocation counter was not active claims nothing about
        // allocations: the gate and the report's allocation check fail.
        var uncounted = result(.animator, calibrated: 2, allocations: 0)
        uncounted.allocationsCounted = false
        let blind = BenchReport(kinetics: "test", results: [uncounted])
        #expect(
            BaselineGate.regressions(blind, baseline: baseline, maxRegression: 25).map(\.message)
                == ["allocations were not counted (the malloc interposer was not active); the baseline counted them"])
        #expect(!blind.hotFramesAllocateNothing)
        #expect(baseline.hotFramesAllocateNothing)
        #expect(!current.hotFramesAllocateNothing, "the batch allocates there")
    }
}
