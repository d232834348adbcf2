/// A unit bezier precomputed for fast solving: how the animator evaluates
/// the ``BezierMethod/fast`` method.
///
/// The table holds, per segment of x (`segments` of them, evenly spaced), the
/// cubic Hermite interpolant through y and dy/dx at its ends (from the
/// precise solver), in power form: an evaluation is one 32-byte load and
/// six flops, no iteration. Each segment is certified when the table is
/// built: the interpolant is compared with the precise solver at a quarter,
/// half and three quarters of the segment. A segment whose error exceeds
/// ``certifiedError`` times the curve's y scale, `max(1, |y1|, |y2|)`
/// (typically next to a point where x(t) is flat, so that
/// y(x) is not smooth there) is split into 16 finer segments, certified in
/// turn, up to three times and for at most `segments` segments in all; what
/// is still uncertified after that (usually a sliver
/// about 1e-6 of x wide at such a point) is solved by the `fast` method's
/// Newton iteration, started inside the segment's bracket of t with a
/// square-root first guess where x grows with the square of t.
///
/// **Accuracy**: within 1e-7 times the y scale of the exact answer, as
/// ``UnitBezier/solveFast(_:)`` (the interpolation error of a certified
/// segment is at most 1e-8 times the y scale). Measuring the error against
/// the y scale keeps building bounded for curves with huge y control points,
/// whose y values no absolute tolerance below their own rounding could
/// certify.
/// **Edge cases**: x <= 0 gives 0, x >= 1 gives 1, NaN gives NaN.
/// **Cost**: building takes about `5·segments` precise solves, plus about
/// 65 per refined segment, at most `segments` of them (a millisecond or so
/// for 256 segments on the named curves, at most about 70·segments solves
/// for any curve); share a table per curve.
public struct BezierTable: Sendable {
    /// The curve.
    public let curve: UnitBezier
    /// The number of segments.
    public let segments: Int
    /// `segments` as a double: x times it is the top-level segment's index
    /// and the fraction across it.
    @usableFromInline let scale: Double
    /// Per segment, the interpolant `c0 + c1·u + c2·u² + c3·u³` in the
    /// fraction u across it. Where a segment is not certified, `c0` is NaN
    /// and `c1` is the index of the 16 finer segments that split it, or NaN
    /// where it is solved by iteration. The first `segments` entries are the
    /// top level; finer ones follow.
    @usableFromInline let coefficients: [SIMD4<Double>]
    /// Per top-level segment: t at its ends, and the shape of the first
    /// guess of the iteration (0 linear, 1 flat at the start, 2 flat at the end).
    @usableFromInline let brackets: [SIMD4<Double>]
    /// The same, in storage that evaluation reads through plain pointers.
    @usableFromInline let storage: Storage

    /// Memory for the coefficients and brackets, freed with the table.
    @usableFromInline
    final class Storage: @unchecked Sendable {
        @usableFromInline let coefficients: UnsafeMutablePointer<SIMD4<Double>>
        @usableFromInline let brackets: UnsafeMutablePointer<SIMD4<Double>>

        init(_ coefficients: [SIMD4<Double>], _ brackets: [SIMD4<Double>]) {
            self.coefficients = Self.copy(coefficients)
            self.brackets = Self.copy(brackets)
        }

        /// A copy of `values` on a cache-line boundary, so that no 32-byte
        /// entry straddles two lines (malloc only promises 16 bytes; an
        /// entry split across lines made evaluation up to twice as slow,
        /// depending on where the table happened to land).
        private static func copy(_ values: [SIMD4<Double>]) -> UnsafeMutablePointer<SIMD4<Double>> {
            let raw = UnsafeMutableRawPointer.allocate(byteCount: values.count * MemoryLayout<SIMD4<Double>>.stride, alignment: 64)
            let typed = raw.bindMemory(to: SIMD4<Double>.self, capacity: values.count)
            typed.initialize(from: values, count: values.count)
            return typed
        }

        deinit {
            coefficients.deallocate()
            brackets.deallocate()
        }
    }

    /// The largest interpolation error a segment may show at its check
    /// points, relative to the curve's y scale `max(1, |y1|, |y2|)`.
    public static let certifiedError = 1e-8
    /// How many times a segment that fails certification is split in 16
    /// (down to 1/(segments·16³) of x): only the piece next to a point where
    /// x(t) is flat is left to iteration.
    static let refinements = 3
    /// The number of pieces a refined segment is split into.
    @usableFromInline static let pieces = 16

