import Foundation
import KineticsInput

/// A JSON document as a tree, read with `JSONDecoder` (which reads every
/// number back to the same double, unlike `JSONSerialization` on Linux).
public indirect enum JSONValue: Equatable, Sendable, Decodable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    public init(from decoder: any Decoder) throws {
        if var array = try? decoder.unkeyedContainer() {
            var items: [JSONValue] = []
            while !array.isAtEnd { items.append(try array.decode(JSONValue.self)) }
            self = .array(items)
            return
        }
        if let object = try? decoder.container(keyedBy: AnyKey.self) {
            var members: [String: JSONValue] = [:]
            for key in object.allKeys { members[key.stringValue] = try object.decode(JSONValue.self, forKey: key) }
            self = .object(members)
            return
        }
        let single = try decoder.singleValueContainer()
        if single.decodeNil() {
            self = .null
        } else if let value = try? single.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? single.decode(Double.self) {
            self = .number(value)
        } else {
            self = .string(try single.decode(String.self))
        }
    }

    /// Reads a JSON document.
    ///
    /// - Throws: ``ScenarioError`` at path `$` with the reason: not JSON
    ///   (where it stops being JSON), a key given twice in one object, a
    ///   number beyond a double's range.
    public static func parse(_ data: Data) throws(ScenarioError) -> JSONValue {
        if let problem = JSONInput.problem(in: data) { throw ScenarioError(path: "$", message: problem) }
        do {
            return try JSONDecoder().decode(JSONValue.self, from: data)
        } catch {
            throw ScenarioError(path: "$", message: "not valid JSON (\(JSONInput.syntaxProblem(data)))")
        }
    }

    /// What kind of value this is, in words: `a number`, `an object`, ….
    public var kindName: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}

private struct AnyKey: CodingKey {
    let stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

/// A problem in a scenario file: where (a JSON path such as
/// `animations[2].tension`) and what.
public struct ScenarioError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The JSON path of the problem, `$` for the whole document.
    public let path: String
    /// What is wrong.
    public let message: String

    /// An error at `path`.
    public init(path: String, message: String) {
        self.path = path
        self.message = message
    }

    /// `animations[2].tension: expected a number, got a string`.
    public var description: String { "\(path): \(message)" }
}
