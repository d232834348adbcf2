import Foundation
import Testing

@testable import KineticsBench

/// The instruction gate's parts: interaction costs read off counted frames,
/// their ceilings, ratios between engines, and counts against a baseline.
@Suite("Bench: the instruction gate")
struct InstructionLimitTests {
    /// A counted result of `engine` on 10,000 springs in `scenario`.
    static func counted(_ engine: BenchEngine, _ scenario: BenchScenario, perFrame: Double) -> BenchResult {
        var result = BenchResult(
            configuration: BenchConfiguration(
                engine: engine, animations: 10_000, mix: .spring, fps: 60, scenario: scenario),
            p50: 1, p90: 0, p99: 0, max: 0, mean: 0, repetitionMedians: [], nanosecondsPerAnimation: 0,
            budgetShare: 0, allocationsPerFrame: 0, bytesPerFrame: 0, calibrationNanoseconds: 1, calibrated: 1,
            steadyNanoseconds: nil)
        result.instructions = InstructionCount(
            frames: 70, instructionsPerFrame: perFrame, instructionsPerAnimation: perFrame / 10_000,
            l1MissesPerFrame: 0, lastLevelMissesPerFrame: 0, estimatedCyclesPerFrame: perFrame, valgrind: "test")
        return result
    }

    static let report = BenchReport(
        kinetics: "test",
        results: [
            counted(.animator, .steady, perFrame: 188_000),
            counted(.animator, .retargetStorm, perFrame: 1_178_000),
            counted(.animator, .churn, perFrame: 1_388_000),
            counted(.animator, .burst, perFrame: 1_958_000),
            counted(.animator, .massCompletion, perFrame: 1_193_000),
            counted(.batch, .churn, perFrame: 1_000_000),  // no steady frame of batch
        ])

    @Test(
        "an interaction costs its frame less the steady one, over the animations it touches; none without a steady frame"
    )
    func costs() throws {
        let costs = InteractionCost.costs(Self.report)
        let byInteraction = Dictionary(uniqueKeysWithValues: costs.map { ($0.interaction, $0) })
        #expect(costs.count == 4 && costs.allSatisfy { $0.engine == .animator })
        // Every spring retargeted once a frame; a tenth replaced or added; all complete.
        #expect(byInteraction[.retarget]?.instructionsPerOperation == (1_178_000 - 188_000) / 10_000.0)
        #expect(byInteraction[.replacement]?.instructionsPerOperation == (1_388_000 - 188_000) / 1_000.0)
        #expect(byInteraction[.add]?.instructionsPerOperation == (1_958_000 - 188_000) / 1_000.0)
        #expect(byInteraction[.completion]?.instructionsPerOperation == (1_193_000 - 188_000) / 10_000.0)
        #expect(byInteraction[.replacement]?.key == "animator 10000 spring churn 60 Hz pop")
    }

    @Test("a ceiling fails a cost above it, passes one at it, and fails when it has nothing to check")
    func ceilings() throws {
        let costs = InteractionCost.costs(Self.report)
        #expect(try InteractionCeiling(parsing: "animator.replacement=1200").violations(costs).isEmpty)
        let over = try InteractionCeiling(parsing: "animator.replacement=1199.9").violations(costs)
        #expect(over.count == 1)
        #expect(
            over.first?.description
                == "animator 10000 spring churn 60 Hz pop: a replacement costs 1200.0 instructions, more than the ceiling 1199.9 (--max-instructions)"
        )
        let nothing = try InteractionCeiling(parsing: "batch.replacement=1500").violations(costs)
        #expect(nothing.count == 1 && nothing[0].message.hasPrefix("no cost to check"))
        // An engine whose name holds a dot: the interaction is after the last one.
        #expect(try InteractionCeiling(parsing: "my.engine.add=5").engine.rawValue == "my.engine")
        for bad in [
            "animator.retarget", "animator=3", "animator.bogus=3", "animator.add=-1", "animator.add=nan", ".add=3",
        ] {
            #expect(throws: BenchError.self, "\(bad)") { try InteractionCeiling(parsing: bad) }
        }
    }

    @Test("a ratio limit compares two engines' frames workload by workload")
    func ratios() throws {
        let report = BenchReport(
            kinetics: "test",
            results: [
                Self.counted(.abiNull, .steady, perFrame: 183), Self.counted(.batch, .steady, perFrame: 18_300),
                Self.counted(.abiNull, .churn, perFrame: 200),
            ])
        #expect(try InstructionRatioLimit(parsing: "abi-null/batch=0.01").violations(report).isEmpty)
        let over = try InstructionRatioLimit(parsing: "abi-null/batch=0.0099").violations(report)
        #expect(over.count == 1 && over[0].key == "abi-null 10000 spring steady 60 Hz pop")
        #expect(try InstructionRatioLimit(parsing: "abi-null/batch=0.01").lines(report).count == 1)
        let none = try InstructionRatioLimit(parsing: "batch/animator=2").violations(report)
        #expect(none.count == 1 && none[0].message.hasPrefix("no workload counted both engines"))
        for bad in ["abi-null/batch", "abi-null=2", "batch/batch=2", "a/b=0", "a/b=inf", "/b=1"] {
            #expect(throws: BenchError.self, "\(bad)") { try InstructionRatioLimit(parsing: bad) }
        }
    }

    @Test("against a baseline: counts alone, 2% more fails at a 2% bound, a bezier method's count too")
    func baseline() throws {
        var base = BenchReport(kinetics: "test", results: [Self.counted(.animator, .steady, perFrame: 100_000)])
        base.bezierInstructions = [
            BezierInstructionCount(
                method: .fast, evaluations: 1, instructionsPerEvaluation: 22.6, l1MissesPerEvaluation: 0,
                lastLevelMissesPerEvaluation: 0, estimatedCyclesPerEvaluation: 0, valgrind: "test")
        ]
        var now = base
        // Ten times slower in time, the same in instructions: counts alone pass.
        now.results[0].calibrated = 10
        #expect(
            BaselineGate.regressions(
                now, baseline: base, maxRegression: 25, maxCountIncrease: 2, comparingTimes: false
            ).isEmpty)
        #expect(BaselineGate.regressions(now, baseline: base, maxRegression: 25, maxCountIncrease: 2).count == 1)
        now.results[0].instructions?.instructionsPerFrame = 102_000
        let grown = BaselineGate.regressions(
            now, baseline: base, maxRegression: 25, maxCountIncrease: 2, comparingTimes: false)
        #expect(grown.count == 1 && grown[0].message.contains("instructions per frame vs baseline 100000.0"))
        #expect(
            BaselineGate.countComparisons(now, baseline: base)
                == ["animator 10000 spring steady 60 Hz pop: 102000.0 instructions per frame vs 100000.0 (+2.00%)"])
        now.results[0].instructions?.instructionsPerFrame = 100_000
        now.bezierInstructions?[0].instructionsPerEvaluation = 23.1
        let bezier = BaselineGate.regressions(
            now, baseline: base, maxRegression: 25, maxCountIncrease: 2, comparingTimes: false)
        #expect(bezier.map(\.key) == ["bezier fast"], "\(bezier)")
    }
}
