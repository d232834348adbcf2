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
        cx = 3 * x1
        bx = 3 * (x2 - x1) - cx
        ax = 1 - cx - bx
        cy = 3 * y1
        by = 3 * (y2 - y1) - cy
        ay = 1 - cy - by
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

    /// The parameter in [0, 1] with x(t) = x: the cubic's root in [0, 1]
    /// (with 1e-9 of slack), refined by brent on the sub-bracket of width
    /// 2e-6 around it when x(t) - x changes sign there.
    ///
    /// - Throws: ``GSLError`` when there is no root in [0, 1] or brent fails.
    public func parameter(x: Double) throws(GSLError) -> Double {
        if x <= 0 { return 0 }
        if x >= 1 { return 1 }
        let candidates = cubicRoots(x: x).filter { $0 >= -1e-9 && $0 <= 1 + 1e-9 }
        guard let root = candidates.min(by: { abs(self.x(at: $0) - x) < abs(self.x(at: $1) - x) }) else {
            throw GSLError(
                function: "gsl_poly_solve_cubic", status: GSL.failed,
                reason: "no root of x(t) = \(x) in [0, 1]")
        }
        let low = max(0, root - 1e-6)
        let high = min(1, root + 1e-6)
        let fLow = self.x(at: low) - x
        let fHigh = self.x(at: high) - x
        guard fLow < 0, fHigh > 0 else { return min(1, max(0, root)) }
        return try brent(x: x, lower: low, upper: high)
    }

    /// The parameter with x(t) = x found by `gsl_root_fsolver_brent` alone
    /// on [`lower`, `upper`] (default [0, 1]), iterated until the bracket is
    /// within two ulps of its ends (relative width 4.5e-16; at most 500
    /// iterations).
    ///
    /// - Throws: ``GSLError`` when the bracket does not straddle the root or
    ///   brent does not converge.
    public func brent(x: Double, lower: Double = 0, upper: Double = 1) throws(GSLError) -> Double {
        GSL.prepare()
        guard let solver = gsl_root_fsolver_alloc(kinetics_gsl_brent()) else {
            throw GSLError(function: "gsl_root_fsolver_alloc", status: GSL.noMemory)
        }
        defer { gsl_root_fsolver_free(solver) }
        var context = (curve: self, x: x)
        var failure: GSLError?
        var answer = Double.nan
        withUnsafeMutablePointer(to: &context) { pointer in
            var function = gsl_function(function: bezierResidual, params: UnsafeMutableRawPointer(pointer))
            let status = gsl_root_fsolver_set(solver, &function, lower, upper)
            guard status == GSL.success else {
                failure = GSLError(function: "gsl_root_fsolver_set", status: status)
                return
            }
            for _ in 0 ..< 500 {
                let iterate = gsl_root_fsolver_iterate(solver)
                guard iterate == GSL.success else {
                    failure = GSLError(function: "gsl_root_fsolver_iterate", status: iterate)
                    return
                }
                answer = gsl_root_fsolver_root(solver)
                let test = gsl_root_test_interval(
                    gsl_root_fsolver_x_lower(solver), gsl_root_fsolver_x_upper(solver), 1e-300, 4.5e-16)
                if test == GSL.success { return }
            }
            failure = GSLError(function: "gsl_root_fsolver_brent", status: GSL.maxIterations)
        }
        if let failure { throw failure }
        return answer
    }
}

/// `x(t) - x` for brent, with (curve, x) behind `parameters`.
private let bezierResidual: @convention(c) (Double, UnsafeMutableRawPointer?) -> Double = { t, parameters in
    guard let parameters else { return .nan }
    let context = parameters.load(as: (curve: ReferenceBezier, x: Double).self)
    return context.curve.x(at: t) - context.x
}
