import Foundation
import Kinetics
import KineticsReference
import KineticsTestSupport
import Testing

@Suite("Unit bezier")
struct BezierTests {
    /// The named curves plus seeded random ones: x control points uniform in
    /// [0, 1] with a fifth of them at or within 1e-9 of 0 or 1, y in [-1, 2].
    static func curves(count: Int, seed: UInt64) -> [UnitBezier] {
        var generator = SeededGenerator(seed: seed)
        func controlX() -> Double {
            switch Int.random(in: 0 ..< 10, using: &generator) {
            case 0: return 0
            case 1: return 1
            case 2: return Double.random(in: 0 ... 1e-9, using: &generator)
            case 3: return 1 - Double.random(in: 0 ... 1e-9, using: &generator)
            default: return Double.random(in: 0 ... 1, using: &generator)
            }
        }
        var result = UnitBezier.named.map(\.curve)
        for _ in 0 ..< count {
            result.append(
                try! UnitBezier(
                    x1: controlX(), y1: Double.random(in: -1 ... 2, using: &generator),
                    x2: controlX(), y2: Double.random(in: -1 ... 2, using: &generator)))
        }
        return result
    }

    /// 1,001 x in [0, 1] plus points near the ends.
    static let xs: [Double] = {
        let grid = (0 ... 1000).map { Double($0) / 1000 }
        let nearEnds: [Double] = [1e-12, 1e-6, 1 - 1e-6, 1 - 1e-12]
        return grid + nearEnds
    }()

    // MARK: webkit

    @Test("webkit equals WebKit's UnitBezier bit for bit")
    func webKitMatchesPlain() {
        for curve in Self.curves(count: 300, seed: 1) {
            let plain = PlainWebKitBezier(curve.x1, curve.y1, curve.x2, curve.y2)
            for epsilon in [1.0 / 400, 1e-3, 1e-7] {
                for x in Self.xs + [-0.5, 1.5, 3] {
                    let ours = curve.solveWebKit(x, epsilon: epsilon)
                    #expect(ours.bitPattern == plain.solve(x, epsilon).bitPattern, "\(curve) at \(x), ε \(epsilon)")
                }
            }
        }
    }

    @Test("webkit terminates where WebKit would loop: zero or NaN epsilon, NaN and infinite x")
    func webKitTerminates() {
        for curve in [UnitBezier.easeInEaseOut, try! UnitBezier(x1: 1, y1: 0, x2: 0, y2: 1)] {
            for x in [0.3, 0.5, 0.7, 1e-300] {
                for epsilon in [0, Double.nan, 1e-300] {
                    // The bisection runs down to adjacent doubles around the
                    // root: y is the exact answer to within the spread of y
                    // over the t whose x(t) rounds to x (7e-6 at the triple
                    // root of (1, 0, 0, 1) at 0.5; far less elsewhere).
                    let y = curve.solveWebKit(x, epsilon: epsilon)
                    #expect(abs(y - curve.solvePrecise(x)) <= 1e-5, "\(curve) at \(x), ε \(epsilon): \(y)")
                }
            }
            #expect(curve.solveWebKit(.nan, epsilon: 1.0 / 400).isNaN)
            #expect(curve.solveWebKit(.infinity, epsilon: 1.0 / 400) == 1)
            #expect(curve.solveWebKit(-.infinity, epsilon: 1.0 / 400) == 0)
        }
    }

    @Test("webkit's error in y can be large: the tolerance is on x")
    func webKitError() throws {
        let steep = try UnitBezier(x1: 0.9, y1: 0, x2: 0.1, y2: 1)
        let worst = Self.xs.map { abs(steep.solveWebKit($0, epsilon: 1.0 / 400) - steep.solvePrecise($0)) }.max()!
        #expect(worst > 1e-2)
    }

    // MARK: precise

