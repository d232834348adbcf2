import Kinetics

extension SIMD4 where Scalar == Double {
    /// Up to four components, the rest zero.
    init(packing components: [Double]) {
        self = .zero
        for (index, component) in components.prefix(4).enumerated() { self[index] = component }
    }
}

/// Reads the members of one JSON object, remembering which were read so that
/// the rest can be reported as unknown.
struct ObjectReader {
    let path: String
    let members: [String: JSONValue]
    var used: Set<String> = []

    init(_ value: JSONValue, path: String) throws(ScenarioError) {
        guard case .object(let members) = value else {
            throw ScenarioError(path: path, message: "expected an object, got \(value.kindName)")
        }
        self.path = path
        self.members = members
    }

    private func fieldPath(_ key: String) -> String { "\(path).\(key)" }

    /// The member `key`, or nil when it is absent or null.
    private mutating func value(_ key: String) throws(ScenarioError) -> JSONValue? {
        used.insert(key)
        guard let value = members[key], value != .null else { return nil }
        return value
    }

    /// The member `key`, which must be there and not null (`expected` names
    /// what it should be, for the error).
    mutating func requiredValue(_ key: String, expected: String) throws(ScenarioError) -> JSONValue {
        used.insert(key)
        guard let value = members[key] else { throw ScenarioError(path: fieldPath(key), message: "is required") }
        guard value != .null else {
            throw ScenarioError(path: fieldPath(key), message: "expected \(expected), got null")
        }
        return value
    }

    private static func number(_ value: JSONValue, path: String) throws(ScenarioError) -> Double {
        guard case .number(let number) = value else {
            throw ScenarioError(path: path, message: "expected a number, got \(value.kindName)")
        }
        guard number.isFinite else { throw ScenarioError(path: path, message: "must be finite, got \(number)") }
        return number
    }

    private static func string(_ value: JSONValue, path: String) throws(ScenarioError) -> String {
        guard case .string(let string) = value else {
            throw ScenarioError(path: path, message: "expected a string, got \(value.kindName)")
        }
        return string
    }

    private static func array(_ value: JSONValue, path: String) throws(ScenarioError) -> [JSONValue] {
        guard case .array(let items) = value else {
            throw ScenarioError(path: path, message: "expected an array, got \(value.kindName)")
        }
        return items
    }

    mutating func number(_ key: String) throws(ScenarioError) -> Double? {
        guard let value = try value(key) else { return nil }
        return try Self.number(value, path: fieldPath(key))
    }

    mutating func requiredNumber(_ key: String) throws(ScenarioError) -> Double {
        try Self.number(try requiredValue(key, expected: "a number"), path: fieldPath(key))
    }

    mutating func string(_ key: String) throws(ScenarioError) -> String? {
        guard let value = try value(key) else { return nil }
        return try Self.string(value, path: fieldPath(key))
    }

    mutating func requiredString(_ key: String) throws(ScenarioError) -> String {
        try Self.string(try requiredValue(key, expected: "a string"), path: fieldPath(key))
    }

    mutating func bool(_ key: String) throws(ScenarioError) -> Bool? {
        guard let value = try value(key) else { return nil }
        guard case .bool(let flag) = value else {
            throw ScenarioError(path: fieldPath(key), message: "expected true or false, got \(value.kindName)")
        }
        return flag
    }

    mutating func array(_ key: String) throws(ScenarioError) -> [JSONValue]? {
        guard let value = try value(key) else { return nil }
        return try Self.array(value, path: fieldPath(key))
    }

    mutating func requiredArray(_ key: String) throws(ScenarioError) -> [JSONValue] {
        try Self.array(try requiredValue(key, expected: "an array"), path: fieldPath(key))
    }

    mutating func object(_ key: String) throws(ScenarioError) -> ObjectReader? {
        guard let value = try value(key) else { return nil }
        return try ObjectReader(value, path: fieldPath(key))
    }

    /// A scalar (a number) or a vector (an array of 1 to 4 numbers).
    mutating func vector(_ key: String) throws(ScenarioError) -> [Double]? {
        guard let value = try value(key) else { return nil }
        return try Self.vector(value, path: fieldPath(key))
    }

