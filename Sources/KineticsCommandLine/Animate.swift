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
            stop:finished or stop:cancelled. Memory: at most 48 bytes a byte of the scenario, \
            whatever its frames. Exit status: 0 success, 64 usage, 65 a malformed scenario (the \
            message names the JSON path) or one that needs more memory than the process may take, \
            66 a missing file.
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
        try checkMemory(
            data.count * Scenario.memoryPerByte,
            for:
                "\(scenario): running a scenario of \(data.count) bytes (\(Scenario.memoryPerByte) bytes a byte of the file)"
        )
        let parsed: Scenario
        do {
            parsed = try Scenario.parse(data)
        } catch {
            throw CLIError(message: "\(scenario): \(error)", status: .badData)
        }
        // Two runs of the same deterministic scenario: the first finds what
        // only running finds (an error, a value leaving a double's range)
        // and keeps nothing, so that nothing is printed for a scenario that
        // fails; the second prints as it goes. Memory stays the animator's,
        // whatever the number of frames.
        let width = try check(parsed)
        var output = StandardOutput()
        // The closures cannot throw: the first failed write is kept, and
        // nothing more is written.
        var failure: (any Error)?
        func write(_ text: String) {
            guard failure == nil else { return }
            do { try output.write(text) } catch { failure = error }
        }
        let encoder = jsonEncoder()
        func json(_ value: some Encodable) -> String {
            (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? ""
        }
        var first = true
        func separator() -> String {
            defer { first = false }
            return first ? "" : ","
        }
        switch (format, events) {
        case (.csv, true): write("time,key,event\n")
        case (.csv, false):
            write(
                (width == 1
                    ? "time,key,value" : "time,key," + (0 ..< width).map { "value\($0)" }.joined(separator: ","))
                    + "\n")
        case (.json, true): write("{\"events\":[")
        case (.json, false): write("{\"frames\":[")
        }
        try run(
            parsed,
            frame: { frame in
                guard !events else { return }
                switch format {
                case .csv:
                    let time = csvNumber(frame.time)
                    for value in frame.values {
                        var row = time + "," + csvField(value.property)
                        for component in value.components { row += "," + csvNumber(component) }
                        write(row + String(repeating: ",", count: width - value.components.count) + "\n")
                    }
                case .json:
                    let values = Dictionary(uniqueKeysWithValues: frame.values.map { ($0.property, $0.components) })
                    write(separator() + json(Frame(time: frame.time, values: values)))
                }
            },
            event: { event in
                guard events else { return }
                switch format {
                case .csv: write("\(csvNumber(event.time)),\(csvField(event.key)),\(event.name)\n")
                case .json: write(separator() + json(Event(time: event.time, key: event.key, event: event.name)))
                }
            })
        if format == .json { write("]}\n") }
        if let failure { throw failure }
        try output.flush()
    }

    private struct Frame: Encodable {
        let time: Double
        let values: [String: [Double]]
    }

    private struct Event: Encodable {
        let time: Double
        let key: String
        let event: String
    }

    /// Runs `scenario` once, keeping nothing: the widest property's number
    /// of components.
    ///
    /// - Throws: ``CLIError`` (65) for an error of the run, or for the first
    ///   value that is not finite (the motion left a double's range).
    private func check(_ scenario: Scenario) throws -> Int {
        var width = 1
        var overflow: (time: Double, property: String, value: Double)?
        try run(
            scenario,
            frame: { frame in
                for value in frame.values {
                    width = max(width, value.components.count)
                    if overflow == nil, let bad = value.components.first(where: { !$0.isFinite }) {
                        overflow = (frame.time, value.property, bad)
                    }
                }
            }, event: { _ in })
        if let overflow {
            throw CLIError(
                message:
                    "\(self.scenario): the value of \(overflow.property) leaves a double's range at t = \(overflow.time) s (\(overflow.value)): a scenario's values must stay finite, within \(Limit.doubleRange)",
                status: .badData)
        }
        return width
    }

    private func run(
        _ scenario: Scenario, frame: (ScenarioFrame) -> Void, event: (ScenarioEvent) -> Void
    ) throws {
        do {
            try ScenarioRunner(scenario).run(frame: frame, event: event)
        } catch {
            throw CLIError(message: "\(self.scenario): \(error)", status: .badData)
        }
    }
}
