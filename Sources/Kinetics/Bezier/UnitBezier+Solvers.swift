// MARK: - Precise

extension UnitBezier {
    /// y at `x` to within 1e-12·max(1, |y1|, |y2|) of the exact answer for
    /// the curve's exact control points.
    ///
    /// The residual `x(t) - x` is evaluated in double-double arithmetic (about
    /// 1e-32 relative), with coefficients formed exactly from the control
    /// points, so its sign is right wherever it is larger than that. A bracketed
    /// Newton iteration (a bisection of the bit patterns every third step, so
    /// at most 200 steps) narrows [0, 1] to adjacent doubles around the root,
    /// and y is evaluated in double-double at the nearer one.
    ///
    /// **Accuracy.** Where x(t) is not stationary, t is within about one ulp
    /// of the root and y within a few ulps plus |y'(t)|·ulp(t). Where x(t) is
    /// stationary (curve 1, 0, 0, 1 at x = 0.5 has `x(t) - x = 4(t - ½)³`), no
    /// finite-precision method resolves t to an ulp: the residual is below its
    /// own rounding for every t with `|x(t) - x|` within a few ulps of the
    /// arithmetic, so the bound there is the spread of y(t) over those t. With
    /// double-double residuals that spread is about |y'|·(1e-32/|x'''|)^(1/3),
    /// near 3e-11 for the triple root above; with plain doubles (webkit,
    /// fast) it is near 7e-6.
    ///
    /// **Edge cases**: x <= 0 gives 0 and x >= 1 gives 1 (the end points; x
    /// outside [0, 1] clamps); NaN gives NaN.
    public func solvePrecise(_ x: Double) -> Double {
        let t = parameterPrecise(x)
        if t.isNaN || t == 0 || t == 1 { return t }
        return exactY.evaluate(at: t).value
    }

    /// The parameter t that ``solvePrecise(_:)`` uses.
    public func parameterPrecise(_ x: Double) -> Double {
        if x.isNaN { return .nan }
        if x <= 0 { return 0 }
        if x >= 1 { return 1 }
        let polynomial = exactX
        func residual(_ t: Double) -> Double { (polynomial.evaluate(at: t) - x).value }
        var low = 0.0
        var high = 1.0
        var t = x
        for step in 0 ..< 200 {
            let f = residual(t)
            if f == 0 { return t }
            if f < 0 { low = t } else { high = t }
            if high.bitPattern - low.bitPattern <= 1 { break }
            var next = t - f / dxdt(at: t)
            if step % 3 == 2 || !(next > low && next < high) {
                next = Double(bitPattern: low.bitPattern + (high.bitPattern - low.bitPattern) / 2)
            }
            t = next
        }
        return abs(residual(low)) <= abs(residual(high)) ? low : high
    }

    /// x(t) with coefficients held exactly: `c = 3x1`, `b = 3x2 - 6x1`,
    /// `a = 1 + 3x1 - 3x2`.
    private var exactX: ExactCubic { ExactCubic(p1: x1, p2: x2) }
    private var exactY: ExactCubic { ExactCubic(p1: y1, p2: y2) }
}

/// `a·t³ + b·t² + c·t` with double-double coefficients built from the control
/// values without rounding (to 106 bits).
private struct ExactCubic {
    let a: DoubleDouble
    let b: DoubleDouble
    let c: DoubleDouble

    init(p1: Double, p2: Double) {
        c = DoubleDouble.product(3, p1)
        let threeP2 = DoubleDouble.product(3, p2)
        b = threeP2 + -DoubleDouble.product(6, p1)
        a = (c + 1.0) + -threeP2
    }

    func evaluate(at t: Double) -> DoubleDouble {
        ((a * t + b) * t + c) * t
    }
}

// MARK: - Fast

extension UnitBezier {
    /// y at `x` to within 1e-7, cheaply: the seed table (x at t = i/16)
    /// brackets the root in a segment, linear interpolation in it gives the
    /// first guess, and a safeguarded Newton iteration in plain doubles
    /// (bisection whenever a step leaves the bracket) stops when a step moves
    /// t by less than 1e-11, at most 64 steps.
    ///
    /// **Accuracy**: |y - exact| <= 1e-7·max(1, |y1|, |y2|) wherever x(t) is not stationary
    /// (typically 1e-12 or better); where it is, the spread of y over the t
    /// whose x(t) is within a few double ulps of x (see ``solvePrecise(_:)``).
    ///
    /// **Edge cases**: as ``solvePrecise(_:)``: x <= 0 gives 0, x >= 1 gives
    /// 1, NaN gives NaN.
    @inlinable
    public func solveFast(_ x: Double) -> Double {
        let t = parameterFast(x)
        if t == 0 || t == 1 { return t }
        return y(at: t)
    }

