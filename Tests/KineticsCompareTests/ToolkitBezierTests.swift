import Kinetics
import KineticsCompare
import Testing

/// The replicas of the toolkits' bezier solvers that do not run here
/// (Flutter, GTK, Firefox's SMIL, bezier-easing, Android), held to points
/// worked out apart from them with the sources' constants: in exact
/// rational arithmetic where the scheme is bisection or Newton's method
/// (Python's `fractions`, each step as the source writes it; the replica's
/// doubles may differ by their rounding alone), and in `float32` step for
/// step where the toolkit computes in `float` (Android, with numpy: the same
/// bits). The toolkits that do run here (Qt, Firefox's CSS easing,
/// WebKitGTK) are held to their own recorded values in
/// `RealEngineTraceTests`. Each point is also far enough from the exact
/// answer that a replica solving exactly would fail it.
@Suite("the toolkits' bezier solvers, replayed")
struct ToolkitBezierTests {
    static let ease = UnitBezier.default
    static let steep = try! UnitBezier(x1: 0.9, y1: 0, x2: 0.1, y2: 1)
    static let easeInOut = UnitBezier.easeInEaseOut

    /// y of `candidate` at `x`.
    static func y(_ candidate: BezierCandidate, _ curve: UnitBezier, _ x: Double) -> Double {
        candidate.values(curve, xs: [x])[0]
    }

    /// The exact y at `x`, for the non-vacuity checks.
    static func exact(_ curve: UnitBezier, _ x: Double) -> Double { curve.solvePrecise(x) }

    @Test("Flutter's Cubic and GTK's CSS easing: bisection to 0.001 in x from the bracket's middle, to 1e-5 from t = x")
    func bisections() {
        // The midpoints are dyadic (from t = 1/2, or from t = x = 1/2), so
        // the rational steps pick the same t as the toolkits' doubles; y(t)
        // differs by the rounding of one evaluation. Flutter stops at
        // t = 179/256 for x = 0.5 on ease, GTK at 45847/65536.
        let points: [(BezierCandidate, Double, Double, Double)] = [
            (.flutter, 0.5, 0.8019922554492951, 1e-4), (.flutter, 0.1, 0.09539313912391663, 1e-4),
            (.gtk, 0.5, 0.8024002076969768, 1e-7), (.gtk, 0.1, 0.09479764771553463, 1e-7),
        ]
        for (candidate, x, expected, apart) in points {
            let y = Self.y(candidate, Self.ease, x)
            #expect(abs(y - expected) < 1e-14, "\(candidate) at x = \(x): \(y) vs \(expected)")
            #expect(abs(y - Self.exact(Self.ease, x)) > apart, "\(candidate) at x = \(x): as exact as a precise solver")
        }
        #expect(Self.y(.flutter, Self.ease, 0) == 0 && Self.y(.flutter, Self.ease, 1) == 1)
    }

    @Test("Firefox's SMIL key spline and bezier-easing: Newton from the table, or halving where x' is small")
    func keySplines() {
        // Newton's 4 steps in rationals; the doubles' rounding stays within
        // 1e-12 after them.
        let points: [(BezierCandidate, UnitBezier, Double, Double)] = [
            (.firefoxKeySpline, Self.easeInOut, 0.3, 0.18739590670531256),
            (.bezierEasing, Self.easeInOut, 0.3, 0.18739590670531256),
            (.firefoxKeySpline, Self.steep, 0.5, 0.4999999999999999),
            (.firefoxKeySpline, try! UnitBezier(x1: 0.666, y1: 0, x2: 1, y2: 1), 0.999, 0.997068532418558),
            // bezier-easing's samples are float32: its answer here moves by 4e-12.
            (.bezierEasing, try! UnitBezier(x1: 0.666, y1: 0, x2: 1, y2: 1), 0.999, 0.9970685324218542),
        ]
        for (candidate, curve, x, expected) in points {
            let y = Self.y(candidate, curve, x)
            #expect(abs(y - expected) < 1e-12, "\(candidate) on \(curve) at x = \(x): \(y) vs \(expected)")
        }
        // The two differ where only the float32 samples tell them apart.
        let curve = try! UnitBezier(x1: 0.666, y1: 0, x2: 1, y2: 1)
        #expect(Self.y(.firefoxKeySpline, curve, 0.999) != Self.y(.bezierEasing, curve, 0.999))
    }

    @Test("Android's PathInterpolator: the float32 flattening and interpolation, bit for bit")
    func android() {
        // numpy float32, step for step, at x = 0.05, 0.1, …, 0.95 (22 points
        // for ease, 27 for steep, 29 for overshoot): a changed point
        // anywhere moves some of these values.
        let xs = (1 ..< 20).map { Double($0) / 20 }
        let overshoot = try! UnitBezier(x1: 0.3, y1: -0.4, x2: 0.6, y2: 1.5)
        let points: [(UnitBezier, [Double])] = [
            (
                Self.ease,
                [
                    0.03413008153438568, 0.09676375985145569, 0.186252161860466, 0.2952944040298462, 0.4078148901462555,
                    0.5122583508491516, 0.6034817099571228, 0.6806545853614807, 0.7455330491065979, 0.8008835911750793,
                    0.8464267253875732, 0.884967029094696, 0.9158989787101746, 0.9407418966293335, 0.9603662490844727,
                    0.9753062725067139, 0.9862194061279297, 0.9936550259590149, 0.9981034398078918,
                ]
            ),
            (
                Self.steep,
                [
                    0.001804222702048719, 0.00531209260225296, 0.011305504478514194, 0.022281963378190994,
                    0.038024820387363434, 0.06051284074783325, 0.09287209063768387, 0.1446601152420044,
                    0.23373782634735107, 0.5000002980232239, 0.7662621736526489, 0.8553399443626404, 0.907127857208252,
                    0.9394871592521667, 0.9619751572608948, 0.9777180552482605, 0.9886944890022278, 0.9946879148483276,
                    0.9981957674026489,
                ]
            ),
            (
                overshoot,
                [
                    -0.04511729255318642, -0.053327806293964386, -0.029509162530303, 0.02133258245885372,
                    0.09520363807678223, 0.18585307896137238, 0.28824877738952637, 0.3974836468696594,
                    0.5094722509384155, 0.6192681789398193, 0.7237797379493713, 0.8215491771697998, 0.9070064425468445,
                    0.9769250750541687, 1.0319647789001465, 1.066723346710205, 1.0831983089447021, 1.077236294746399,
                    1.049336552619934,
                ]
            ),
        ]
        for (curve, expected) in points {
            #expect(BezierCandidate.android.values(curve, xs: xs) == expected, "\(curve)")
        }
        #expect(abs(Self.y(.android, Self.ease, 0.5) - Self.exact(Self.ease, 0.5)) > 1e-4)
        #expect(BezierCandidate.android.values(Self.ease, xs: [-0.5, 0, 1, 1.5]) == [0, 0, 1, 1])
    }

    @Test("every toolkit's candidate names its toolkit")
    func engines() {
        let named: [BezierCandidate] = [
            .firefoxKeySpline, .bezierEasing, .servo(1e-7), .flutter, .android, .gtk, .qt, .chromium,
        ]
        for candidate in named {
            #expect(candidate.engine != nil, "\(candidate)")
            #expect(BezierCandidate.all.contains(candidate), "\(candidate) is not tried")
        }
    }
}
