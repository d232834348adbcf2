import Kinetics

/// Chromium's cubic-bezier solver (`gfx::CubicBezier`, which Blink's
/// `cubic-bezier()` easing uses), written from its documented behaviour: a
/// first guess interpolated in a table of x(t) at 11 evenly spaced t, at
/// most 4 Newton steps (stopping when |x(t) − x| < ε or |x'(t)| < 1e-7), then
/// bisection inside the table's bracket, ε = 1e-7 in x whatever the
/// animation's duration. Coefficients and Horner's rule as WebKit's.
struct ChromiumBezier {
    let curve: UnitBezier
    private let samples: [Double]
    static let epsilon = 1e-7

    init(_ curve: UnitBezier) {
        self.curve = curve
        samples = (0 ... 10).map { curve.x(at: Double($0) * 0.1) }
    }

    /// y at `x` in [0, 1].
    func solve(_ x: Double) -> Double { curve.y(at: parameter(x)) }

    func parameter(_ x: Double) -> Double {
        let epsilon = Self.epsilon
        var t0 = 0.0
        var t1 = 0.0
        var t2 = x
        let spacing = 0.1
        for index in 1 ... 10 where x < samples[index] {
            t1 = spacing * Double(index)
            t0 = t1 - spacing
            t2 = t0 + (t1 - t0) * (x - samples[index - 1]) / (samples[index] - samples[index - 1])
            break
        }
        var x2 = 0.0
        for _ in 0 ..< 4 {
            x2 = curve.x(at: t2) - x
            if abs(x2) < epsilon { return t2 }
            let d2 = curve.dxdt(at: t2)
            if abs(d2) < 1e-7 { break }
            t2 -= x2 / d2
        }
        if abs(x2) < epsilon { return t2 }
        // Bisection inside the table's bracket; a halving that no longer
        // moves anything ends it (at most about 1,100 halvings).
        var steps = 0
        while t0 < t1 && steps < UnitBezier.webKitBisectionCap {
            x2 = curve.x(at: t2)
            if abs(x2 - x) < epsilon { return t2 }
            if x > x2 { t0 = t2 } else { t1 = t2 }
            let next = (t1 + t0) * 0.5
            if next == t2 { break }
            t2 = next
            steps += 1
        }
        return t2
    }
}

/// A way engines solve a timing curve, to replay at a trace's x.
public enum BezierCandidate: Hashable, Sendable, CustomStringConvertible {
    /// Exact to rounding (Kinetics' `precise`).
    case exact
    /// Chromium's `gfx::CubicBezier`, ε = 1e-7 in x.
    case chromium
    /// WebKit's `UnitBezier::solve` at a tolerance in x of `1/(1000·duration)`
    /// (Pop's choice) for `duration` seconds.
    case webkitForDuration(Double)
    /// WebKit's solver at a given tolerance in x.
    case webkit(Double)
    /// Kinetics' `fast` table.
    case kineticsFast

    /// Every candidate tried.
    public static let all: [BezierCandidate] =
        [.exact, .chromium, .kineticsFast]
        + [0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.5, 0.6, 0.75, 1, 2, 5].map { .webkitForDuration($0) }
        + [1e-2, 1e-3, 1e-4, 1e-5, 1e-6, 1e-7, 1e-8].map { .webkit($0) }

    public var description: String {
        switch self {
        case .exact: "exact to rounding"
        case .chromium: "Chromium's gfx::CubicBezier (11-sample table, 4 Newton steps, bisection; ε = 1e-7 in x)"
        case .webkitForDuration(let duration): "WebKit's UnitBezier at ε = 1/(1000·\(duration) s) in x"
        case .webkit(let epsilon): "WebKit's UnitBezier at ε = \(epsilon) in x"
        case .kineticsFast: "Kinetics' fast table (certified to 1e-8)"
        }
    }

    /// The engine known to solve this way, where one is.
    public var engine: String? {
        switch self {
        case .chromium: "Chromium, Blink's cubic-bezier() easing"
        case .webkitForDuration: "Pop"
        default: nil
        }
    }

    /// y at each x.
    public func values(_ curve: UnitBezier, xs: [Double]) -> [Double] {
        switch self {
        case .exact: return xs.map(curve.solvePrecise)
        case .chromium:
            let solver = ChromiumBezier(curve)
            return xs.map { $0 <= 0 ? 0 : $0 >= 1 ? 1 : solver.solve($0) }
        case .webkitForDuration(let duration): return xs.map { curve.solveWebKit($0, epsilon: 1 / (1000 * duration)) }
        case .webkit(let epsilon): return xs.map { curve.solveWebKit($0, epsilon: epsilon) }
        case .kineticsFast:
            let table = BezierTable(curve)
            return xs.map { table.solve($0) }
        }
    }
}
