import Foundation
import Kinetics
import Testing

@Suite("CLI: trace")
struct TraceCommandTests {
    @Test("trace spring prints time,value,velocity for k = 0 … seconds·fps, and the values read back exactly")
    func springCSV() throws {
        let result = try kinetics(
            "trace", "spring", "--tension", "40", "--friction", "7", "--to", "100", "--method", "rk4")
        #expect(result.status == 0)
        #expect(result.stderr.isEmpty)
        let lines = result.lines
        #expect(lines.first == "time,value,velocity")
        #expect(lines.count == 1 + 121)
        #expect(lines[1] == "0.0,0.0,0.0")
        // The same stepper in-process gives the same doubles, bit for bit.
        var stepper = SpringStepper(
            parameters: try SpringParameters(tension: 40, friction: 7), method: .rk4, value: 0.0, target: 100.0)
        for k in 1 ... 120 {
            stepper.advance(by: Double(k) / 60 - Double(k - 1) / 60)
            let fields = lines[k + 1].split(separator: ",").map { Double($0)! }
            #expect(fields[0] == Double(k) / 60)
            #expect(fields[1].bitPattern == stepper.value.bitPattern, "frame \(k)")
            #expect(fields[2].bitPattern == stepper.velocity.bitPattern, "frame \(k)")
        }
    }

    @Test("every parameter set and method is accepted; the default method is pop")
    func parameterSets() throws {
        for set in [
            ["--tension", "200", "--friction", "10", "--mass", "2"], ["--bounciness", "4", "--speed", "12"],
            ["--stiffness", "170", "--damping", "26"], ["--response", "0.5", "--damping-fraction", "0.8"],
            ["--duration", "0.4", "--bounce", "-0.3"],
        ] {
            for method in ["pop", "fixed", "rk4", "analytic"] {
                let result = try kinetics(["trace", "spring"] + set + ["--method", method, "--seconds", "0.5"])
                #expect(result.status == 0, "\(set) \(method): \(result.stderr)")
                #expect(result.lines.count == 32)
            }
        }
        let pop = try kinetics("trace", "spring", "--bounciness", "4", "--speed", "12")
        let explicit = try kinetics("trace", "spring", "--bounciness", "4", "--speed", "12", "--method", "pop")
        #expect(pop.stdout == explicit.stdout)
    }

    @Test("negative values work written either way")
    func negativeValues() throws {
        let spaced = try kinetics("trace", "decay", "--velocity", "-2500", "--from", "-3")
        let joined = try kinetics("trace", "decay", "--velocity=-2500", "--from=-3")
        #expect(spaced.status == 0 && spaced.stdout == joined.stdout)
        #expect(spaced.lines[1] == "0.0,-3.0,-2500.0")
    }

    @Test("JSON carries the samples and the parameters used")
    func json() throws {
        let result = try kinetics(
            "trace", "spring", "--bounciness", "4", "--speed", "12", "--format", "json", "--fps", "120")
        struct Trace: Decodable {
            let method: String
            let fps: Double
            let parameters: [String: Double]
            let samples: [[String: Double]]
        }
        let object = try decodeJSON(Trace.self, result.stdout)
        #expect(object.method == "pop")
        #expect(object.fps == 120)
        #expect(object.parameters["tension"] == SpringParameters.popDefault.tension)
        let samples = object.samples
        #expect(samples.count == 241)
        let csv = try kinetics("trace", "spring", "--bounciness", "4", "--speed", "12", "--fps", "120")
        let last = csv.lines.last!.split(separator: ",").map { Double($0)! }
        #expect(samples.last!["value"] == last[1] && samples.last!["velocity"] == last[2])
    }

    @Test("trace decay and trace bezier")
    func decayAndBezier() throws {
        let decay = try kinetics(
            "trace", "decay", "--velocity", "1000", "--method", "exact", "--fps", "30", "--seconds", "1")
        #expect(decay.lines.first == "time,value,velocity" && decay.lines.count == 32)
        var stepper = DecayStepper(parameters: .popDefault, method: .exact, value: 0.0, velocity: 1000.0)
        for k in 1 ... 30 { stepper.advance(by: Double(k) / 30 - Double(k - 1) / 30) }
        #expect(decay.lines.last == "1.0,\(stepper.value),\(stepper.velocity)")

        let bezier = try kinetics("trace", "bezier", "--curve", "ease-in-out", "--samples", "5")
        #expect(
            bezier.lines == [
                "x,y", "0.0,\(UnitBezier.easeInEaseOut.solveWebKit(0, epsilon: 1.0 / 400))",
                "0.25,\(UnitBezier.easeInEaseOut.solveWebKit(0.25, epsilon: 1.0 / 400))",
                "0.5,\(UnitBezier.easeInEaseOut.solveWebKit(0.5, epsilon: 1.0 / 400))",
                "0.75,\(UnitBezier.easeInEaseOut.solveWebKit(0.75, epsilon: 1.0 / 400))",
                "1.0,\(UnitBezier.easeInEaseOut.solveWebKit(1, epsilon: 1.0 / 400))",
            ])
        let custom = try kinetics(
            "trace", "bezier", "--curve", "0.25,0,0.75,1", "--method", "precise", "--samples", "21")
        #expect(custom.lines[2] == "0.05,\(try UnitBezier(x1: 0.25, y1: 0, x2: 0.75, y2: 1).solvePrecise(0.05))")
        let json = try kinetics(
            "trace", "bezier", "--curve", "default", "--format", "json", "--samples", "3", "--method", "fast")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(object["curve"] as? [Double] == [0.25, 0.1, 0.25, 1])
        #expect(object["epsilon"] == nil)
    }
}
