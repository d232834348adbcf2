/// How a unit bezier is solved for y given x.
public enum BezierMethod: String, CaseIterable, Sendable, Codable {
    /// WebKit's `UnitBezier::solve` as Pop ships it: up to 8 Newton steps from
    /// `t = x`, then bisection, both stopping when `|x(t) - x| < epsilon`.
    /// The tolerance is on x, so steep curves get large errors in y.
    case webkit
    /// Bracketed Newton on a residual evaluated in double-double arithmetic:
    /// y within 1e-12 of the exact answer (see ``UnitBezier/solvePrecise(_:)``).
    case precise
    /// y within 1e-7, for the hot path. One evaluation seeds a safeguarded
    /// Newton iteration from a 16-segment table (``UnitBezier/solveFast(_:)``);
    /// the animator, which evaluates a curve many times, interpolates a
    /// per-curve ``BezierTable`` instead (certified to 1e-8, falling back on
    /// the iteration where x(t) is flat). The two agree to about 1e-8.
    case fast
}

/// A cubic bezier timing curve from (0, 0) to (1, 1) with control points
/// (x1, y1) and (x2, y2), as in CSS `cubic-bezier()` and Core Animation.
///
/// The curve is `x(t) = a_x·t³ + b_x·t² + c_x·t` and likewise for y, with
/// `c = 3·p1`, `b = 3(p2 - p1) - c`, `a = 1 - c - b` (WebKit's coefficients,
/// computed with the same operations). Solving means finding the y whose
/// parameter t has `x(t) = x`.
///
/// **Accepted values**: x1 and x2 in [0, 1] (so x(t) is monotone and every
/// x in [0, 1] has one answer); y1 and y2 any finite number.
public struct UnitBezier: Hashable, Sendable, CustomStringConvertible {
    /// The first control point's x, in [0, 1].
    public let x1: Double
    /// The first control point's y.
    public let y1: Double
    /// The second control point's x, in [0, 1].
    public let x2: Double
    /// The second control point's y.
    public let y2: Double

    /// The power-form coefficients of x(t) and y(t).
    @usableFromInline let polynomial: BezierPolynomial
    /// x(t) at t = i/16 for i in 0..<16, the seed table of the `fast`
    /// method; ``seedEnd`` is its 17th entry. (Not an `InlineArray<17,
    /// Double>`: that type needs macOS and iOS 26.)
    @usableFromInline let seed: SIMD16<Double>
    /// x(1), the seed table's last entry.
    @usableFromInline let seedEnd: Double

    /// The largest |y1| and |y2| accepted, 1e6: far beyond any timing
    /// function's overshoot, and far enough below overflow that every
    /// solver's arithmetic (coefficients up to 6·|y|, slopes dy/dx up to
    /// |y'|/1e-9) stays finite. (Found by fuzzing: with |y| near 1e308 the
    /// power-form coefficients overflowed and y came out infinite.)
    public static let maximumY = 1e6

    /// Creates the curve with control points (x1, y1) and (x2, y2).
    ///
    /// - Throws: ``ParameterError`` naming `x1` or `x2` when it is outside
    ///   [0, 1], or `y1` or `y2` when it is not finite or its magnitude is
    ///   over ``maximumY``.
    public init(x1: Double, y1: Double, x2: Double, y2: Double) throws(ParameterError) {
        try Check.within(x1, 0 ... 1, "x1")
        try Check.within(y1, -Self.maximumY ... Self.maximumY, "y1")
        try Check.within(x2, 0 ... 1, "x2")
        try Check.within(y2, -Self.maximumY ... Self.maximumY, "y2")
        self.init(unchecked: x1, y1, x2, y2)
    }

    private init(unchecked x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) {
        self.x1 = x1
        self.y1 = y1
        self.x2 = x2
        self.y2 = y2
        let polynomial = BezierPolynomial(x1: x1, y1: y1, x2: x2, y2: y2)
        self.polynomial = polynomial
        var seed = SIMD16<Double>()
        for index in seed.indices { seed[index] = polynomial.x(at: Double(index) / 16) }
        self.seed = seed
        seedEnd = polynomial.x(at: 1)
    }

    /// `linear`: (0, 0, 1, 1).
    public static let linear = UnitBezier(unchecked: 0, 0, 1, 1)
    /// Core Animation's default curve: (0.25, 0.1, 0.25, 1).
    public static let `default` = UnitBezier(unchecked: 0.25, 0.1, 0.25, 1)
    /// `easeIn`: (0.42, 0, 1, 1).
    public static let easeIn = UnitBezier(unchecked: 0.42, 0, 1, 1)
    /// `easeOut`: (0, 0, 0.58, 1).
    public static let easeOut = UnitBezier(unchecked: 0, 0, 0.58, 1)
    /// `easeInEaseOut`: (0.42, 0, 0.58, 1).
    public static let easeInEaseOut = UnitBezier(unchecked: 0.42, 0, 0.58, 1)

