/// One named tolerance of ``Verifier``, with the reasoning behind its default.
public struct Tolerance: Sendable, Equatable {
    /// The name used on the command line: `--tolerance spring.rk4=1e-8`.
    public let name: String
    /// The default value.
    public let value: Double
    /// Why the default is what it is.
    public let reason: String
}

/// Every tolerance the checks use, in one place.
///
/// Errors are normalised: spring errors by the motion's amplitude (the largest
/// distance of the GSL trajectory from the target), decay errors by the total
/// throw of the law, bezier errors by `max(1, |y1|, |y2|)`. Modes that copy
/// another engine (`pop` springs and decays, the `fixed` grid's accuracy,
/// `webkit` beziers) have no tolerance: their error is what is measured.
public struct Tolerances: Sendable, Equatable {
    /// The defaults and their reasons.
    public static let defaults: [Tolerance] = [
        Tolerance(
            name: "spring.analytic", value: 1e-10,
            reason:
                "the closed form is exact to a few ulps; GSL's rk8pd at 1e-13 per step accumulates below 1e-11 of the amplitude over the longest window (5 s, 250 oscillations)"
        ),
        Tolerance(
            name: "spring.rk4", value: 1e-7,
            reason:
                "rk4's step is chosen to keep each mode near 1e-9 of its amplitude ((|λ|h)⁴/(120·e·ρ)); 100× leaves room for the estimate's constant and for near-critical modes"
        ),
        Tolerance(
            name: "spring.rk4.order", value: 0.1,
            reason:
                "RK4's error falls as h⁴; halving 1 ms must give an observed order within 0.1 of 4 while the error is far above rounding"
        ),
        Tolerance(
            name: "spring.frame-rate", value: 1e-11,
            reason:
                "analytic and fixed compute the same states at common times whatever the frame rate; only per-frame rounding (up to 1,200 frames × a few ulps) may differ"
        ),
        Tolerance(
            name: "spring.rk4.frame-rate", value: 2e-7,
            reason: "rk4's steps differ between frame rates, so two runs may differ by up to twice rk4's own tolerance"),
        Tolerance(
            name: "spring.time-scale", value: 1e-6,
            reason: "rk4 and analytic run at real time; the fit itself is good to about 1e-9"),
        Tolerance(
            name: "spring.fixed.time-scale", value: 1e-3,
            reason:
                "fixed has no fraction feedback, so it keeps real time up to its linear blend between grid states, an error of up to h²ω²/8 (4.5e-4 at ω₀ = 60 rad/s)"
        ),
        Tolerance(
            name: "decay.exact", value: 1e-12,
            reason:
                "the discrete law in double, against GSL's continuous trajectory times the law's constant factor λd/(1000(1 - d)); both are good to 1e-13 of the throw"
        ),
        Tolerance(
            name: "decay.continuous", value: 1e-12,
            reason: "the exponential in closed form against GSL's rk8pd at 1e-13"),
        Tolerance(
            name: "bezier.precise", value: 1e-12,
            reason:
                "the promise of the precise solver where x(t) is not flat (x'(t) >= 1e-3); GSL's own uncertainty, |y'|·4 ulp/x', is added per point"
        ),
        Tolerance(
            name: "bezier.fast", value: 1e-7,
            reason:
                "the promise of the fast solver; where x(t) is flat the spread of y over t with x(t) within 8 ulps is allowed on top"
        ),
        Tolerance(
            name: "conversions.pop", value: 1e-9,
            reason:
                "Pop's own round trips (bounciness 12, speed 5; tension 240, friction 25) hold to this in Pop's tests"),
        Tolerance(
            name: "conversions.swiftui", value: 1e-12,
            reason:
                "response, damping fraction, duration and bounce are a few multiplications and square roots: relative error of a few ulps"
        ),
        Tolerance(
            name: "conversions.settling", value: 1e-9,
            reason:
                "both the solver and GSL's brent find the crossing to a few ulps of time; relative 1e-9 allows for a flat crossing"
        ),
    ]

