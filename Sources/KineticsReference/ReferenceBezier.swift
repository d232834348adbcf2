import CGSL

/// GSL's answers for a unit cubic bezier with control points (x1, y1) and
/// (x2, y2): the parameter t with x(t) = x, from `gsl_poly_solve_cubic`
/// polished by `gsl_root_fsolver_brent`, and from brent alone.
public struct ReferenceBezier: Sendable {
    /// Coefficients of x(t) = ax·t³ + bx·t² + cx·t (WebKit's formulas).
    public let ax: Double, bx: Double, cx: Double
    /// Coefficients of y(t).
    public let ay: Double, by: Double, cy: Double

    /// The curve with control points (x1, y1) and (x2, y2).
    public init(x1: Double, y1: Double, x2: Double, y2: Double) {
        (ax, bx, cx) = Self.coefficients(x1, x2)
        (ay, by, cy) = Self.coefficients(y1, y2)
    }

    /// The power-basis coefficients of one axis of the curve through 0, `p1`,
    /// `p2` and 1: c = 3·p1, b = 3·(p2 − p1) − c, a = 1 − c − b.
    private static func coefficients(_ p1: Double, _ p2: Double) -> (a: Double, b: Double, c: Double) {
        let c = 3 * p1
        let b = 3 * (p2 - p1) - c
        return (1 - c - b, b, c)
    }

    /// x(t).
    public func x(at t: Double) -> Double { ((ax * t + bx) * t + cx) * t }
    /// y(t).
    public func y(at t: Double) -> Double { ((ay * t + by) * t + cy) * t }

    /// The real roots of `x(t) - x = 0` by `gsl_poly_solve_cubic` (or
    /// `gsl_poly_solve_quadratic` when the cubic term vanishes), ascending.
    public func cubicRoots(x: Double) -> [Double] {
        if ax != 0 {
            return ReferenceRoots.monicCubic(a: bx / ax, b: cx / ax, c: -x / ax)
        }
        return ReferenceRoots.quadratic(a: bx, b: cx, c: -x)
    }

    /// The cubic's root in [0, 1] (with 1e-9 of slack, clamped) for x(t) = x,
    /// as `gsl_poly_solve_cubic` gives it: where several roots qualify, the
    /// one with the smallest residual.
    ///
    /// - Throws: ``GSLError`` when no root lies in [0, 1].
    public func cubicParameter(x: Double) throws(GSLError) -> Double {
        if x <= 0 { return 0 }
        if x >= 1 { return 1 }
        let candidates = cubicRoots(x: x).filter { $0 >= -1e-9 && $0 <= 1 + 1e-9 }
        guard let root = candidates.min(by: { abs(self.x(at: $0) - x) < abs(self.x(at: $1) - x) }) else {
            throw GSLError(
                function: "gsl_poly_solve_cubic", status: GSL.failed,
                reason: "no root of x(t) = \(x) in [0, 1]")
        }
        return min(1, max(0, root))
    }

    /// The parameter in [0, 1] with x(t) = x: ``cubicParameter(x:)`` refined
    /// by brent on the sub-bracket of width 2e-6 around it when x(t) - x
    /// changes sign there (else the cubic's root as it is).
    ///
    /// - Throws: ``GSLError`` when there is no root in [0, 1] or brent fails.
    public func parameter(x: Double) throws(GSLError) -> Double {
        let root = try cubicParameter(x: x)
        if root == 0 || root == 1 { return root }
        let low = max(0, root - 1e-6)
        let high = min(1, root + 1e-6)
        guard self.x(at: low) - x < 0, self.x(at: high) - x > 0 else { return root }
        return try brent(x: x, lower: low, upper: high)
    }

    /// The parameter with x(t) = x found by `gsl_root_fsolver_brent` alone
    /// on [`lower`, `upper`] (default [0, 1]), iterated until the bracket is
    /// within two ulps of its ends (at most 500 iterations).
    ///
    /// - Throws: ``GSLError`` when the bracket does not straddle the root or
    ///   brent does not converge.
    public func brent(x: Double, lower: Double = 0, upper: Double = 1) throws(GSLError) -> Double {
        try ReferenceRoots.brent(lower: lower, upper: upper) { self.x(at: $0) - x }
    }
}
