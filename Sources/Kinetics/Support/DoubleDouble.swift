import CKineticsSupport

/// An unevaluated sum `high + low` of two doubles with |low| <= ulp(high)/2:
/// about 106 bits of precision, enough to decide the sign of a cubic's
/// residual far below the rounding error of plain double arithmetic.
///
/// Only the operations the precise bezier solver needs are here: sums,
/// products by a double, built from the error-free transformations TwoSum
/// (Knuth) and TwoProduct (one fused multiply-add).
struct DoubleDouble: Sendable {
    var high: Double
    var low: Double

    init(_ value: Double) {
        high = value
        low = 0
    }

    init(high: Double, low: Double) {
        self.high = high
        self.low = low
    }

    /// The exact product `a·b` as a double-double.
    static func product(_ a: Double, _ b: Double) -> DoubleDouble {
        let p = a * b
        return DoubleDouble(high: p, low: fma(a, b, -p))
    }

    /// The exact sum `a + b` as a double-double.
    static func sum(_ a: Double, _ b: Double) -> DoubleDouble {
        let s = a + b
        let bPart = s - a
        let error = (a - (s - bPart)) + (b - bPart)
        return DoubleDouble(high: s, low: error)
    }

    /// Renormalises `high + low` when |high| >= |low| is known.
    private static func fastSum(_ a: Double, _ b: Double) -> DoubleDouble {
        let s = a + b
        return DoubleDouble(high: s, low: b - (s - a))
    }

    static func + (lhs: DoubleDouble, rhs: DoubleDouble) -> DoubleDouble {
        let highs = sum(lhs.high, rhs.high)
        let lows = sum(lhs.low, rhs.low)
        var result = fastSum(highs.high, highs.low + lows.high)
        result = fastSum(result.high, result.low + lows.low)
        return result
    }

    static func + (lhs: DoubleDouble, rhs: Double) -> DoubleDouble {
        let highs = sum(lhs.high, rhs)
        return fastSum(highs.high, highs.low + lhs.low)
    }

    static func - (lhs: DoubleDouble, rhs: Double) -> DoubleDouble { lhs + -rhs }

    static prefix func - (value: DoubleDouble) -> DoubleDouble {
        DoubleDouble(high: -value.high, low: -value.low)
    }

    static func * (lhs: DoubleDouble, rhs: Double) -> DoubleDouble {
        let p = product(lhs.high, rhs)
        return fastSum(p.high, p.low + lhs.low * rhs)
    }

    /// The nearest double (to within one rounding).
    var value: Double { high + low }
}