    /// The named curves by their command-line names: `linear`, `default`,
    /// `ease-in`, `ease-out`, `ease-in-out`.
    public static let named: [(name: String, curve: UnitBezier)] = [
        ("linear", .linear), ("default", .default), ("ease-in", .easeIn),
        ("ease-out", .easeOut), ("ease-in-out", .easeInEaseOut),
    ]

    /// `cubic-bezier(x1, y1, x2, y2)`.
    public var description: String { "cubic-bezier(\(x1), \(y1), \(x2), \(y2))" }

    /// Two curves are equal when their control points are.
    public static func == (lhs: UnitBezier, rhs: UnitBezier) -> Bool {
        lhs.x1 == rhs.x1 && lhs.y1 == rhs.y1 && lhs.x2 == rhs.x2 && lhs.y2 == rhs.y2
    }

    /// Hashes the control points.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(x1)
        hasher.combine(y1)
        hasher.combine(x2)
        hasher.combine(y2)
    }

    // MARK: Evaluation

    /// x(t) by Horner's rule.
    @inlinable
    public func x(at t: Double) -> Double { polynomial.x(at: t) }

    /// y(t) by Horner's rule.
    @inlinable
    public func y(at t: Double) -> Double { polynomial.y(at: t) }

    /// dx/dt at t.
    @inlinable
    public func dxdt(at t: Double) -> Double { polynomial.dxdt(at: t) }

    /// dy/dt at t.
    @inlinable
    public func dydt(at t: Double) -> Double { polynomial.dydt(at: t) }

    /// Solves for y at `x` with the given method; `epsilon` is WebKit's
    /// x-tolerance and matters only for ``BezierMethod/webkit`` (Pop uses
    /// `1/(1000·duration)`, 1/400 for its default 0.4 s).
    @inlinable
    public func solve(_ x: Double, method: BezierMethod, epsilon: Double = 1.0 / 400) -> Double {
        switch method {
        case .webkit: solveWebKit(x, epsilon: epsilon)
        case .precise: solvePrecise(x)
        case .fast: solveFast(x)
        }
    }

    /// The parameter t whose x(t) is `x`, with the given method.
    public func parameter(forX x: Double, method: BezierMethod, epsilon: Double = 1.0 / 400) -> Double {
        switch method {
        case .webkit: parameterWebKit(x, epsilon: epsilon)
        case .precise: parameterPrecise(x)
        case .fast: parameterFast(x)
        }
    }
}

// MARK: - WebKit

extension UnitBezier {
    /// The most bisection steps ``parameterWebKit(_:epsilon:)`` takes. Each
    /// step halves [t0, t1] ⊂ [0, 1]; after at most 1,075 halvings the
    /// interval is down to adjacent doubles and the next step changes nothing,
    /// so for finite input the cap is never what stops the loop first.
    public static let webKitBisectionCap = 1_100

    /// WebKit's `UnitBezier::solve(x, epsilon)`, as shipped in Pop.
    ///
    /// Results equal WebKit's for every input on which WebKit returns. Where
    /// WebKit loops for ever (`epsilon` too small for the rounding of x(t),
    /// zero, or NaN: its bisection reaches a state that no longer changes),
    /// this returns that state's t instead; see ``webKitBisectionCap``.
    /// NaN `x` gives NaN (as in WebKit); x outside [0, 1] follows WebKit too
    /// (Newton may find the cubic's extension, else t clamps to 0 or 1).
    @inlinable
    public func solveWebKit(_ x: Double, epsilon: Double) -> Double {
        y(at: parameterWebKit(x, epsilon: epsilon))
    }

    /// WebKit's `solveCurveX`: the parameter t that ``solveWebKit(_:epsilon:)`` uses.
    @inlinable
    public func parameterWebKit(_ x: Double, epsilon: Double) -> Double {
        var t2 = x
        for _ in 0 ..< 8 {
            let x2 = self.x(at: t2) - x
            if abs(x2) < epsilon { return t2 }
            let d2 = dxdt(at: t2)
            if abs(d2) < 1e-6 { break }
            t2 = t2 - x2 / d2
        }
        var t0 = 0.0
        var t1 = 1.0
        t2 = x
        if t2 < t0 { return t0 }
        if t2 > t1 { return t1 }
        var steps = 0
        while t0 < t1 && steps < Self.webKitBisectionCap {
            let x2 = self.x(at: t2)
            if abs(x2 - x) < epsilon { return t2 }
            let before = (t0, t1, t2)
            if x > x2 { t0 = t2 } else { t1 = t2 }
            t2 = (t1 - t0) * 0.5 + t0
            // A state that repeats is where WebKit would spin for ever.
            if before == (t0, t1, t2) { return t2 }
            steps += 1
        }
        return t2
    }
}
