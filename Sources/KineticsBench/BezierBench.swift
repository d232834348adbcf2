import CCallgrind
import Dispatch
import Kinetics

/// One bezier method's cost per evaluation on one curve, measured by
/// `kinetics bench` beside the frames.
public struct BezierResult: Codable, Sendable, Equatable {
    /// The curve's name (`ease-in-out`, …) and control points.
    public var curve: String
    /// The method timed.
    public var method: BezierBenchMethod
    /// The median over repetitions of the time per evaluation, in nanoseconds.
    public var nanoseconds: Double
    /// The fastest repetition's time per evaluation.
    public var minimum: Double
    /// The slowest repetition's time per evaluation.
    public var maximum: Double
    /// The largest |y - y precise| over the evaluated x.
    public var maxError: Double
    /// For the other methods: how many times longer this method took than
    /// `fast` on the same values, per repetition (the methods take turns
    /// within each repetition, so a slow spell of the machine hits both
    /// sides of a ratio): the median and the smallest and largest.
    public var timesFast: Double?
    /// The smallest of those ratios.
    public var timesFastMinimum: Double?
    /// The largest of those ratios.
    public var timesFastMaximum: Double?
    /// The same against `fast-single`, the path the animator takes (one x
    /// per call), for the methods listed after it.
    public var timesFastSingle: Double?
    /// The smallest of those ratios.
    public var timesFastSingleMinimum: Double?
    /// The largest of those ratios.
    public var timesFastSingleMaximum: Double?
}

/// A way of evaluating a unit bezier that `kinetics bench` times.
public enum BezierBenchMethod: String, CaseIterable, Codable, Sendable {
    /// The curve's `BezierTable` over all the x at once
    /// (`BezierTable.solve(_:into:)`).
    case fast
    /// The same table, one `BezierTable.solve(_:)` call per x, as the
    /// animator's loops evaluate it.
    case fastSingle = "fast-single"
    /// `UnitBezier.solveFast(_:)`, for one-off evaluations.
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

    /// Times every method on `samples` x of each curve, the methods taking
    /// turns within each of `repetitions` repetitions (after one untimed
    /// round), and measures each one's largest error against the precise
    /// solve.
    public static func measure(samples: Int = 1 << 16, repetitions: Int = 7) -> [BezierResult] {
        kinetics_callgrind_start_instrumentation()
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
                    case .webkit: evaluateWebKitLoose(curve, xs, out)
                    case .webkitPrecise: evaluateWebKitPrecise(curve, xs, out)
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

    // The two WebKit tolerances run one loop, which the optimiser may
    // specialise or merge as it likes; these unoptimised wrappers give
    // each tolerance a function of its own, for `--count instructions` to
    // find (a call each per 65,536 evaluations).
    @inline(never) @_optimize(none)
    static func evaluateWebKitLoose(_ curve: UnitBezier, _ xs: [Double], _ out: UnsafeMutableBufferPointer<Double>) {
        evaluateWebKit(curve, xs, out, epsilon: 1.0 / 400)
    }

    @inline(never) @_optimize(none)
    static func evaluateWebKitPrecise(_ curve: UnitBezier, _ xs: [Double], _ out: UnsafeMutableBufferPointer<Double>) {
        evaluateWebKit(curve, xs, out, epsilon: 1e-7)
    }

    /// The part of the mangled name of each method's function above that
    /// `--count instructions` finds it by: callgrind collects inside these
    /// functions alone, and each one's calls carry what it executed.
    public static let countedFunctions: [(method: BezierBenchMethod, name: String)] = [
        (.fast, "BezierB0O13evaluateTableyy"), (.fastSingle, "BezierB0O19evaluateTableSinglyyy"),
        (.fastIterative, "BezierB0O17evaluateIterativeyy"), (.webkit, "BezierB0O19evaluateWebKitLooseyy"),
        (.webkitPrecise, "BezierB0O21evaluateWebKitPreciseyy"),
    ]

    /// The cost per evaluation of each method that `callgrindOutput`
    /// (a run of ``measure(samples:repetitions:)`` with collection inside
    /// ``countedFunctions`` alone) counted, `samples` evaluations a call;
    /// nil when a method's function was not found or counted nothing.
    public static func instructions(callgrindOutput text: String, samples: Int = 1 << 16, valgrind: String)
        -> [BezierInstructionCount]?
    {
        let calls = CallgrindEvents.calls(in: text, to: countedFunctions.map(\.name))
        var counts: [BezierInstructionCount] = []
        for (method, name) in countedFunctions {
            guard let (number, events) = calls[name], number > 0, events.instructions > 0 else { return nil }
            let evaluations = Double(number * samples)
            counts.append(
                BezierInstructionCount(
                    method: method, evaluations: number * samples,
                    instructionsPerEvaluation: events.instructions / evaluations,
                    l1MissesPerEvaluation: events.l1Misses / evaluations,
                    lastLevelMissesPerEvaluation: events.lastLevelMisses / evaluations,
                    estimatedCyclesPerEvaluation: events.estimatedCycles / evaluations, valgrind: valgrind))
        }
        return counts
    }
}

/// What one bezier method executes per evaluation, counted by callgrind
/// (`kinetics bench --count instructions`) over every evaluation of the
/// bench's three curves, the untimed round included: unlike the times,
/// these repeat run after run for the same binary.
public struct BezierInstructionCount: Codable, Sendable, Equatable {
    /// The method counted.
    public var method: BezierBenchMethod
    /// How many evaluations were counted.
    public var evaluations: Int
    /// Instructions per evaluation, with the loop's own.
    public var instructionsPerEvaluation: Double
    /// Simulated first-level misses per evaluation (I1mr + D1mr + D1mw).
    public var l1MissesPerEvaluation: Double
    /// Simulated last-level misses per evaluation (ILmr + DLmr + DLmw).
    public var lastLevelMissesPerEvaluation: Double
    /// Instructions + 10 × first-level misses + 100 × last-level misses,
    /// per evaluation, as ``InstructionCount`` estimates cycles.
    public var estimatedCyclesPerEvaluation: Double
    /// `valgrind --version`.
    public var valgrind: String
}
