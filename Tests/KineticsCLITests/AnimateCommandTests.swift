import Foundation
import Kinetics
import KineticsTestSupport
import Testing

@Suite("CLI: animate")
struct AnimateCommandTests {
    static let scenarios = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("data/scenarios")

    static func write(_ text: String) throws -> String {
        let url = temporaryPath("scenario", "scenario.json")
        try Data(text.utf8).write(to: url)
        return url.path
    }

    @Test("values: time,key,value rows per frame; a pop spring matches trace spring to 1e-12 of the amplitude")
    func values() throws {
        let result = try kinetics("animate", Self.scenarios.appendingPathComponent("spring-pop.json").path)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.lines.first == "time,key,value")
        let trace = try kinetics(
            "trace", "spring", "--bounciness", "4", "--speed", "12", "--to", "100", "--seconds", "1")
        let animated = result.lines.dropFirst().map { $0.split(separator: ",") }
        let traced = trace.lines.dropFirst().map { $0.split(separator: ",") }
        // The animation stops at its rest (0.45 s): compare the frames before it.
        for (a, t) in zip(animated, traced).prefix(27) {
            #expect(a[0] == t[0] && a[1] == "x")
            #expect(abs(Double(a[2])! - Double(t[1])!) <= 1e-12 * 100)
        }
        #expect(animated.last?[2] == "100.0")
    }

    @Test("vectors print as value0, value1, … columns; events print time,key,event")
    func vectorsAndEvents() throws {
        let vectors = try kinetics("animate", Self.scenarios.appendingPathComponent("vectors.json").path)
        #expect(vectors.lines.first == "time,key,value0,value1,value2,value3")
        #expect(vectors.lines[1] == "0.0,position,10.0,10.0,,")
        #expect(vectors.lines[2] == "0.0,frame,0.0,0.0,100.0,50.0")
        let events = try kinetics("animate", Self.scenarios.appendingPathComponent("groups.json").path, "--events")
        #expect(events.lines.first == "time,key,event")
        #expect(events.lines.contains("0.3,together,start"))
        #expect(events.lines.last?.hasSuffix(",intro,stop:finished") == true)
        let json = try kinetics(
            "animate", Self.scenarios.appendingPathComponent("groups.json").path, "--events", "--format", "json")
        struct Events: Decodable {
            struct Event: Decodable {
                let time: Double
                let key: String
                let event: String
            }
            let events: [Event]
        }
        #expect(try decodeJSON(Events.self, json.stdout).events.count == events.lines.count - 1)
        let frames = try kinetics(
            "animate", Self.scenarios.appendingPathComponent("vectors.json").path, "--format", "json")
        struct Frames: Decodable {
            struct Frame: Decodable {
                let time: Double
                let values: [String: [Double]]
            }
            let frames: [Frame]
        }
        let decoded = try decodeJSON(Frames.self, frames.stdout)
        #expect(decoded.frames.count == 6 && decoded.frames.last?.values["frame"] == [20, 20, 60, 60])
    }

    @Test("a malformed scenario exits 65 naming the file and the JSON path; a missing one 66")
    func errors() throws {
        let path = try Self.write(
            #"{"fps": 60, "seconds": 1, "animations": [{"key": "x", "type": "spring", "speed": "fast"}]}"#)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let bad = try kinetics("animate", path)
        #expect(bad.status == 65)
        #expect(bad.stderr == "kinetics: error: \(path): animations[0].speed: expected a number, got a string\n")
        let missing = try kinetics("animate", "/nonexistent/scenario.json")
        #expect(missing.status == 66)
        #expect(missing.stderr == "kinetics: error: /nonexistent/scenario.json: no such file\n")
        let usage = try kinetics("animate")
        #expect(usage.status == 64)
    }
}
