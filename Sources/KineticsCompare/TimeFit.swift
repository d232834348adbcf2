import Foundation

/// How a trace's clock runs against the exact motion's, as two numbers
/// estimated apart: the lag `δ`, from the start of the motion alone (the
/// samples until the exact motion is half-way, where a clock that runs
/// slow or fast has not yet drifted), then the scale `s` for which the
/// exact motion at `s·t + δ` fits the whole trace best (least squares). A
/// trace one frame late so reads as a lag of one frame at a scale near 1,
/// not as a slow clock.
struct TimeFit {
    /// Simulated time per real time, in [0.25, 4].
    let scale: Double
    /// Seconds the trace leads (positive) or lags (negative) the exact
    /// motion, in [-0.25, 0.25].
    let lag: Double
    /// Whether either ended at the edge of its range.
    let atEdge: Bool

    static let scales = 0.25 ... 4.0
    static let lags = -0.25 ... 0.25
    var range: String { "scale 0.25 to 4, lag ±0.25 s" }

    /// Fits `exact` (the exact motion at a time in seconds; asked only for
    /// times ≥ 0) to the trace; `halfway` is when the exact motion has
    /// covered half its way.
    init(_ trace: MotionTrace, halfway: Double, exact: (Double) -> Double) {
        let samples = trace.samples
        var early = samples.filter { $0.time <= halfway }
        if early.count < 3 { early = Array(samples.prefix(3)) }
        func cost(_ samples: [MotionTrace.Sample], _ s: Double, _ d: Double, bound: Double = .infinity) -> Double {
            var sum = 0.0
            for sample in samples {
                let difference = sample.value - exact(max(s * sample.time + d, 0))
                sum += difference * difference
                if sum > bound { break }
            }
            return sum
        }
        // The lag: a scan in steps of 0.5 ms, then a golden section.
        var lags: [Double] = []
        var d = Self.lags.lowerBound
        while d <= Self.lags.upperBound + 1e-12 {
            lags.append(d)
            d += 0.0005
        }
        var lag = Self.firstMinimum(lags, near: 0, otherwise: 0) { cost(early, 1, $0, bound: $1) }
        lag = Self.goldenSection((max(lag - 0.0005, Self.lags.lowerBound), min(lag + 0.0005, Self.lags.upperBound))) {
            cost(early, 1, $0)
        }
        // The scale: 400 points on a log scale, then a golden section.
        let ratio = pow(16, 1 / 400.0)
        var scales: [Double] = []
        var s = Self.scales.lowerBound
        for _ in 0 ... 400 {
            scales.append(s)
            s *= ratio
        }
        var scale = Self.firstMinimum(scales, near: 1, otherwise: 1) { cost(samples, $0, lag, bound: $1) }
        scale = Self.goldenSection(
            (max(scale / ratio, Self.scales.lowerBound), min(scale * ratio, Self.scales.upperBound))
        ) {
            cost(samples, $0, lag)
        }
        self.scale = scale
        self.lag = lag
        atEdge =
            scale <= Self.scales.lowerBound * 1.01 || scale >= Self.scales.upperBound / 1.01
            || lag <= Self.lags.lowerBound + 0.001 || lag >= Self.lags.upperBound - 0.001
    }

    /// The first of `points` (in their order) where `cost` is least, as a
    /// scan through them all finds it, or `fallback` when no cost is below
    /// infinity (NaN costs never win). The point nearest `hint` is costed
    /// first, so that the others can stop summing once they pass it:
    /// `cost(point, bound)` may return any value above `bound` as soon as
    /// its sum is known to exceed it, and returns the full sum otherwise.
    static func firstMinimum(
        _ points: [Double], near hint: Double, otherwise fallback: Double, cost: (Double, Double) -> Double
    ) -> Double {
        let start = points.indices.min { abs(points[$0] - hint) < abs(points[$1] - hint) }!
        var best: Int?
        var least = Double.infinity
        let first = cost(points[start], .infinity)
        if first < least { (best, least) = (start, first) }
        for index in points.indices where index != start {
            let c = cost(points[index], least)
            if c < least || (c == least && index < best ?? index) { (best, least) = (index, c) }
        }
        return best.map { points[$0] } ?? fallback
    }

    private static func goldenSection(_ range: (Double, Double), _ cost: (Double) -> Double) -> Double {
        var (low, high) = range
        let golden = (5.0.squareRoot() - 1) / 2
        for _ in 0 ..< 60 {
            let a = high - golden * (high - low)
            let b = low + golden * (high - low)
            if cost(a) < cost(b) { high = b } else { low = a }
        }
        return (low + high) / 2
    }
}
