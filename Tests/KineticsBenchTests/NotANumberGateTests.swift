import Foundation
import Testing

@testable import KineticsBench

/// Each check of the bench's gates given a figure that is not a number: a
/// value error, a time, an instruction count, an allocation count, an
/// interaction's cost and a ratio of counts. Every one is a regression.
@Suite("Bench: NaN fails every gate")
struct NotANumberGateTests {
    static func result(calibrated: Double = 1, valueError: Double? = 1e-15) -> BenchResult {
        var result = InstructionLimitTests.counted(.animator, .steady, perFrame: 100_000)
        result.calibrated = calibrated
        result.valueCheck = valueError.map {
            ValueCheck(error: $0, animations: 64, time: 1, worst: "spring 0", reference: "the closed forms")
        }
        return result
    }

    static func regressions(_ now: BenchResult, _ then: BenchResult) -> [Regression] {
        BaselineGate.regressions(
            BenchReport(kinetics: "test", results: [now]), baseline: BenchReport(kinetics: "test", results: [then]),
            maxRegression: 25, maxCountIncrease: 1)
    }

    @Test(
        "a baseline gate: NaN value errors, times, counts and allocations each fail; an error of NaN in the baseline bounds only finiteness"
    )
    func baselineGate() {
        let sound = Self.result()
        #expect(Self.regressions(sound, sound).isEmpty)
        for error in [Double.nan, .infinity] {
            let values = Self.regressions(Self.result(valueError: error), sound)
            #expect(values.count == 1 && values[0].message.contains("not a finite number"), "\(values)")
            // NaN against NaN still fails: an engine of NaN values never passes.
            #expect(Self.regressions(Self.result(valueError: error), Self.result(valueError: .nan)).count == 1)
        }
        #expect(Self.regressions(sound, Self.result(valueError: .nan)).isEmpty, "a fixed engine passes")
        #expect(Self.regressions(Self.result(calibrated: .nan), sound).count == 1)
        var counted = sound
        counted.instructions?.instructionsPerFrame = .nan
        #expect(Self.regressions(counted, sound).count == 1)
        var allocating = sound
        allocating.allocationsPerFrame = .nan
        #expect(Self.regressions(allocating, sound).count == 1)
        #expect(BaselineGate.valueErrorLimit(baseline: .nan) == .greatestFiniteMagnitude)
        #expect(BaselineGate.valueErrorLimit(baseline: 1e-3) == 1.1e-3 + 1e-12)
    }

    @Test("a paired gate: NaN after's value error regresses; a count change that is not a number is a regression")
    func pairedGate() throws {
        var result = GateResult(configuration: "1000 spring steady 60 Hz", before: [], after: [])
        result.beforeValueError = 2.5e-15
        result.afterValueError = .nan
        #expect(result.valuesRegressed)
        result.afterValueError = .infinity
        #expect(result.valuesRegressed)
        result.afterValueError = 2.5e-15
        #expect(!result.valuesRegressed)
        result.beforeValueError = .nan
        #expect(!result.valuesRegressed, "after is a number where before was not")
        var zero = try #require(Self.result().instructions)
        zero.instructionsPerFrame = 0
        let count = try #require(Self.result().instructions)
        #expect(InstructionComparison(before: zero, after: zero, threshold: 1).verdict == .regression)
        #expect(InstructionComparison(before: count, after: count, threshold: 1).verdict == .unchanged)
    }

    @Test("instruction ceilings and ratios: a cost or ratio of NaN is over them")
    func limits() throws {
        let ceiling = try InteractionCeiling(parsing: "animator.replacement=2000")
        let cost = InteractionCost(
            engine: .animator, interaction: .replacement, key: "animator churn", instructionsPerOperation: .nan)
        #expect(ceiling.violations([cost]).count == 1)
        let ratio = try InstructionRatioLimit(parsing: "animator/batch=2")
        var top = InstructionLimitTests.counted(.animator, .steady, perFrame: .nan)
        top.configuration.engine = .animator
        let bottom = InstructionLimitTests.counted(.batch, .steady, perFrame: 100_000)
        #expect(ratio.violations(BenchReport(kinetics: "test", results: [top, bottom])).count == 1)
    }
}
