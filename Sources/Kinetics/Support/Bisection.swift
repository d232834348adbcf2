/// Bisection over the doubles between two non-negative bounds.
///
/// For non-negative doubles the order of the bit patterns is the order of the
/// values, so halving the interval of bit patterns finds the boundary of a
/// monotone predicate to adjacent doubles in at most 64 halvings, however
/// small the numbers (a bisection on values would need over a thousand near
/// zero).
enum Bisection {
    /// The largest double in [`lower`, `upper`) for which `isBefore` holds,
    /// given that it holds at `lower`, fails at `upper`, and changes once.
    static func lastBefore(
        lower: Double, upper: Double, where isBefore: (Double) -> Bool
    ) -> Double {
        precondition(lower >= 0 && lower <= upper, "bisection needs 0 <= lower <= upper")
        var low = lower.bitPattern
        var high = upper.bitPattern
        while high - low > 1 {
            let middle = low + (high - low) / 2
            if isBefore(Double(bitPattern: middle)) {
                low = middle
            } else {
                high = middle
            }
        }
        return Double(bitPattern: low)
    }
}
