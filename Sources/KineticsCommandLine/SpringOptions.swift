import ArgumentParser
import Foundation
import Kinetics

/// The five ways to give a spring on the command line; exactly one is used.
struct SpringOptions: ParsableArguments {
    @Option(parsing: .unconditional, help: "Tension (with --friction, optional --mass).")
    var tension: Double?
    @Option(parsing: .unconditional, help: "Friction (with --tension).")
    var friction: Double?
    @Option(
        parsing: .unconditional,
        help:
            "Mass, default 1 (with --tension/--friction, --stiffness/--damping, --response/--damping-fraction or --duration/--bounce)."
    )
    var mass: Double?
    @Option(parsing: .unconditional, help: "Pop's bounciness, 0…34 (with --speed).")
    var bounciness: Double?
    @Option(parsing: .unconditional, help: "Pop's speed, >= 0 (with --bounciness).")
    var speed: Double?
    @Option(parsing: .unconditional, help: "Stiffness (with --damping, optional --mass).")
    var stiffness: Double?
    @Option(parsing: .unconditional, help: "Damping (with --stiffness).")
    var damping: Double?
    @Option(parsing: .unconditional, help: "Response: the undamped period in seconds (with --damping-fraction).")
    var response: Double?
    @Option(parsing: .unconditional, help: "Damping fraction ζ (with --response).")
    var dampingFraction: Double?
    @Option(parsing: .unconditional, help: "SwiftUI/Flutter perceptual duration in seconds (with --bounce).")
    var duration: Double?
    @Option(parsing: .unconditional, help: "SwiftUI/Flutter bounce, in (-1, 1] (with --duration).")
    var bounce: Double?

    /// Checks that the options given make one complete parameter set (the
    /// commands that need a spring also reject none, when they resolve it).
    func validate() throws {
        if !fields.isEmpty { _ = try resolve() }
    }

    /// The options as the library's parameter fields.
    private var fields: SpringFields {
        var fields = SpringFields()
        fields.tension = tension
        fields.friction = friction
        fields.mass = mass
        fields.bounciness = bounciness
        fields.speed = speed
        fields.stiffness = stiffness
        fields.damping = damping
        fields.response = response
        fields.dampingFraction = dampingFraction
        fields.duration = duration
        fields.bounce = bounce
        return fields
    }

    /// The options given, by their field names, with their values.
    private var given: [(field: String, value: Double)] {
        let all: [(String, Double?)] = [
            ("tension", tension), ("friction", friction), ("mass", mass), ("bounciness", bounciness),
            ("speed", speed), ("stiffness", stiffness), ("damping", damping), ("response", response),
            ("dampingFraction", dampingFraction), ("duration", duration), ("bounce", bounce),
        ]
        return all.compactMap { field, value in value.map { (field, $0) } }
    }

    /// The spring the options describe.
    ///
    /// - Throws: `ValidationError` (exit 64) naming the options when none or
    ///   two sets are given, a set is incomplete, `--mass` goes with Pop's
    ///   mapping, or a value is outside its range.
    func resolve(defaultingTo fallback: SpringParameters? = nil) throws -> SpringParameters {
        let fields = self.fields
        if let fallback, fields.isEmpty { return fallback }
        do {
            return try fields.resolve()
        } catch {
            if case .none = error, let mass {
                throw ValidationError(Self.message(error) + " (--mass \(mass) alone is not a spring)")
            }
            // A parameter the options map to (Pop's bounciness and speed
            // give a tension and a friction): the options that gave it.
            if case .parameter(let problem) = error, !given.contains(where: { $0.field == problem.parameter }) {
                let options = given.map { "\(ParameterError.optionName($0.field)) \($0.value)" }.joined(separator: " ")
                throw ValidationError(
                    "\(options) make the spring's \(problem.parameter) \(problem.value), which must be \(problem.accepted)"
                )
            }
            throw ValidationError(Self.message(error))
        }
    }

    /// A problem in the words of the command line.
    static func message(_ problem: SpringFields.Problem) -> String {
        func option(_ field: String) -> String { ParameterError.optionName(field) }
        switch problem {
        case .none:
            return "give one spring: "
                + SpringFields.sets.map { $0.map(option).joined(separator: "/") }
                .joined(separator: ", ").replacingLastComma(with: " or")
        case .twoSets(let a, let b):
            return
                "give one spring, not two: \(a.map(option).joined(separator: "/")) and \(b.map(option).joined(separator: "/"))"
        case .incomplete(let field, let partner):
            return "\(option(field)) needs \(option(partner))"
        case .massWithBounciness:
            return "--mass does not apply to --bounciness/--speed (Pop's mapping fixes the mass at 1)"
        case .parameter(let error):
            return error.commandLineDescription
        }
    }
}

