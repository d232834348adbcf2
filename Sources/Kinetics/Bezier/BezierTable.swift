/// A unit bezier precomputed for fast solving: how the animator evaluates
/// the ``BezierMethod/fast`` method.
///
/// The table holds, per segment of x (`segments` of them, evenly spaced), the
/// cubic Hermite interpolant through y and dy/dx at its ends (from the
/// precise solver), as a polynomial in x: an evaluation reads one 32-byte
/// entry and takes six flops, no iteration. Each segment is certified when the table is
/// built: the polynomial, evaluated as ``solve(_:)`` evaluates it, is
/// compared with the precise solver at a quarter, half and three quarters
/// of the segment, and at its ends. A segment whose error exceeds
/// ``certifiedError`` times the curve's y scale, `max(1, |y1|, |y2|)`
/// (typically next to a point where x(t) is flat, so that y(x) is not
/// smooth there), or whose slope or coefficients are too large for the
/// bounds below, is split into 16 finer segments, certified in turn, up to
/// three times and for at most `segments` segments in all; what is still
/// uncertified after that (usually a sliver about 1e-6 of x wide at such a
/// point) is solved by the `fast` method's Newton iteration, started inside
/// the segment's bracket of t with a square-root first guess where x grows
/// with the square of t.
///
/// **How x finds its segment**: from the bits of `1 + x·segments/2^20`,
/// with integer operations only, which also tell an x outside (0, 1) (and
/// NaN) apart. That sum is rounded, so an x within `2^-32/segments` of a
/// segment's end may be evaluated with its neighbour's polynomial, a hair
/// past that polynomial's end; a certified segment's slope is bounded so that
/// this costs at most a quarter of ``certifiedError``. In a split segment,
/// the next bits of the same sum name the piece of the first finer level
/// and the fraction across it, to 2^-28; a piece is certified only where
/// its slope keeps that within a quarter of ``certifiedError`` too.
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
    /// Per segment, its polynomial: at the top level `c0 + c1·x + c2·x² +
    /// c3·x³` in x itself; finer segments `c0 + c1·u + c2·u² + c3·u³` in the
    /// fraction u across them. Where a segment is not certified, `c0` is NaN
    /// (``uncertified``, bit for bit) and `c1` holds the index of the 16
    /// finer segments that split it in its bits (a subnormal or zero as a
    /// double), or is NaN where the segment is solved by iteration. The
    /// first `segments` entries are the top level; finer ones follow.
    @usableFromInline let coefficients: [SIMD4<Double>]
    /// The coefficients and the brackets, in storage that evaluation reads
    /// through plain pointers.
    @usableFromInline let storage: Storage
    /// What evaluation reads: pointers into `storage` and the constants.
    @usableFromInline let lookup: Lookup

    /// Memory for the coefficients, the brackets and what only the slow
    /// path reads, freed with the table.
    @usableFromInline
    final class Storage: @unchecked Sendable {
        @usableFromInline let coefficients: UnsafeMutablePointer<SIMD4<Double>>
        /// Per top-level segment: t at its ends, and the shape of the first
        /// guess of the iteration (0 linear, 1 flat at the start, 2 flat at
        /// the end).
        @usableFromInline let brackets: UnsafeMutablePointer<SIMD4<Double>>
        @usableFromInline let rare: UnsafeMutablePointer<Rare>

        init(_ coefficients: [SIMD4<Double>], _ brackets: [SIMD4<Double>], scale: Double, polynomial: BezierPolynomial)
        {
            self.coefficients = Self.copy(coefficients)
            self.brackets = Self.copy(brackets)
            rare = .allocate(capacity: 1)
            rare.initialize(to: Rare(scale: scale, brackets: self.brackets, polynomial: polynomial))
        }

        /// A copy of `values` on a cache-line boundary, so that no 32-byte
        /// entry straddles two lines (malloc only promises 16 bytes; an
        /// entry split across lines made evaluation up to twice as slow,
        /// depending on where the table happened to land).
        private static func copy(_ values: [SIMD4<Double>]) -> UnsafeMutablePointer<SIMD4<Double>> {
            let raw = UnsafeMutableRawPointer.allocate(
                byteCount: values.count * MemoryLayout<SIMD4<Double>>.stride, alignment: 64)
            let typed = raw.bindMemory(to: SIMD4<Double>.self, capacity: values.count)
            typed.initialize(from: values, count: values.count)
            return typed
        }

        deinit {
            coefficients.deallocate()
            brackets.deallocate()
            rare.deallocate()
        }
    }

    /// What only ``Lookup/solveSlowly(_:)`` reads, kept out of ``Lookup`` so
    /// that the copies the animator's loops make of it stay small.
    @usableFromInline
    struct Rare {
        /// `segments`, as a double.
        let scale: Double
        let brackets: UnsafePointer<SIMD4<Double>>
        let polynomial: BezierPolynomial
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
    /// The bits of `c0` that mark a top-level segment as not certified:
    /// `Double.nan`'s. (Computed, so that code inlined into other modules
    /// folds it instead of calling a global's accessor per evaluation.)
    @inlinable static var uncertified: UInt64 { 0x7FF8_0000_0000_0000 }

    /// Builds the table of `curve` with `segments` segments (default 256).
    public init(_ curve: UnitBezier, segments: Int = 256) {
        precondition(segments >= 1 && segments <= 1 << 20, "a bezier table needs 1 to 2^20 segments")
        self.curve = curve
        self.segments = segments
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
                if depth == 0 && worst == 0 {
                    // The top level is evaluated in x, where a neighbour's x
                    // may reach 2^-32 of a segment past an end: the slope
                    // there (a.y and b.y are per segment) must keep that, and
                    // the rounding of Horner's rule in x (at most 3 ulps of
                    // the sum of the terms' sizes), within a quarter of the
                    // tolerance. Rewritten in x, the cubic must still meet
                    // the nodes' y.
                    c = Self.powerFormInX(c, segment: Double(index), scale: Double(count))
                    let rounding = 8 * Double.ulpOfOne * ((abs(c.x) + abs(c.y)) + (abs(c.z) + abs(c.w)))
                    let bounded = max(abs(a.y), abs(b.y)) * 0x1p-32 <= tolerance / 4 && rounding <= tolerance / 4
                    worst =
                        !bounded
                        ? .infinity
                        : max(
                            abs(Self.interpolate(c, at: start + Double(index) * width) - a.x),
                            abs(Self.interpolate(c, at: start + Double(index + 1) * width) - b.x))
                }
                if depth == 1 && worst == 0 {
                    // A piece of the first finer level is read at a u made
                    // from the bits of the sum (``Lookup/solveSplit(_:_:)``),
                    // within 1.5·2^-28 of the exact one: its slope, at most
                    // |c1| + 2|c2| + 3|c3| anywhere on it, must keep that
                    // within a quarter of the tolerance.
                    let slope = abs(c.y) + 2 * abs(c.z) + 3 * abs(c.w)
                    if !(slope * 0x1p-27 <= tolerance / 4) { worst = .infinity }
                }
                for u in stride(from: 0.25, through: 0.75, by: 0.25) where worst.isFinite {
                    let x = start + (Double(index) + u) * width
                    let y = depth == 0 ? Self.interpolate(c, at: x) : Self.interpolate(c, at: u)
                    worst = max(worst, abs(y - curve.solvePrecise(x)))
                }
                if !(worst <= tolerance) {
                    c = SIMD4(Double(bitPattern: Self.uncertified), .nan, 0, 0)
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
            coefficients[job.entry].y = Double(bitPattern: UInt64(coefficients.count))
            appendLevel(start: job.start, span: job.span, count: Self.pieces, depth: job.depth)
        }
        self.coefficients = coefficients
        storage = Storage(
            coefficients, Self.brackets(curve, segments: segments), scale: Double(segments),
            polynomial: curve.polynomial)
        lookup = Lookup(segments: segments, coefficients: storage.coefficients, rare: storage.rare)
    }

    /// Each segment's bracket of t, `(low, high, shape, 0)`: the parameters
    /// of its ends, and which end x(t) is flat at (1 the low, 2 the high, 0
    /// neither).
    static func brackets(_ curve: UnitBezier, segments: Int) -> [SIMD4<Double>] {
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
        return brackets
    }

    /// The cubic `c` in u = x·scale - segment, rewritten in x.
    static func powerFormInX(_ c: SIMD4<Double>, segment i: Double, scale n: Double) -> SIMD4<Double> {
        SIMD4(
            ((c.x - c.y * i) + c.z * i * i) - c.w * i * i * i,
            ((c.y - 2 * c.z * i) + 3 * c.w * i * i) * n,
            (c.z - 3 * c.w * i) * n * n,
            c.w * n * n * n)
    }

    /// How many segments (at any level) are left to iteration.
    public var uncertifiedSegments: Int { coefficients.count { $0.x.isNaN && $0.y.isNaN } }

    /// y at `x`.
    @inlinable
    public func solve(_ x: Double) -> Double {
        withExtendedLifetime(storage) { lookup.solve(x) }
    }

    /// How many x ``solve(_:into:)`` takes per round: its buffer, 8 bytes
    /// per x, stays within the kilobyte that `withUnsafeTemporaryAllocation`
    /// always puts on the stack (a larger one could go to the heap on a
    /// thread with little stack left), and a round's pairs fit the bits of
    /// one UInt64.
    @inlinable static var round: Int { 128 }

    /// y at each of `xs`, written to the same place in `ys`: the values of
    /// ``solve(_:)``, bit for bit, for many x at once. Per round of 128 x,
    /// in a buffer on the stack: a first loop forms the sums whose bits find
    /// the segments (see ``BezierTable``); a second reads those bits as
    /// integers and evaluates two x per step in SIMD registers, and marks a
    /// pair with an x outside (0, 1) or in a segment that is split or left
    /// to iteration; then the marked pairs are solved one x at a time.
    /// (Moving a sum from a vector register to an integer one costs more
    /// than storing and reloading it, and a call in the second loop would
    /// cost it registers.) `ys` may be `xs` itself.
    ///
    /// - Returns: how many values it wrote, `min(xs.count, ys.count)`: the
    ///   first that many x are solved, and a shorter `ys` is no error.
    @inlinable @discardableResult
    public func solve(_ xs: UnsafeBufferPointer<Double>, into ys: UnsafeMutableBufferPointer<Double>) -> Int {
        let count = Swift.min(xs.count, ys.count)
        guard count > 0, let input = xs.baseAddress, let output = ys.baseAddress else { return 0 }
        let lookup = lookup
        withExtendedLifetime(storage) {
            withUnsafeTemporaryAllocation(of: UInt64.self, capacity: Self.round) { buffer in
                let fractions = buffer.baseAddress!
                var start = 0
                while start < count {
                    let length = Swift.min(Self.round, count &- start)
                    let x0 = input + start
                    let y0 = output + start
                    for slot in 0 ..< length { fractions[slot] = Lookup.fraction(lookup.sum(x0[slot]).bitPattern) }
                    // Bit k: pair k (x at 2k and 2k + 1) goes the slow way.
                    var slow: UInt64 = 0
                    var slot = 0
                    while slot < length & ~1 {
                        // Both stores below write slots `slot` and `slot + 1`
                        // (checked in debug builds).
                        assert(slot &+ 1 < length && start &+ length <= count && length <= Self.round)
                        let x = UnsafeRawPointer(x0 + slot).loadUnaligned(as: SIMD2<Double>.self)
                        if let y = lookup.evaluatePair(x, fractions[slot], fractions[slot &+ 1]) {
                            UnsafeMutableRawPointer(y0 + slot).storeBytes(of: y, as: SIMD2<Double>.self)
                        } else {
                            // Keep the x (the output may be the input) where their fractions were.
                            UnsafeMutableRawPointer(fractions + slot).storeBytes(of: x, as: SIMD2<Double>.self)
                            slow |= 1 &<< UInt64(truncatingIfNeeded: slot &>> 1)
                        }
                        slot &+= 2
                    }
                    while slow != 0 {
                        let slot = slow.trailingZeroBitCount &<< 1
                        y0[slot] = solveOutOfLine(Double(bitPattern: fractions[slot]))
                        y0[slot &+ 1] = solveOutOfLine(Double(bitPattern: fractions[slot &+ 1]))
                        slow &= slow &- 1
                    }
                    if length & 1 == 1 { y0[length &- 1] = solveOutOfLine(x0[length &- 1]) }
                    start &+= length
                }
            }
        }
        return count
    }

    /// ``solve(_:)``, kept out of line so that the rare cases do not crowd
    /// the loop of ``solve(_:into:)``.
    @usableFromInline @inline(never)
    func solveOutOfLine(_ x: Double) -> Double { solve(x) }

    /// A table as evaluation reads it: plain pointers into its storage (the
    /// table, or whoever holds it, keeps them alive) and the constants that
    /// find a segment, so that copies cost no reference counting.
    @usableFromInline
    struct Lookup: @unchecked Sendable {
        /// `segments·2^-20`: `1 + x·step` has floor(x·segments) in the
        /// fraction's bits from 32 up (exact for any whole number of
        /// segments up to 2^20, since step is then a dyadic fraction).
        @usableFromInline let step: Double
        /// `segments·2^32 - 1`: ``fraction(_:)`` is below it exactly when
        /// the sum lies strictly between 1 and `1 + step`.
        @usableFromInline let limit: UInt64
        @usableFromInline let coefficients: UnsafePointer<SIMD4<Double>>
        @usableFromInline let rare: UnsafePointer<Rare>

        init(segments: Int, coefficients: UnsafePointer<SIMD4<Double>>, rare: UnsafePointer<Rare>) {
            step = Double(segments) * 0x1p-20
            limit = UInt64(segments) << 32 - 1
            self.coefficients = coefficients
            self.rare = rare
        }

        /// `1 + x·step`, whose bits ``fraction(_:)`` reads.
        @inlinable @inline(__always)
        func sum(_ x: Double) -> Double { x * step + 1 }

        /// The bits of a sum's fraction less one unit in the last place, so
        /// that a sum of 1 or below wraps round to a huge number. Below
        /// ``limit`` exactly when 1 < sum < 1 + step: then 0 < x < 1 (NaN
        /// fails too); x so close to 0 or 1 that its sum rounds to an end
        /// is left to ``solveSlowly(_:)``.
        @inlinable @inline(__always)
        static func fraction(_ bits: UInt64) -> UInt64 { bits &- (1.0.bitPattern &+ 1) }

        /// The byte offset of a top-level entry from a ``fraction(_:)``
        /// below ``limit``: shifted down to whole segments, up to 32 bytes
        /// each. The segment is floor(x·segments), or its neighbour where x
        /// is within 2^-32/segments of their common end (the sum is rounded).
        @inlinable @inline(__always)
        static func offset(_ fraction: UInt64) -> Int { Int(truncatingIfNeeded: (fraction &>> 32) &<< 5) }

        /// y at `x`: the top-level polynomial when x's segment is certified,
        /// else ``solveSplit(_:)`` (a split segment) or ``solveSlowly(_:)``
        /// (x outside (0, 1), NaN, or so close to an end that its sum
        /// rounded to it).
        @inlinable @inline(__always)
        func solve(_ x: Double) -> Double {
            let fraction = Self.fraction(sum(x).bitPattern)
            if fraction < limit {
                let entry = UnsafeRawPointer(coefficients) + Self.offset(fraction)
                // Only the mark of an uncertified segment is NaN. Horner's
                // rule on coefficients read one by one (as memory operands,
                // where a vector load would need shuffles to reach the odd
                // ones).
                let c0 = entry.load(as: Double.self)
                if !c0.isNaN {
                    let c3 = entry.load(fromByteOffset: 24, as: Double.self)
                    let c2 = entry.load(fromByteOffset: 16, as: Double.self)
                    let c1 = entry.load(fromByteOffset: 8, as: Double.self)
                    return ((c3 * x + c2) * x + c1) * x + c0
                }
                return solveSplit(x)
            }
            return solveSlowly(x)
        }

        /// Two x at once, as ``solve(_:)`` computes each (the same
        /// operations, so the same bits), from their sums' fractions; nil
        /// where either needs ``solveSlowly(_:)``.
        @inlinable @inline(__always)
        func evaluatePair(_ x: SIMD2<Double>, _ fractionA: UInt64, _ fractionB: UInt64) -> SIMD2<Double>? {
            // Both below the limit if their bitwise or is: one test for two
            // (the converse fails only where the or has every bit of the
            // limit set, and then the pair takes the slow path, with the
            // same results).
            guard fractionA | fractionB < limit else { return nil }
            let entryA = UnsafeRawPointer(coefficients) + Self.offset(fractionA)
            let entryB = UnsafeRawPointer(coefficients) + Self.offset(fractionB)
            guard entryA.load(as: UInt64.self) != BezierTable.uncertified,
                entryB.load(as: UInt64.self) != BezierTable.uncertified
            else { return nil }
            let a = entryA.load(as: SIMD4<Double>.self)
            let b = entryB.load(as: SIMD4<Double>.self)
            // (c0, c1, c0', c1') and (c2, c3, c2', c3'): their even and odd
            // halves are each coefficient for both x.
            let low = SIMD4(lowHalf: a.lowHalf, highHalf: b.lowHalf)
            let high = SIMD4(lowHalf: a.highHalf, highHalf: b.highHalf)
            return ((high.oddHalf * x + high.evenHalf) * x + low.oddHalf) * x + low.evenHalf
        }

        /// floor(v) for v in [0, 2^51), with no Int conversion and its
        /// overflow branches: adding 1.5·2^52 to v - 1/2 rounds it to an
        /// integer held in the low bits of the sum (a tie, where v is an
        /// integer m, gives m - 1 or m; the fraction v - floor is then 1 or
        /// 0, the same point of a piece).
        @inline(__always)
        static func floor(_ v: Double) -> Int {
            Int(truncatingIfNeeded: ((v - 0.5) + 0x1.8p52).bitPattern & (1 << 51 - 1))
        }

        /// y at `x` in a top-level segment that is split or left to
        /// iteration, from the bits of its sum (whose ``fraction(_:)``
        /// ``solve(_:)`` has found below ``limit``; made again here, so that
        /// `solve` keeps no copy of it for the call), as `solve` reads a
        /// top-level segment: bits 32
        /// up name the segment, bits 28 to 31 the piece of the first finer
        /// level, and the 28 below the fraction u across that piece, within
        /// 1.5·2^-28 (the sum's rounding, and the ulp ``fraction(_:)``
        /// takes off). The table certifies such a piece only where its
        /// slope keeps that within a quarter of ``certifiedError``. Where
        /// the piece is split again or the segment is left to iteration,
        /// ``solveSlowly(_:)``.
        @usableFromInline @inline(never)
        func solveSplit(_ x: Double) -> Double {
            let fraction = Self.fraction(sum(x).bitPattern)
            let split = UnsafeRawPointer(coefficients) + Self.offset(fraction)
            let first = split.load(fromByteOffset: 8, as: UInt64.self)
            // An index is below the bits of any NaN.
            if first < BezierTable.uncertified {
                let piece = Int(truncatingIfNeeded: (fraction &>> 28) & 15)
                let c = coefficients[Int(truncatingIfNeeded: first) &+ piece]
                if !c.x.isNaN {
                    return BezierTable.interpolate(c, at: Double(fraction & (1 << 28 - 1)) * 0x1p-28)
                }
            }
            return solveSlowly(x)
        }

        /// The ends, NaN, and x whose segment is split or left to
        /// iteration, or that the sum placed in no segment (x so close to
        /// 0 or 1 that it rounded to an end).
        @usableFromInline @inline(never)
        func solveSlowly(_ x: Double) -> Double {
            guard x > 0 && x < 1 else { return x.isNaN ? .nan : x <= 0 ? 0 : 1 }
            // Here the segment is found exactly: floor(x·segments). For
            // x < 1, x·segments < segments in doubles, so the last segment
            // is the highest reached (tested).
            let scaled = x * rare.pointee.scale
            let segment = Self.floor(scaled)
            let c = coefficients[segment]
            if c.x.bitPattern != BezierTable.uncertified { return BezierTable.interpolate(c, at: x) }
            // The fraction across the segment, for the finer levels.
            let across = scaled - Double(segment)
            var u = across
            var finer = c
            while finer.x.isNaN {
                guard !finer.y.isNaN else {
                    return BezierTable.iterate(
                        x, bracket: rare.pointee.brackets[segment], u: across, polynomial: rare.pointee.polynomial)
                }
                // The piece and the first of the pieces, found by the same
                // rounding as the segment (u <= 1, so the piece is at most
                // 16, taken back to 15 with u = 1).
                let spread = u * Double(BezierTable.pieces)
                let piece = Swift.min(Self.floor(spread), BezierTable.pieces - 1)
                u = spread - Double(piece)
                finer = coefficients[Int(truncatingIfNeeded: finer.y.bitPattern) + piece]
            }
            return BezierTable.interpolate(finer, at: u)
        }
    }

    /// y at `x`, a fraction `u` across a segment with `bracket` (out of
    /// line: the slow path's common case is a finer segment).
    @usableFromInline @inline(never)
    static func iterate(_ x: Double, bracket: SIMD4<Double>, u: Double, polynomial: BezierPolynomial) -> Double {
        let low = bracket.x
        let high = bracket.y
        let guess =
            switch bracket.z {
            case 1: low + (high - low) * u.squareRoot()
            case 2: high - (high - low) * (1 - u).squareRoot()
            default: low + (high - low) * u
            }
        let t = polynomial.refine(x, guess: Swift.min(Swift.max(guess, low), high), low: low, high: high)
        return polynomial.y(at: t)
    }

    /// A polynomial `c0 + c1·v + c2·v² + c3·v³` at v (x at the top level, u
    /// below), in Horner's form `((c3·v + c2)·v + c1)·v + c0`, as
    /// ``Lookup/evaluatePair(_:_:_:)`` computes it per lane.
    @inlinable @inline(__always)
    static func interpolate(_ c: SIMD4<Double>, at v: Double) -> Double {
        ((c.w * v + c.z) * v + c.y) * v + c.x
    }
}