    /// The parameter t that ``solveFast(_:)`` uses.
    @inlinable
    public func parameterFast(_ x: Double) -> Double {
        if !(x > 0) { return x.isNaN ? .nan : 0 }
        if x >= 1 { return 1 }
        // The last seed at or below x: a binary search over 17 entries.
        var index = 0
        var width = 8
        while width > 0 {
            if seed[index + width] <= x { index += width }
            width /= 2
        }
        let low = Double(index) / 16
        let high = Double(index + 1) / 16
        let next = index < 15 ? seed[index + 1] : seedEnd
        let span = next - seed[index]
        let t = span > 0 ? low + (x - seed[index]) / span / 16 : (low + high) / 2
        return refine(x, guess: t, low: low, high: high)
    }

    /// The curve's x and y polynomials alone, for code that must not copy
    /// the whole curve.
    @inlinable
    func refine(_ x: Double, guess: Double, low: Double, high: Double) -> Double {
        polynomial.refine(x, guess: guess, low: low, high: high)
    }
}

/// The coefficients of x(t) and y(t) of a unit bezier (see ``UnitBezier``).
@usableFromInline
struct BezierPolynomial: Sendable {
    @usableFromInline let ax: Double
    @usableFromInline let bx: Double
    @usableFromInline let cx: Double
    @usableFromInline let ay: Double
    @usableFromInline let by: Double
    @usableFromInline let cy: Double

    /// The coefficients for control points (x1, y1) and (x2, y2): x(t) =
    /// ((ax·t + bx)·t + cx)·t with cx = 3·x1, bx = 3·(x2 − x1) − cx,
    /// ax = 1 − cx − bx, and y(t) alike.
    init(x1: Double, y1: Double, x2: Double, y2: Double) {
        cx = 3.0 * x1
        bx = 3.0 * (x2 - x1) - cx
        ax = 1.0 - cx - bx
        cy = 3.0 * y1
        by = 3.0 * (y2 - y1) - cy
        ay = 1.0 - cy - by
    }

    /// The safeguarded Newton iteration of the `fast` method: from `guess`
    /// inside [low, high] (which bracket the root), Newton steps in plain
    /// doubles, bisection whenever a step leaves the bracket, stopping when a
    /// step moves t by less than 1e-11 (at most 64 steps). The arithmetic is
    /// that of ``UnitBezier/x(at:)`` and ``UnitBezier/dxdt(at:)``.
    @inlinable
    func refine(_ x: Double, guess: Double, low: Double, high: Double) -> Double {
        var low = low
        var high = high
        var t = guess
        for _ in 0 ..< 64 {
            let f = self.x(at: t) - x
            if f == 0 { break }
            if f < 0 { low = t } else { high = t }
            var next = t - f / dxdt(at: t)
            if !(next > low && next < high) { next = (low + high) / 2 }
            let moved = Swift.abs(next - t)
            t = next
            if moved < 1e-11 { break }
        }
        return t
    }

    /// x(t) by Horner's rule.
    @inlinable
    func x(at t: Double) -> Double { ((ax * t + bx) * t + cx) * t }

    /// y(t) by Horner's rule.
    @inlinable
    func y(at t: Double) -> Double { ((ay * t + by) * t + cy) * t }

    /// dx/dt.
    @inlinable
    func dxdt(at t: Double) -> Double { (3.0 * ax * t + 2.0 * bx) * t + cx }

    /// dy/dt.
    @inlinable
    func dydt(at t: Double) -> Double { (3.0 * ay * t + 2.0 * by) * t + cy }
}

extension UnitBezier {
    /// The spread of y over the parameters whose x, evaluated in doubles, is
    /// within 8 ulps of `x` (`t` being x's parameter): what no
    /// double-precision solver can resolve where x(t) is flat, so what the
    /// accuracy checks allow on top of their tolerance.
    package func ySpread(atX x: Double, parameter t: Double) -> Double {
        let tolerance = 8 * Double.ulpOfOne
        let y = y(at: t)
        var spread = 0.0
        for direction in [-1.0, 1.0] {
            // Walk outwards in doubling steps while x stays within tolerance.
            var step = 1e-16
            var edge = t
            while step < 1, abs(self.x(at: edge + direction * step) - x) <= tolerance {
                edge += direction * step
                step *= 2
            }
            spread = max(spread, abs(self.y(at: min(max(edge + direction * step, 0), 1)) - y))
        }
        return spread
    }
}