    /// Gates for an engine under verification (`kinetics verify
    /// --engine-command`): none has a default, because how close an outside
    /// engine must be is its author's decision. Without one, its errors are
    /// reported, not checked. `engine` holds for every suite; a suite's own
    /// name overrides it there.
    public static let engineGates: [(name: String, reason: String)] = [
        ("engine", "an engine's error against GSL in every suite it runs; no default: set it to gate CI"),
        ("engine.spring", "an engine's spring error over the amplitude; overrides `engine` for springs"),
        (
            "engine.decay",
            "an engine's decay error against the continuous law, over the total throw; overrides `engine`"
        ),
        ("engine.bezier", "an engine's bezier error over max(1, |y1|, |y2|); overrides `engine` for curves"),
    ]

    private var values: [String: Double]
    private var gates: [String: Double] = [:]

    /// The defaults, with `overrides` replacing some of them.
    ///
    /// - Throws: ``VerificationError`` for an unknown name or a value that is
    ///   not finite and > 0.
    public init(overrides: [String: Double] = [:]) throws(VerificationError) {
        var values = Dictionary(uniqueKeysWithValues: Self.defaults.map { ($0.name, $0.value) })
        var gates: [String: Double] = [:]
        for (name, value) in overrides {
            let isGate = Self.engineGates.contains { $0.name == name }
            guard values[name] != nil || isGate else {
                let names = (Self.defaults.map(\.name) + Self.engineGates.map(\.name)).joined(separator: ", ")
                throw .usage("unknown tolerance '\(name)'; the names are \(names)")
            }
            guard value.isFinite, value > 0 else {
                throw .usage("tolerance \(name) must be a finite number > 0, got \(value)")
            }
            if isGate { gates[name] = value } else { values[name] = value }
        }
        self.values = values
        self.gates = gates
    }

    /// The tolerances that differ from their defaults, and the engine gates
    /// that were set, by name: `Tolerances(overrides: t.overrides) == t`.
    public var overrides: [String: Double] {
        var result = gates
        for tolerance in Self.defaults where values[tolerance.name] != tolerance.value {
            result[tolerance.name] = values[tolerance.name]
        }
        return result
    }

    /// The engine gates that were set, by name.
    public var engineGateValues: [String: Double] { gates }

    /// The engine gate for `suite` (`engine.spring`, else `engine`) and its
    /// name, or nil when none was set.
    public func engineGate(_ suite: VerificationSuite) -> (name: String, value: Double)? {
        let own = "engine.\(suite.rawValue)"
        if let value = gates[own] { return (own, value) }
        return gates["engine"].map { ("engine", $0) }
    }

    /// The value of the tolerance `name`, or nil when there is none of
    /// that name (as in a report from elsewhere).
    func value(named name: String) -> Double? { values[name] }

    /// The value of the tolerance `name` (one of ``defaults``).
    public subscript(name: String) -> Double {
        guard let value = values[name] else { preconditionFailure("no tolerance named \(name)") }
        return value
    }

    /// Reads `NAME=VALUE`.
    ///
    /// - Throws: ``VerificationError`` when the text is not of that form.
    public static func parse(_ text: String) throws(VerificationError) -> (name: String, value: Double) {
        let parts = text.split(separator: "=", maxSplits: 1).map(String.init)
        guard parts.count == 2, let value = Double(parts[1]) else {
            throw .usage("--tolerance takes NAME=VALUE, for example spring.rk4=1e-8, got '\(text)'")
        }
        return (parts[0], value)
    }
}

/// A problem that stops a verification run.
public enum VerificationError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The request itself is wrong (unknown suite, method or tolerance).
    case usage(String)
    /// The GSL reference failed for a case.
    case reference(String)

    /// The message, one line.
    public var description: String {
        switch self {
        case .usage(let message), .reference(let message): message
        }
    }
}