    @Test("precise is within 1e-12 of GSL's root (cubic, polished by brent) wherever x(t) is not flat")
    func preciseMatchesGSL() throws {
        var checked = 0
        for curve in Self.curves(count: 150, seed: 2) {
            let reference = ReferenceBezier(x1: curve.x1, y1: curve.y1, x2: curve.x2, y2: curve.y2)
            let yScale = max(1, abs(curve.y1), abs(curve.y2))
            for x in Self.xs {
                let t = try reference.parameter(x: x)
                let slope = curve.dxdt(at: t)
                guard slope >= 1e-3 else { continue }
                // GSL evaluates x(t) in doubles, so its own t is off by up to
                // ~4 ulps of x(t) over x'(t); that moves y by |y'|·that.
                let referenceError = abs(curve.dydt(at: t)) * 4 * Double.ulpOfOne / slope
                let error = abs(curve.solvePrecise(x) - reference.y(at: t))
                #expect(error <= 1e-12 * yScale + referenceError, "\(curve) at \(x): \(error)")
                checked += 1
            }
        }
        #expect(checked > 100_000)
    }

    @Test("precise where x(t) is stationary: exact answers of symmetric curves")
    func preciseStationary() throws {
        // x(t) - 1/2 = 4(t - 1/2)³ for (1, 0, 0, 1): t = 1/2, y = 1/2 exactly.
        // The double-double residual resolves t to about (1e-32/4)^(1/3) ≈ 1.4e-11,
        // and y'(1/2) = 1.5: the spread bound is about 2e-11.
        let flat = try UnitBezier(x1: 1, y1: 0, x2: 0, y2: 1)
        #expect(abs(flat.solvePrecise(0.5) - 0.5) <= 3e-11)
        // Plain doubles resolve t only to (ulp/4)^(1/3) ≈ 3.8e-6 there.
        #expect(abs(flat.solveFast(0.5) - 0.5) <= 1e-5)
        // Any curve symmetric about (1/2, 1/2) passes through it.
        for (x1, y1) in [(0.42, 0.0), (0.9, -0.5), (1.0, 0.2), (0.05, 1.5)] {
            let curve = try UnitBezier(x1: x1, y1: y1, x2: 1 - x1, y2: 1 - y1)
            #expect(abs(curve.solvePrecise(0.5) - 0.5) <= 3e-11, "\(curve)")
        }
        // With y control points equal to the x ones, y = x exactly.
        for curve in Self.curves(count: 50, seed: 3) {
            let diagonal = try UnitBezier(x1: curve.x1, y1: curve.x1, x2: curve.x2, y2: curve.x2)
            for x in Self.xs {
                #expect(abs(diagonal.solvePrecise(x) - x) <= 4 * Double.ulpOfOne, "\(diagonal) at \(x)")
            }
        }
    }

    // MARK: fast

    @Test("fast is within 1e-7 of precise, or within the stationary spread of plain doubles")
    func fastMatchesPrecise() {
        var worst = 0.0
        var excused = 0
        let stationary = [try! UnitBezier(x1: 1, y1: 0, x2: 0, y2: 1), try! UnitBezier(x1: 1, y1: 0.3, x2: 0, y2: 0.7)]
        // 300 curves (1,000 with KINETICS_LONG_TESTS).
        for curve in Self.curves(count: sized(300, full: 1_000), seed: 4) + stationary {
            for x in Self.xs {
                let error = abs(curve.solveFast(x) - curve.solvePrecise(x))
                if error > 1e-7 {
                    excused += 1
                    let spread = curve.ySpread(atX: x, parameter: curve.parameterPrecise(x))
                    #expect(error <= spread, "\(curve) at \(x): \(error) > \(spread)")
                }
                worst = max(worst, error <= 1e-7 ? error : 0)
            }
        }
        #expect(worst > 0)
        // Stationary points are rare: x control points exactly at 0 or 1 make
        // x(t) flat at an end, and only a few x land where that matters.
        #expect(excused < 1_000, "\(excused) answers needed the stationary bound")
    }

