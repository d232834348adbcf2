import ArgumentParser
import Kinetics

/// The five ways to give a spring on the command line; exactly one is used.
struct SpringOptions: ParsableArguments {
    @Option(parsing: .unconditional, help: "Tension (with --friction, optional --mass).")
    var tension: Double?
    @Option(parsing: .unconditional, help: "Friction (with --tension).")
    var friction: Double?
    @Option(
        parsing: .unconditional,
        help: "Mass, default 1 (with --tension/--friction, --stiffness/--damping, --response/--damping-fraction or --duration/--bounce).")
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
    @Option(name: .customLong("damping-fraction"), parsing: .unconditional, help: "Damping fraction ζ (with --response).")
    var dampingFraction: Double?
    @Option(parsing: .unconditional, help: "SwiftUI/Flutter perceptual duration in seconds (with --bounce).")
    var duration: Double?
    @Option(parsing: .unconditional, help: "SwiftUI/Flutter bounce, in (-1, 1] (with --duration).")
    var bounce: Double?

    /// The parameter sets given, each as its options' names and values.
    private var givenSets: [(names: [String], values: [Double?])] {
        [
            (["--tension", "--friction"], [tension, friction]),
            (["--bounciness", "--speed"], [bounciness, speed]),
            (["--stiffness", "--damping"], [stiffness, damping]),
            (["--response", "--damping-fraction"], [response, dampingFraction]),
            (["--duration", "--bounce"], [duration, bounce]),
        ].filter { $0.1.contains { $0 != nil } }
    }

    /// Checks that exactly one complete parameter set is given.
    func validate() throws {
        _ = try resolve()
    }

    /// The spring the options describe.
    ///
    /// - Throws: `ValidationError` (exit 64) naming the options when none or
    ///   two sets are given, a set is incomplete, `--mass` goes with Pop's
    ///   mapping, or a value is outside its range.
    func resolve() throws -> SpringParameters {
        let sets = givenSets
        guard let set = sets.first else {
            throw ValidationError(
                "give one spring: --tension/--friction, --bounciness/--speed, --stiffness/--damping, --response/--damping-fraction or --duration/--bounce")
        }
        guard sets.count == 1 else {
            let names = sets.map { $0.names.joined(separator: "/") }.joined(separator: " and ")
            throw ValidationError("give one spring, not two: \(names)")
        }
        for (name, value) in zip(set.names, set.values) where value == nil {
            let partner = set.names.first { $0 != name }!
            throw ValidationError("\(partner) needs \(name)")
        }
        let m = mass ?? 1
        do {
            switch set.names[0] {
            case "--tension": return try SpringParameters(tension: tension!, friction: friction!, mass: m)
            case "--bounciness":
                if mass != nil {
                    throw ValidationError("--mass does not apply to --bounciness/--speed (Pop's mapping fixes the mass at 1)")
                }
                return try SpringParameters(bounciness: bounciness!, speed: speed!)
            case "--stiffness": return try SpringParameters(stiffness: stiffness!, damping: damping!, mass: m)
            case "--response": return try SpringParameters(response: response!, dampingFraction: dampingFraction!, mass: m)
            default: return try SpringParameters(duration: duration!, bounce: bounce!, mass: m)
            }
        } catch let error as ParameterError {
            throw ValidationError(error.commandLineDescription)
        }
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
    /// `value` must be finite and > 0.
    static func positive(_ value: Double, _ option: String) throws {
        guard value.isFinite, value > 0 else {
            throw ValidationError("\(option) must be a finite number > 0, got \(value)")
        }
    }

    /// `value` must be finite.
    static func finite(_ value: Double, _ option: String) throws {
        guard value.isFinite else {
            throw ValidationError("\(option) must be a finite number, got \(value)")
        }
    }
}

/// How a command writes its samples.
enum SampleFormat: String, ExpressibleByArgument, CaseIterable {
    case csv
    case json
}

extension SpringMethod: ExpressibleByArgument {}
extension DecayMethod: ExpressibleByArgument {}
extension BezierMethod: ExpressibleByArgument {}
