import Foundation
import Kinetics
import Testing

@testable import KineticsBench

/// The statistics of `kinetics gate` on fixed and seeded synthetic round
/// timings: nothing here is timed, so nothing can flake.
@Suite("Bench: paired comparison (Hodges–Lehmann, Wilcoxon signed rank)")
struct PairedComparisonTests {
    /// Round times: `before` about 40 µs, `after` that times `shift`, each
    /// with its own multiplicative noise (a standard deviation of `noise`,
    /// from a seeded normal).
    static func rounds(_ count: Int, shift: Double, noise: Double, seed: UInt64) -> (before: [Double], after: [Double])
    {
        var random = SplitMix64(seed: seed)
        func normal() -> Double {
            let u = Double.random(in: Double.ulpOfOne ..< 1, using: &random)
            let v = Double.random(in: 0 ..< 1, using: &random)
            return (-2 * log(u)).squareRoot() * cos(2 * .pi * v)
        }
        var before: [Double] = []
        var after: [Double] = []
        for _ in 0 ..< count {
            let machine = 40_000 * exp(0.05 * normal())  // the round's machine state, shared by both
            before.append(machine * exp(noise * normal()))
            after.append(machine * shift * exp(noise * normal()))
        }
        return (before, after)
    }

    @Test("the interval's depth is the signed-rank test's critical value plus one (published tables)")
    func criticalValues() {
        // Two-sided critical values of T (reject when T ≤ c): n = 10 at
        // 0.05: 8; n = 20 at 0.01: 37; n = 8 at 0.01: 0; n = 30 at 0.05: 137.
        #expect(PairedComparison.signedRankDepth(rounds: 10, confidence: 0.95) == 9)
        #expect(PairedComparison.signedRankDepth(rounds: 20, confidence: 0.99) == 38)
        #expect(PairedComparison.signedRankDepth(rounds: 8, confidence: 0.99) == 1)
        #expect(PairedComparison.signedRankDepth(rounds: 30, confidence: 0.95) == 138)
        // Too few rounds for any interval: 7 at 0.99 (the smallest tail, 2/128, is above 0.01).
        #expect(PairedComparison.signedRankDepth(rounds: 7, confidence: 0.99) == 0)
        #expect(PairedComparison.signedRankDepth(rounds: 0, confidence: 0.99) == 0)
    }

    @Test(
        "the normal approximation used above 100 rounds is within 4 of the exact depth (1,780 at 100), and never deeper"
    )
    func normalApproximation() {
        for n in 20 ... 100 {
            let exact = PairedComparison.signedRankDepth(rounds: n, confidence: 0.99)
            let count = Double(n)
            let mean = count * (count + 1) / 4
            let deviation = (count * (count + 1) * (2 * count + 1) / 24).squareRoot()
            let approximate = Int((mean + 0.5 + PairedComparison.normalQuantile(0.005) * deviation).rounded(.down))
            // Deeper would be a narrower interval than the exact one: never.
            #expect(approximate <= exact, "n = \(n): exact \(exact), normal \(approximate)")
            #expect(exact - approximate <= 4, "n = \(n): exact \(exact), normal \(approximate)")
        }
        // And the function itself is continuous across the switch.
        let at100 = PairedComparison.signedRankDepth(rounds: 100, confidence: 0.99)
        let at101 = PairedComparison.signedRankDepth(rounds: 101, confidence: 0.99)
        #expect(at101 - at100 >= 30 && at101 - at100 <= 45, "\(at100) → \(at101)")
    }

    @Test("the normal quantile matches the published values to 1e-9")
    func quantiles() {
        #expect(abs(PairedComparison.normalQuantile(0.975) - 1.959_963_984_540) < 1e-9)
        #expect(abs(PairedComparison.normalQuantile(0.005) + 2.575_829_303_549) < 1e-9)
        #expect(abs(PairedComparison.normalQuantile(0.5)) < 1e-12)
    }

    @Test("a constant ratio is estimated exactly, with an interval of zero width")
    func constantRatio() {
        let before = [Double](repeating: 1_000, count: 20)
        let comparison = PairedComparison(
            before: before, after: before.map { $0 * 1.05 }, confidence: 0.99, minimumEffect: 0.02)
        #expect(abs(comparison.ratio - 1.05) < 1e-12)
        #expect(abs(comparison.lower - 1.05) < 1e-12 && abs(comparison.upper - 1.05) < 1e-12)
        #expect(comparison.verdict == .regression)
    }

    @Test("the verdicts at their edges")
    func verdicts() {
        func verdict(_ ratio: Double, _ lower: Double, _ upper: Double) -> GateVerdict {
            PairedComparison.verdict(ratio: ratio, lower: lower, upper: upper, minimumEffect: 0.02)
        }
        #expect(verdict(1.03, 1.001, 1.06) == .regression)
        // Significant but smaller than the effect that counts, and not within it: more rounds.
        #expect(verdict(1.015, 1.001, 1.03) == .inconclusive)
        // Significant and small: within ±2%.
        #expect(verdict(1.01, 1.005, 1.015) == .unchanged)
        #expect(verdict(1.0, 0.99, 1.019) == .unchanged)
        #expect(verdict(0.96, 0.94, 0.99) == .improvement)
        #expect(verdict(1.0, 0.97, 1.03) == .inconclusive)
    }