    @Test("the fast table is within 1e-7 of precise between its nodes, or within the stationary spread")
    func tableMatchesPrecise() {
        // Off-grid x (an irrational step), so that interpolation is tested
        // between nodes and not at them, on curves with flat ends included.
        let xs = (0 ..< 2_000).map { (Double($0) * 0.000_497_9 + 1e-4).truncatingRemainder(dividingBy: 1) }
        var worst = 0.0
        var fellBack = 0
        // 50 curves (150 with KINETICS_LONG_TESTS).
        for curve in Self.curves(count: sized(50, full: 150), seed: 9) + [.easeIn, .easeOut, .easeInEaseOut] {
            let table = BezierTable(curve)
            fellBack += table.uncertifiedSegments
            for x in xs {
                let error = abs(table.solve(x) - curve.solvePrecise(x))
                if error > 1e-7 {
                    let spread = curve.ySpread(atX: x, parameter: curve.parameterPrecise(x))
                    #expect(error <= spread, "\(curve) at \(x): \(error) > \(spread)")
                } else {
                    worst = max(worst, error)
                }
            }
            #expect(table.solve(0) == 0 && table.solve(1) == 1 && table.solve(-1) == 0 && table.solve(2) == 1)
            #expect(table.solve(.nan).isNaN)
        }
        // The certified interpolant is far inside the tolerance.
        #expect(worst < 1e-7)
        #expect(fellBack > 0, "flat ends should fall back to iteration somewhere")
    }

    /// Expects `y` within 1e-7 of the precise solver at `x`, or within the
    /// stationary spread of plain doubles there (``UnitBezier/ySpread(atX:parameter:)``).
    static func expectNearPrecise(_ curve: UnitBezier, _ x: Double, _ y: Double, _ context: String) {
        let error = abs(y - curve.solvePrecise(x))
        guard error > 1e-7 else { return }
        let spread = curve.ySpread(atX: x, parameter: curve.parameterPrecise(x))
        #expect(error <= spread, "\(curve), \(context), at \(x): \(error) > \(spread)")
    }

