import ArgumentParser
import Kinetics
import KineticsBench
import KineticsInput

/// `kinetics convert`: one spring in every parameterisation.
struct Convert: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print a spring in every parameterisation, with its damping ratio and settling duration.",
        discussion: """
            Give exactly one spring: --tension/--friction [--mass], --bounciness/--speed, \
            --stiffness/--damping [--mass], --stiffness/--damping-ratio [--mass], \
            --response/--damping-fraction [--mass], --duration/--bounce [--mass], \
            --origami-tension/--origami-friction (Rebound, React Native), or Motion's \
            --motion-visual-duration/--bounce or --motion-duration/--bounce.
            The settling duration is the exact last time a unit step from rest is --epsilon or \
            more from its target. bounciness and speed are null (n/a) where Pop's mapping has \
            no answer; settlingDuration is null (infinite) for an undamped spring.
            """
    )

    @OptionGroup var spring: SpringOptions
    @Option(parsing: .unconditional, help: "Settling band as a fraction of the displacement.")
    var epsilon: Double = 0.001
    @Option(help: "Output: text or json.")
    var format: TextFormat = .text

    enum TextFormat: String, ExpressibleByArgument, CaseIterable {
        case text
        case json
    }

    func validate() throws {
        try OptionCheck.positive(epsilon, "--epsilon")
    }

    /// Every parameterisation of one spring; `nil` where there is no answer.
    struct Conversions: Encodable {
        let tension, friction, mass: Double
        let bounciness, speed: Double?
        let stiffness, damping, dampingRatio: Double
        let response, dampingFraction: Double
        let duration, bounce: Double
        let settlingDuration: Double?
        let epsilon: Double

        init(_ spring: SpringParameters, epsilon: Double) throws {
            tension = spring.tension
            friction = spring.friction
            mass = spring.mass
            let pop = spring.popBouncinessAndSpeed
            bounciness = pop?.bounciness
            speed = pop?.speed
            stiffness = spring.tension
            damping = spring.friction
            dampingRatio = spring.dampingRatio
            response = spring.response
            dampingFraction = spring.dampingFraction
            duration = spring.duration
            bounce = spring.bounce
            let settling = try spring.settlingDuration(epsilon: epsilon)
            settlingDuration = settling.isFinite ? settling : nil
            self.epsilon = epsilon
        }

        enum CodingKeys: String, CodingKey {
            case tension, friction, mass, bounciness, speed, stiffness, damping, dampingRatio
            case response, dampingFraction, duration, bounce, settlingDuration, epsilon
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            for (key, value) in rows {
                try container.encode(value, forKey: key)
            }
            try container.encode(epsilon, forKey: .epsilon)
        }

        /// Every key with its value, in the documented order.
        var rows: [(CodingKeys, Double?)] {
            [
                (.tension, tension), (.friction, friction), (.mass, mass),
                (.bounciness, bounciness), (.speed, speed),
                (.stiffness, stiffness), (.damping, damping), (.dampingRatio, dampingRatio),
                (.response, response), (.dampingFraction, dampingFraction),
                (.duration, duration), (.bounce, bounce), (.settlingDuration, settlingDuration),
            ]
        }
    }

    func run() throws {
        let conversions = try Conversions(try spring.resolve(), epsilon: epsilon)
        var output = StandardOutput()
        switch format {
        case .json:
            try output.line(try jsonText(conversions))
        case .text:
            for (key, value) in conversions.rows {
                let name = key.stringValue.padding(toLength: 18, withPad: " ", startingAt: 0)
                try output.line(name + (value.map { csvNumber($0) + unit(key) } ?? missing(key)))
            }
        }
        try output.flush()
    }

    private func missing(_ key: Conversions.CodingKeys) -> String {
        key == .settlingDuration ? "infinite (undamped)" : "n/a (outside Pop's mapping)"
    }

    private func unit(_ key: Conversions.CodingKeys) -> String {
        switch key {
        case .response, .duration: " s"
        case .settlingDuration: " s (|displacement| < \(csvNumber(epsilon)) after it)"
        default: ""
        }
    }
}