    /// Rounds whose log ratios are `log(shift)` plus a deterministic
    /// spread of ±`swing` (a sine over the rounds: no seed to be lucky with).
    static func swinging(_ count: Int, shift: Double, swing: Double) -> (before: [Double], after: [Double]) {
        let before = (0 ..< count).map { 40_000 + Double($0 % 7) * 100 }
        let after = before.enumerated().map { index, time in time * shift * exp(swing * sin(1.7 * Double(index))) }
        return (before, after)
    }

    @Test("a 5% slowdown in noise of 2% a round is a regression; none is unchanged; a swing of ±30% decides neither")
    func synthetic() {
        for seed: UInt64 in 1 ... 20 {
            let slow = Self.rounds(40, shift: 1.05, noise: 0.02, seed: seed)
            let flagged = PairedComparison(
                before: slow.before, after: slow.after, confidence: 0.99, minimumEffect: 0.02)
            #expect(flagged.verdict == .regression, "seed \(seed): \(flagged)")
            #expect(flagged.lower < 1.05 && flagged.upper > 1.05, "seed \(seed): the interval misses the shift")
            let same = Self.rounds(80, shift: 1, noise: 0.02, seed: seed + 100)
            let quiet = PairedComparison(before: same.before, after: same.after, confidence: 0.99, minimumEffect: 0.02)
            #expect(quiet.verdict == .unchanged, "seed \(seed): \(quiet)")
        }
        let wide = Self.swinging(20, shift: 1.05, swing: 0.3)
        let open = PairedComparison(before: wide.before, after: wide.after, confidence: 0.99, minimumEffect: 0.02)
        #expect(open.verdict == .inconclusive, "\(open)")
        #expect(open.lower < 1 && open.upper > 1.05, "\(open)")
    }

    @Test("the 99% interval covers no change in at least 98% of 2,000 seeded comparisons of identical builds")
    func coverage() {
        var misses = 0
        for seed: UInt64 in 0 ..< 2_000 {
            let same = Self.rounds(25, shift: 1, noise: 0.03, seed: 10_000 + seed)
            let comparison = PairedComparison(
                before: same.before, after: same.after, confidence: 0.99, minimumEffect: 0.02)
            if comparison.lower > 1 || comparison.upper < 1 { misses += 1 }
        }
        // Expected 1% (20); 2% is over four standard deviations (4.4) above it.
        #expect(misses <= 40, "\(misses) of 2000 intervals exclude 1")
    }

    @Test("the sequential comparison looks at 20, 25, 31, …, stops when two looks in a row agree, takes no more rounds")
    func sequential() {
        #expect((1 ... 60).filter { SequentialSchedule.look(after: $0) != nil } == [20, 25, 31, 38, 47, 58])
        #expect(SequentialSchedule.look(after: 31) == 3)
        // The looks share the 1%: 0.608% at the first, 0.152% at the second, and all of them 1%.
        #expect(abs(SequentialSchedule.confidence(0.99, look: 1) - (1 - 0.01 * 6 / (Double.pi * Double.pi))) < 1e-15)
        let spent = (1 ... 100_000).map { 1 - SequentialSchedule.confidence(0.99, look: $0) }.reduce(0, +)
        #expect(spent < 0.01 && spent > 0.009_999)
        let slow = Self.rounds(100, shift: 1.05, noise: 0.02, seed: 7)
        var comparison = SequentialComparison(name: "10000 spring steady 60 Hz", confidence: 0.99, minimumEffect: 0.02)
        var decidedAt: Int?
        for round in 0 ..< 100 where comparison.add(before: slow.before[round], after: slow.after[round]) {
            decidedAt = decidedAt ?? round + 1
        }
        #expect(decidedAt == 25, "decisive at 20, confirmed at 25")
        #expect(comparison.before.count == 25, "a decided comparison takes no more rounds")
        #expect(comparison.result.comparison!.verdict == .regression)
        #expect(comparison.result.before == Array(slow.before.prefix(25)))
        // A first look that says regression and a second that does not: undecided.
        var burst = SequentialComparison(name: "x", confidence: 0.99, minimumEffect: 0.02)
        for _ in 0 ..< 20 { burst.add(before: 100, after: 110) }
        for _ in 0 ..< 5 { burst.add(before: 100, after: 50) }
        #expect(burst.decided == nil && burst.looks == 2)
        #expect(burst.result.comparison!.verdict == .inconclusive)
        // No look before the first: 19 rounds of a 50% slowdown are undecided, and say inconclusive.
        var early = SequentialComparison(name: "x", confidence: 0.99, minimumEffect: 0.02)
        for round in 0 ..< 19 {
            let decided = early.add(before: 100, after: 150 + Double(round))
            #expect(!decided)
        }
        #expect(early.result.comparison!.verdict == .inconclusive)
        #expect(early.result.comparison!.rounds == 19)
    }

    @Test("rounds that never decide run to the end and are inconclusive, with the last interval")
    func inconclusive() {
        let wide = Self.swinging(200, shift: 1, swing: 0.3)
        var comparison = SequentialComparison(name: "x", confidence: 0.99, minimumEffect: 0.02)
        for round in 0 ..< 200 { comparison.add(before: wide.before[round], after: wide.after[round]) }
        let result = comparison.result
        #expect(result.comparison!.verdict == .inconclusive)
        #expect(result.comparison!.rounds == 200)
        #expect(result.comparison!.lower < 0.98 && result.comparison!.upper > 1.02, "\(result.comparison)")
        #expect(result.comparison!.lower > 0.9 && result.comparison!.upper < 1.1, "\(result.comparison)")
    }
}
