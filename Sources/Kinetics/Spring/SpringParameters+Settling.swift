import CKineticsSupport

extension SpringParameters {
    /// The settling duration of a unit step: the last time a spring released
    /// from rest at displacement 1 is `epsilon` or more away from its target.
    ///
    /// - Parameter epsilon: the band's half-width as a fraction of the
    ///   displacement, default 0.001.
    /// - Throws: ``ParameterError`` unless `epsilon` is finite and > 0.
    public func settlingDuration(epsilon: Double = 0.001) throws(ParameterError) -> Double {
        try Check.positive(epsilon, "epsilon")
        return try settlingDuration(displacement: 1, velocity: 0, band: epsilon)
    }

    /// The exact last time at which the displacement of a spring started at
    /// `displacement` with `velocity` has magnitude `band` or more: after it
    /// the motion stays strictly inside the band for ever.
    ///
    /// This is the crossing itself, not an envelope estimate. The extrema of
    /// the motion are found in closed form (at `tan(ω_d·t)/ω_d = ρ` when
    /// underdamped, `tanh(ω'·t)/ω' = ρ` when overdamped, with
    /// `ρ = v₀/(ω²·d₀ + α·v₀)`); their magnitudes follow `e^{-αt}` exactly, so
    /// the last extremum outside the band is computed directly; between it and
    /// the next one the motion is monotone, and bisection on the closed form
    /// finds the crossing to the last bit.
    ///
    /// **Edge cases**: 0 when the motion never leaves the band; `+infinity`
    /// for an undamped spring (friction 0) whose amplitude reaches the band,
    /// and when the last exit lies beyond the largest double. Every finite
    /// state is accepted: the motion is linear in it, so the search runs on
    /// the state and band divided by a power of two that brings the state
    /// near 1 (exactly, no rounding), where nothing it computes overflows.
    /// Where more than 2^52 oscillations come before the last exit, adjacent
    /// extrema are an ulp of time apart and the extremum is returned.
    ///
    /// - Throws: ``ParameterError`` unless `band` is finite and > 0 and the
    ///   initial state is finite.
    public func settlingDuration(
        displacement: Double, velocity: Double, band: Double
    ) throws(ParameterError) -> Double {
        try Check.positive(band, "band")
        try Check.finite(displacement, "displacement")
        try Check.finite(velocity, "velocity")
        let largest = max(abs(displacement), abs(velocity))
        // 2^e with largest/2^e in [1, 2); nothing to scale for a state at rest.
        let scale = largest > 0 ? Double(sign: .plus, exponent: largest.exponent, significand: 1) : 1
        let motion = SettlingSearch(
            spring: self, d0: displacement / scale, v0: velocity / scale,
            band: max(band / scale, .leastNonzeroMagnitude))
        return motion.lastExit()
    }
}

/// The search behind ``SpringParameters/settlingDuration(displacement:velocity:band:)``.
private struct SettlingSearch {
    let spring: SpringParameters
    let d0, v0, band: Double
    let omega2, alpha, q: Double

    init(spring: SpringParameters, d0: Double, v0: Double, band: Double) {
        self.spring = spring
        self.d0 = d0
        self.v0 = v0
        self.band = band
        (omega2, alpha, q) = spring.damping.terms
    }

    /// The displacement at `t`; 0 past a double's range of time, the limit
    /// of a damped motion (an undamped one never asks so far).
    func displacement(at t: Double) -> Double {
        guard t.isFinite else { return 0 }
        return SpringPropagator.exact(spring, time: t).apply(displacement: d0, velocity: v0).displacement
    }

    func isOutside(_ t: Double) -> Bool { abs(displacement(at: t)) >= band }

    func lastExit() -> Double {
        if d0 == 0 && v0 == 0 { return 0 }
        return q > 0 ? underdamped() : nonOscillating()
    }

    /// `ρ = v₀/(ω²d₀ + αv₀)`: the extrema satisfy S(t)/C(t) = ρ.
    private var rho: Double { v0 / (omega2 * d0 + alpha * v0) }

    private func underdamped() -> Double {
        let omegaD = q.squareRoot()
        // Extrema at y_k = θ + kπ, θ in [0, π).
        var theta = atan2(v0 * omegaD, omega2 * d0 + alpha * v0)
        if theta < 0 { theta += Double.pi }
        if theta >= Double.pi { theta -= Double.pi }
        func extremum(_ k: Double) -> Double { (theta + k * Double.pi) / omegaD }

        let first = abs(displacement(at: extremum(0)))
        if alpha == 0 {
            return first >= band ? Double.infinity : 0
        }
        // |d(t_k)| = K·e^{-α·t_k}: the last k outside is where t_k < ln(K/band)/α.
        let k0 = extremum(0)
        let logRatio = log(first / band) + alpha * k0
        var k = logRatio > 0 ? ((logRatio / alpha) * omegaD - theta) / Double.pi : -1
        k = (k.rounded(.down) + 2)
        // From 2^52 extrema on, the next one is an ulp of time later (or
        // none is within a double's range): the crossing is there.
        guard k < 0x1p52 else { return extremum(k).isFinite ? extremum(k) : .infinity }
        while k >= 0 && !isOutside(extremum(k)) { k -= 1 }
        if k < 0 {
            // No extremum is outside: the start may be, before the first one.
            return isOutside(0) ? crossing(after: 0, before: extremum(0)) : 0
        }
        return crossing(after: extremum(k), before: extremum(k + 1))
    }

    private func nonOscillating() -> Double {
        // At most one extremum, where tanh(ω't)/ω' = ρ (t = ρ when critical).
        var points = [0.0]
        let r = rho
        if r > 0 {
            let x = r * (-q).squareRoot()
            if x < 1 {
                points.append(x == 0 ? r : r * (atanh(x) / x))
            }
        }
        guard let last = points.lastIndex(where: isOutside) else { return 0 }
        if last + 1 < points.count {
            return crossing(after: points[last], before: points[last + 1])
        }
        // Monotone decay from here: double an upper bound until it is inside.
        let slowRate = q == 0 ? alpha : omega2 / (alpha + (-q).squareRoot())
        var upper = points[last] + 1 / slowRate
        while isOutside(upper) && upper < Double.greatestFiniteMagnitude / 2 {
            upper *= 2
        }
        return crossing(after: points[last], before: upper)
    }

    /// The time in [`lower`, `upper`) where |d| falls to the band, on a
    /// stretch where d is monotone, outside the band at `lower` and inside at
    /// `upper`. There "outside" holds up to one time and never after it
    /// (d may pass through zero, but it cannot come back out on the far side).
    private func crossing(after lower: Double, before upper: Double) -> Double {
        Bisection.lastBefore(lower: lower, upper: upper, where: isOutside)
    }
}