extension String {
    /// `a, b, c` → `a, b or c`.
    func replacingLastComma(with word: String) -> String {
        guard let range = range(of: ",", options: .backwards) else { return self }
        return replacingCharacters(in: range, with: word)
    }
}

extension ParameterError {
    /// The error with the parameter written as its option: `--damping-fraction
    /// must be a finite number >= 0, got -1.0`.
    var commandLineDescription: String {
        "\(Self.optionName(parameter)) must be \(accepted), got \(value)"
    }

    /// `dampingFraction` → `--damping-fraction`.
    static func optionName(_ parameter: String) -> String {
        var name = "--"
        for character in parameter {
            if character.isUppercase {
                name += "-" + character.lowercased()
            } else {
                name.append(character)
            }
        }
        return name
    }
}

/// Checks shared by the subcommands' options.
enum OptionCheck {
    /// Reads a whole number in `range` for an option's `transform`: any
    /// other text (`1e12`, `2.5`, `x`, a number out of the range) is refused
    /// with the range, which argument-parser's own message for an `Int`
    /// does not give.
    static func wholeNumber(in range: ClosedRange<Int>) -> @Sendable (String) throws -> Int {
        { text in
            guard let value = Int(text), range.contains(value) else {
                throw ValidationError(
                    "the accepted values are whole numbers in [\(range.lowerBound), \(range.upperBound)]")
            }
            return value
        }
    }

    /// `value` must be finite and > 0.
    static func positive(_ value: Double, _ option: String) throws {
        guard value.isFinite, value > 0 else {
            throw ValidationError("\(option) must be a finite number > 0, got \(value)")
        }
    }

    /// Each option's value must be finite; the first that is not, in the
    /// order given, is named.
    static func finite(_ values: KeyValuePairs<String, Double>) throws {
        for (option, value) in values where !value.isFinite {
            throw ValidationError("\(option) must be a finite number, got \(value)")
        }
    }
}

/// How a command writes its samples.
enum SampleFormat: String, ExpressibleByArgument, CaseIterable {
    case csv
    case json
}

/// The spring methods to run for `spring`: those asked for, each of which
/// must stay bounded for it (else a usage error naming the method), or,
/// when none was asked for, every method that does.
func springMethods(_ asked: [SpringMethod], for spring: SpringParameters) throws -> [SpringMethod] {
    if asked.isEmpty { return SpringMethod.allCases.filter { $0.isStable(for: spring) } }
    for method in asked {
        do {
            try method.checkStable(for: spring)
        } catch {
            throw ValidationError("--method \(method.rawValue): \(error)")
        }
    }
    return asked
}

/// Where a spring starts and goes: `--from`, `--to`, `--velocity`.
struct SpringMotionOptions: ParsableArguments {
    @Option(parsing: .unconditional, help: "Start value.")
    var from: Double = 0
    @Option(parsing: .unconditional, help: "Target value.")
    var to: Double = 1
    @Option(parsing: .unconditional, help: "Initial velocity, units per second.")
    var velocity: Double = 0

    func validate() throws {
        try OptionCheck.finite(["--from": from, "--to": to, "--velocity": velocity])
        guard (to - from).isFinite else {
            throw ValidationError(
                "--from \(from) and --to \(to) are \(to - from) apart: the distance must be finite, within \(Limit.doubleRange)"
            )
        }
    }

    /// The options as a report names them.
    var described: [(String, String)] { [("from", "\(from)"), ("to", "\(to)"), ("velocity", "\(velocity)")] }
}

/// A decay: `--velocity`, `--from`, `--deceleration`.
struct DecayOptions: ParsableArguments {
    @Option(parsing: .unconditional, help: "Initial velocity, units per second.")
    var velocity: Double
    @Option(parsing: .unconditional, help: "Start value.")
    var from: Double = 0
    @Option(parsing: .unconditional, help: "Velocity factor per millisecond, in (0, 1).")
    var deceleration: Double = DecayParameters.popDefault.deceleration

    func validate() throws {
        try OptionCheck.finite(["--velocity": velocity, "--from": from])
        do {
            _ = try DecayParameters(deceleration: deceleration)
        } catch {
            throw ValidationError(error.commandLineDescription)
        }
    }

    /// The options as a report names them.
    var described: [(String, String)] {
        [("deceleration", "\(deceleration)"), ("from", "\(from)"), ("velocity", "\(velocity)")]
    }
}
