import Kinetics
import Testing

@testable import KineticsCompare

/// The time fit's scans start at a hint and let the other points stop
/// summing early; they must still pick exactly what a plain scan picks.
@Suite("kinetics compare: the time fit's scans")
struct TimeFitTests {
    /// The plain scan the fit used to run: the first strict minimum, or the fallback.
    static func plainScan(_ costs: [Double], fallback: Int) -> Int {
        var best = fallback
        var least = Double.infinity
        for (index, cost) in costs.enumerated() where cost < least { (best, least) = (index, cost) }
        return best
    }

    @Test("a hinted scan with early stops picks the plain scan's point: ties, NaN and infinite costs included")
    func sameAsPlainScan() {
        var generator = SplitMix64(seed: 2026)
        for trial in 0 ..< 2_000 {
            let count = 1 + Int(generator.next() % 40)
            // Few distinct values, so that ties are common.
            let palette: [Double] = [0, 0.5, 1, 2, .infinity, .nan, 3e-300]
            let terms = (0 ..< count).map { _ in
                (0 ..< 1 + Int(generator.next() % 4)).map { _ in palette[Int(generator.next() % 7)] }
            }
            let costs = terms.map { $0.reduce(0, +) }
            let points = (0 ..< count).map(Double.init)
            let hint = Double(generator.next() % UInt64(count + 2)) - 1
            var summed = 0
            let picked = TimeFit.firstMinimum(points, near: hint, otherwise: -1) { point, bound in
                var sum = 0.0
                for term in terms[Int(point)] {
                    summed += 1
                    sum += term
                    if sum > bound { break }
                }
                return sum
            }
            #expect(picked == Double(Self.plainScan(costs, fallback: -1)), "trial \(trial): \(costs), hint \(hint)")
            #expect(summed <= terms.map(\.count).reduce(0, +))
        }
    }
}
