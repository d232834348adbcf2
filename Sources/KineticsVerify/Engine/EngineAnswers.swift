import Foundation
import KineticsInput

/// Why an engine's run stopped before every case was answered, or why its
/// answers cannot be used. The answers read up to the fault are still
/// verified and reported.
public struct EngineFault: Error, Sendable, Equatable, Codable, CustomStringConvertible {
    /// What went wrong.
    public enum Kind: String, Sendable, Codable {
        /// The command does not exist (the shell's status 127).
        case notFound
        /// The command exists but cannot be run (the shell's status 126).
        case notExecutable
        /// The engine ended, by itself or by a signal, before answering every case.
        case ended
        /// No answer came within the per-case timeout; the engine was stopped.
        case timedOut
        /// A line of the engine's output is not a valid answer: not JSON,
        /// an unknown or repeated id, the wrong number of values, text for
        /// a number.
        case badAnswer
        /// The engine answered a case with an error of its own. (No longer a
        /// fault: a refused case is kept in ``EngineAnswers/refusals`` and
        /// its suite reported as refused; reports written before say it.)
        case refused
        /// An in-process engine threw.
        case threw
    }

    /// What went wrong.
    public var kind: Kind
    /// One line: what happened, and the case it happened on.
    public var message: String

    /// Creates a fault.
    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    /// The message.
    public var description: String { message }
}

/// The answers read so far, checked against the cases they answer.
public struct EngineAnswers: Sendable {
    /// The answers by case id.
    public private(set) var answers: [String: EngineAnswer] = [:]
    /// The cases the engine refused (an answer with an `error`), with its
    /// message, by case id.
    public private(set) var refusals: [String: String] = [:]
    /// How many values each case's answer must hold, by id.
    private let expected: [String: Int]
    /// The case ids in the order they were asked.
    private let order: [String]
    /// The most values any case's answer holds.
    let maximumCount: Int

    /// Answers to `cases`, none yet.
    public init(for cases: [EngineCase]) {
        expected = Dictionary(cases.map { ($0.id, $0.valueCount) }, uniquingKeysWith: { first, _ in first })
        order = cases.map(\.id)
        maximumCount = cases.map(\.valueCount).max() ?? 0
    }

    /// Whether every case has its answer or was refused.
    public var isComplete: Bool { answers.count + refusals.count == expected.count }

    /// The first case, in the order asked, neither answered nor refused.
    public var firstMissing: String? { order.first { answers[$0] == nil && refusals[$0] == nil } }

    /// How many cases are neither answered nor refused yet.
    public var missingCount: Int { expected.count - answers.count - refusals.count }

    /// Takes an answer for case `id`.
    ///
    /// - Throws: ``EngineFault`` (`badAnswer`) for an unknown or repeated id,
    ///   or the wrong number of values or velocities.
    public mutating func take(_ answer: EngineAnswer, for id: String) throws(EngineFault) {
        guard let count = expected[id] else {
            throw EngineFault(.badAnswer, "the engine answered an unknown case '\(Self.clipped(id))'")
        }
        guard answers[id] == nil && refusals[id] == nil else {
            throw EngineFault(.badAnswer, "the engine answered case \(id) twice")
        }
        guard answer.values.count == count else {
            throw EngineFault(
                .badAnswer, "case \(id): the engine gave \(answer.values.count) values for \(count) \(Self.noun(id))")
        }
        if let velocities = answer.velocities, velocities.count != count {
            throw EngineFault(
                .badAnswer, "case \(id): the engine gave \(velocities.count) velocities for \(count) \(Self.noun(id))")
        }
        answers[id] = answer
    }

    /// Reads one line of an engine's output (see ``EngineAnswer`` for its
    /// form) and takes the answer on it. A blank line is passed over.
    ///
    /// A line with an `error` is a refusal, kept in ``refusals``: the run
    /// goes on, and the case's suite is reported as refused.
    ///
    /// - Throws: ``EngineFault`` (`badAnswer`) for a line that is not an
    ///   answer, or one for an unknown or already answered case.
    public mutating func take(line: some StringProtocol, number: Int) throws(EngineFault) {
        guard line.contains(where: { !$0.isWhitespace }) else { return }
        let wire: WireAnswer
        let data = Data(Self.quotingNonFiniteTokens(line).utf8)
        do {
            wire = try JSONInput.decode(WireAnswer.self, from: data, decoder: Self.decoder)
        } catch {
            if let id = try? Self.decoder.decode(WireID.self, from: data).id {
                throw EngineFault(.badAnswer, "line \(number), case \(Self.clipped(id)): \(error)")
            }
            throw EngineFault(
                .badAnswer,
                "line \(number) of the engine's output is not an answer (\(error)): \(Self.clipped(String(line)))"
            )
        }
        if let message = wire.error {
            guard expected[wire.id] != nil else {
                throw EngineFault(.badAnswer, "the engine refused an unknown case '\(Self.clipped(wire.id))'")
            }
            guard answers[wire.id] == nil && refusals[wire.id] == nil else {
                throw EngineFault(.badAnswer, "the engine answered case \(wire.id) twice")
            }
            refusals[wire.id] = Self.clipped(message)
            return
        }
        guard let values = wire.values else {
            throw EngineFault(
                .badAnswer, "line \(number): case \(Self.clipped(wire.id)) has neither values nor an error")
        }
        try take(
            EngineAnswer(values: values.map { $0 ?? .nan }, velocities: wire.velocities.map { $0.map { $0 ?? .nan } }),
            for: wire.id)
    }

    // MARK: The wire

    private struct WireID: Decodable { var id: String }

    private struct WireAnswer: Decodable {
        var id: String
        var values: [Double?]?
        var velocities: [Double?]?
        var error: String?
    }

    private static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(
            positiveInfinity: "Infinity", negativeInfinity: "-Infinity", nan: "NaN")
        return decoder
    }()

    /// Python's `json` writes `NaN`, `Infinity` and `-Infinity` bare; JSON
    /// has no such tokens. Outside strings they are quoted, so that the
    /// decoder's non-conforming strategy reads them.
    static func quotingNonFiniteTokens(_ line: some StringProtocol) -> String {
        guard line.contains("N") || line.contains("I") else { return String(line) }
        var result = ""
        result.reserveCapacity(line.utf8.count + 16)
        var inString = false
        var escaped = false
        var index = line.startIndex
        while index < line.endIndex {
            let character = line[index]
            if inString {
                if escaped {
                    escaped = false
                } else if character == "\\" {
                    escaped = true
                } else if character == "\"" {
                    inString = false
                }
            } else if character == "\"" {
                inString = true
            } else {
                for token in ["-Infinity", "Infinity", "NaN"] where line[index...].hasPrefix(token) {
                    result += "\"\(token)\""
                    index = line.index(index, offsetBy: token.count)
                    break
                }
                if index == line.endIndex { break }
            }
            result.append(line[index])
            index = line.index(after: index)
        }
        return result
    }

    private static func noun(_ id: String) -> String { id.hasPrefix("bezier/") ? "x values" : "frame times" }

    /// At most 80 characters of `text`, for messages.
    static func clipped(_ text: String) -> String { text.count <= 80 ? text : text.prefix(77) + "..." }
}
