/// The five ways of giving a spring, as optional fields: tension/friction,
/// bounciness/speed, stiffness/damping, response/damping fraction and
/// duration/bounce, with an optional mass. Front ends (command line,
/// scenario files) fill it and call ``resolve()``; the errors say what is
/// wrong in terms of the fields, and each front end names them its own way.
public struct SpringFields: Sendable, Equatable {
    /// Pop's tension (stiffness over mass 1), with ``friction``.
    public var tension: Double?
    /// Pop's friction (damping), with ``tension``.
    public var friction: Double?
    /// The mass, with any of the pairs (1 when absent).
    public var mass: Double?
    /// Pop's bounciness, with ``speed``.
    public var bounciness: Double?
    /// Pop's speed, with ``bounciness``.
    public var speed: Double?
    /// The spring constant, with ``damping``.
    public var stiffness: Double?
    /// The damping coefficient, with ``stiffness``.
    public var damping: Double?
    /// SwiftUI's response (the period of the undamped oscillation, in seconds), with ``dampingFraction``.
    public var response: Double?
    /// SwiftUI's damping fraction (the damping ratio), with ``response``.
    public var dampingFraction: Double?
    /// SwiftUI's or Flutter's duration, in seconds, with ``bounce``.
    public var duration: Double?
    /// SwiftUI's or Flutter's bounce, with ``duration``.
    public var bounce: Double?

    /// No fields.
    public init() {}

    /// What is wrong with a set of fields.
    public enum Problem: Error, Equatable, Sendable {
        /// No set was given.
        case none
        /// Two (or more) sets were given; the first two, as field names.
        case twoSets([String], [String])
        /// A set lacks a field: `field` needs `partner`.
        case incomplete(field: String, partner: String)
        /// `mass` was given with bounciness and speed (Pop's mapping fixes it at 1).
        case massWithBounciness
        /// A value is out of range.
        case parameter(ParameterError)
    }

    /// The sets in the order above, with their field names.
    public static let sets: [[String]] = [
        ["tension", "friction"], ["bounciness", "speed"], ["stiffness", "damping"],
        ["response", "dampingFraction"], ["duration", "bounce"],
    ]

    private var values: [[Double?]] {
        [
            [tension, friction], [bounciness, speed], [stiffness, damping], [response, dampingFraction],
            [duration, bounce],
        ]
    }

    /// Whether any field is set.
    public var isEmpty: Bool { values.allSatisfy { $0.allSatisfy { $0 == nil } } && mass == nil }

    /// The spring the fields describe.
    ///
    /// - Throws: ``Problem`` when no set, two sets or an incomplete set is
    ///   given, when `mass` goes with bounciness and speed, or when a value is
    ///   out of range.
    public func resolve() throws(Problem) -> SpringParameters {
        let given = values.indices.filter { values[$0].contains { $0 != nil } }
        guard let set = given.first else { throw .none }
        guard given.count == 1 else { throw .twoSets(Self.sets[given[0]], Self.sets[given[1]]) }
        let names = Self.sets[set]
        let pair = values[set]
        for index in 0 ..< 2 where pair[index] == nil {
            throw .incomplete(field: names[1 - index], partner: names[index])
        }
        let (a, b) = (pair[0]!, pair[1]!)
        let m = mass ?? 1
        do {
            switch set {
            case 0: return try SpringParameters(tension: a, friction: b, mass: m)
            case 1:
                if mass != nil { throw Problem.massWithBounciness }
                return try SpringParameters(bounciness: a, speed: b)
            case 2: return try SpringParameters(stiffness: a, damping: b, mass: m)
            case 3: return try SpringParameters(response: a, dampingFraction: b, mass: m)
            default: return try SpringParameters(duration: a, bounce: b, mass: m)
            }
        } catch let error as ParameterError {
            throw .parameter(error)
        } catch let problem as Problem {
            throw problem
        } catch {
            preconditionFailure("unexpected \(error)")
        }
    }
}
