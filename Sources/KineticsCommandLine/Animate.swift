import ArgumentParser
import Foundation
import Kinetics
import KineticsBench
import KineticsInput
import KineticsScenario

/// `kinetics animate`: runs a scenario file on a manual frame clock.
struct Animate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run a scenario file and print every property per frame, or every event.",
        discussion: """
            The file format is described by data/schema/scenario.schema.json; examples are in \
            data/scenarios/. Values: CSV rows time,key,value (vectors as value0,value1,... columns). \
            Events (--events): time,key,event with event start, reached, repeat, marker:P, \
            stop:finished or stop:cancelled. Exit status: 0 success, 64 usage, 65 a malformed \
            scenario (the message names the JSON path), 66 a missing file.
            """
    )

    @Argument(help: "The scenario file (JSON).")
    var scenario: String
    @Option(help: "Output: csv or json.")
    var format: SampleFormat = .csv
    @Flag(help: "Print events instead of values.")
    var events = false

    func run() throws {
        let data = try readInput(scenario, limit: Scenario.maximumSize, what: "a scenario")
        let parsed: Scenario
        do {
            parsed = try Scenario.parse(data)
        } catch {
            throw CLIError(message: "\(scenario): \(error)", status: .badData)
        }
        var output = StandardOutput()
        var frames: [ScenarioFrame] = []
        var eventList: [ScenarioEvent] = []
        var width = 1
        let runner = ScenarioRunner(parsed)
        // The first value that is not finite: the scenario's motion left a
        // double's range, and nothing is printed.
        var overflow: (time: Double, property: String, value: Double)?
        do {
            try runner.run(
                frame: { frame in
                    if overflow == nil {
                        for value in frame.values {
                            if let bad = value.components.first(where: { !$0.isFinite }) {
                                overflow = (frame.time, value.property, bad)
                                break
                            }
                        }
                    }
                    guard !events else { return }
                    frames.append(frame)
                    for value in frame.values { width = max(width, value.components.count) }
                },
                event: { event in
                    if events { eventList.append(event) }
                })
        } catch {
            throw CLIError(message: "\(scenario): \(error)", status: .badData)
        }
        if let overflow {
            throw CLIError(
                message:
                    "\(scenario): the value of \(overflow.property) leaves a double's range at t = \(overflow.time) s (\(overflow.value)): a scenario's values must stay finite, within \(Limit.doubleRange)",
                status: .badData)
        }
        if events {
            switch format {
            case .csv:
                try output.line("time,key,event")
                for event in eventList {
                    try output.line("\(csvNumber(event.time)),\(csvField(event.key)),\(event.name)")
                }
            case .json:
                struct Event: Encodable {
                    let time: Double
                    let key: String
                    let event: String
                }
                try output.line(
                    try jsonText(["events": eventList.map { Event(time: $0.time, key: $0.key, event: $0.name) }]))
            }
            try output.flush()
            return
        }
        switch format {
        case .csv:
            try output.line(
                width == 1 ? "time,key,value" : "time,key," + (0 ..< width).map { "value\($0)" }.joined(separator: ","))
            for frame in frames {
                for value in frame.values {
                    let cells =
                        value.components.map(csvNumber) + Array(repeating: "", count: width - value.components.count)
                    try output.line(
                        "\(csvNumber(frame.time)),\(csvField(value.property)),\(cells.joined(separator: ","))")
                }
            }
        case .json:
            struct Frame: Encodable {
                let time: Double
                let values: [String: [Double]]
            }
            let document = frames.map { frame in
                Frame(
                    time: frame.time,
                    values: Dictionary(uniqueKeysWithValues: frame.values.map { ($0.property, $0.components) }))
            }
            try output.line(try jsonText(["frames": document]))
        }
        try output.flush()
    }
}
