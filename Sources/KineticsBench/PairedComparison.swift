import Foundation

/// What a paired comparison concludes about one configuration.
public enum GateVerdict: String, Codable, Sendable, CaseIterable {
    /// `after` is slower: the interval excludes no change and the estimate
    /// exceeds the smallest effect that counts.
    case regression
    /// `after` is faster, by the same two conditions.
    case improvement
    /// The whole interval lies within ± the smallest effect that counts.
    case unchanged
    /// None of the above when the rounds or the time ran out.
    case inconclusive
}

/// The change from `before` to `after` estimated from paired rounds: in
/// round i both builds ran the same work, one right after the other, and
/// gave times `before[i]` and `after[i]`.
///
/// The statistic is the Hodges–Lehmann estimate of the log ratio
/// ln(after/before) (the median of the Walsh averages of the per-round log
/// ratios) with the confidence interval that inverts Wilcoxon's signed-rank
/// test, exact up to 100 rounds and from the normal approximation above.
/// Why these and not a bootstrap: the interval's coverage holds for any
/// symmetric distribution of the per-round differences and for as few as
/// 8 rounds, where a percentile bootstrap covers too little; a round that
/// a neighbour's burst of work slowed moves one Walsh average in n, not the
/// mean; and the same rounds always give the same interval, so a verdict
/// can be reproduced from the JSON.
public struct PairedComparison: Codable, Sendable, Equatable {
    /// How many paired rounds the estimate uses.
    public var rounds: Int
    /// The estimated ratio after/before (1.05: 5% slower).
    public var ratio: Double
    /// The interval's lower end, as a ratio (0 when too few rounds bound it).
    public var lower: Double
    /// The interval's upper end, as a ratio (infinity when too few rounds bound it).
    public var upper: Double
    /// The interval's confidence level, in (0, 1).
    public var confidence: Double
    /// The verdict at ``minimumEffect``.
    public var verdict: GateVerdict
    /// The smallest change that counts, as a fraction (0.02: 2%).
    public var minimumEffect: Double

    /// The comparison of paired times (any unit, each > 0) at `confidence`
    /// with `minimumEffect`; the verdict is `inconclusive` until the
    /// interval decides.
    ///
    /// - Precondition: `before` and `after` have the same count, every time
    ///   is finite and positive, `confidence` is in (0, 1) and
    ///   `minimumEffect` is finite and at least 0.
    public init(before: [Double], after: [Double], confidence: Double, minimumEffect: Double) {
        precondition(before.count == after.count, "paired times come in pairs")
        precondition(
            before.allSatisfy { $0.isFinite && $0 > 0 } && after.allSatisfy { $0.isFinite && $0 > 0 },
            "times are finite and positive")
        precondition(confidence > 0 && confidence < 1, "a confidence is in (0, 1)")
        precondition(minimumEffect.isFinite && minimumEffect >= 0, "a minimum effect is at least 0")
        let differences = zip(before, after).map { log($1 / $0) }
        let walsh = Self.walshAverages(differences)
        rounds = differences.count
        self.confidence = confidence
        self.minimumEffect = minimumEffect
        guard !walsh.isEmpty else {
            (ratio, lower, upper, verdict) = (1, 0, .infinity, .inconclusive)
            return
        }
        ratio = exp(Self.median(walsh))
        let depth = Self.signedRankDepth(rounds: rounds, confidence: confidence)
        if depth > 0 {
            lower = exp(walsh[depth - 1])
            upper = exp(walsh[walsh.count - depth])
        } else {
            (lower, upper) = (0, .infinity)
        }
        verdict = Self.verdict(ratio: ratio, lower: lower, upper: upper, minimumEffect: minimumEffect)
    }

    /// The verdict of an estimate and its interval, all as ratios.
    static func verdict(ratio: Double, lower: Double, upper: Double, minimumEffect: Double) -> GateVerdict {
        if lower > 1 && ratio > 1 + minimumEffect { return .regression }
        if upper < 1 && ratio < 1 / (1 + minimumEffect) { return .improvement }
        if lower >= 1 / (1 + minimumEffect) && upper <= 1 + minimumEffect { return .unchanged }
        return .inconclusive
    }

