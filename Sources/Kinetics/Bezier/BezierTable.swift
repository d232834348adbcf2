/// A unit bezier precomputed for fast solving: the ``BezierMethod/fast``
/// method of the animator's hot path.
///
/// The table holds y and dy/dx at `segments + 1` evenly spaced x (from the
/// precise solver) and interpolates between them with cubic Hermite
/// polynomials: four loads and a dozen flops, no iteration. Each segment is
/// certified when the table is built: the interpolant is compared with the
/// precise solver at a quarter, half and three quarters of the segment, and a
/// segment whose error exceeds 1e-8 (or where x(t) is flat, so dy/dx is
/// unbounded) is solved by ``UnitBezier/solveFast(_:)`` instead.
///
/// **Accuracy**: within 1e-7 of the exact answer, as ``UnitBezier/solveFast(_:)``.
/// **Edge cases**: x <= 0 gives 0, x >= 1 gives 1, NaN gives NaN.
/// **Cost**: building takes about `4·segments` precise solves (a few
/// hundred microseconds for 256 segments); share a table per curve.
public struct BezierTable: Sendable {
    /// The curve.
    public let curve: UnitBezier
    /// The number of segments.
    public let segments: Int
    /// (y, dy/dx) at x = i/segments.
    private let nodes: [SIMD2<Double>]
    /// Segments the interpolant is not certified on.
    private let uncertified: [Bool]

    /// The largest interpolation error a segment may show at its check points.
    public static let certifiedError = 1e-8

    /// Builds the table of `curve` with `segments` segments (default 256).
    public init(_ curve: UnitBezier, segments: Int = 256) {
        precondition(segments >= 1 && segments <= 1 << 20, "a bezier table needs 1 to 2^20 segments")
        self.curve = curve
        self.segments = segments
        var nodes: [SIMD2<Double>] = []
        nodes.reserveCapacity(segments + 1)
        var flat: [Bool] = []
        for index in 0 ... segments {
            let x = Double(index) / Double(segments)
            let t = curve.parameterPrecise(x)
            let dx = curve.dxdt(at: t)
            let slope = dx > 1e-9 ? curve.dydt(at: t) / dx : .nan
            nodes.append(SIMD2(curve.solvePrecise(x), slope))
            flat.append(!slope.isFinite)
        }
        var uncertified: [Bool] = []
        uncertified.reserveCapacity(segments)
        let width = 1 / Double(segments)
        for index in 0 ..< segments {
            if flat[index] || flat[index + 1] {
                uncertified.append(true)
                continue
            }
            var worst = 0.0
            for u in [0.25, 0.5, 0.75] {
                let x = (Double(index) + u) * width
                let error = abs(Self.hermite(nodes[index], nodes[index + 1], u: u, width: width) - curve.solvePrecise(x))
                worst = max(worst, error)
            }
            uncertified.append(!(worst <= Self.certifiedError))
        }
        self.nodes = nodes
        self.uncertified = uncertified
    }

    /// How many segments fall back to iteration.
    public var uncertifiedSegments: Int { uncertified.filter { $0 }.count }

    /// y at `x`.
    @inlinable
    public func solve(_ x: Double) -> Double {
        if !(x > 0) { return x.isNaN ? .nan : 0 }
        if x >= 1 { return 1 }
        let scaled = x * Double(segments)
        let index = Swift.min(Int(scaled), segments - 1)
        return interpolate(index, u: scaled - Double(index), x: x)
    }

    @usableFromInline
    func interpolate(_ index: Int, u: Double, x: Double) -> Double {
        if uncertified[index] { return curve.solveFast(x) }
        return Self.hermite(nodes[index], nodes[index + 1], u: u, width: 1 / Double(segments))
    }

    /// The cubic Hermite interpolant between nodes (y, dy/dx) a and b, a
    /// fraction `u` of the way across a segment `width` wide.
    @usableFromInline
    static func hermite(_ a: SIMD2<Double>, _ b: SIMD2<Double>, u: Double, width: Double) -> Double {
        let u2 = u * u
        let u3 = u2 * u
        let h00 = 2 * u3 - 3 * u2 + 1
        let h10 = u3 - 2 * u2 + u
        let h01 = -2 * u3 + 3 * u2
        let h11 = u3 - u2
        return h00 * a.x + h10 * width * a.y + h01 * b.x + h11 * width * b.y
    }
}
