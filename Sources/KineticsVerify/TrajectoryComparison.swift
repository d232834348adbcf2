/// How far a computed trajectory is from a reference one, sampled at the same
/// times, normalised by the motion's amplitude.
public struct TrajectoryComparison: Equatable, Sendable {
    /// The largest absolute difference divided by ``amplitude``.
    public let maxError: Double
    /// The root mean square difference divided by ``amplitude``.
    public let rmsError: Double
    /// The time of the largest difference.
    public let worstTime: Double
    /// The motion's amplitude: the largest distance of the reference from
    /// `target` (for a spring, the largest displacement, overshoot included).
    public let amplitude: Double

    /// Compares `values` with `reference` (same length, same times).
    ///
    /// - Precondition: the arrays have the same non-zero length.
    public init(times: [Double], values: [Double], reference: [Double], target: Double) {
        precondition(
            !times.isEmpty && times.count == values.count && values.count == reference.count,
            "a comparison needs equally long, non-empty samples")
        var amplitude = 0.0
        for value in reference { amplitude = max(amplitude, abs(value - target)) }
        let scale = amplitude > 0 ? amplitude : 1
        var worst = 0.0
        var worstTime = times[0]
        var sumOfSquares = 0.0
        for index in times.indices {
            let error = abs(values[index] - reference[index])
            if error > worst || error.isNaN && !worst.isNaN {
                worst = error
                worstTime = times[index]
            }
            sumOfSquares += error * error
        }
        self.maxError = worst / scale
        self.rmsError = (sumOfSquares / Double(times.count)).squareRoot() / scale
        self.worstTime = worstTime
        self.amplitude = amplitude
    }
}

/// The effective time scale of a trajectory: the `scale` and `offset` for
/// which the exact motion at `scale·t + offset` best matches the samples at
/// `t` (least squares).
///
/// Pop's stepping loses part of a step every frame, so its springs run slow;
/// the offset absorbs the whole step lost in the first frame, so `scale` is
/// the long-run rate of simulated time per real time (≈ 0.98 at 60 Hz with
/// Pop's `0.001f` step). Exact methods give scale 1 and offset 0.
public struct TimeScale: Equatable, Sendable {
    /// Simulated time per real time.
    public let scale: Double
    /// Simulated time at real time 0, in seconds.
    public let offset: Double
    /// The root mean square residual of the fit.
    public let residual: Double

    /// Fits `scale` and `offset` to `values` sampled at `times`, given the
    /// exact motion `exact(τ) = (position, velocity)` for τ >= 0 (earlier τ
    /// are clamped to 0).
    ///
    /// A scan of 201 scales in [0.5, 1.5] with offset 0 gives the start; then
    /// Levenberg–Marquardt steps on both (the velocity is the derivative of
    /// the position) until a step moves them by less than 1e-13.
    public init(times: [Double], values: [Double], exact: (Double) -> (position: Double, velocity: Double)) {
        precondition(times.count == values.count && !times.isEmpty, "a fit needs equally long, non-empty samples")
        func cost(_ scale: Double, _ offset: Double) -> Double {
            var sum = 0.0
            for index in times.indices {
                let difference = values[index] - exact(max(scale * times[index] + offset, 0)).position
                sum += difference * difference
            }
            return sum
        }
        var scale = 1.0
        var best = Double.infinity
        for step in 0 ... 200 {
            let candidate = 0.5 + Double(step) / 200
            let value = cost(candidate, 0)
            if value < best {
                best = value
                scale = candidate
            }
        }
        var offset = 0.0
        var damping = 1e-3
        for _ in 0 ..< 200 {
            // Normal equations of the linearised problem.
            var (a11, a12, a22, g1, g2) = (0.0, 0.0, 0.0, 0.0, 0.0)
            for index in times.indices {
                let tau = scale * times[index] + offset
                let state = exact(max(tau, 0))
                let slope = tau > 0 ? state.velocity : 0
                let residual = values[index] - state.position
                let j1 = slope * times[index]
                let j2 = slope
                a11 += j1 * j1
                a12 += j1 * j2
                a22 += j2 * j2
                g1 += j1 * residual
                g2 += j2 * residual
            }
            let d11 = a11 * (1 + damping)
            let d22 = a22 * (1 + damping)
            let determinant = d11 * d22 - a12 * a12
            guard determinant > 0 else { break }
            let stepScale = (g1 * d22 - g2 * a12) / determinant
            let stepOffset = (d11 * g2 - a12 * g1) / determinant
            let trial = cost(scale + stepScale, offset + stepOffset)
            if trial <= best {
                scale += stepScale
                offset += stepOffset
                best = trial
                damping /= 10
                if abs(stepScale) < 1e-13 && abs(stepOffset) < 1e-13 { break }
            } else {
                damping *= 10
                if damping > 1e12 { break }
            }
        }
        self.scale = scale
        self.offset = offset
        self.residual = (best / Double(times.count)).squareRoot()
    }
}
