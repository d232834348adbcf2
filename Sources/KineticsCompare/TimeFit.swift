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
        func cost(_ samples: [MotionTrace.Sample], _ s: Double, _ d: Double) -> Double {
            var sum = 0.0
            for sample in samples {
                let difference = sample.value - exact(max(s * sample.time + d, 0))
                sum += difference * difference
            }
            return sum
        }
        // The lag: a scan in steps of 0.5 ms, then a golden section.
        var lag = 0.0
        var best = Double.infinity
        var d = Self.lags.lowerBound
        while d <= Self.lags.upperBound + 1e-12 {
            let c = cost(early, 1, d)
            if c < best { (lag, best) = (d, c) }
            d += 0.0005
        }
        lag = Self.goldenSection((max(lag - 0.0005, Self.lags.lowerBound), min(lag + 0.0005, Self.lags.upperBound))) {
            cost(early, 1, $0)
        }
        // The scale: 400 points on a log scale, then a golden section.
        let ratio = pow(16, 1 / 400.0)
        var scale = 1.0
        best = .infinity
        var s = Self.scales.lowerBound
        for _ in 0 ... 400 {
            let c = cost(samples, s, lag)
            if c < best { (scale, best) = (s, c) }
            s *= ratio
        }
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
