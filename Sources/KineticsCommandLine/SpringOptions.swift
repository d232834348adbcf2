import ArgumentParser
import Foundation
import Kinetics

/// The ways to give a spring on the command line (the sets of
/// ``SpringFields``); exactly one is used.
struct SpringOptions: ParsableArguments {
    @Option(parsing: .unconditional, help: "Tension: the physical stiffness (with --friction, optional --mass).")
    var tension: Double?
    @Option(parsing: .unconditional, help: "Friction: the physical damping (with --tension).")
    var friction: Double?
    @Option(
        parsing: .unconditional,
        help:
            "Mass, default 1 (with --tension/--friction, --stiffness/--damping, --stiffness/--damping-ratio, --response/--damping-fraction or --duration/--bounce)."
    )
    var mass: Double?
    @Option(parsing: .unconditional, help: "Pop's bounciness, 0…34 (with --speed).")
    var bounciness: Double?
    @Option(parsing: .unconditional, help: "Pop's speed, >= 0 (with --bounciness).")
    var speed: Double?
    @Option(parsing: .unconditional, help: "Stiffness (with --damping or --damping-ratio, optional --mass).")
    var stiffness: Double?
    @Option(parsing: .unconditional, help: "Damping (with --stiffness).")
    var damping: Double?
    @Option(
        parsing: .unconditional,
        help: "Damping ratio ζ, as Android's SpringForce and Compose's spring take it (with --stiffness).")
    var dampingRatio: Double?
    @Option(parsing: .unconditional, help: "Response: the undamped period in seconds (with --damping-fraction).")
    var response: Double?
    @Option(parsing: .unconditional, help: "Damping fraction ζ (with --response).")
    var dampingFraction: Double?
    @Option(parsing: .unconditional, help: "SwiftUI/Flutter perceptual duration in seconds (with --bounce).")
    var duration: Double?
    @Option(
        parsing: .unconditional,
        help:
            "Bounce: SwiftUI/Flutter's, in (-1, 1] (with --duration), or Motion's (with --motion-visual-duration or --motion-duration)."
    )
    var bounce: Double?
    @Option(
        parsing: .unconditional,
        help: "Origami tension, as Rebound and React Native's tension/friction take it (with --origami-friction).")
    var origamiTension: Double?
    @Option(parsing: .unconditional, help: "Origami friction (with --origami-tension).")
    var origamiFriction: Double?
    @Option(parsing: .unconditional, help: "Motion's visualDuration, in seconds (with --bounce).")
    var motionVisualDuration: Double?
    @Option(parsing: .unconditional, help: "Motion's duration (its findSpring), in seconds (with --bounce).")
    var motionDuration: Double?

    /// Checks that the options given make one complete parameter set (the
    /// commands that need a spring also reject none, when they resolve it).
    func validate() throws {
        if !fields.isEmpty { _ = try resolve() }
    }

    /// The options given, by their field names (those of ``SpringFields``), with their values.
    private var given: [(field: String, value: Double)] {
        let all: [(String, Double?)] = [
            ("tension", tension), ("friction", friction), ("mass", mass), ("bounciness", bounciness),
            ("speed", speed), ("stiffness", stiffness), ("damping", damping), ("dampingRatio", dampingRatio),
            ("response", response), ("dampingFraction", dampingFraction), ("duration", duration), ("bounce", bounce),
            ("origamiTension", origamiTension), ("origamiFriction", origamiFriction),
            ("motionVisualDuration", motionVisualDuration), ("motionDuration", motionDuration),
        ]
        return all.compactMap { field, value in value.map { (field, $0) } }
    }