    /// Builds the table of `curve` with `segments` segments (default 256).
    public init(_ curve: UnitBezier, segments: Int = 256) {
        precondition(segments >= 1 && segments <= 1 << 20, "a bezier table needs 1 to 2^20 segments")
        self.curve = curve
        self.segments = segments
        scale = Double(segments)
        var coefficients: [SIMD4<Double>] = []
        var refine: [(entry: Int, start: Double, span: Double, depth: Int)] = []
        let tolerance = Self.certifiedError * max(1, abs(curve.y1), abs(curve.y2))
        // At most `segments` segments are refined, so building costs at most
        // about 70 precise solves per segment whatever the curve (found by
        // fuzzing: a curve whose y(x) is nowhere smooth enough refined every
        // segment to the deepest level, 4,369 pieces each).
        var refinedSegments = 0
        func appendLevel(start: Double, span: Double, count: Int, depth: Int) {
            let width = span / Double(count)
            // y and the slope dy/dx · width at each node (NaN where x(t) is flat).
            var nodes: [SIMD2<Double>] = []
            for index in 0 ... count {
                let x = start + Double(index) * width
                let t = curve.parameterPrecise(x)
                let dx = curve.dxdt(at: t)
                nodes.append(SIMD2(curve.solvePrecise(x), dx > 1e-9 ? curve.dydt(at: t) / dx * width : .nan))
            }
            for index in 0 ..< count {
                let a = nodes[index]
                let b = nodes[index + 1]
                // Cubic Hermite through (y, slope) at both ends, in power form.
                var c = SIMD4(a.x, a.y, 3 * (b.x - a.x) - 2 * a.y - b.y, 2 * (a.x - b.x) + a.y + b.y)
                var worst = a.y.isNaN || b.y.isNaN ? Double.infinity : 0
                for u in stride(from: 0.25, through: 0.75, by: 0.25) where worst.isFinite {
                    let x = start + (Double(index) + u) * width
                    worst = max(worst, abs(Self.interpolate(c, u: u) - curve.solvePrecise(x)))
                }
                if !(worst <= tolerance) {
                    c = SIMD4(.nan, .nan, 0, 0)
                    if depth < Self.refinements && refinedSegments < segments {
                        refinedSegments += 1
                        refine.append((coefficients.count, start + Double(index) * width, width, depth + 1))
                    }
                }
                coefficients.append(c)
            }
        }
        appendLevel(start: 0, span: 1, count: segments, depth: 0)
        while let job = refine.popLast() {
            coefficients[job.entry].y = Double(coefficients.count)
            appendLevel(start: job.start, span: job.span, count: Self.pieces, depth: job.depth)
        }
        var brackets: [SIMD4<Double>] = []
        brackets.reserveCapacity(segments)
        let width = 1 / Double(segments)
        for index in 0 ..< segments {
            let low = curve.parameterPrecise(Double(index) * width)
            let high = curve.parameterPrecise(Double(index + 1) * width)
            // x'(t) well below the secant slope at an end: flat there.
            let secant = width / (high - low)
            let shape: Double = curve.dxdt(at: low) < 0.1 * secant ? 1 : curve.dxdt(at: high) < 0.1 * secant ? 2 : 0
            brackets.append(SIMD4(low, high, shape, 0))
        }
        self.coefficients = coefficients
        self.brackets = brackets
        storage = Storage(coefficients, brackets)
    }

    /// How many segments (at any level) are left to iteration.
    public var uncertifiedSegments: Int { coefficients.count { $0.x.isNaN && $0.y.isNaN } }

    /// y at `x`.
    @inlinable
    public func solve(_ x: Double) -> Double {
        guard x > 0 && x < 1 else { return x.isNaN ? .nan : x <= 0 ? 0 : 1 }
        return Self.evaluate(
            x, scale: scale, coefficients: storage.coefficients, brackets: storage.brackets, polynomial: curve.polynomial)
    }

    /// y at each of `xs`, written to the same place in `ys`: the values of
    /// ``solve(_:)``, bit for bit, for many x at once. The loop reads the
    /// table's storage once (calls one at a time reload it, since a store
    /// through a pointer could have changed it) and evaluates two x per
    /// step in SIMD registers, falling back to one at a time for a pair
    /// with an x outside (0, 1) or in a segment that is split or left to
    /// iteration. `ys` may be `xs` itself.
    ///
    /// - Returns: how many values it wrote, `min(xs.count, ys.count)`: the
    ///   first that many x are solved, and a shorter `ys` is no error.
    @inlinable @discardableResult
    public func solve(_ xs: UnsafeBufferPointer<Double>, into ys: UnsafeMutableBufferPointer<Double>) -> Int {
        let count = Swift.min(xs.count, ys.count)
        guard count > 0, let input = xs.baseAddress, let output = ys.baseAddress else { return 0 }
        let scale = scale
        withExtendedLifetime(storage) {
            let coefficients = UnsafePointer(storage.coefficients)
            var index = 0
            while index &+ 1 < count {
                let x = SIMD2(input[index], input[index &+ 1])
                // One vector store for both paths: with a store per lane,
                // the compiler computes the pair lane by lane.
                let y = Self.evaluatePair(x, scale: scale, coefficients: coefficients)
                    ?? SIMD2(solveOutOfLine(x.x), solveOutOfLine(x.y))
                UnsafeMutableRawPointer(output + index).storeBytes(of: y, as: SIMD2<Double>.self)
                index &+= 2
            }
            if index < count { output[index] = solveOutOfLine(input[index]) }
        }
        return count
    }

