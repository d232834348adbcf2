import Foundation
import Kinetics
import KineticsScenario
import Testing

@Suite("Scenarios")
struct ScenarioTests {
    static let folder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("data/scenarios")

    static func run(_ text: String) throws -> (frames: [ScenarioFrame], events: [ScenarioEvent]) {
        let scenario = try Scenario.parse(Data(text.utf8))
        var frames: [ScenarioFrame] = []
        var events: [ScenarioEvent] = []
        try ScenarioRunner(scenario).run(frame: { frames.append($0) }, event: { events.append($0) })
        return (frames, events)
    }

    @Test("every shipped example parses and runs")
    func examples() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.folder.path).filter {
            $0.hasSuffix(".json")
        }
        #expect(files.count >= 5)
        for file in files {
            let data = try Data(contentsOf: Self.folder.appendingPathComponent(file))
            var frames = 0
            try ScenarioRunner(try Scenario.parse(data)).run(frame: { _ in frames += 1 }, event: { _ in })
            #expect(frames > 1, "\(file)")
        }
    }

    @Test("a pop spring in a scenario equals the stepper to 1e-12 of the amplitude")
    func springParity() throws {
        let (frames, _) = try Self.run(
            """
            {"fps": 60, "seconds": 2, "animations": [
              {"key": "x", "type": "spring", "bounciness": 4, "speed": 12, "method": "pop", "to": 100, "threshold": 1e-30}]}
            """)
        var stepper = SpringStepper(parameters: .popDefault, method: .pop, value: 0.0, target: 100.0)
        #expect(frames.count == 121)
        for (index, frame) in frames.enumerated() {
            if index > 0 { stepper.advance(by: Double(index) / 60 - Double(index - 1) / 60) }
            #expect(abs(frame.values[0].components[0] - stepper.value) <= 1e-12 * 100, "frame \(index)")
        }
    }

    @Test("events: start, marker, reached, repeat and stop, with the times they happened")
    func events() throws {
        let (_, events) = try Self.run(
            """
            {"fps": 10, "seconds": 2, "animations": [
              {"key": "a", "type": "basic", "duration": 0.5, "curve": "linear", "from": 0, "to": 1,
               "progressMarkers": [0.5], "autoreverses": true}]}
            """)
        #expect(
            events.map { "\($0.time) \($0.name)" } == [
                "0.0 start", "0.3 marker:0.5", "0.5 reached", "0.5 repeat", "0.8 marker:0.5", "1.0 reached",
                "1.0 stop:finished",
            ])
    }

    @Test("actions apply right after the first frame at or after their time")
    func actions() throws {
        let (frames, events) = try Self.run(
            """
            {"fps": 10, "seconds": 1, "animations": [
              {"key": "a", "type": "basic", "duration": 10, "curve": "linear", "from": 0, "to": 100}],
             "actions": [{"at": 0.25, "remove": "a"},
                         {"at": 0.25, "add": {"key": "b", "type": "basic", "duration": 1, "from": 5, "to": 6}}]}
            """)
        #expect(
            events.map { "\($0.time) \($0.key) \($0.name)" } == ["0.0 a start", "0.3 a stop:cancelled", "0.3 b start"])
        let frame = frames[3]
        #expect(frame.time == 0.3 && frame.values.map(\.property) == ["a", "b"] && frame.values[1].components == [5])
        #expect(abs(frame.values[0].components[0] - 3) < 1e-12)
    }

    @Test(
        "malformed scenarios name the JSON path of the problem",
        arguments: [
            (
                #"{"fps": 60, "seconds": 1, "animations": [{"key": "x", "type": "bouncy"}]}"#,
                "animations[0].type: unknown type 'bouncy'; the types are spring, decay, basic, keyframe, sequence, group"
            ),
            (
                #"{"fps": 60, "seconds": 1, "animations": [{"key": "x", "type": "spring", "tensoin": 3}]}"#,
                "animations[0].tensoin: unknown field"
            ),
            (
                #"{"fps": 60, "seconds": 1, "animations": [{"key": "x", "type": "basic", "tension": 3}]}"#,
                "animations[0].tension: does not apply to a basic animation"
            ),
            (
                #"{"fps": 60, "seconds": 1, "animations": [{"key": "x", "type": "spring", "tension": "high", "friction": 3}]}"#,
                "animations[0].tension: expected a number, got a string"
            ),
            (
                #"{"fps": 60, "seconds": 1, "animations": [{"key": "x", "type": "spring", "to": 1e999}]}"#,
                "$: the number 1e999 is beyond a double's range (±1.8e308) (column 79)"
            ),
            (
                #"{"fps": 60, "seconds": 1, "animations": [{"key": "x", "type": "basic"}, {"key": "x", "type": "spring"}]}"#,
                "animations[1].key: 'x' is already used by animations[0]"
            ),
            (
                #"{"fps": 60, "seconds": 1, "animations": [], "actions": [{"at": 1, "remove": "y"}]}"#,
                "actions[0]: no animation has the key 'y' by then"
            ),
            (#"{"seconds": 1, "animations": []}"#, "$.fps: is required"),
            (
                #"{"fps": 60, "seconds": 1, "animations": [{"key": "x", "type": "spring", "tension": 300, "bounciness": 3, "speed": 2}]}"#,
                "animations[0]: give one spring, not two: tension/friction and bounciness/speed"
            ),
            (
                #"{"fps": 60, "seconds": 1, "animations": [{"key": "x", "type": "spring", "tension": 300}]}"#,
                "animations[0].tension: needs friction"
            ),
            (
                #"{"fps": 60, "seconds": 1, "animations": [{"key": "x", "type": "spring", "tension": 300, "friction": -2}]}"#,
                "animations[0].friction: must be a finite number >= 0, got -2.0"
            ),
            (
                #"{"fps": 60, "seconds": 1, "animations": [{"key": "x", "type": "basic", "from": 0, "to": [1, 2]}]}"#,
                "animations[0].to: has 2 components but from has 1"
            ),
            (
                #"{"fps": 60, "seconds": 1, "animations": [{"key": "x", "type": "basic", "clamp": "middle"}]}"#,
                "animations[0].clamp: must be one of none, start, end, both, got 'middle'"
            ),
            (
                #"{"fps": 60, "seconds": 1, "animations": [{"key": "x", "type": "basic", "curve": [1.5, 0, 0.5, 1]}]}"#,
                "animations[0].curve: x1 must be in [0.0, 1.0], got 1.5"
            ),
            (
                #"{"fps": 60, "seconds": 1, "animations": [{"key": "g", "type": "sequence", "children": [{"key": "x", "type": "decay"}]}]}"#,
                "animations[0].children[0].velocity: a decay needs a velocity"
            ),
            (
                #"{"fps": 60, "seconds": 1, "animations": [{"key": "x", "type": "keyframe", "values": [0, 1], "keyTimes": [0, 0.5, 1]}]}"#,
                "animations[0].keyTimes: must be one per value (2), got 3.0"
            ),
            (
                #"{"fps": 60, "seconds": 1, "animations": [{"key": "x", "type": "decay", "velocity": 10, "method": "fast"}]}"#,
                "animations[0].method: must be one of pop, exact, continuous, got 'fast'"
            ),
            (#"{"fps": 60, "seconds": 1, "animations": {}}"#, "$.animations: expected an array, got an object"),
            (#"[1, 2]"#, "$: expected an object, got an array"),
            (
                "{\"fps\": 60,\n \"seconds\": 1,,\n \"animations\": []}",
                "$: not valid JSON (invalid value at line 2, column 15)"
            ),
            (
                #"{"fps": 60, "seconds": 1, "animations": [], "actions": [{"at": 1, "pause": "x", "remove": "x"}]}"#,
                "actions[0]: an action does one thing, not remove and pause"
            ),
        ])
    func malformed(text: String, message: String) {
        #expect(throws: ScenarioError.self) { try Scenario.parse(Data(text.utf8)) }
        do {
            _ = try Scenario.parse(Data(text.utf8))
        } catch {
            #expect(error.description == message)
        }
    }

    /// Found by fuzzing (scripts/fuzz.sh, its first minute on a fresh clone):
    /// a verb given as null trapped on a force-unwrap. Every required member
    /// given as null is now an error naming it.
    @Test(
        "null where a value is required is an error naming the member, not a crash",
        arguments: [
            (
                #"{"fps": 60, "seconds": 1, "animations": [{"key": "a", "type": "spring", "to": 1}], "actions": [{"at": 0.25, "retarget": null, "to": 40}]}"#,
                "actions[0].retarget: expected a string, got null"
            ),
            (
                #"{"fps": 60, "seconds": 1, "animations": [], "actions": [{"at": 0.1, "remove": null}]}"#,
                "actions[0].remove: expected a string, got null"
            ),
            (
                #"{"fps": 60, "seconds": 1, "animations": [], "actions": [{"at": 0.1, "pause": null}]}"#,
                "actions[0].pause: expected a string, got null"
            ),
            (
                #"{"fps": 60, "seconds": 1, "animations": [], "actions": [{"at": 0.1, "resume": null}]}"#,
                "actions[0].resume: expected a string, got null"
            ),
            (
                #"{"fps": 60, "seconds": 1, "animations": [], "actions": [{"at": 0.1, "add": null}]}"#,
                "actions[0].add: expected an object, got null"
            ),
            (
                #"{"fps": 60, "seconds": 1, "animations": [], "actions": [{"at": 0.1, "set": null}]}"#,
                "actions[0].set: expected an object, got null"
            ),
            (
                #"{"fps": 60, "seconds": 1, "animations": [], "actions": [{"at": 0.1, "transaction": null}]}"#,
                "actions[0].transaction: expected an object, got null"
            ),
            (
                #"{"fps": 60, "seconds": 1, "animations": [], "actions": [{"at": null, "remove": "a"}]}"#,
                "actions[0].at: expected a number, got null"
            ),
            (
                #"{"fps": 60, "seconds": 1, "initial": {"x": null}, "animations": []}"#,
                "$.initial.x: expected a number or an array of 1 to 4 numbers, got null"
            ),
            (
                #"{"fps": 60, "seconds": 1, "jitter": {"seed": null}, "animations": []}"#,
                "$.jitter.seed: expected a number, got null"
            ),
            (#"{"fps": null, "seconds": 1, "animations": []}"#, "$.fps: expected a number, got null"),
            (#"{"fps": 60, "seconds": 1, "animations": null}"#, "$.animations: expected an array, got null"),
            (
                #"{"fps": 60, "seconds": 1, "animations": [{"key": null, "type": "basic"}]}"#,
                "animations[0].key: expected a string, got null"
            ),
            (
                #"{"fps": 60, "seconds": 1, "animations": [{"key": "g", "type": "group", "children": null}]}"#,
                "animations[0].children: expected an array, got null"
            ),
            (
                #"{"fps": 60, "seconds": 1, "animations": [{"key": "k", "type": "keyframe", "values": null}]}"#,
                "animations[0].values: expected an array, got null"
            ),
        ])
    func nullMembers(text: String, message: String) {
        do {
            _ = try Scenario.parse(Data(text.utf8))
            Issue.record("parsed: \(text)")
        } catch {
            #expect(error.description == message)
        }
    }

    @Test("a property used with two widths is an error found while running")
    func widthMismatch() throws {
        let text =
            #"{"fps": 10, "seconds": 1, "animations": [{"key": "a", "property": "p", "type": "basic", "to": 1}], "actions": [{"at": 0.5, "add": {"key": "b", "property": "p", "type": "basic", "to": [1, 2]}}]}"#
        #expect(
            throws: ScenarioError(path: "actions[0].add", message: "property 'p' has 1 components, this animation 2")
        ) {
            try Self.run(text)
        }
    }

    @Test(
        "implicit actions: set and transaction with keyframes play the attention pop; completions are events keyed by the transaction's index"
    )
    func implicitActions() throws {
        let text = try String(contentsOf: Self.folder.appendingPathComponent("attention-pop.json"), encoding: .utf8)
        let (frames, events) = try Self.run(text)
        func value(_ key: String, at frame: Int) -> Double? {
            frames[frame].values.first { $0.property == key }?.components[0]
        }
        // Keys appear when first set, at their values.
        #expect(frames[0].values.map(\.property) == ["opacity", "scale", "x"])
        // The pop: 0.6 s from frame 6 (t = 0.1); out to 1.5 on [0.2, 0, 0, 1] by 0.28 s, back on ease-in-out by 0.7 s.
        let out = try UnitBezier(x1: 0.2, y1: 0, x2: 0, y2: 1)
        for frame in 6 ... 42 {
            let t = (Double(frame) / 60 - 0.1) / 0.6
            let expected =
                t <= 0.3
                ? 1 + 0.5 * out.solvePrecise(t / 0.3)
                : 1.5 - 0.5 * UnitBezier.easeInEaseOut.solvePrecise((t - 0.3) / 0.7)
            #expect(abs(value("scale", at: frame)! - expected) < 1e-6, "frame \(frame)")
        }
        // opacity has a default action outside transactions: 0.25 s ease-in-out from 0.1 s.
        let fraction = (12.0 / 60 - 0.1) / 0.25
        #expect(abs(value("opacity", at: 12)! - (1 - 0.5 * UnitBezier.easeInEaseOut.solvePrecise(fraction))) < 1e-7)
        #expect(value("opacity", at: 21) == 0.5)
        let completions = events.filter { $0.name.hasPrefix("transaction-complete") }
        #expect(completions.map(\.key) == ["0", "1", "2"])
        #expect(completions.allSatisfy { $0.name == "transaction-complete:finished" })
        // The retargeted spring (transaction 2) finishes both spring transactions at once.
        #expect(completions[1].time == completions[2].time && value("x", at: frames.count - 1) == 40)
    }

    @Test(
        "a transaction's fill mode and additive changes: the delay shows what the fill says; an additive change layers without a jump"
    )
    func fillAndAdditive() throws {
        // Two keys set at 0; at 0.25 each moves over 0.5 s after a 0.25 s delay, one filling backwards, one not;
        // at 0.75 "a" changes again additively while it moves. (Times are exact binary fractions, so
        // that a begin time is not missed by one rounding. The file lists an action out of time order: it
        // still runs at its time.)
        let text = #"""
            {"fps": 20, "seconds": 1.5, "animations": [], "actions": [
              {"at": 0, "set": {"a": 0, "b": 0}},
              {"at": 0.25, "transaction": {"duration": 0.5, "curve": "linear", "delay": 0.25, "fillMode": "backwards", "additive": true, "set": {"a": 10}}},
              {"at": 0.75, "transaction": {"duration": 0.5, "curve": "linear", "additive": true, "set": {"a": 0}}},
              {"at": 0.25, "transaction": {"duration": 0.5, "curve": "linear", "delay": 0.25, "fillMode": "removed", "set": {"b": 10}}}
            ]}
            """#
        let (frames, _) = try Self.run(text)
        func value(_ key: String, at time: Double) -> Double {
            frames[Int((time * 20).rounded())].values.first { $0.property == key }!.components[0]
        }
        #expect(
            value("a", at: 0.4) == 0 && value("b", at: 0.4) == 10, "during the delay: the from value, the model value")
        #expect(abs(value("b", at: 0.6) - 2) < 1e-12 && abs(value("a", at: 0.6) - 2) < 1e-12)
        // a = 10·(t − 0.5)/0.5 − 10·(t − 0.75)/0.5 while both run: 5 from 0.75 to 1, then down to 0 by 1.25.
        for time in [0.75, 0.8, 0.9, 1.0] { #expect(abs(value("a", at: time) - 5) < 1e-12, "t = \(time)") }
        #expect(abs(value("a", at: 1.1) - 3) < 1e-12)
        #expect(value("a", at: 1.5) == 0 && value("b", at: 1.5) == 10)
    }

    @Test(
        "malformed implicit actions name the JSON path",
        arguments: [
            (
                #"{"fps": 60, "seconds": 1, "animations": [], "actions": [{"at": 0, "set": 3}]}"#,
                "actions[0].set: expected an object of keys and values, got a number"
            ),
            (
                #"{"fps": 60, "seconds": 1, "animations": [], "actions": [{"at": 0, "transaction": {"fillMode": "forward", "set": {"x": 1}}}]}"#,
                #"actions[0].transaction.fillMode: must be one of removed, forwards, backwards, both, got "forward""#
            ),
            (
                #"{"fps": 60, "seconds": 1, "animations": [], "actions": [{"at": 0, "transaction": {"duration": 1, "additive": true, "keyframes": [{"relativeStart": 0, "relativeDuration": 1, "set": {"x": 1}}]}}]}"#,
                "actions[0].transaction.additive: a keyframe block is never additive"
            ),
            (
                #"{"fps": 60, "seconds": 1, "animations": [], "actions": [{"at": 0, "transaction": {"keyframes": [{"relativeStart": 0, "relativeDuration": 1, "set": {"x": 1}}]}}]}"#,
                "actions[0].transaction.duration: a keyframe block needs a duration"
            ),
            (
                #"{"fps": 60, "seconds": 1, "animations": [], "actions": [{"at": 0, "transaction": {"duration": 1, "keyframes": [{"relativeStart": 0.5, "relativeDuration": 0.6, "set": {"x": 1}}]}}]}"#,
                "actions[0].transaction.keyframes[0]: relativeStart and relativeDuration must be in [0, 1] and end by 1, got 0.5 and 0.6"
            ),
            (
                #"{"fps": 60, "seconds": 1, "animations": [], "actions": [{"at": 0, "transaction": {"duration": -1, "set": {"x": 1}}}]}"#,
                "actions[0].transaction.duration: must be a finite number > 0, got -1.0"
            ),
            (
                #"{"fps": 60, "seconds": 1, "animations": [], "actions": [{"at": 0, "set": {"x": 1}, "remove": "x"}]}"#,
                "actions[0]: an action does one thing, not remove and set"
            ),
        ])
    func malformedImplicit(text: String, message: String) throws {
        #expect(throws: ScenarioError.self) { try Scenario.parse(Data(text.utf8)) }
        do {
            _ = try Scenario.parse(Data(text.utf8))
        } catch {
            #expect(error.description == message)
        }
    }

    @Test("the schema's animation accepts every spring field the parser reads, and a Motion spring runs")
    func springFieldsInSchema() throws {
        let schemaURL = Self.folder.deletingLastPathComponent().appendingPathComponent("schema/scenario.schema.json")
        let schema = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: schemaURL)) as? [String: Any])
        let definitions = try #require(schema["$defs"] as? [String: Any])
        let animation = try #require(definitions["animation"] as? [String: Any])
        let properties = try #require(animation["properties"] as? [String: Any])
        for name in SpringFields.names {
            #expect(properties[name] != nil, "the schema's animation has no \(name)")
        }
        let text =
            #"{"fps": 60, "seconds": 0.5, "animations": [{"key": "x", "type": "spring", "from": 0, "to": 1, "motionDuration": 0.4, "bounce": 0.2}]}"#
        let frames = try Self.run(text).frames
        #expect(frames.count == 31)
    }
}
