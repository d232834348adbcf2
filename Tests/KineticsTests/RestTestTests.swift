import Testing

@testable import Kinetics

/// Pop's rest tests are written once (`PopRestTest`); the springs' straight
/// path fuses the two into one pass over the components
/// (`SpringBatch.atRest`), for speed. This holds the fused test to the two.
@Suite("Rest tests: one law, and the fused copy held to it")
struct RestTestTests {
    /// A value within 1.5 times `bound` of `around`, often exactly
    /// on a bound, and sometimes NaN: where the tests can disagree.
    static func near(_ around: Double, _ bound: Double, _ random: inout SplitMix64) -> Double {
        switch random.next() % 16 {
        case 0: return .nan
        case 1: return around + bound
        case 2: return around - bound
        case 3: return around
        default: return around + bound * (Double(random.next() % 3_001) / 1_000 - 1.5)
        }
    }

    @Test("the fused spring rest test is Pop's animation test or its solver test, exactly, on 40,000 cases")
    func fusedIsPops() {
        var random = SplitMix64(seed: 38)
        var passed = 0
        for threshold in [0.01, 1.0, 0.005, 0.5, 1e-9] {
            let frame = SpringGroups.immediatePopFrame(threshold: threshold)
            for _ in 0 ..< 4_000 {
                let target = Double(random.next() % 2_001) - 1_000
                let current = Self.near(target, threshold / 2, &random)
                let before = Self.near(current, threshold / 5, &random)
                let velocity = Self.near(0, 5 * threshold.squareRoot(), &random)
                let slope = Self.near(0, 25 * threshold, &random)
                if Self.fusedAgrees(before, current, target, velocity, slope, threshold, frame) { passed += 1 }
            }
            // Points too: each component alike, the norms over both.
            for _ in 0 ..< 4_000 {
                let target = SIMD2(Double(random.next() % 2_001), Double(random.next() % 2_001))
                let current = SIMD2(
                    Self.near(target.x, threshold / 2, &random), Self.near(target.y, threshold / 2, &random))
                let before = SIMD2(
                    Self.near(current.x, threshold / 5, &random), Self.near(current.y, threshold / 5, &random))
                let velocity = SIMD2(
                    Self.near(0, 4 * threshold.squareRoot(), &random), Self.near(0, 4 * threshold.squareRoot(), &random)
                )
                let slope = SIMD2(Self.near(0, 20 * threshold, &random), Self.near(0, 20 * threshold, &random))
                if Self.fusedAgrees(before, current, target, velocity, slope, threshold, frame) { passed += 1 }
            }
        }
        // The cases reach both answers often (a test that always said no
        // would pass the comparison on cases that never rest).
        #expect(passed > 4_000 && passed < 36_000, "\(passed) of 40,000 at rest")
    }

    /// Whether the batch's fused rest test and Pop's two tests agree on
    /// one state (recorded as an issue when they do not), and Pop's says
    /// it is at rest.
    static func fusedAgrees<V: AnimatableVector>(
        _ before: V, _ current: V, _ target: V, _ velocity: V, _ slope: V, _ threshold: Double,
        _ frame: SpringGroups.Frame
    ) -> Bool {
        let fused = SpringBatch<V>.atRest(
            before: before, current: current, target: target, velocity: velocity,
            slopeSettled: frame.slopeSettled(slope, kept: false, keeps: false), frame)
        let pops =
            PopRestTest.animationHasConverged(
                previous2: before, previous: current, target: target, threshold: threshold)
            || PopRestTest.solverHasConverged(
                displacement: current - target, velocity: velocity, slope: slope, threshold: threshold)
        #expect(fused == pops, "t = \(threshold): \(before), \(current), \(target), \(velocity), \(slope)")
        return pops
    }
}