    /// The Walsh averages (d_i + d_j) / 2 for i ≤ j, sorted.
    static func walshAverages(_ differences: [Double]) -> [Double] {
        var averages: [Double] = []
        averages.reserveCapacity(differences.count * (differences.count + 1) / 2)
        for i in differences.indices {
            for j in i ..< differences.count { averages.append((differences[i] + differences[j]) / 2) }
        }
        averages.sort()
        return averages
    }

    static func median(_ sorted: [Double]) -> Double {
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    /// How many Walsh averages each end of the interval leaves out, plus
    /// one: the interval is the `depth`-th smallest to the `depth`-th
    /// largest. It is the largest d with P(T⁺ ≤ d − 1) ≤ (1 − confidence)/2
    /// under the null hypothesis, T⁺ being Wilcoxon's signed-rank statistic
    /// of `rounds` pairs; 0 when no interval of that confidence exists (too
    /// few rounds: 8 at 0.99, 6 at 0.95).
    static func signedRankDepth(rounds n: Int, confidence: Double) -> Int {
        let tail = (1 - confidence) / 2
        guard n > 0 else { return 0 }
        if n <= 100 {
            // The exact null distribution: counts[t] subsets of the ranks
            // 1 … n sum to t, each subset having probability 2^-n.
            let total = n * (n + 1) / 2
            var counts = [Double](repeating: 0, count: total + 1)
            counts[0] = 1
            for rank in 1 ... n {
                for sum in stride(from: total, through: rank, by: -1) { counts[sum] += counts[sum - rank] }
            }
            let scale = pow(2, -Double(n))
            var cumulative = 0.0
            for t in 0 ... total {
                cumulative += counts[t] * scale
                // P(T⁺ ≤ t) passes the tail: d − 1 = t − 1 is the last that held.
                if cumulative > tail { return t }
            }
            return total
        }
        let count = Double(n)
        let mean = count * (count + 1) / 4
        let deviation = (count * (count + 1) * (2 * count + 1) / 24).squareRoot()
        // P(T⁺ ≤ d − 1) ≈ Φ((d − 1 + 0.5 − mean) / deviation) ≤ tail.
        let d = Int((mean - 0.5 + normalQuantile(tail) * deviation).rounded(.down)) + 1
        return max(d, 0)
    }

    /// The standard normal quantile of `p` in (0, 1), by bisection on the
    /// distribution function 0.5·erfc(−x/√2): 60 halvings of [−40, 40]
    /// reach double precision.
    static func normalQuantile(_ p: Double) -> Double {
        var (low, high) = (-40.0, 40.0)
        for _ in 0 ..< 80 {
            let middle = (low + high) / 2
            if 0.5 * erfc(-middle / 2.0.squareRoot()) < p { low = middle } else { high = middle }
        }
        return (low + high) / 2
    }
}

/// When a sequential comparison looks at its rounds, and at what
/// confidence.
///
/// It looks after 20 rounds, then each time the count has grown by a
/// quarter (20, 25, 31, 38, 47, …): none before 20 keeps a short burst of a
/// neighbour's work from deciding alone. Looking again and again at a test
/// of level α would call a difference somewhere far more often than α, so
/// the looks share it: the k-th look's interval has confidence
/// 1 − α·6/(π²k²), and these α·6/(π²k²) add up to α over all looks. The
/// chance that identical builds are ever called different, however long
/// the comparison runs, is thus at most α = 1 − confidence.
public enum SequentialSchedule {
    /// The first look.
    public static let first = 20

    /// The look that `rounds` rounds make (1 for the first), or nil when
    /// the comparison does not look then.
    public static func look(after rounds: Int) -> Int? {
        var (next, look) = (first, 1)
        while next < rounds { (next, look) = (max(next + 1, next * 5 / 4), look + 1) }
        return next == rounds ? look : nil
    }

    /// The confidence of the k-th look's interval when all looks together
    /// hold `confidence`.
    public static func confidence(_ confidence: Double, look k: Int) -> Double {
        1 - (1 - confidence) * 6 / (Double.pi * Double.pi * Double(k * k))
    }
}
