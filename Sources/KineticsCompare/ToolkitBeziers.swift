import Kinetics

// Kinetics' replicas of the cubic-bezier solvers of the UI toolkits, each
// written from the toolkit's published source (named on each type, with its
// constants): what `compare` and verify's scheme row replay to name the
// solver behind a trace. A replica names a scheme; it never stands in for
// the toolkit in a verdict about it (the toolkits that run here are
// recorded, docs/peers.md).

/// The key-spline solver of Firefox's SMIL (`dom/smil/SMILKeySpline.cpp`,
/// which Gecko's CSS easing also used before Servo's took over), and of the
/// `bezier-easing` package (npm, 2.x), which follows it: x(t) sampled at 11
/// evenly spaced t; a first guess interpolated in the sample's interval;
/// then 4 Newton steps if x'(guess) reaches a minimum slope, the guess
/// itself if x'(guess) is 0, else at most 10 halvings of the interval
/// until |x(t) − x| ≤ 1e-7. Coefficients `A = 1 − 3·a2 + 3·a1`,
/// `B = 3·a2 − 6·a1`, `C = 3·a1`, evaluated afresh at each use, as there.
struct KeySplineBezier {
    /// Which of the two.
    enum Variant {
        /// Firefox: minimum slope 0.02, samples in doubles, t = 1 at x = 1.
        case firefox
        /// `bezier-easing`: minimum slope 0.001, samples in a `Float32Array`,
        /// y = x at x = 0 and 1.
        case bezierEasing
    }

    private let x1, y1, x2, y2: Double
    private let variant: Variant
    private let samples: [Double]
    private static let step = 1.0 / 10.0

    init(_ curve: UnitBezier, _ variant: Variant) {
        (x1, y1, x2, y2) = (curve.x1, curve.y1, curve.x2, curve.y2)
        self.variant = variant
        // Locals: the closure below cannot read `self` before it is whole.
        let (x1, x2) = (curve.x1, curve.x2)
        samples = (0 ... 10).map { index in
            let value = Self.bezier(Double(index) * Self.step, x1, x2)
            return variant == .bezierEasing ? Double(Float(value)) : value
        }
    }

    static func bezier(_ t: Double, _ a1: Double, _ a2: Double) -> Double {
        (((1.0 - 3.0 * a2 + 3.0 * a1) * t + (3.0 * a2 - 6.0 * a1)) * t + 3.0 * a1) * t
    }

    static func slope(_ t: Double, _ a1: Double, _ a2: Double) -> Double {
        3.0 * (1.0 - 3.0 * a2 + 3.0 * a1) * t * t + 2.0 * (3.0 * a2 - 6.0 * a1) * t + 3.0 * a1
    }

    /// y at `x` in [0, 1].
    func solve(_ x: Double) -> Double {
        if x1 == y1 && x2 == y2 { return x }
        if variant == .bezierEasing && (x == 0 || x == 1) { return x }
        return Self.bezier(parameter(x), y1, y2)
    }

    func parameter(_ x: Double) -> Double {
        if variant == .firefox && x == 1 { return 1 }
        var start = 0.0
        var index = 1
        while index != 10 && samples[index] <= x {
            start += Self.step
            index += 1
        }
        index -= 1
        let distance = (x - samples[index]) / (samples[index + 1] - samples[index])
        let guess = start + distance * Self.step
        let initialSlope = Self.slope(guess, x1, x2)
        if initialSlope >= (variant == .firefox ? 0.02 : 0.001) { return newton(x, guess) }
        if initialSlope == 0 { return guess }
        return halve(x, start, start + Self.step)
    }

    private func newton(_ x: Double, _ guess: Double) -> Double {
        var t = guess
        for _ in 0 ..< 4 {
            let slope = Self.slope(t, x1, x2)
            if slope == 0 { return t }
            t -= (Self.bezier(t, x1, x2) - x) / slope
        }
        return t
    }

    private func halve(_ x: Double, _ low: Double, _ high: Double) -> Double {
        var (low, high) = (low, high)
        var t = 0.0
        var halvings = 0
        repeat {
            t = low + (high - low) / 2.0
            let error = Self.bezier(t, x1, x2) - x
            if error > 0 { high = t } else { low = t }
            halvings += 1
            if !(abs(error) > 1e-7) { break }
        } while halvings < 10
        return t
    }
}

/// Firefox's CSS and Web Animations easing since Gecko moved it to Servo
/// (`servo/components/style/bezier.rs`, `Bezier::calculate_bezier_output`):
/// WebKit's `UnitBezier` solver (8 Newton steps from t = x, stopping when
/// |x(t) − x| < ε or |x'(t)| < 1e-6; then bisection of [0, 1]) on control
/// points stored as `f32` (CSS numbers), with y = x for a linear curve and
/// exact ends at x = 0 and 1.
struct ServoBezier {
    private let curve: UnitBezier
    private let linear: Bool
    let epsilon: Double

