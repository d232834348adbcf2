import Foundation
import Kinetics

/// Android's `PathInterpolator` (`core/java/android/view/animation/
/// PathInterpolator.java` with `Path.approximate`, `core/jni/android/
/// graphics/Path.cpp`, API 21 on): the curve, control points in `float`,
/// flattened once into points by halving t until the curve's midpoint lies
/// within 0.002 of the chord's (and, until an inflection is found, the
/// quarter point too); then y at x by binary search over the points' x and
/// linear interpolation, all in `float`. 0 at x ≤ 0 and 1 at x ≥ 1. A curve
/// whose flattened x goes back anywhere is refused by Android
/// (`IllegalArgumentException`): the replica then answers NaN.
struct AndroidPathInterpolator {
    private var xs: [Float] = []
    private var ys: [Float] = []
    private var refused = false
    static let precision: Float = 0.002

    init(_ curve: UnitBezier) {
        let control = [
            SIMD2<Float>(0, 0), SIMD2(Float(curve.x1), Float(curve.y1)), SIMD2(Float(curve.x2), Float(curve.y2)),
            SIMD2<Float>(1, 1),
        ]
        var points: [SIMD2<Float>] = [SIMD2(0, 0)]
        for point in Self.flatten(control) where point != points[points.count - 1] { points.append(point) }
        var previous: Float = 0
        for point in points {
            if point.x < previous { refused = true }
            xs.append(point.x)
            ys.append(point.y)
            previous = point.x
        }
    }

    /// A coordinate of the cubic at `t`, in `float`, as Android writes it.
    static func coordinate(_ t: Float, _ p0: Float, _ p1: Float, _ p2: Float, _ p3: Float) -> Float {
        let oneMinusT = 1 - t
        let oneMinusTSquared = oneMinusT * oneMinusT
        let oneMinusTCubed = oneMinusTSquared * oneMinusT
        let tSquared = t * t
        let tCubed = tSquared * t
        return (oneMinusTCubed * p0) + (3 * oneMinusTSquared * t * p1) + (3 * oneMinusT * tSquared * p2)
            + (tCubed * p3)
    }

    static func point(_ t: Float, _ control: [SIMD2<Float>]) -> SIMD2<Float> {
        SIMD2(
            coordinate(t, control[0].x, control[1].x, control[2].x, control[3].x),
            coordinate(t, control[0].y, control[1].y, control[2].y, control[3].y))
    }

    /// The midpoint in t of two points and whether the curve there is
    /// farther than the precision from the chord's midpoint.
    static func split(
        _ control: [SIMD2<Float>], _ first: (t: Float, point: SIMD2<Float>), _ second: (t: Float, point: SIMD2<Float>)
    ) -> (t: Float, point: SIMD2<Float>, needed: Bool) {
        let t = (second.t + first.t) / 2
        let chord = (second.point + first.point) / 2
        let point = point(t, control)
        let error = point - chord
        return (t, point, error.x * error.x + error.y * error.y > precision * precision)
    }

    /// The flattened points in t order, left to right as Android halves:
    /// each interval split until its midpoint (and quarter point, while
    /// `doubleCheck` holds) lies close enough.
    static func flatten(_ control: [SIMD2<Float>]) -> [SIMD2<Float>] {
        var points: [(t: Float, point: SIMD2<Float>)] = [(0, point(0, control)), (1, point(1, control))]
        var doubleCheck = true
        var index = 0
        // Android's map would take a t equal to one it holds as that entry;
        // the cap stands for the point where halving no longer moves t.
        while index + 1 < points.count && points.count < 1 << 20 {
            var split = split(control, points[index], points[index + 1])
            if !split.needed && doubleCheck {
                let quarter = Self.split(control, points[index], (split.t, split.point))
                if quarter.needed {
                    doubleCheck = false
                    split.needed = true
                }
            }
            if split.needed && split.t != points[index].t && split.t != points[index + 1].t {
                points.insert((split.t, split.point), at: index + 1)
            } else {
                index += 1
            }
        }
        return points.map(\.point)
    }

    /// y at `x`.
    func solve(_ x: Double) -> Double {
        if refused { return .nan }
        let t = Float(x)
        if t <= 0 { return 0 }
        if t >= 1 { return 1 }
        var start = 0
        var end = xs.count - 1
        while end - start > 1 {
            let middle = (start + end) / 2
            if t < xs[middle] { end = middle } else { start = middle }
        }
        let range = xs[end] - xs[start]
        if range == 0 { return Double(ys[start]) }
        let fraction = (t - xs[start]) / range
        return Double(ys[start] + (fraction * (ys[end] - ys[start])))
    }
}