    @Test("a table's solve(_:into:) equals solve(_:) bit for bit, in place too, with the ends, NaN and flat segments")
    func tableSolvesMany() {
        var generator = SeededGenerator(seed: 21)
        var xs = (0 ..< 999).map { _ in Double.random(in: 0 ... 1, using: &generator) }
        // Nodes (the tie of the segment rounding), the last x below 1, the
        // ends, outside, NaN, infinities and subnormals, each paired with
        // an ordinary x in both lanes of a step.
        let special: [Double] = [
            0, 1, 0.5, 0.25, 1.0 / 256, 255.0 / 256, 1.0.nextDown, 0.0.nextUp, -0.0, -1, 2, .nan, .infinity,
            -.infinity, 1e-300, 0.999_999_999,
            // Where the sum that finds the segment rounds: to 1 (x near 0),
            // to 1 + step (x near 1), or across a segment's end.
            0x1p-42, 0x1p-41, 1 - 0x1p-42, 1 - 0x1p-40, 0.5.nextDown, 0.5 - 0x1p-45, 0.5 + 0x1p-45, 3.0 / 256 - 0x1p-44,
        ]
        for value in special { xs += [value, 0.3, 0.7, value] }
        // Tables with 256 segments, with 3, and with flat ends left to iteration.
        let cases: [(UnitBezier, Int)] =
            Self.curves(count: 40, seed: 22).map { ($0, 256) } + [
                (.easeInEaseOut, 3), (try! UnitBezier(x1: 0, y1: 0.5, x2: 1, y2: 0.5), 16),
            ]
        for (curve, segments) in cases {
            let table = BezierTable(curve, segments: segments)
            let one = xs.map(table.solve)
            var many = [Double](repeating: 0, count: xs.count)
            let wrote = xs.withUnsafeBufferPointer { input in
                many.withUnsafeMutableBufferPointer { table.solve(input, into: $0) }
            }
            #expect(wrote == xs.count)
            #expect(zip(one, many).allSatisfy { $0.bitPattern == $1.bitPattern }, "\(curve), \(segments) segments")
            // xs has an odd count (its last x goes alone); in place, an even one.
            var inPlace = Array(xs.dropLast())
            _ = inPlace.withUnsafeMutableBufferPointer { table.solve(UnsafeBufferPointer($0), into: $0) }
            #expect(zip(one, inPlace).allSatisfy { $0.bitPattern == $1.bitPattern }, "\(curve) in place")
        }
        #expect(abs(BezierTable(.easeInEaseOut, segments: 3).solve(1.0.nextDown) - 1) < 1e-7)
        // A shorter output gets the first values and says how many; nothing
        // past it is written.
        var short = [Double](repeating: -7, count: 4)
        let written = xs.withUnsafeBufferPointer { input in
            short.withUnsafeMutableBufferPointer {
                BezierTable(.easeOut).solve(input, into: UnsafeMutableBufferPointer(rebasing: $0[0 ..< 3]))
            }
        }
        #expect(
            written == 3 && short[3] == -7 && short[0 ..< 3].elementsEqual(xs[0 ..< 3].map(BezierTable(.easeOut).solve))
        )
        // The slow path finds the segment of x < 1 as floor(x·segments) with
        // no clamp: in doubles x·n < n for every x < 1 (n - x·n is at least
        // n·2^-53, more than half an ulp of n unless n is a power of two,
        // where the product is exact).
        #expect((1 ... 1 << 20).allSatisfy { 1.0.nextDown * Double($0) < Double($0) })
    }

    @Test(
        "tables of 1 to 4,096 segments: within 1e-7 of precise (or the stationary spread), many at once equal to one at a time"
    )
    func tableSizes() {
        var generator = SeededGenerator(seed: 41)
        // 4 random curves (12 with KINETICS_LONG_TESTS) and the named ones.
        let curves = Self.curves(count: sized(4, full: 12), seed: 42) + [.easeIn, .easeOut, .easeInEaseOut, .default]
        for segments in [1, 2, 3, 7, 100, 1_000, 4_096] {
            for curve in curves {
                let table = BezierTable(curve, segments: segments)
                let n = Double(segments)
                // Random x, and x next to segment ends (where the rounded sum
                // may pick the neighbour), near 0 and near 1.
                var xs = (0 ..< 300).map { _ in Double.random(in: 0 ... 1, using: &generator) }
                for _ in 0 ..< 100 {
                    let end = Double(Int.random(in: 1 ... max(1, segments - 1), using: &generator)) / n
                    xs.append(end + Double.random(in: -1e-12 ... 1e-12, using: &generator))
                }
                xs += [1e-300, 0x1p-40, 1e-9, 1 - 1e-9, 1 - 0x1p-45, 1.0.nextDown]
                let one = xs.map(table.solve)
                var many = [Double](repeating: 0, count: xs.count)
                _ = xs.withUnsafeBufferPointer { input in
                    many.withUnsafeMutableBufferPointer { table.solve(input, into: $0) }
                }
                #expect(zip(one, many).allSatisfy { $0.bitPattern == $1.bitPattern }, "\(curve), \(segments) segments")
                for (x, y) in zip(xs, one) where (0 ... 1).contains(x) {
                    Self.expectNearPrecise(curve, x, y, "\(segments) segments")
                }
            }
        }
    }

    @Test(
        "x in the split segments at flat ends, whose first pieces are read from the sum's bits, within 1e-7 of precise")
    func tableSplitSegments() throws {
        // Flat ends (x1 = 0 or x2 = 1) are where segments are split; steep
        // y there makes a piece's slope large enough that the bits' 2^-28
        // in u would cost more than the tolerance, and the table must split
        // such a piece again.
        let steep = try [(0, 8, 0.58, 1), (0.42, 0, 1, -7), (0, -20, 1, 30), (0, 0, 0.001, 1), (0, 300, 1, -300)]
            .map { try UnitBezier(x1: $0.0, y1: $0.1, x2: $0.2, y2: $0.3) }
        var worst = 0.0
        for curve in Self.curves(count: sized(30, full: 100), seed: 41) + steep {
            let table = BezierTable(curve)
            let scale = max(1, abs(curve.y1), abs(curve.y2))
            let width = 1 / Double(table.segments)
            // The first and last two segments, 1,024 x each, off the pieces' grid.
            for start in [0, width, 1 - 2 * width, 1 - width] {
                for step in 0 ..< 1_024 {
                    let x = start + (Double(step) + 0.318) / 1_024 * width
                    let error = abs(table.solve(x) - curve.solvePrecise(x))
                    if error <= 1e-7 * scale {
                        worst = max(worst, error / scale)
                    } else {
                        let spread = curve.ySpread(atX: x, parameter: curve.parameterPrecise(x))
                        #expect(error <= spread, "\(curve) at \(x): \(error) > \(spread)")
                    }
                }
            }
        }
        // Certified pieces, the bits' rounding included, are far inside.
        #expect(worst > 0 && worst < 2e-8, "\(worst)")
    }

    @Test("x a hair from a segment's end, where the rounded search may pick the neighbour, even next to a flat point")
    func tableSegmentEnds() throws {
        // x(t) = 3t(1 - t)² + t³ is flat at t = 1/2, x = 1/2: a segment's end
        // for every even number of segments, where y(x) has an infinite slope.
        let flat = try UnitBezier(x1: 1, y1: 0, x2: 0, y2: 1)
        for (curve, segments) in [(flat, 256), (flat, 2), (flat, 3)]
            + Self.curves(count: 30, seed: 31).map({ ($0, 256) })
        {
            let table = BezierTable(curve, segments: segments)
            let n = Double(segments)
            for end in stride(from: 1.0, to: n, by: max(1, (n / 16).rounded(.down))) {
                for offset in [-0x1p-30, -0x1p-36, -0x1p-42, -0x1p-48, 0, 0x1p-48, 0x1p-42, 0x1p-36, 0x1p-30] {
                    let x = end / n + offset
                    Self.expectNearPrecise(curve, x, table.solve(x), "\(segments) segments")
                }
            }
        }
    }

    @Test("Chromium's reference values for (0.25, 0, 0.75, 1)")
    func chromiumValues() throws {
        // gfx::CubicBezier's unit tests: Solve(0.05) = 0.01136, Solve(0.95) = 0.98863,
        // cut to 5 digits (the curve is symmetric: the second is 1 - 0.0113640).
        let curve = try UnitBezier(x1: 0.25, y1: 0, x2: 0.75, y2: 1)
        for method in [BezierMethod.precise, .fast] {
            #expect(abs(curve.solve(0.05, method: method) - 0.01136) <= 1e-5)
            #expect(abs(curve.solve(0.95, method: method) - 0.98863) <= 1e-5)
        }
    }

    // MARK: Edges and validation

    @Test("ends, out-of-range x and NaN")
    func edges() {
        for curve in Self.curves(count: 20, seed: 5) {
            for method in [BezierMethod.precise, .fast] {
                #expect(curve.solve(0, method: method) == 0)
                #expect(curve.solve(1, method: method) == 1)
                #expect(curve.solve(-0.5, method: method) == 0)
                #expect(curve.solve(1.5, method: method) == 1)
                #expect(curve.solve(.infinity, method: method) == 1)
                #expect(curve.solve(.nan, method: method).isNaN)
            }
            let plain = PlainWebKitBezier(curve.x1, curve.y1, curve.x2, curve.y2)
            #expect(curve.solveWebKit(-0.5, epsilon: 1.0 / 400).bitPattern == plain.solve(-0.5, 1.0 / 400).bitPattern)
        }
    }

    @Test("control points: x in [0, 1], y finite")
    func validation() {
        for (x1, y1, x2, y2, name) in [
            (1.1, 0.0, 0.5, 1.0, "x1"), (-0.1, 0.0, 0.5, 1.0, "x1"), (0.5, 0.0, 2.0, 1.0, "x2"),
            (0.5, Double.nan, 0.5, 1.0, "y1"), (0.5, 0.0, 0.5, Double.infinity, "y2"),
            (Double.nan, 0.0, 0.5, 1.0, "x1"),
        ] {
            let error = #expect(throws: ParameterError.self) { try UnitBezier(x1: x1, y1: y1, x2: x2, y2: y2) }
            #expect(error?.parameter == name)
        }
        #expect((try? UnitBezier(x1: 0, y1: -5, x2: 1, y2: 7)) != nil)
    }

    @Test("y control points beyond ±1e6 are refused; tables of hostile curves build in bounded work (found by fuzzing)")
    func hostileCurves() throws {
        // |y| near 1e308 overflowed the power-form coefficients.
        let error = #expect(throws: ParameterError.self) { try UnitBezier(x1: 0.34, y1: -5.9e307, x2: 0, y2: 0) }
        #expect(error?.description == "y1 must be in [-1000000.0, 1000000.0], got -5.9e+307")
        // x(t) = t³ and a huge y1: y(x) is too rough for cubic pieces at
        // 1e-8 of its scale anywhere; the table used to split every segment
        // to the deepest level. Now at most `segments` are split, and what
        // stays uncertified is solved by iteration, still within 1e-7 of the
        // y scale.
        let curve = try UnitBezier(x1: 0, y1: -1e6, x2: Double(bitPattern: 63) /* 3.1e-322, subnormal */, y2: 1.0077)
        let table = BezierTable(curve, segments: 16)
        #expect(table.uncertifiedSegments <= 16 * 17, "\(table.uncertifiedSegments)")
        for x in stride(from: 0.0001, through: 0.9999, by: 0.0123) {
            #expect(abs(table.solve(x) - curve.solvePrecise(x)) <= 1e-7 * 1e6, "x = \(x)")
        }
    }

    @Test("the named curves have Core Animation's control points")
    func namedCurves() {
        let points = UnitBezier.named.map { [$0.curve.x1, $0.curve.y1, $0.curve.x2, $0.curve.y2] }
        #expect(
            points == [[0, 0, 1, 1], [0.25, 0.1, 0.25, 1], [0.42, 0, 1, 1], [0, 0, 0.58, 1], [0.42, 0, 0.58, 1]])
    }
}

