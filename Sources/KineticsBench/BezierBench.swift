import Dispatch
import Kinetics

/// One bezier method's cost per evaluation on one curve, measured by
/// `kinetics bench` beside the frames.
public struct BezierResult: Codable, Sendable, Equatable {
    /// The curve's name (`ease-in-out`, …) and control points.
    public var curve: String
    /// The method timed.
    public var method: BezierBenchMethod
    /// The median over repetitions of the time per evaluation, and the
    /// smallest and largest repetition.
    public var nanoseconds: Double
    public var minimum: Double
    public var maximum: Double
    /// The largest |y - y precise| over the evaluated x.
    public var maxError: Double
    /// For the other methods: how many times longer this method took than
    /// `fast` on the same values, per repetition (the methods take turns
    /// within each repetition, so a slow spell of the machine hits both
    /// sides of a ratio): the median and the smallest and largest.
    public var timesFast: Double?
    public var timesFastMinimum: Double?
    public var timesFastMaximum: Double?
    /// The same against `fast-single`, the path the animator takes (one x
    /// per call), for the methods listed after it.
    public var timesFastSingle: Double?
    public var timesFastSingleMinimum: Double?
    public var timesFastSingleMaximum: Double?
}

/// A way of evaluating a unit bezier that `kinetics bench` times.
public enum BezierBenchMethod: String, CaseIterable, Codable, Sendable {
    /// The curve's ``BezierTable`` over all the x at once
    /// (``BezierTable/solve(_:into:)``).
    case fast
    /// The same table, one ``BezierTable/solve(_:)`` call per x, as the
    /// animator's loops evaluate it.
    case fastSingle = "fast-single"
    /// ``UnitBezier/solveFast(_:)``, for one-off evaluations.
    case fastIterative = "fast-iterative"
    /// WebKit's and Pop's solver with tolerance 1/400 in x, Pop's for its
    /// default 0.4 s duration.
    case webkit
    /// The same with tolerance 1e-7 in x, near the accuracy of `fast`.
    case webkitPrecise = "webkit-1e-7"

    /// Whether this is one of WebKit's solvers, which `fast` is compared to.
    public var isWebKit: Bool { self == .webkit || self == .webkitPrecise }
}

/// Times bezier evaluations: `samples` x values spread over (0, 1) with an
/// irrational step, every method over the same values, `repetitions` times.
public enum BezierBench {
    /// The curves measured: a smooth one, one flat at its start and Pop's default.
    public static let curves: [(name: String, curve: UnitBezier)] = [
        ("ease-in-out", .easeInEaseOut), ("ease-out", .easeOut), ("default", .default),
    ]

    /// The methods measured, in report order: `fast` first and
    /// `fast-single` second, as the ratios assume.
    static let methods = BezierBenchMethod.allCases

    public static func measure(samples: Int = 1 << 16, repetitions: Int = 7) -> [BezierResult] {
        let xs = (0 ..< samples).map { (0.5 + Double($0) * 0.618_033_988_749_895).truncatingRemainder(dividingBy: 1) }
        // One output buffer for every run, touched before timing.
        let out = UnsafeMutableBufferPointer<Double>.allocate(capacity: samples)
        out.initialize(repeating: 0)
        defer { out.deallocate() }
        var results: [BezierResult] = []
        for (name, curve) in curves {
            let table = BezierTable(curve)
            let exact = xs.map(curve.solvePrecise)
            var times = [[Double]](repeating: [], count: methods.count)
            var errors = [Double](repeating: 0, count: methods.count)
            // The methods take turns within each repetition; one untimed
            // round first, to warm the caches and the branch predictors.
            for repetition in 0 ... repetitions {
                for (slot, method) in methods.enumerated() {
                    let start = DispatchTime.now().uptimeNanoseconds
                    switch method {
                    case .fast: evaluateTable(table, xs, out)
                    case .fastSingle: evaluateTableSingly(table, xs, out)
                    case .fastIterative: evaluateIterative(curve, xs, out)
                    case .webkit: evaluateWebKit(curve, xs, out, epsilon: 1.0 / 400)
                    case .webkitPrecise: evaluateWebKit(curve, xs, out, epsilon: 1e-7)
                    }
                    let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / Double(samples)
                    if repetition > 0 { times[slot].append(elapsed) }
                    if repetition == 0 { errors[slot] = zip(out, exact).reduce(0.0) { max($0, abs($1.0 - $1.1)) } }
                }
            }
            for (slot, method) in methods.enumerated() {
                var result = BezierResult(
                    curve: "\(name) \(curve)", method: method, nanoseconds: BenchRunner.median(times[slot]),
                    minimum: times[slot].min()!, maximum: times[slot].max()!, maxError: errors[slot])
                if slot > 0 {
                    let ratios = zip(times[slot], times[0]).map { $0 / $1 }
                    result.timesFast = BenchRunner.median(ratios)
                    result.timesFastMinimum = ratios.min()
                    result.timesFastMaximum = ratios.max()
                }
                if slot > 1 {
                    let ratios = zip(times[slot], times[1]).map { $0 / $1 }
                    result.timesFastSingle = BenchRunner.median(ratios)
                    result.timesFastSingleMinimum = ratios.min()
                    result.timesFastSingleMaximum = ratios.max()
                }
                results.append(result)
            }
        }
        return results
    }

    // One function per method, kept out of line so that each loop is
    // compiled (and timed) on its own. Each writes its answers, so none can
    // be dropped, and the writes cost the same for every method.
    @inline(never)
    static func evaluateTable(_ table: BezierTable, _ xs: [Double], _ out: UnsafeMutableBufferPointer<Double>) {
        _ = xs.withUnsafeBufferPointer { table.solve($0, into: out) }
    }

    @inline(never)
    static func evaluateTableSingly(_ table: BezierTable, _ xs: [Double], _ out: UnsafeMutableBufferPointer<Double>) {
        for index in xs.indices { out[index] = table.solve(xs[index]) }
    }

    @inline(never)
    static func evaluateIterative(_ curve: UnitBezier, _ xs: [Double], _ out: UnsafeMutableBufferPointer<Double>) {
        for index in xs.indices { out[index] = curve.solveFast(xs[index]) }
    }

    @inline(never)
    static func evaluateWebKit(
        _ curve: UnitBezier, _ xs: [Double], _ out: UnsafeMutableBufferPointer<Double>, epsilon: Double
    ) {
        for index in xs.indices { out[index] = curve.solveWebKit(xs[index], epsilon: epsilon) }
    }
}
