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
    /// Chromium's `gfx::CubicBezier`, ε = 1e-7 in x; WebKit's `UnitBezier`
    /// today has the same table, steps and tolerance.
    case chromium
    /// WebKit's `UnitBezier::solve` at a tolerance in x of `1/(1000·duration)`
    /// (Pop's choice) for `duration` seconds.
    case webkitForDuration(Double)
    /// WebKit's solver at a given tolerance in x.
    case webkit(Double)
    /// Kinetics' `fast` table.
    case kineticsFast
    /// Firefox's SMIL key splines (`SMILKeySpline`): an 11-sample table,
    /// 4 Newton steps where x'(t) ≥ 0.02, else 10 halvings to 1e-7.
    case firefoxKeySpline
    /// The `bezier-easing` package (npm): Firefox's key-spline scheme with
    /// samples in `float32` and Newton where x'(t) ≥ 0.001.
    case bezierEasing
    /// Servo's `style::bezier`: WebKit's solver on `f32` control points at
    /// a tolerance in x (Firefox's CSS easing at 1e-7, the one its answers
    /// match; the others name no engine).
    case servo(Double)
    /// Flutter's `Cubic`: bisection to 0.001 in x.
    case flutter
    /// Android's `PathInterpolator`: the curve flattened to within 0.002,
    /// then interpolated, in `float`.
    case android
    /// GTK's CSS `cubic-bezier()`: bisection from t = x to 1e-5 in x.
    case gtk
    /// Qt's `QEasingCurve` bezier spline: Cardano's formula with Qt's
    /// approximate cube root and cosines.
    case qt

    /// The tolerances in x tried for WebKit's and Servo's solvers.
    static let tolerances = [1e-2, 1e-3, 1e-4, 1e-5, 1e-6, 1e-7, 1e-8]

    /// Every candidate tried.
    public static let all: [BezierCandidate] =
        [.exact, .chromium, .kineticsFast]
        + [0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.5, 0.6, 0.75, 1, 2, 5].map { .webkitForDuration($0) }
        + tolerances.map { .webkit($0) }
        + [.firefoxKeySpline, .bezierEasing, .flutter, .android, .gtk, .qt] + tolerances.map { .servo($0) }

    public var description: String {
        switch self {
        case .exact: "exact to rounding"
        case .chromium: "Chromium's gfx::CubicBezier (11-sample table, 4 Newton steps, bisection; ε = 1e-7 in x)"
        case .webkitForDuration(let duration): "WebKit's UnitBezier at ε = 1/(1000·\(duration) s) in x"
        case .webkit(let epsilon): "WebKit's UnitBezier at ε = \(epsilon) in x"
        case .kineticsFast: "Kinetics' fast table (certified to 1e-8)"
        case .firefoxKeySpline:
            "Firefox's SMILKeySpline (11-sample table, 4 Newton steps where x'(t) ≥ 0.02, else 10 halvings to 1e-7)"
        case .bezierEasing:
            "bezier-easing's solver (11 float32 samples, 4 Newton steps where x'(t) ≥ 0.001, else 10 halvings to 1e-7)"
        case .servo(let epsilon): "Servo's style::bezier (WebKit's solver on f32 control points) at ε = \(epsilon) in x"
        case .flutter: "Flutter's Cubic (bisection to 0.001 in x)"
        case .android: "Android's PathInterpolator (the curve flattened to within 0.002, interpolated, in float)"
        case .gtk: "GTK's CSS cubic-bezier (bisection from t = x to 1e-5 in x)"
        case .qt: "Qt's QEasingCurve bezier spline (Cardano's formula with approximate cube root and cosines)"
        }
    }

    /// The engine known to solve this way, where one is.
    public var engine: String? {
        switch self {
        case .chromium: "Chromium 156 and WebKitGTK 2.50, cubic-bezier() easing"
        case .webkitForDuration: "Pop"
        case .firefoxKeySpline: "Firefox, SVG keySplines (SMIL; Gecko source of 2025)"
        case .bezierEasing: "bezier-easing 2 (npm) and its ports"
        case .servo(let epsilon) where epsilon == 1e-7: "Firefox 153 ESR, CSS and Web Animations easing"
        case .flutter: "Flutter 1 to 3, Cubic curves"
        case .android: "Android 5 (API 21) on, PathInterpolator"
        case .gtk: "GTK 3 and 4 (4.8.3 recorded), CSS transitions and animations"
        case .qt: "Qt 5 and 6 (6.12 recorded), QEasingCurve::BezierSpline"
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
        case .firefoxKeySpline:
            let solver = KeySplineBezier(curve, .firefox)
            return xs.map(solver.solve)
        case .bezierEasing:
            let solver = KeySplineBezier(curve, .bezierEasing)
            return xs.map(solver.solve)
        case .servo(let epsilon):
            let solver = ServoBezier(curve, epsilon: epsilon)
            return xs.map(solver.solve)
        case .flutter: return xs.map(FlutterCubic(curve: curve).solve)
        case .android: return xs.map(AndroidPathInterpolator(curve).solve)
        case .gtk: return xs.map(GTKBezier(curve: curve).solve)
        case .qt: return xs.map(QtBezier(curve).solve)
        }
    }
}