    /// ``solve(_:)``, kept out of line so that the rare cases do not crowd
    /// the loop of ``solve(_:into:)``.
    @usableFromInline @inline(never)
    func solveOutOfLine(_ x: Double) -> Double { solve(x) }

    /// y at two x in (0, 1) at once, as ``evaluate(_:scale:coefficients:brackets:polynomial:)``
    /// computes each (the same operations, so the same bits), or nil where
    /// an x is outside (0, 1) or its segment is not certified.
    @inlinable @inline(__always)
    static func evaluatePair(_ x: SIMD2<Double>, scale: Double, coefficients: UnsafePointer<SIMD4<Double>>) -> SIMD2<Double>? {
        guard all((x .> 0) .& (x .< 1)) else { return nil }
        let scaled = x * scale
        let rounded = (scaled - 0.5) + 0x1.8p52
        let segment = unsafeBitCast(rounded, to: SIMD2<UInt64>.self) & (1 << 51 - 1)
        let u = scaled - (rounded - 0x1.8p52)
        let a = coefficients[Int(truncatingIfNeeded: segment.x)]
        let b = coefficients[Int(truncatingIfNeeded: segment.y)]
        // (c0, c1, c0', c1') and (c2, c3, c2', c3'): their even and odd
        // halves are each coefficient for both x.
        let low = SIMD4(lowHalf: a.lowHalf, highHalf: b.lowHalf)
        let high = SIMD4(lowHalf: a.highHalf, highHalf: b.highHalf)
        guard all(low.evenHalf .== low.evenHalf) else { return nil }
        return ((high.oddHalf * u + high.evenHalf) * u + low.oddHalf) * u + low.evenHalf
    }

    /// y at `x` in (0, 1) from a table's storage and `scale` (its number of
    /// segments): the interpolant of the top-level segment that holds x, or
    /// ``evaluateFiner(_:segment:u:coefficients:brackets:polynomial:)``
    /// where that segment is split or left to iteration.
    @inlinable @inline(__always)
    static func evaluate(
        _ x: Double, scale: Double, coefficients: UnsafePointer<SIMD4<Double>>, brackets: UnsafePointer<SIMD4<Double>>,
        polynomial: BezierPolynomial
    ) -> Double {
        // The segment is floor(x·scale), found without converting to Int
        // (whose overflow checks cost three branches an evaluation): adding
        // 1.5·2^52 to x·scale - 1/2 rounds it to an integer held in the low
        // bits of the sum (a tie, where x·scale is an integer m, gives m - 1
        // or m, and u then 1 or 0: the same value, a node of the interpolant).
        // For x < 1, x·scale < scale in doubles, so the last segment is
        // the highest reached (tested).
        let scaled = x * scale
        let rounded = (scaled - 0.5) + 0x1.8p52
        let segment = Int(truncatingIfNeeded: rounded.bitPattern & (1 << 51 - 1))
        let u = scaled - (rounded - 0x1.8p52)
        let c = coefficients[segment]
        if c.x.isNaN {
            return evaluateFiner(x, segment: segment, u: u, coefficients: coefficients, brackets: brackets, polynomial: polynomial)
        }
        return interpolate(c, u: u)
    }

    /// The finer segments of a split segment, down to the iteration.
    @usableFromInline @inline(never)
    static func evaluateFiner(
        _ x: Double, segment: Int, u topU: Double, coefficients: UnsafePointer<SIMD4<Double>>,
        brackets: UnsafePointer<SIMD4<Double>>, polynomial: BezierPolynomial
    ) -> Double {
        var u = topU
        var c = coefficients[segment]
        while c.x.isNaN {
            guard !c.y.isNaN else { return iterate(x, bracket: brackets[segment], u: topU, polynomial: polynomial) }
            let finer = u * Double(pieces)
            let piece = Swift.min(Int(finer), pieces - 1)
            u = finer - Double(piece)
            c = coefficients[Int(c.y) + piece]
        }
        return interpolate(c, u: u)
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

    /// A segment's interpolant at fraction `u` across it, in Horner's form
    /// `((c3·u + c2)·u + c1)·u + c0` (as ``evaluatePair(_:scale:coefficients:)``
    /// computes it per lane).
    @inlinable @inline(__always)
    static func interpolate(_ c: SIMD4<Double>, u: Double) -> Double {
        ((c.w * u + c.z) * u + c.y) * u + c.x
    }
}
