import Foundation
import KineticsInput
import KineticsScenario
import Testing

/// What JSONDecoder accepts in silence, refused where it is.
@Suite("JSON inputs")
struct JSONInputTests {
    static func problem(_ text: String) -> String? { JSONInput.problem(in: Data(text.utf8)) }

    @Test(
        "a key given twice in one object is named with its place; the same key in other objects is not",
        arguments: [
            (#"{"a": 1, "a": 2}"#, #"the key "a" appears twice in one object (column 10)"#),
            // One key, spelled with an escape: JSONDecoder reads both as "a".
            (#"{"a": 1, "\u0061": 2}"#, #"the key "a" appears twice in one object (column 10)"#),
            (
                "[{\"t\": 0},\n {\"t\": 1, \"v\": 2, \"t\": 3}]",
                #"the key "t" appears twice in one object (line 2, column 19)"#
            ),
            // The inner object closes; its key does not count for the outer one.
            (#"{"x": {"y": 1}, "y": 2, "x": 3}"#, #"the key "x" appears twice in one object (column 25)"#),
        ])
    func duplicateKeys(text: String, message: String) {
        #expect(Self.problem(text) == message)
    }

    @Test("objects of many keys are looked up, and their first repeat is found")
    func manyKeys() {
        let keys = (0 ..< 5_000).map { "\"k\($0)\": \($0)" }
        #expect(Self.problem("{" + keys.joined(separator: ", ") + "}") == nil)
        let repeated = Self.problem("{" + keys.joined(separator: ", ") + ", \"k4321\": 0}")
        #expect(repeated?.hasPrefix(#"the key "k4321" appears twice in one object"#) == true, "\(repeated ?? "nil")")
    }

    @Test("what is not a problem: keys in arrays of objects, strings that look like keys or numbers")
    func noProblem() {
        #expect(Self.problem(#"[{"t": 0, "v": 1}, {"t": 1, "v": 2}]"#) == nil)
        #expect(Self.problem(#"{"a": "a", "b": ["a", "a"], "c": "1e999", "d": "\"a\": 1"}"#) == nil)
        #expect(Self.problem(#"{"a": 1.7976931348623157e308, "b": -5e-324, "c": 1e-400}"#) == nil)
    }

    @Test(
        "a number beyond a double's range is named, whatever its sign",
        arguments: [
            (#"{"a": 1e400}"#, "the number 1e400 is beyond a double's range (±1.8e308) (column 7)"),
            ("[1,\n -2E+309]", "the number -2E+309 is beyond a double's range (±1.8e308) (line 2, column 2)"),
        ])
    func outOfRange(text: String, message: String) {
        #expect(Self.problem(text) == message)
    }

    struct Header: Decodable {
        let formatVersion: Int
        let kind: String?
    }

    @Test(
        "a decoding failure says what is wrong at which path",
        arguments: [
            (#"{"formatVersion": "1"}"#, "at formatVersion: a string, where a whole number belongs"),
            (#"{"kind": "x"}"#, "missing formatVersion"),
            (#"{"formatVersion": null}"#, "at formatVersion: null, where a whole number belongs"),
            (#"[1]"#, "at the document: an array, where an object belongs"),
            ("{\"formatVersion\": 1,\n tru}", "not valid JSON (invalid value at line 2, column 2)"),
        ])
    func reasons(text: String, message: String) {
        #expect(throws: JSONInputError(message)) { try JSONInput.decode(Header.self, from: Data(text.utf8)) }
    }

    @Test("a scenario with a key twice is refused at its root, naming the key")
    func scenario() {
        #expect(throws: ScenarioError(path: "$", message: #"the key "fps" appears twice in one object (column 23)"#)) {
            try Scenario.parse(Data(#"{"fps":60,"seconds":1,"fps":30,"animations":[]}"#.utf8))
        }
    }
}
