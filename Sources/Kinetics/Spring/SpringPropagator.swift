import CKineticsSupport

/// The linear map that advances a spring's displacement and velocity over a
/// fixed time: `d' = dd·d + dv·v`, `v' = vd·d + vv·v`.
///
/// A spring is linear, so both its exact motion over a time `t` (the matrix
/// exponential `e^{A·t}` of `A = [[0, 1], [-k/m, -c/m]]`) and any number of
/// RK4 steps of a fixed size are 2×2 matrices. ``exact(_:time:)`` is the
/// closed form that the `analytic` method uses; ``rk4Step(_:step:)`` and
/// ``power(_:)-(Int)`` let a frame of many RK4 steps cost one matrix product.
///
/// Displacement is measured from the target (`value - target`); the map is
/// the same for Pop's sign convention (`target - value`, `-velocity`).
@frozen
public struct SpringPropagator: Hashable, Sendable {
    /// ∂d'/∂d.
    public var dd: Double
    /// ∂d'/∂v.
    public var dv: Double
    /// ∂v'/∂d.
    public var vd: Double
    /// ∂v'/∂v.
    public var vv: Double

    /// A map from its four entries.
    @inlinable
    public init(dd: Double, dv: Double, vd: Double, vv: Double) {
        self.dd = dd
        self.dv = dv
        self.vd = vd
        self.vv = vv
    }

    /// The map that changes nothing.
    public static let identity = SpringPropagator(dd: 1, dv: 0, vd: 0, vv: 1)

    /// Applies the map to a displacement and a velocity of any width.
    @inlinable
    public func apply<Value: AnimatableVector>(
        displacement: Value, velocity: Value
    ) -> (displacement: Value, velocity: Value) {
        (displacement * dd + velocity * dv, displacement * vd + velocity * vv)
    }

    /// The map `self` followed by `next`.
    @inlinable
    public func then(_ next: SpringPropagator) -> SpringPropagator {
        SpringPropagator(
            dd: next.dd * dd + next.dv * vd,
            dv: next.dd * dv + next.dv * vv,
            vd: next.vd * dd + next.vv * vd,
            vv: next.vd * dv + next.vv * vv)
    }

    /// The map applied `count` times (`count` >= 0), by repeated squaring:
    /// O(log count) products.
    public func power(_ count: Int) -> SpringPropagator {
        precondition(count >= 0, "a propagator power needs a count >= 0")
        var result = SpringPropagator.identity
        var base = self
        var remaining = count
        while remaining > 0 {
            if remaining & 1 == 1 { result = result.then(base) }
            remaining >>= 1
            if remaining > 0 { base = base.then(base) }
        }
        return result
    }

    /// The map applied `count` times, for a whole `count` >= 0 of any size:
    /// a stiff spring's RK4 steps over a long frame can number more than
    /// `Int.max` (tension 1e32 over 30 s). Up to 2^62 it is ``power(_:)-(Int)``;
    /// beyond, `count` is `m·2^e` exactly (m below 2^53), and the map is
    /// `self^m` squared `e` times.
    public func power(_ count: Double) -> SpringPropagator {
        precondition(count >= 0 && count.isFinite && count == count.rounded(.down), "a whole count >= 0")
        if count < 0x1p62 { return power(Int(count)) }
        let shift = Int(count.exponent) - Double.significandBitCount
        var result = power(Int(count / Double(sign: .plus, exponent: shift, significand: 1)))
        for _ in 0 ..< shift { result = result.then(result) }
        return result
    }

    /// The largest modulus of the map's eigenvalues. Repeating the map keeps
    /// a spring bounded when this is at most 1 and makes it grow without
    /// bound when it is above 1.
    public var spectralRadius: Double {
        let trace = dd + vv
        let determinant = dd * vv - dv * vd
        let discriminant = trace * trace / 4 - determinant
        if discriminant >= 0 {
            let root = discriminant.squareRoot()
            return max(abs(trace / 2 + root), abs(trace / 2 - root))
        }
        // Complex pair: both have modulus √det.
        return determinant.squareRoot()
    }
}

// MARK: - One RK4 step

extension SpringPropagator {
    /// One classic RK4 step of size `step` as a matrix. For a linear system
    /// the four stages collapse to the Taylor polynomial of degree 4:
    /// `I + hA + (hA)²/2 + (hA)³/6 + (hA)⁴/24`.
    public static func rk4Step(_ spring: SpringParameters, step: Double) -> SpringPropagator {
        // hA = [[0, h], [-h·k/m, -h·c/m]]; evaluate I + hA(I + hA/2(I + hA/3(I + hA/4))).
        let h = step
        let a = SpringPropagator(dd: 0, dv: h, vd: -h * spring.stiffnessPerMass, vv: -h * spring.frictionPerMass)
        var m = SpringPropagator.identity
        var divisor = 4.0
        while divisor >= 1 {
            // m ← I + (hA/divisor)·m
            let scaled = SpringPropagator(
                dd: a.dd / divisor, dv: a.dv / divisor, vd: a.vd / divisor, vv: a.vv / divisor)
            let product = m.then(scaled)
            m = SpringPropagator(dd: 1 + product.dd, dv: product.dv, vd: product.vd, vv: 1 + product.vv)
            divisor -= 1
        }
        return m
    }
}

// MARK: - The exact propagator

