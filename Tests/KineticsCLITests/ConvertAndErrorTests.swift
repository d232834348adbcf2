import Foundation
import Kinetics
import Testing

@Suite("CLI: convert, errors and the default command")
struct ConvertAndErrorTests {
    @Test("convert --format json gives every documented key")
    func convertJSON() throws {
        let result = try kinetics("convert", "--tension", "240", "--friction", "25", "--format", "json")
        #expect(result.status == 0)
        let object = try decodeJSON([String: Double?].self, result.stdout)
        for key in [
            "tension", "friction", "mass", "bounciness", "speed", "stiffness", "damping", "dampingRatio",
            "response", "dampingFraction", "duration", "bounce", "settlingDuration",
        ] {
            #expect(object[key] != nil && object[key]! != nil, "\(key)")
        }
        let spring = try SpringParameters(tension: 240, friction: 25)
        #expect(object["dampingRatio"] == spring.dampingRatio)
        #expect(object["settlingDuration"] == (try spring.settlingDuration(epsilon: 0.001)))
        #expect(object["bounciness"] == spring.popBouncinessAndSpeed?.bounciness)
    }

    @Test("convert from any set round-trips; an undamped spring has no settling time")
    func convertSets() throws {
        let text = try kinetics("convert", "--bounciness", "12", "--speed", "5")
        #expect(text.lines.count == 13)
        #expect(text.lines[3].hasPrefix("bounciness        12.0"))
        let swiftUI = try kinetics("convert", "--duration", "0.5", "--bounce", "0.25", "--format", "json")
        let object = try decodeJSON([String: Double?].self, swiftUI.stdout)
        #expect(abs(object["bounce"]!! - 0.25) < 1e-14)
        let undamped = try kinetics("convert", "--tension", "100", "--friction", "0", "--format", "json")
        let value = try decodeJSON([String: Double?].self, undamped.stdout)
        #expect(value.keys.contains("settlingDuration") && value["settlingDuration"]! == nil)
        let undampedText = try kinetics("convert", "--tension", "100", "--friction", "0")
        #expect(undampedText.stdout.contains("settlingDuration  infinite (undamped)"))
    }

    @Test(
        "bad input exits 64 with one line naming the option and its range",
        arguments: [
            (
                ["trace", "spring", "--tension", "100", "--friction", "10", "--mass", "0"],
                "--mass must be a finite number > 0, got 0.0"
            ),
            (
                ["trace", "spring", "--tension", "-1", "--friction", "10"],
                "--tension must be a finite number > 0, got -1.0"
            ),
            (
                ["trace", "spring", "--bounciness", "4", "--speed", "12", "--fps", "-60"],
                "--fps must be a finite number > 0, got -60.0"
            ),
            (
                ["trace", "spring", "--bounciness", "4", "--speed", "12", "--seconds", "nan"],
                "--seconds must be a finite number > 0, got nan"
            ),
            (
                ["trace", "spring", "--bounciness", "4", "--speed", "12", "--seconds", "inf"],
                "--seconds must be a finite number > 0, got inf"
            ),
            (
                ["trace", "spring", "--bounciness", "40", "--speed", "12"],
                "--bounciness must be in [0.0, 34.0], got 40.0"
            ),
            (
                ["trace", "spring", "--response", "0.5", "--damping-fraction", "-1"],
                "--damping-fraction must be a finite number >= 0, got -1.0"
            ),
            (["trace", "spring", "--duration", "0.5", "--bounce", "-1"], "--bounce must be in (-1, 1], got -1.0"),
            (
                ["trace", "spring", "--tension", "100", "--friction", "10", "--bounciness", "4", "--speed", "3"],
                "give one spring, not two: --tension/--friction and --bounciness/--speed"
            ),
            (
                ["trace", "spring"],
                "give one spring: --tension/--friction, --bounciness/--speed, --stiffness/--damping, --stiffness/--damping-ratio, --response/--damping-fraction, --duration/--bounce, --origami-tension/--origami-friction, --motion-visual-duration/--bounce or --motion-duration/--bounce"
            ),
            (["trace", "spring", "--tension", "100"], "--tension needs --friction"),
            (
                ["trace", "spring", "--bounciness", "4", "--speed", "12", "--mass", "2"],
                "--mass does not apply to --bounciness/--speed (Pop's mapping fixes the mass at 1)"
            ),
            (
                ["trace", "decay", "--velocity", "100", "--deceleration", "1"],
                "--deceleration must be in (0, 1), got 1.0"
            ),
            (
                ["trace", "decay", "--velocity", "100", "--deceleration", "0"],
                "--deceleration must be in (0, 1), got 0.0"
            ),
            (["trace", "decay", "--velocity", "nan"], "--velocity must be a finite number, got nan"),
            (["trace", "bezier", "--curve", "1.5,0,0.5,1"], "--curve: x1 must be in [0.0, 1.0], got 1.5"),
            (["trace", "bezier", "--curve", "0.5,0,-0.5,1"], "--curve: x2 must be in [0.0, 1.0], got -0.5"),
            (
                ["trace", "bezier", "--curve", "bouncy"],
                "--curve must be one of linear, default, ease-in, ease-out, ease-in-out or four numbers x1,y1,x2,y2, got 'bouncy'"
            ),
            (
                ["trace", "bezier", "--curve", "linear", "--samples", "0"],
                "The value '0' is invalid for '--samples <samples>': the accepted values are whole numbers in [2, 10000000]"
            ),
            (
                ["trace", "bezier", "--curve", "linear", "--samples", "-3"],
                "The value '-3' is invalid for '--samples <samples>': the accepted values are whole numbers in [2, 10000000]"
            ),
            (
                ["convert", "--tension", "100", "--friction", "10", "--epsilon", "0"],
                "--epsilon must be a finite number > 0, got 0.0"
            ),
            // --curve and --epsilon are shared by trace, plot and compare.
            (
                ["trace", "bezier", "--curve", "ease-in", "--epsilon", "0"],
                "--epsilon must be a finite number > 0, got 0.0"
            ),
            (
                ["plot", "bezier", "--curve", "ease-in", "--epsilon", "nan"],
                "--epsilon must be a finite number > 0, got nan"
            ),
            (["plot", "bezier", "--curve", "0,0,1.5,1"], "--curve: x2 must be in [0.0, 1.0], got 1.5"),
            (
                ["trace", "spring", "--tension", "1", "--friction", "1", "--fps", "1e6", "--seconds", "100"],
                "--seconds × --fps must give at most 10000000 frames, got 100000000 (--seconds 100.0, --fps 1000000.0)"
            ),
        ])
    func badInput(arguments: [String], message: String) throws {
        let result = try kinetics(arguments)
        #expect(result.status == 64, "\(arguments)")
        #expect(result.stdout.isEmpty)
        #expect(result.stderr == "kinetics: error: \(message)\n")
    }

