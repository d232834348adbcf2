import Foundation

/// JSON inputs read as their writer meant them, or refused in one sentence
/// that says where.
///
/// `JSONDecoder` keeps one of two values given under the same key of an
/// object (a report saying `"error": 0.1` and later `"error": NaN` would be
/// read as either), and it refuses a number beyond a double's range or a
/// string where a number belongs with messages that do not say which value
/// or where. Every reader of a Kinetics input (baselines, verify reports,
/// engine answers, traces, scenarios) goes through here.
package enum JSONInput {
    /// Decodes `type` from `data` with `decoder`, after ``problem(in:)``.
    ///
    /// - Throws: ``JSONInputError``: a key given twice, a number out of a
    ///   double's range, text that is not JSON (with its line and column),
    ///   or a value of the wrong kind, missing or null (with its path).
    package static func decode<T: Decodable>(
        _ type: T.Type, from data: Data, decoder: JSONDecoder = JSONDecoder()
    ) throws(JSONInputError) -> T {
        if let problem = problem(in: data) { throw JSONInputError(problem) }
        do {
            return try decoder.decode(type, from: data)
        } catch {
            throw JSONInputError(reason(error, data: data))
        }
    }

    /// The first key given twice in one object, or number beyond a
    /// double's range, in `data`, in words with its line and column (`the
    /// key "id" appears twice in one object (line 3, column 9)`); nil when
    /// there is none. Text that is not JSON is left to the decoder.
    package static func problem(in data: Data) -> String? {
        data.withUnsafeBytes { bytes in
            var scanner = Scanner(bytes: bytes.bindMemory(to: UInt8.self))
            guard let (offset, message) = scanner.firstProblem() else { return nil }
            return "\(message) (\(position(of: offset, in: data)))"
        }
    }

    /// A decoder's error in words: what is wrong at which path (`at
    /// results[2].calibrated: a string, where a number belongs`).
    package static func reason(_ error: any Error, data: Data) -> String {
        switch error {
        case DecodingError.typeMismatch(let type, let context):
            return "at \(path(context.codingPath)): \(found(context.debugDescription)), where \(kind(type)) belongs"
        case DecodingError.keyNotFound(let key, let context):
            return "missing \(path(context.codingPath + [key]))"
        case DecodingError.valueNotFound(let type, let context):
            return "at \(path(context.codingPath)): null, where \(kind(type)) belongs"
        case DecodingError.dataCorrupted(let context) where !context.codingPath.isEmpty:
            return "at \(path(context.codingPath)): \(context.debugDescription)"
        default:
            return "not valid JSON (\(syntaxProblem(data)))"
        }
    }

    /// Where the text stops being JSON, as `JSONSerialization` reports it,
    /// with its character offset as a line and column.
    package static func syntaxProblem(_ data: Data) -> String {
        do {
            _ = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
            return
                "a value JSONDecoder cannot read: a number with a fraction where a whole number belongs, or nesting deeper than 512 levels"
        } catch {
            let reason = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? "\(error)"
            if let range = reason.range(of: #"character (\d+)"#, options: .regularExpression),
                let offset = Int(reason[range].dropFirst("character ".count))
            {
                let what = reason[..<range.lowerBound].trimmingCharacters(in: .whitespaces)
                    .replacingOccurrences(of: " around", with: "")
                return "\(what.lowercased()) at \(position(of: offset, in: data))"
            }
            return reason.trimmingCharacters(in: CharacterSet(charactersIn: "."))
        }
    }

    /// `line 2, column 15` for a byte offset; `column 15` in text of one line.
    package static func position(of offset: Int, in data: Data) -> String {
        var line = 1
        var column = 1
        for byte in data.prefix(offset) {
            if byte == Byte.newline {
                line += 1
                column = 1
            } else {
                column += 1
            }
        }
        return data.contains(Byte.newline) ? "line \(line), column \(column)" : "column \(column)"
    }

    /// `results[2].calibrated`; `the document` for the root.
    static func path(_ keys: [any CodingKey]) -> String {
        let text = keys.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
        return text.isEmpty ? "the document" : String(text.trimmingPrefix("."))
    }

    /// `a string` from the decoder's `Expected to decode Int but found a
    /// string instead.`
    private static func found(_ description: String) -> String {
        guard let start = description.range(of: "found "), let end = description.range(of: " instead") else {
            return description
        }
        let what = description[start.upperBound ..< end.lowerBound]
        return what.hasPrefix("a") ? String(what) : "a " + what
    }

    private static func kind(_ type: Any.Type) -> String {
        switch type {
        case is Int.Type, is Int32.Type, is Int64.Type, is UInt64.Type: "a whole number"
        case is Double.Type, is Float.Type: "a number"
        case is String.Type: "a string"
        case is Bool.Type: "true or false"
        default:
            "\(type)".hasPrefix("Array") ? "an array" : "\(type)".hasPrefix("Dictionary") ? "an object" : "\(type)"
        }
    }

    /// A pass over the bytes that follows objects, strings and numbers,
    /// and nothing more: it does not check the syntax.
    private struct Scanner {
        let bytes: UnsafeBufferPointer<UInt8>
        var index = 0
        /// The open containers, innermost last.
        var open: [Container] = []
        /// The keys of the open objects so far, each object's from its
        /// `firstKey`: no allocation for the millions of small objects of a
        /// trace.
        var keys: [Key] = []

        struct Container {
            var isObject: Bool
            /// Whether a string here now would be a key.
            var expectingKey: Bool
            var firstKey: Int
            /// The object's keys once it has many (then looked up, not searched).
            var set: Set<[UInt8]>?
        }

        /// A key: a range of the text, or its bytes once its escapes are resolved.
        enum Key {
            case raw(Range<Int>)
            case resolved([UInt8])
        }

        init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

        mutating func firstProblem() -> (offset: Int, message: String)? {
            while index < bytes.count {
                let byte = bytes[index]
                switch byte {
                case Byte.openBrace, Byte.openBracket:
                    open.append(
                        Container(isObject: byte == Byte.openBrace, expectingKey: true, firstKey: keys.count))
                    index += 1
                case Byte.closeBrace, Byte.closeBracket:
                    if let last = open.popLast() { keys.removeSubrange(last.firstKey...) }
                    index += 1
                case Byte.comma:
                    if !open.isEmpty { open[open.count - 1].expectingKey = true }
                    index += 1
                case Byte.quote:
                    let start = index
                    let key = string()
                    if let last = open.indices.last, open[last].isObject, open[last].expectingKey {
                        open[last].expectingKey = false
                        if !insert(key, into: last) {
                            let shown = clippedInput(String(decoding: bytes(of: key), as: UTF8.self))
                            return (start, "the key \"\(shown)\" appears twice in one object")
                        }
                    }
                case Byte.minus, Byte.zero ... Byte.nine:
                    let start = index
                    while index < bytes.count, Self.isNumberByte(bytes[index]) { index += 1 }
                    let literal = String(decoding: UnsafeBufferPointer(rebasing: bytes[start ..< index]), as: UTF8.self)
                    if let value = Double(literal), value.isInfinite {
                        return (start, "the number \(clippedInput(literal)) is beyond a double's range (±1.8e308)")
                    }
                default:
                    index += 1
                }
            }
            return nil
        }

        /// Adds `key` to the object `open[container]`: false when it is there already.
        mutating func insert(_ key: Key, into container: Int) -> Bool {
            if open[container].set != nil { return open[container].set!.insert(bytes(of: key)).inserted }
            for other in keys[open[container].firstKey...] where same(other, key) { return false }
            keys.append(key)
            // Past 16 keys, a set: an object of 100,000 keys is not searched 100,000 times.
            if keys.count - open[container].firstKey > 16 {
                open[container].set = Set(keys[open[container].firstKey...].map(bytes(of:)))
                keys.removeSubrange(open[container].firstKey...)
            }
            return true
        }

        func bytes(of key: Key) -> [UInt8] {
            switch key {
            case .raw(let range): Array(bytes[range])
            case .resolved(let resolved): resolved
            }
        }

        func same(_ a: Key, _ b: Key) -> Bool {
            if case .raw(let x) = a, case .raw(let y) = b {
                return x.count == y.count && bytes[x].elementsEqual(bytes[y])
            }
            return bytes(of: a) == bytes(of: b)
        }

        /// The string starting at `index` (a quote), without its quotes and
        /// with its escapes resolved (so that `"a"` and `"\u0061"` are one
        /// key); `index` moves past it.
        mutating func string() -> Key {
            let start = index
            index += 1
            var escaped = false
            while index < bytes.count {
                let byte = bytes[index]
                index += 1
                if byte == Byte.backslash {
                    escaped = true
                    index += 1
                } else if byte == Byte.quote {
                    break
                }
            }
            let end = min(index, bytes.count)
            guard escaped else { return .raw(start + 1 ..< max(start + 1, end - 1)) }
            let raw = Data(UnsafeBufferPointer(rebasing: bytes[start ..< end]))
            guard let text = try? JSONDecoder().decode(String.self, from: raw) else { return .raw(start ..< end) }
            return .resolved(Array(text.utf8))
        }

        static func isNumberByte(_ byte: UInt8) -> Bool {
            switch byte {
            case Byte.zero ... Byte.nine, Byte.minus, Byte.plus, Byte.point,
                Byte.lowerE, Byte.upperE:
                true
            default: false
            }
        }
    }
}

/// The bytes the scanner looks for, as constants: `UInt8(ascii:)` is a
/// call in a debug build, made for every byte of a 64 MiB file.
private enum Byte {
    static let openBrace: UInt8 = 0x7B
    static let closeBrace: UInt8 = 0x7D
    static let openBracket: UInt8 = 0x5B
    static let closeBracket: UInt8 = 0x5D
    static let comma: UInt8 = 0x2C
    static let quote: UInt8 = 0x22
    static let backslash: UInt8 = 0x5C
    static let minus: UInt8 = 0x2D
    static let plus: UInt8 = 0x2B
    static let point: UInt8 = 0x2E
    static let zero: UInt8 = 0x30
    static let nine: UInt8 = 0x39
    static let lowerE: UInt8 = 0x65
    static let upperE: UInt8 = 0x45
    static let newline: UInt8 = 0x0A
}

/// A JSON input refused, in one sentence (``JSONInput``).
package struct JSONInputError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The sentence.
    package let description: String

    package init(_ description: String) { self.description = description }
}
