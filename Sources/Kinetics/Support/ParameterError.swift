/// A parameter that a solver cannot accept, with the range it does accept.
///
/// Every throwing initialiser in Kinetics reports bad input with this error.
/// `parameter` is the name used in the API and, in camelCase, by the
/// scenario files (the command-line tool turns it into `--kebab-case`).
public struct ParameterError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The parameter's name, for example `mass` or `dampingFraction`.
    public let parameter: String
    /// The rejected value.
    public let value: Double
    /// The accepted range in words, for example `a finite number > 0`.
    public let accepted: String

    /// Creates an error for `parameter`, which was `value` but must be `accepted`.
    public init(parameter: String, value: Double, accepted: String) {
        self.parameter = parameter
        self.value = value
        self.accepted = accepted
    }

    /// One line: `mass must be a finite number > 0, got -1.0`.
    public var description: String {
        "\(parameter) must be \(accepted), got \(value)"
    }
}

/// Checks shared by the parameter types. Each is written as two ordered
/// comparisons (NaN fails every one), not with `isFinite`, which tests the
/// bits: an add runs four of them.
@usableFromInline
enum Check {
    /// `value` must be finite and strictly positive.
    @usableFromInline
    static func positive(_ value: Double, _ name: String) throws(ParameterError) {
        guard value > 0 && value < .infinity else {
            throw ParameterError(parameter: name, value: value, accepted: "a finite number > 0")
        }
    }

    /// `value` must be finite and not negative.
    @usableFromInline
    static func nonNegative(_ value: Double, _ name: String) throws(ParameterError) {
        guard value >= 0 && value < .infinity else {
            throw ParameterError(parameter: name, value: value, accepted: "a finite number >= 0")
        }
    }

    /// `value` must be finite.
    @usableFromInline
    static func finite(_ value: Double, _ name: String) throws(ParameterError) {
        guard value > -.infinity && value < .infinity else {
            throw ParameterError(parameter: name, value: value, accepted: "a finite number")
        }
    }

    /// `value` must lie in the closed interval `range`.
    @usableFromInline
    static func within(
        _ value: Double, _ range: ClosedRange<Double>, _ name: String
    ) throws(ParameterError) {
        guard value.isFinite, range.contains(value) else {
            throw ParameterError(
                parameter: name, value: value,
                accepted: "in [\(range.lowerBound), \(range.upperBound)]")
        }
    }
}

/// The most frames any clock, scenario or command runs, and the most
/// samples any trace holds: 10,000,000 (46 hours at 60 Hz). It bounds the
/// memory and time of every input.
public let maximumFrameCount = 10_000_000