    /// The options as the library's parameter fields.
    private var fields: SpringFields {
        var fields = SpringFields()
        for (field, value) in given { fields[field] = value }
        return fields
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

/// The unit of a velocity option: per second, or per millisecond as
/// react-spring, wobble and React Native's decays give it.
enum VelocityUnit: String, ExpressibleByArgument, CaseIterable {
    case s
    case ms

    /// The factor from this unit to units per second.
    var perSecond: Double { self == .s ? 1 : 1_000 }
}

/// Where a spring starts and goes: `--from`, `--to`, `--velocity`.
struct SpringMotionOptions: ParsableArguments {
    @Option(parsing: .unconditional, help: "Start value.")
    var from: Double = 0
    @Option(parsing: .unconditional, help: "Target value.")
    var to: Double = 1
    @Option(
        name: .customLong("velocity"), parsing: .unconditional,
        help: "Initial velocity, units per second (per millisecond with --initial-velocity-unit ms).")
    var givenVelocity: Double = 0
    @Option(
        parsing: .unconditional,
        help: "The unit of --velocity: s (per second) or ms (per millisecond; a trace's column has --velocity-unit).")
    var initialVelocityUnit: VelocityUnit = .s

    /// The initial velocity in units per second.
    var velocity: Double { givenVelocity * initialVelocityUnit.perSecond }

    func validate() throws {
        try OptionCheck.finite(["--from": from, "--to": to, "--velocity": givenVelocity])
        guard (to - from).isFinite else {
            throw ValidationError(
                "--from \(from) and --to \(to) are \(to - from) apart: the distance must be finite, within \(Limit.doubleRange)"
            )
        }
        guard velocity.isFinite else {
            throw ValidationError(
                "--velocity \(givenVelocity) per millisecond is \(velocity) per second: it must be finite, within \(Limit.doubleRange)"
            )
        }
    }

    /// The options as a report names them.
    var described: [(String, String)] { [("from", "\(from)"), ("to", "\(to)"), ("velocity", "\(velocity)")] }
}

/// A decay: `--velocity`, `--from`, and its law as Pop's `--deceleration`
/// or one of the other engines' forms (`--rate`, `--time-constant` with an
/// optional `--power`, `--fling-friction`).
struct DecayOptions: ParsableArguments {
    @Option(
        name: .customLong("velocity"), parsing: .unconditional,
        help: "Initial velocity, units per second (per millisecond with --initial-velocity-unit ms).")
    var givenVelocity: Double
    @Option(
        parsing: .unconditional,
        help: "The unit of --velocity: s (per second) or ms (per millisecond; a trace's column has --velocity-unit).")
    var initialVelocityUnit: VelocityUnit = .s
    @Option(parsing: .unconditional, help: "Start value.")
    var from: Double = 0
    @Option(
        name: .customLong("deceleration"), parsing: .unconditional,
        help: "Pop's and UIScrollView's velocity factor per millisecond, in (0, 1); default 0.998.")
    var givenDeceleration: Double?
    @Option(parsing: .unconditional, help: "The velocity's decay rate λ per second: v(t) = v0·e^(-λt).")
    var rate: Double?
    @Option(
        parsing: .unconditional,
        help: "The velocity's time constant τ in seconds, v(t) = v0·e^(-t/τ) (Motion's inertia: timeConstant/1000).")
    var timeConstant: Double?
    @Option(
        parsing: .unconditional,
        help:
            "Motion's inertia power (with --time-constant): the throw is power × velocity, so the initial velocity is power × velocity / τ."
    )
    var power: Double?
    @Option(parsing: .unconditional, help: "Android's FlingAnimation friction: the rate is 4.2 × friction per second.")
    var flingFriction: Double?

    /// The forms of the decay's law given, as options with their values.
    private var laws: [(option: String, value: Double)] {
        let all: [(String, Double?)] = [
            ("--deceleration", givenDeceleration), ("--rate", rate), ("--time-constant", timeConstant),
            ("--fling-friction", flingFriction),
        ]
        return all.compactMap { option, value in value.map { (option, $0) } }
    }

    /// The decay's law.
    ///
    /// - Throws: `ValidationError` naming the option when two laws are
    ///   given, or one is out of its range.
    func parameters() throws -> DecayParameters {
        let laws = self.laws
        guard laws.count <= 1 else {
            throw ValidationError(
                "give one decay law, not two: \(laws[0].option) \(laws[0].value) and \(laws[1].option) \(laws[1].value)"
            )
        }
        do {
            switch laws.first?.option {
            case "--rate": return try DecayParameters(rate: laws[0].value)
            case "--time-constant": return try DecayParameters(timeConstant: laws[0].value)
            case "--fling-friction": return try DecayParameters(flingFriction: laws[0].value)
            case "--deceleration": return try DecayParameters(deceleration: laws[0].value)
            default: return .popDefault
            }
        } catch {
            throw ValidationError(error.commandLineDescription)
        }
    }

    /// The decay's velocity factor per millisecond.
    var deceleration: Double { (try? parameters())?.deceleration ?? DecayParameters.popDefault.deceleration }

    /// The initial velocity in units per second: `--velocity` in its unit,
    /// times `power/τ` when `--power` is given (Motion's inertia throws
    /// `power × velocity` in all, which an exponential of time constant τ
    /// does from the velocity `power × velocity / τ`).
    var velocity: Double {
        let perSecond = givenVelocity * initialVelocityUnit.perSecond
        guard let power, let timeConstant else { return perSecond }
        return power * perSecond / timeConstant
    }

    func validate() throws {
        try OptionCheck.finite(["--velocity": givenVelocity, "--from": from])
        _ = try parameters()
        if let power {
            guard timeConstant != nil else { throw ValidationError("--power needs --time-constant") }
            try OptionCheck.positive(power, "--power")
        }
        guard velocity.isFinite else {
            throw ValidationError(
                "--velocity \(givenVelocity) makes an initial velocity of \(velocity) per second: it must be finite, within \(Limit.doubleRange)"
            )
        }
    }

    /// The options as a report names them.
    var described: [(String, String)] {
        [("deceleration", "\(deceleration)"), ("from", "\(from)"), ("velocity", "\(velocity)")]
    }
}