    mutating func requiredVector(_ key: String) throws(ScenarioError) -> [Double] {
        try Self.vector(
            try requiredValue(key, expected: "a number or an array of 1 to 4 numbers"), path: fieldPath(key))
    }

    static func vector(_ value: JSONValue, path: String) throws(ScenarioError) -> [Double] {
        switch value {
        case .number(let number):
            guard number.isFinite else { throw ScenarioError(path: path, message: "must be finite, got \(number)") }
            return [number]
        case .array(let items):
            guard (1 ... 4).contains(items.count) else {
                throw ScenarioError(path: path, message: "a vector has 1 to 4 components, got \(items.count)")
            }
            var components: [Double] = []
            for (index, item) in items.enumerated() {
                guard case .number(let number) = item, number.isFinite else {
                    throw ScenarioError(
                        path: "\(path)[\(index)]", message: "expected a finite number, got \(item.kindName)")
                }
                components.append(number)
            }
            return components
        default:
            throw ScenarioError(path: path, message: "expected a number or an array of numbers, got \(value.kindName)")
        }
    }

    /// One of an enumeration's raw values.
    mutating func choice<Choice: RawRepresentable & CaseIterable>(_ key: String, _ type: Choice.Type)
        throws(ScenarioError) -> Choice?
    where Choice.RawValue == String {
        guard let text = try string(key) else { return nil }
        guard let choice = Choice(rawValue: text) else {
            let names = Choice.allCases.map(\.rawValue).joined(separator: ", ")
            throw ScenarioError(path: fieldPath(key), message: "must be one of \(names), got '\(text)'")
        }
        return choice
    }

    /// A timing curve: a name, `[x1, y1, x2, y2]` or `steps(n, position)`.
    mutating func curve(_ key: String) throws(ScenarioError) -> TimingFunction? {
        guard let value = try value(key) else { return nil }
        return try Self.curve(value, path: fieldPath(key))
    }

    static func curve(_ value: JSONValue, path: String) throws(ScenarioError) -> TimingFunction {
        switch value {
        case .string(let name):
            if name == "linear" { return .linear }
            if let named = UnitBezier.named.first(where: { $0.name == name }) { return .bezier(named.curve) }
            if name.hasPrefix("steps("), name.hasSuffix(")") {
                let inside = name.dropFirst(6).dropLast().split(separator: ",").map {
                    $0.trimmingCharacters(in: .whitespaces)
                }
                if let count = inside.first.flatMap({ Int($0) }),
                    let position = inside.count == 1 ? .jumpEnd : StepPosition(rawValue: inside[1]), inside.count <= 2
                {
                    do {
                        return try TimingFunction.steps(count, position)
                    } catch {
                        throw ScenarioError(path: path, message: "steps() needs \(error.accepted), got \(count)")
                    }
                }
            }
            throw ScenarioError(
                path: path,
                message:
                    "must be linear, default, ease-in, ease-out, ease-in-out, steps(n, position) or [x1, y1, x2, y2], got '\(name)'"
            )
        case .array(let items):
            let numbers = items.compactMap { if case .number(let n) = $0 { n } else { nil } }
            guard numbers.count == 4, items.count == 4 else {
                throw ScenarioError(path: path, message: "a curve array has four numbers x1, y1, x2, y2")
            }
            do {
                return .bezier(try UnitBezier(x1: numbers[0], y1: numbers[1], x2: numbers[2], y2: numbers[3]))
            } catch {
                throw ScenarioError(
                    path: path, message: "\(error.parameter) must be \(error.accepted), got \(error.value)")
            }
        default:
            throw ScenarioError(path: path, message: "expected a curve name or [x1, y1, x2, y2], got \(value.kindName)")
        }
    }

    /// Reports the first member that was not read.
    func finish(
        allowed: [String], explain: (String) throws(ScenarioError) -> Void = { _ throws(ScenarioError) in }
    ) throws(ScenarioError) {
        for key in members.keys.sorted() where !used.contains(key) {
            if allowed.contains(key) { continue }
            try explain(key)
            throw ScenarioError(path: fieldPath(key), message: "unknown field")
        }
    }
}
