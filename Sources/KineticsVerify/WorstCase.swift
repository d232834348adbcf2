/// The worst value seen over a suite's cases, where it was and with which
/// parameters, and the sum of squares for an RMS over them.
///
/// NaN is the worst value of all (a method that produced a non-number is
/// never reported as accurate), and the first NaN stays.
struct WorstCase {
    /// The worst value so far; -1 before the first case.
    private(set) var value: Double
    /// Where the worst value occurs, in words.
    private(set) var location = ""
    /// The worst case's parameters.
    private(set) var parameters: [String: Double] = [:]
    /// How many values were considered.
    private(set) var count = 0
    private var sumOfSquares = 0.0

    /// Starts with `value` as the worst (0 for measures that are never
    /// negative and report 0 when nothing differs).
    init(startingAt value: Double = -1) { self.value = value }

    /// Takes `candidate` into account; `location` and `parameters` are
    /// evaluated only when it is the new worst. `rms` adds to the RMS sum
    /// (the value itself when nil).
    mutating func consider(
        _ candidate: Double, rms: Double? = nil, at location: @autoclosure () -> String,
        _ parameters: @autoclosure () -> [String: Double]
    ) {
        count += 1
        let squared = rms ?? candidate
        sumOfSquares += squared * squared
        guard isWorse(candidate, than: value) else { return }
        value = candidate
        self.location = location()
        self.parameters = parameters()
    }

    /// The root mean square of the RMS values considered.
    var rms: Double { (sumOfSquares / Double(max(count, 1))).squareRoot() }
}

/// Whether `candidate` is a worse error than `current`: NaN is the worst of
/// all and stays the worst once found; otherwise the larger is worse.
func isWorse(_ candidate: Double, than current: Double) -> Bool {
    if current.isNaN { return false }
    return candidate.isNaN || candidate > current
}