/// Qt's `QEasingCurve::BezierSpline` of one segment (`src/corelib/tools/
/// qeasingcurve.cpp`, `BezierEase`, Qt 5 and 6): t for x solved in closed
/// form, not iterated. The cubic's coefficients in power form; where the
/// t³ coefficient is within 1e-3 of 0, the quadratic (or linear) formula;
/// else Cardano's formula on the depressed cubic, with a cube root from a
/// bit trick on the double's high word and one Halley step, and, where the
/// discriminant is negative, cos(acos(g)/3) and its two siblings replaced
/// by polynomials in g, √(1 + g) and √(1 − g). The first root within
/// [−0.01, 1.01] is taken; y from the Bernstein form at it. 0 unless
/// x > 0, 1 unless x < 1.
struct QtBezier {
    private let x1, y1, x2, y2: Double

    init(_ curve: UnitBezier) {
        (x1, y1, x2, y2) = (curve.x1, curve.y1, curve.x2, curve.y2)
    }

    /// y at `x`.
    func solve(_ x: Double) -> Double {
        if !(x > 0) { return 0 }
        if !(x < 1) { return 1 }
        let t = parameter(x)
        let s = 1 - t
        let (sSquared, tSquared) = (s * s, t * t)
        let (sCubed, tCubed) = (sSquared * s, tSquared * t)
        return sCubed * 0 + 3 * sSquared * t * y1 + 3 * s * tSquared * y2 + tCubed * 1
    }

    func parameter(_ x: Double) -> Double {
        let (p0, p1, p2, p3) = (0.0, x1, x2, 1.0)
        let cubic = p3 - p0 + 3 * p1 - 3 * p2
        let quadratic = 3 * p0 - 6 * p1 + 3 * p2
        let linear = -3 * p0 + 3 * p1
        let constant = p0 - x
        func almostZero(_ value: Double) -> Bool { value > -1e-3 && value < 1e-3 }
        guard almostZero(cubic) else {
            return Self.cubicRoot(quadratic / cubic, linear / cubic, constant / cubic)
        }
        if almostZero(quadratic) { return almostZero(linear) ? 0 : -constant / linear }
        let discriminant = linear * linear - 4.0 * quadratic * constant
        if discriminant < 0 { return 0 }
        if discriminant == 0 { return -linear / (2.0 * quadratic) }
        let first = (-linear + discriminant.squareRoot()) / (2.0 * quadratic)
        if first >= 0 && first <= 1 { return first }
        let second = (-linear - discriminant.squareRoot()) / (2.0 * quadratic)
        if second >= 0 && second <= 1 { return second }
        return 0
    }

    /// Qt's `singleRealSolutionForCubic` of t³ + a·t² + b·t + c = 0.
    static func cubicRoot(_ a: Double, _ b: Double, _ c: Double) -> Double {
        if c < 0.000001 && c > -0.000001 { return 0 }
        func inRange(_ t: Double) -> Bool { t >= -0.01 && t <= 1.01 }
        let aBy3 = a / 3.0
        let aCubed = a * a * a
        let p = b - a * aBy3
        let q = 2.0 * aCubed / 27.0 - a * b / 3.0 + c
        let d = 0.25 * (q * q) + (p * p * p) / 27.0
        if d >= 0 {
            let root = d.squareRoot()
            let u = cubeRoot(-q * 0.5 + root)
            let v = cubeRoot(-q * 0.5 - root)
            let first = u + v - aBy3
            return inRange(first) ? first : -1 * u - aBy3
        }
        let pRoot = (-p).squareRoot()
        let f = (4.0 / 3.0).squareRoot() * pRoot
        let scale = -3.0 * 3.0.squareRoot() / (pRoot * p)
        let g = -q * 0.5 * scale
        let (s1, s2, s3) = cosines(g)
        let first = -1 * f * s2 - aBy3
        if inRange(first) { return first }
        let second = f * s1 - aBy3
        if inRange(second) { return second }
        return -1 * f * s3 - aBy3
    }

    /// Qt's `cosacos`: cos(acos(g)/3), cos((acos(g) + π)/3) and
    /// cos((acos(g) − π)/3), each replaced by a polynomial fit.
    static func cosines(_ g: Double) -> (Double, Double, Double) {
        let squared = g * g
        let plus = (1.0 + g).squareRoot()
        let minus = (1.0 - g).squareRoot()
        let s1 = 0.463614 - 0.0347815 * g + 0.00218245 * squared + 0.402421 * plus
        let s3 = 0.463614 + 0.402421 * minus + 0.0347815 * g + 0.00218245 * squared
        let s2 = -0.401644 * minus - 0.0686804 * g + 0.401644 * plus
        return (s1, s2, s3)
    }

    /// Qt's `_cbrt`: the cube root from the high word of the double (its
    /// bits divided by 3 plus 715094163, the low word 0), then one Halley
    /// step.
    static func cubeRoot(_ value: Double) -> Double {
        let sign: Double = value < 0 ? -1 : 1
        let d = value * sign
        let high = UInt32(truncatingIfNeeded: d.bitPattern >> 32)
        var t = Double(bitPattern: UInt64(high / 3 &+ 715_094_163) << 32)
        let tCubed = t * t * t
        let f = tCubed + tCubed + d
        if f != 0 { t = t * (tCubed + d + d) / f }
        return t * sign
    }
}