@Suite("Timing functions")
struct TimingFunctionTests {
    @Test("CSS steps(): the specification's examples")
    func steps() throws {
        let end = try TimingFunction.steps(4, .jumpEnd)
        #expect([0, 0.24, 0.25, 0.3, 0.99, 1].map { end.transform($0) } == [0, 0, 0.25, 0.25, 0.75, 1])
        let start = try TimingFunction.steps(4, .jumpStart)
        #expect([0, 0.1, 0.25, 0.99, 1].map { start.transform($0) } == [0.25, 0.25, 0.5, 1, 1])
        let none = try TimingFunction.steps(5, .jumpNone)
        #expect([0, 0.19, 0.2, 0.5, 0.99, 1].map { none.transform($0) } == [0, 0, 0.25, 0.5, 1, 1])
        let both = try TimingFunction.steps(3, .jumpBoth)
        #expect([0, 0.33, 0.34, 0.99, 1].map { both.transform($0) } == [0.25, 0.25, 0.5, 0.75, 1])
        #expect(throws: ParameterError.self) { try TimingFunction.steps(1, .jumpNone) }
        #expect(throws: ParameterError.self) { try TimingFunction.steps(0) }
    }

    @Test("linear and the named beziers")
    func curves() throws {
        #expect(TimingFunction.linear.transform(0.37) == 0.37)
        #expect(TimingFunction.easeInEaseOut.transform(0.5) == UnitBezier.easeInEaseOut.solvePrecise(0.5))
        #expect(TimingFunction.default.description == "cubic-bezier(0.25, 0.1, 0.25, 1.0)")
        let steps = try TimingFunction.steps(3, .jumpBoth)
        #expect(steps.description == "steps(3, jump-both)")
        let webkit = TimingFunction.default.transform(0.3, method: .webkit, epsilon: 1.0 / 400)
        #expect(webkit == UnitBezier.default.solveWebKit(0.3, epsilon: 1.0 / 400))
    }
}
