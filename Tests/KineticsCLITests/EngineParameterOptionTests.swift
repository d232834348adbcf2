import Foundation
import Kinetics
import Testing

@Suite("CLI: springs and decays given in other engines' forms")
struct EngineParameterOptionTests {
    @Test(
        "each engine's form traces the spring its conversion gives, written as tension, friction and mass",
        arguments: [
            (
                ["--origami-tension", "40", "--origami-friction", "7"],
                try! SpringParameters(origamiTension: 40, origamiFriction: 7)
            ),
            (
                ["--stiffness", "381.47", "--damping-ratio", "0.5"],
                try! SpringParameters(stiffness: 381.47, dampingRatio: 0.5)
            ),
            (
                ["--motion-visual-duration", "0.3", "--bounce", "0.25"],
                try! SpringParameters(motionVisualDuration: 0.3, bounce: 0.25)
            ),
            (["--motion-duration", "0.8", "--bounce", "0.3"], try! SpringParameters(motionDuration: 0.8, bounce: 0.3)),
        ])
    func sameSpring(options: [String], spring: SpringParameters) throws {
        let quick = ["--seconds", "0.5", "--method", "analytic"]
        let given = try kinetics(["trace", "spring"] + options + quick)
        let physical = try kinetics(
            [
                "trace", "spring", "--tension", "\(spring.tension)", "--friction", "\(spring.friction)", "--mass",
                "\(spring.mass)",
            ]
                + quick)
        #expect(given.status == 0 && physical.status == 0, "\(given.stderr)\(physical.stderr)")
        #expect(given.stdout == physical.stdout)
    }

    @Test("a velocity per millisecond is a thousand per second; Motion's power scales a decay's velocity by power/τ")
    func velocities() throws {
        let perMillisecond = try kinetics("trace", "decay", "--velocity", "2.5", "--initial-velocity-unit", "ms")
        let perSecond = try kinetics("trace", "decay", "--velocity", "2500")
        #expect(perMillisecond.status == 0 && perMillisecond.stdout == perSecond.stdout, "\(perMillisecond.stderr)")
        let spring = try kinetics(
            "trace", "spring", "--bounciness", "4", "--speed", "12", "--velocity", "-0.5", "--initial-velocity-unit",
            "ms")
        #expect(spring.lines[1] == "0.0,0.0,-500.0", "\(spring.lines.prefix(2))")
        // Motion's inertia: 1000 units/s with power 0.8 and timeConstant 325 ms throws 800 in
        // all, the exponential of τ = 0.325 s from the velocity 0.8·1000/0.325.
        let inertia = try kinetics(
            "trace", "decay", "--velocity", "1000", "--time-constant", "0.325", "--power", "0.8", "--format", "json")
        // JSONDecoder, which reads a double's shortest digits back exactly (Foundation's
        // JSONSerialization on Linux can be an ulp off).
        struct Setup: Decodable { let velocity, deceleration: Double }
        let setup = try JSONDecoder().decode(Setup.self, from: Data(inertia.stdout.utf8))
        #expect(setup.velocity == 0.8 * 1000 / 0.325)
        #expect(setup.deceleration == (try DecayParameters(timeConstant: 0.325)).deceleration)
    }

    @Test(
        "a decay's law from its rate, time constant or Android friction is the one its deceleration gives",
        arguments: [
            (["--rate", "3"], try! DecayParameters(rate: 3)),
            (["--time-constant", "0.35"], try! DecayParameters(timeConstant: 0.35)),
            (["--fling-friction", "1.5"], try! DecayParameters(flingFriction: 1.5)),
        ])
    func decayLaws(options: [String], decay: DecayParameters) throws {
        let given = try kinetics(["trace", "decay", "--velocity", "1500", "--method", "continuous"] + options)
        let pop = try kinetics(
            [
                "trace", "decay", "--velocity", "1500", "--method", "continuous", "--deceleration",
                "\(decay.deceleration)",
            ])
        #expect(given.status == 0 && given.stdout == pop.stdout, "\(given.stderr)")
    }

    @Test(
        "the forms' mistakes exit 64 with one line naming the options",
        arguments: [
            (["trace", "spring", "--stiffness", "100"], "--stiffness needs --damping"),
            (
                ["trace", "spring", "--stiffness", "100", "--damping", "10", "--damping-ratio", "0.5"],
                "give one spring, not two: --stiffness/--damping and --stiffness/--damping-ratio"
            ),
            (
                ["trace", "spring", "--origami-tension", "40", "--origami-friction", "7", "--mass", "2"],
                "--mass must be left out with origamiTension/origamiFriction (Rebound and React Native fix the mass of an Origami spring at 1), got 2.0"
            ),
            (
                ["trace", "spring", "--motion-duration", "0", "--bounce", "0.3"],
                "--motion-duration must be a finite number > 0, got 0.0"
            ),
            (
                ["trace", "decay", "--velocity", "100", "--rate", "2", "--deceleration", "0.99"],
                "give one decay law, not two: --deceleration 0.99 and --rate 2.0"
            ),
            (["trace", "decay", "--velocity", "100", "--power", "0.8"], "--power needs --time-constant"),
            (
                ["trace", "decay", "--velocity", "100", "--fling-friction", "-1"],
                "--fling-friction must be a finite number > 0, got -1.0"
            ),
            (
                ["trace", "decay", "--velocity", "1e306", "--initial-velocity-unit", "ms"],
                "--velocity 1e+306 makes an initial velocity of inf per second"
            ),
        ])
    func mistakes(arguments: [String], message: String) throws {
        let result = try kinetics(arguments)
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stderr.contains(message), "\(result.stderr)")
    }

    @Test("`trace spring --help` has an option for every spring field the library resolves")
    func everyField() throws {
        let help = try kinetics("trace", "spring", "--help").stdout
        for name in SpringFields.names {
            let option = "--" + name.replacing(/[A-Z]/) { "-" + $0.output.lowercased() }
            #expect(help.contains(option + " <"), "\(option) is missing from the help")
        }
    }
}
