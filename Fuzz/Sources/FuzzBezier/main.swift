import FuzzDriver
import Kinetics

/// The bezier solvers on any six doubles, taken bit for bit from the input
/// (NaN, infinities and subnormals included): x1, y1, x2, y2, x and WebKit's
/// epsilon. Every call must return (libFuzzer's timeout catches a hang); a
/// valid curve at a finite x must give a finite y, within the curve's y range
/// for the precise and fast solvers and the table (when an odd 49th byte asks
/// for one; its values many at once equal those one at a time, bit for
/// bit); x outside [0, 1] clamps to
/// the end points; NaN gives NaN.
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzBezier(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    var words = [Double](repeating: 0.5, count: 6)
    if let bytes {
        for index in 0 ..< min(count / 8, words.count) {
            words[index] = UnsafeRawPointer(bytes).loadUnaligned(fromByteOffset: index * 8, as: Double.self)
        }
    }
    let x = words[4]
    let epsilon = words[5]
    // Out-of-range control points are refused with an error, never a trap.
    guard let curve = try? UnitBezier(x1: words[0], y1: words[1], x2: words[2], y2: words[3]) else { return 0 }
    let low = min(0, curve.y1, curve.y2)
    let high = max(1, curve.y1, curve.y2)
    let slack = 1e-9 * max(1, abs(low), abs(high))
    func check(_ y: Double, _ solver: String) {
        if x.isNaN {
            precondition(y.isNaN, "\(solver): NaN x gave \(y)")
            return
        }
        precondition(y.isFinite, "\(solver): \(curve) at \(x) gave \(y)")
        if x <= 0 || x >= 1 {
            precondition(y == (x <= 0 ? 0 : 1), "\(solver): \(curve) at \(x) gave \(y), not the end point")
        } else {
            precondition(
                y >= low - slack && y <= high + slack, "\(solver): \(curve) at \(x) gave \(y) outside [\(low), \(high)]"
            )
        }
    }
    check(curve.solve(x, method: .precise, epsilon: epsilon), "precise")
    check(curve.solve(x, method: .fast, epsilon: epsilon), "fast")
    // Building a table costs thousands of solves: only when a 49th byte
    // asks for it, so that the fuzzer stays fast on the rest.
    if count > 48, let bytes, bytes[48] & 1 == 1 {
        let table = BezierTable(curve, segments: 16)
        let y = table.solve(x)
        check(y, "table")
        // Many at once: x beside x and epsilon, in both lanes of a step.
        let xs = [x, epsilon, epsilon, x, x]
        var ys = [Double](repeating: 0, count: xs.count)
        _ = xs.withUnsafeBufferPointer { input in ys.withUnsafeMutableBufferPointer { table.solve(input, into: $0) } }
        for (index, value) in xs.enumerated() {
            let one = table.solve(value)
            precondition(
                ys[index].bitPattern == one.bitPattern,
                "table: \(curve) at \(value) gave \(ys[index]) many at once, \(one) alone")
        }
    }
    // WebKit's solver keeps WebKit's results (it may extrapolate beyond
    // [0, 1] and its epsilon may be anything); it must return, and give a
    // finite y for finite x and a sensible epsilon.
    let webkit = curve.solve(x, method: .webkit, epsilon: epsilon)
    if x.isFinite && epsilon.isFinite && epsilon > 0 && (0 ... 1).contains(x) {
        precondition(webkit.isFinite, "webkit: \(curve) at \(x), epsilon \(epsilon) gave \(webkit)")
    }
    return 0
}

runFuzzer(fuzzBezier)
