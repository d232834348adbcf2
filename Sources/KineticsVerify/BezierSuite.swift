import Foundation
import Kinetics
import KineticsReference

/// One bezier method's result on one curve.
struct BezierMethodMeasurement: Sendable, Codable, Equatable {
    /// The largest error over the y scale where x(t) is not flat.
    var maxRegular = 0.0
    var worstX = 0.0
    /// The largest amount by which a regular point's error passed what the
    /// point allows (the tolerance plus GSL's own uncertainty there), over
    /// the y scale: at most 0 when every point held. NaN once an error was
    /// NaN; nil without a tolerance or a regular point.
    var regularExcess: Double?
    /// Points where x'(t) < 1e-3, their largest error over the y scale, and
    /// the largest amount by which one passed the tolerance plus the spread
    /// that doubles allow there (as ``regularExcess``).
    var flatPoints = 0
    var maxFlat = 0.0
    var flatExcess: Double?
}

/// Everything measured for one curve, for each method (or engine) named by
/// a `Key`.
struct BezierCurveMeasurement<Key: Hashable & Sendable & Codable>: Sendable, Codable, Equatable {
    var methods: [Key: BezierMethodMeasurement]
    var regularPoints: Int
    /// The largest |t from the cubic formula - t after brent| where x(t) is not flat.
    var cubicVersusBrent: Double
    var steepness: Double
    /// The most a regular point allows beyond the tolerance (GSL's own
    /// uncertainty there), over the y scale; and the same of the flat points
    /// (the spread of y there). A method's largest error can pass its
    /// tolerance by at most these and hold (``BezierSuite/held(_:_:allowance:tolerance:)``).
    var regularAllowance = 0.0
    var flatAllowance = 0.0
}

enum BezierSuite {
    /// A point is flat when x'(t) is below this: there the reference (GSL in
    /// doubles) is itself uncertain by more than 1e-13 in t.
    static let flatSlope = 1e-3

    /// The check of the points where x(t) is not flat, and of the ends,
    /// which are checked on purpose (every curve passes through (0, 0) and
    /// (1, 1), however flat it is there).
    static let regularCheck = "error where x'(t) >= 1e-3, and at x = 0 and 1"

    static func measure(
        _ curve: UnitBezier, samples: Int, methods: [BezierMethod], tolerances: Tolerances, fault: InjectedFault? = nil
    ) throws -> BezierCurveMeasurement<BezierMethod> {
        // The animator evaluates `fast` from a table; both it and the
        // iteration it falls back on are held to the fast tolerance.
        let table = methods.contains(.fast) ? BezierTable(curve) : nil
        return try measure(
            curve, samples: samples, keys: methods,
            tolerance: { method in
                switch method {
                case .webkit: nil
                case .precise: tolerances["bezier.precise"]
                case .fast: tolerances["bezier.fast"]
                }
            }
        ) { method, index, x, exact in
            var y = curve.solve(x, method: method, epsilon: 1.0 / 400)
            if let fault, fault.method == method.rawValue, index == samples / 2 { fault.spoil(&y) }
            if method == .fast, let table, case let tableY = table.solve(x),
                isWorse(abs(tableY - exact), than: abs(y - exact))
            {
                y = tableY
            }
            return y
        }
    }

    /// Measures y at `samples` evenly spaced x in [0, 1] against GSL's root:
    /// `values(key, index, x, exact)` gives the key's y (for a key with two
    /// ways of computing it, the one farther from `exact`), `tolerance(key)`
    /// the key's tolerance, nil for one that is reported only.
    static func measure<Key: Hashable & Sendable & Codable>(
        _ curve: UnitBezier, samples: Int, keys: [Key], tolerance: (Key) -> Double?,
        values: (Key, Int, Double, Double) throws -> Double
    ) throws -> BezierCurveMeasurement<Key> {
        let reference = ReferenceBezier(x1: curve.x1, y1: curve.y1, x2: curve.x2, y2: curve.y2)
        let yScale = max(1, abs(curve.y1), abs(curve.y2))
        var result = BezierCurveMeasurement(
            methods: Dictionary(uniqueKeysWithValues: keys.map { ($0, BezierMethodMeasurement()) }),
            regularPoints: 0, cubicVersusBrent: 0, steepness: 0)
        var previous: (x: Double, y: Double)?
        for index in 0 ..< samples {
            let x = Double(index) / Double(samples - 1)
            let t: Double
            let cubic: Double
            do {
                cubic = try reference.cubicParameter(x: x)
                t = try reference.parameter(x: x)
            } catch {
                throw VerificationError.reference("GSL failed on \(curve) at x = \(x): \(error)")
            }
            let exact = reference.y(at: t)
            if let previous, x > previous.x {
                result.steepness = max(result.steepness, abs(exact - previous.y) / (x - previous.x))
            }
            previous = (x, exact)
            let slope = curve.dxdt(at: t)
            let regular = slope >= flatSlope || x == 0 || x == 1
            if regular {
                result.regularPoints += 1
                result.cubicVersusBrent = max(result.cubicVersusBrent, abs(cubic - t))
            }
            // GSL evaluates x(t) in doubles: its t is uncertain by about 4 ulps
            // of x over x'(t), which moves y by |y'(t)| times that.
            let uncertainty = x == 0 || x == 1 ? 0 : abs(curve.dydt(at: t)) * 4 * Double.ulpOfOne / slope
            let spread = regular ? 0 : curve.ySpread(atX: x, parameter: t)
            if regular {
                result.regularAllowance = max(result.regularAllowance, uncertainty / yScale)
            } else {
                result.flatAllowance = max(result.flatAllowance, spread / yScale)
            }
            for key in keys {
                let error = abs(try values(key, index, x, exact) - exact)
                let normalized = error / yScale
                var measurement = result.methods[key]!
                let tolerance = tolerance(key)
                if regular {
                    if isWorse(normalized, than: measurement.maxRegular) {
                        measurement.maxRegular = normalized
                        measurement.worstX = x
                    }
                    if let tolerance {
                        measurement.regularExcess = worse(
                            measurement.regularExcess, (error - uncertainty) / yScale - tolerance)
                    }
                } else {
                    measurement.flatPoints += 1
                    if isWorse(normalized, than: measurement.maxFlat) { measurement.maxFlat = normalized }
                    if let tolerance {
                        measurement.flatExcess = worse(measurement.flatExcess, (error - spread) / yScale - tolerance)
                    }
                }
                result.methods[key] = measurement
            }
        }
        return result
    }

    /// The worse of an excess so far (nil before the first) and `candidate`.
    private static func worse(_ current: Double?, _ candidate: Double) -> Double {
        guard let current else { return candidate }
        return isWorse(candidate, than: current) ? candidate : current
    }

    /// Whether a method held its tolerance on the points of one kind of a
    /// curve, from the numbers a measurement keeps (so that merged shards are
    /// judged again, not trusted): its largest `excess` over what the points
    /// allow is at most 0, and its largest `error` is within the tolerance
    /// plus the most any point allows. For honest measures the second follows
    /// from the first; a report whose error was changed fails it. NaN fails
    /// both, and a missing excess (no tolerance was applied) holds nothing.
    static func held(_ error: Double, _ excess: Double?, allowance: Double, tolerance: Double) -> Bool {
        guard let excess else { return false }
        return Limit.atMost(0).admits(excess) && Limit.atMost(tolerance + allowance).admits(error)
    }
}