    @Test("unknown options and methods are usage errors on one line")
    func parserErrors() throws {
        for arguments in [
            ["trace", "spring", "--tension", "1", "--friction", "1", "--method", "euler"],
            ["trace", "wobble"], ["convert", "--frobnicate", "3"],
        ] {
            let result = try kinetics(arguments)
            #expect(result.status == 64, "\(arguments)")
            #expect(result.stderr.hasPrefix("kinetics: error: "))
            #expect(result.stderr.filter { $0 == "\n" }.count == 1, "\(result.stderr)")
        }
    }

    @Test("--help succeeds and lists the subcommands and every exit status")
    func help() throws {
        let result = try kinetics("--help")
        #expect(result.status == 0)
        #expect(result.stdout.contains("trace") && result.stdout.contains("convert"))
        let flat = result.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        for status in [
            "1 a check failed", "2 a performance regression", "64 usage", "65 bad", "66 missing", "69 a needed tool",
            "73 cannot",
        ] {
            #expect(flat.contains(status), "\(status)")
        }
    }

    @Test(
        "an unknown option is reported first, with the nearest name, before what the recognised ones lack",
        arguments: [
            (["compare", "spring", "trace.csv", "--tension", "300", "--fricton", "12"], "--fricton", "--friction"),
            (["bench", "--animations", "0", "--framez", "3"], "--framez", "--frames"),
            (["gate", "--before", "a.so", "--confidenc", "2"], "--confidenc", "--confidence"),
            (["verify", "--format", "jsn", "--engine-comand", "x"], "--engine-comand", "--engine-command"),
            (["verify", "merge", "a.json", "--formt", "json"], "--formt", "--format"),
            // The default command (the report).
            (["--animations", "0", "--outptu", "r.html"], "--outptu", "--output"),
        ])
    func typoFirst(arguments: [String], typo: String, meant: String) throws {
        let result = try kinetics(arguments)
        #expect(result.status == 64)
        #expect(
            result.stderr == "kinetics: error: Unknown option '\(typo)'. Did you mean '\(meant)'?\n", "\(result.stderr)"
        )
    }

    @Test("the default command's own options are known: a bad value is named, not called an unknown option")
    func defaultCommandOptions() throws {
        let result = try kinetics(["--animations", "0"])
        #expect(result.status == 64)
        #expect(
            result.stderr
                == "kinetics: error: The value '0' is invalid for '--animations <animations>': the accepted values are whole numbers in [1, 100000]\n",
            "\(result.stderr)")
    }

    @Test("after '--', and as an option's value, what looks like an option is not reported as one")
    func valueNotTypo() throws {
        let result = try kinetics(["compare", "spring", "--tension", "300", "--friction", "12", "--", "--trace.csv"])
        #expect(result.status == 66, "\(result.stderr)")
        let value = try kinetics(["gate", "--before-command", "--x", "--after-command", "--y", "--frobnicate"])
        #expect(value.stderr == "kinetics: error: Unknown option '--frobnicate'.\n", "\(value.stderr)")
    }

    @Test("kinetics summary summarises every method against GSL")
    func summary() throws {
        let result = try kinetics("summary")
        #expect(result.status == 0)
        for method in SpringMethod.allCases {
            #expect(result.stdout.contains("\n\(method.rawValue)"), "\(method)")
        }
        #expect(result.stdout.contains("GSL"))
    }
}