    init(_ curve: UnitBezier, epsilon: Double) {
        let (x1, y1, x2, y2) = (Float(curve.x1), Float(curve.y1), Float(curve.x2), Float(curve.y2))
        linear = x1 == y1 && x2 == y2
        // A control x in [0, 1] stays there when rounded to `f32`.
        self.curve = (try? UnitBezier(x1: Double(x1), y1: Double(y1), x2: Double(x2), y2: Double(y2))) ?? curve
        self.epsilon = epsilon
    }

    /// y at `x` in [0, 1].
    func solve(_ x: Double) -> Double {
        if linear { return x }
        if x == 0 || x == 1 { return x }
        return curve.y(at: parameter(x))
    }

    func parameter(_ x: Double) -> Double {
        var t = x
        for _ in 0 ..< 8 {
            let x2 = curve.x(at: t)
            if abs(x2 - x) < epsilon { return t }
            let slope = curve.dxdt(at: t)
            if abs(slope) < 1e-6 { break }
            t -= (x2 - x) / slope
        }
        var (low, high) = (0.0, 1.0)
        t = x
        // Servo halves until the bracket closes; a halving that moves
        // nothing would repeat for ever, so it ends the search here.
        for _ in 0 ..< UnitBezier.webKitBisectionCap where low < high {
            let x2 = curve.x(at: t)
            if abs(x2 - x) < epsilon { return t }
            if x > x2 { low = t } else { high = t }
            let next = (high - low) / 2.0 + low
            if next == t { break }
            t = next
        }
        return t
    }
}

/// Flutter's `Cubic` curve (`packages/flutter/lib/src/animation/curves.dart`):
/// bisection of [0, 1] on x(t) in Bernstein form,
/// `3a(1−m)²m + 3c(1−m)m² + m³`, until |x − x(m)| < 0.001
/// (`_cubicErrorBound`), then y at that m; `Curve.transform` returns x
/// itself at 0 and 1.
struct FlutterCubic {
    /// Its control points: (a, b) and (c, d) in Flutter's names.
    let curve: UnitBezier
    static let errorBound = 0.001

    static func evaluate(_ p1: Double, _ p2: Double, _ m: Double) -> Double {
        3 * p1 * (1 - m) * (1 - m) * m + 3 * p2 * (1 - m) * m * m + m * m * m
    }

    /// y at `x` in [0, 1].
    func solve(_ x: Double) -> Double {
        if x == 0 || x == 1 { return x }
        var (start, end) = (0.0, 1.0)
        // Flutter loops until the bound is met; x(m) is continuous and
        // monotone for control x in [0, 1], so it is met long before the
        // bracket stops shrinking, where this replica stops.
        var midpoint = 0.5
        for _ in 0 ..< 1_100 {
            midpoint = (start + end) / 2
            let estimate = Self.evaluate(curve.x1, curve.x2, midpoint)
            if abs(x - estimate) < Self.errorBound { break }
            if estimate < x { start = midpoint } else { end = midpoint }
        }
        return Self.evaluate(curve.y1, curve.y2, midpoint)
    }
}

/// GTK's CSS `cubic-bezier()` easing (`gtk/gtkcsseasevalue.c`,
/// `_gtk_css_ease_value_transform`, GTK 3 and 4): bisection from t = x
/// (not the bracket's middle) until |x(t) − x| < 1e-5, x(t) and y(t) by
/// Horner's rule as written there; 0 at x ≤ 0 and 1 at x ≥ 1.
struct GTKBezier {
    let curve: UnitBezier
    static let epsilon = 0.00001

    static func polynomial(_ t: Double, _ p1: Double, _ p2: Double) -> Double {
        (((1.0 + 3 * p1 - 3 * p2) * t + -6 * p1 + 3 * p2) * t + 3 * p1) * t
    }

    /// y at `x`.
    func solve(_ x: Double) -> Double {
        if x <= 0 { return 0 }
        if x >= 1 { return 1 }
        var (low, high, t) = (0.0, 1.0, x)
        for _ in 0 ..< 1_100 where low < high {
            let sample = Self.polynomial(t, curve.x1, curve.x2)
            if abs(sample - x) < Self.epsilon { break }
            if x > sample { low = t } else { high = t }
            let next = (high + low) * 0.5
            if next == t { break }
            t = next
        }
        return Self.polynomial(t, curve.y1, curve.y2)
    }
}
