/// A unit bezier precomputed for fast solving: how the animator evaluates
/// the ``BezierMethod/fast`` method.
///
/// The table holds, per segment of x (`segments` of them, evenly spaced), the
/// cubic Hermite interpolant through y and dy/dx at its ends (from the
/// precise solver), in power form: an evaluation is one 32-byte load and
/// six flops, no iteration. Each segment is certified when the table is
/// built: the interpolant is compared with the precise solver at a quarter,
/// half and three quarters of the segment, and a segment whose error exceeds
/// ``certifiedError`` (or where x(t) is flat, so dy/dx is unbounded) is solved
/// by the `fast` method's Newton iteration instead, started inside the
/// segment's own bracket of t (with a square-root first guess next to a
/// point where x(t) is flat, where x grows with the square of t).
///
/// **Accuracy**: within 1e-7 of the exact answer, as ``UnitBezier/solveFast(_:)``
/// (the interpolation error of a certified segment is about 1e-8 at most).
/// **Edge cases**: x <= 0 gives 0, x >= 1 gives 1, NaN gives NaN.
/// **Cost**: building takes about `4·segments` precise solves (a few
/// hundred microseconds for 256 segments); share a table per curve.
public struct BezierTable: Sendable {
    /// The curve.
    public let curve: UnitBezier
    /// The number of segments.
    public let segments: Int
    /// Per segment, the interpolant `c0 + c1·u + c2·u² + c3·u³` in the
    /// fraction u across it; `c0` is NaN where the segment is not certified.
    @usableFromInline let coefficients: [SIMD4<Double>]
    /// Per uncertified segment: t at its ends, and the shape of its first
    /// guess (0 linear, 1 flat at the start, 2 flat at the end).
    @usableFromInline let brackets: [SIMD4<Double>]

    /// The largest interpolation error a segment may show at its check points.
    public static let certifiedError = 1e-8

    /// Builds the table of `curve` with `segments` segments (default 256).
    public init(_ curve: UnitBezier, segments: Int = 256) {
        precondition(segments >= 1 && segments <= 1 << 20, "a bezier table needs 1 to 2^20 segments")
        self.curve = curve
        self.segments = segments
        let width = 1 / Double(segments)
        // y and the slope dy/dx · width at each node (NaN where x(t) is flat).
        var nodes: [SIMD2<Double>] = []
        var parameters: [Double] = []
        nodes.reserveCapacity(segments + 1)
        for index in 0 ... segments {
            let x = Double(index) * width
            let t = curve.parameterPrecise(x)
            let dx = curve.dxdt(at: t)
            nodes.append(SIMD2(curve.solvePrecise(x), dx > 1e-9 ? curve.dydt(at: t) / dx * width : .nan))
            parameters.append(t)
        }
        var coefficients: [SIMD4<Double>] = []
        var brackets: [SIMD4<Double>] = []
        coefficients.reserveCapacity(segments)
        brackets.reserveCapacity(segments)
        for index in 0 ..< segments {
            let low = parameters[index]
            let high = parameters[index + 1]
            // x'(t) well below the secant slope at an end: flat there.
            let secant = width / (high - low)
            let shape: Double = curve.dxdt(at: low) < 0.1 * secant ? 1 : curve.dxdt(at: high) < 0.1 * secant ? 2 : 0
            brackets.append(SIMD4(low, high, shape, 0))
            let a = nodes[index]
            let b = nodes[index + 1]
            // Cubic Hermite through (y, slope) at both ends, in power form.
            var c = SIMD4(a.x, a.y, 3 * (b.x - a.x) - 2 * a.y - b.y, 2 * (a.x - b.x) + a.y + b.y)
            var worst = a.y.isNaN || b.y.isNaN ? Double.infinity : 0
            for u in stride(from: 0.25, through: 0.75, by: 0.25) where worst.isFinite {
                let x = (Double(index) + u) * width
                worst = max(worst, abs(Self.interpolate(c, u: u) - curve.solvePrecise(x)))
            }
            if !(worst <= Self.certifiedError) { c.x = .nan }
            coefficients.append(c)
        }
        self.coefficients = coefficients
        self.brackets = brackets
    }

    /// How many segments fall back to iteration.
    public var uncertifiedSegments: Int { coefficients.count { $0.x.isNaN } }

    /// y at `x`.
    @inlinable
    public func solve(_ x: Double) -> Double {
        if !(x > 0) { return x.isNaN ? .nan : 0 }
        if x >= 1 { return 1 }
        let scaled = x * Double(segments)
        let index = Swift.min(Int(scaled), segments - 1)
        let c = coefficients[index]
        if c.x.isNaN { return iterate(x, segment: index, u: scaled - Double(index)) }
        return Self.interpolate(c, u: scaled - Double(index))
    }

    /// y at `x` in an uncertified segment, by Newton's method in its bracket.
    @usableFromInline
    func iterate(_ x: Double, segment: Int, u: Double) -> Double {
        Self.iterate(x, bracket: brackets[segment], u: u, polynomial: curve.polynomial)
    }

    /// y at `x`, a fraction `u` across a segment with `bracket`.
    @usableFromInline
    static func iterate(_ x: Double, bracket: SIMD4<Double>, u: Double, polynomial: BezierPolynomial) -> Double {
        let low = bracket.x
        let high = bracket.y
        let guess = switch bracket.z {
        case 1: low + (high - low) * u.squareRoot()
        case 2: high - (high - low) * (1 - u).squareRoot()
        default: low + (high - low) * u
        }
        let t = polynomial.refine(x, guess: Swift.min(Swift.max(guess, low), high), low: low, high: high)
        return polynomial.y(at: t)
    }

    /// A segment's interpolant at fraction `u` across it, by Horner's rule.
    @inlinable @inline(__always)
    static func interpolate(_ c: SIMD4<Double>, u: Double) -> Double {
        ((c.w * u + c.z) * u + c.y) * u + c.x
    }
}