extension SpringPropagator {
    /// The exact motion of the spring over `time` seconds (>= 0): the closed
    /// form in all three damping regimes.
    ///
    /// With `α = c/(2m)`, `ω² = k/m` and `q = ω² - α²` the motion is
    /// `d(t) = e^{-αt}·[d₀·(C + αS) + v₀·S]`,
    /// `v(t) = e^{-αt}·[v₀·(C - αS) - ω²·d₀·S]`, where `C = cos(√q·t)` and
    /// `S = sin(√q·t)/√q` when `q > 0`, `C = 1`, `S = t` when `q = 0`, and
    /// the hyperbolic versions when `q < 0`.
    ///
    /// Implementation goals, in priority order:
    /// 1. Never overflow or produce NaN for finite accepted input and any
    ///    finite time, however large ζ or t: overdamped motion is written with
    ///    the decaying exponential of the slow root, `e^{r₁t}` where
    ///    `r₁ = -ω²/(α + ω')`, times bounded factors, so `e^{-αt}` (which
    ///    underflows) never multiplies `cosh(ω't)` (which overflows).
    /// 2. Stay accurate through critical damping: `q` is rounded once (see
    ///    `SpringDamping.discriminant`), `S` is `sin(y)/y·t` (or
    ///    `-expm1(-2y)/(2y)·…`), which has no cancellation as `y → 0`, and the
    ///    three branches agree to rounding at `q = 0`.
    /// 3. Stay accurate for strong damping: for ζ >= 1.5 the coefficients are
    ///    sums of the two real exponentials with the fast root
    ///    `r₂ = -(α + ω')` and `r₁ = ω²/r₂` (no subtraction of nearly equal
    ///    roots), and the one difference that would cancel, `e^{r₁t} - e^{r₂t}`,
    ///    is formed as `-e^{r₁t}·expm1((r₂ - r₁)t)`.
    ///
    /// **Edge cases**: `time == 0` gives the identity; friction 0 gives the
    /// undamped oscillation; a non-finite or negative `time` is a programmer
    /// error (precondition).
    public static func exact(_ spring: SpringParameters, time: Double) -> SpringPropagator {
        precondition(time.isFinite && time >= 0, "the exact propagator needs a finite time >= 0")
        let (omega2, alpha, q) = spring.damping.terms
        let t = time

        if q >= 0 {
            // Under- or critically damped.
            let omegaD = q.squareRoot()
            let y = omegaD * t
            let e = exp(-alpha * t)
            let cosine = q == 0 ? 1 : cos(y)
            let sine = y == 0 ? t : sin(y) / omegaD
            return SpringPropagator(
                dd: e * (cosine + alpha * sine),
                dv: e * sine,
                vd: -omega2 * (e * sine),
                vv: e * (cosine - alpha * sine))
        }

        let omegaPrime = (-q).squareRoot()
        let fastRate = alpha + omegaPrime  // -r₂
        let slowRoot = -omega2 / fastRate  // r₁
        let e1 = exp(slowRoot * t)
        let em = expm1(-2 * omegaPrime * t)  // e^{(r₂ - r₁)t} - 1, in (-1, 0]
        // e^{-αt}·sinh(ω't)/ω' = (e^{r₁t} - e^{r₂t})/(r₁ - r₂).
        let sinhTerm = e1 * (-em) / (2 * omegaPrime)

        if alpha * alpha < 2.25 * omega2 {
            // 1 < ζ < 1.5: e^{-αt}·cosh(ω't) = e^{r₁t}·(1 + e^{-2ω't})/2.
            let coshTerm = e1 * (2 + em) / 2
            return SpringPropagator(
                dd: coshTerm + alpha * sinhTerm,
                dv: sinhTerm,
                vd: -omega2 * sinhTerm,
                vv: coshTerm - alpha * sinhTerm)
        }

        // ζ >= 1.5: sums of the two exponentials, divided by r₁ - r₂ = 2ω'.
        let e2 = exp(-fastRate * t)
        let width = 2 * omegaPrime
        return SpringPropagator(
            dd: (fastRate * e1 + slowRoot * e2) / width,
            dv: sinhTerm,
            vd: -omega2 * sinhTerm,
            vv: (slowRoot * e1 + fastRate * e2) / width)
    }

}

/// A spring's damping, set up once for every formula that reads it: `ω²`
/// (`k/m`), `α` (`c/2m`) and the discriminant `ω² - α²`, positive when the
/// spring is underdamped, zero when critically damped, negative when
/// overdamped.
struct SpringDamping {
    /// `ω² = k/m`.
    let omega2: Double
    /// `α = c/2m`, the decay rate of an underdamped spring's envelope.
    let alpha: Double
    /// `ω² - α²` with one rounding (a fused multiply-add on the rounded `ω²`
    /// and `α`). Its absolute error, a few ulps of `ω²`, moves the exact
    /// propagator's `C` and `S` by about `error·t²`, which the factor
    /// `e^{-αt}` keeps below 1e-15 near ζ = 1.
    let discriminant: Double

    /// The three, in that order.
    var terms: (omega2: Double, alpha: Double, discriminant: Double) { (omega2, alpha, discriminant) }
}

extension SpringParameters {
    /// The spring's ``SpringDamping``.
    var damping: SpringDamping {
        let omega2 = stiffnessPerMass
        let alpha = frictionPerMass / 2
        return SpringDamping(omega2: omega2, alpha: alpha, discriminant: fma(-alpha, alpha, omega2))
    }
}
