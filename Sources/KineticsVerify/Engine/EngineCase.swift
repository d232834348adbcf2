import Foundation
import Kinetics

/// The version of the engine protocol: the fields of ``EngineCase`` and
/// ``EngineAnswer`` on the wire. Every case line carries it as `protocol`;
/// an engine that sees another number should refuse the case.
public let engineProtocolVersion = 1

/// One problem an engine under verification is asked to solve.
///
/// On the wire (see `docs/engines.md` and `data/schema/engine-case.schema.json`)
/// a case is one JSON object on one line, its fields flat:
/// `{"protocol":1,"id":"spring/0/60","kind":"spring","tension":…,"times":[…]}`.
public struct EngineCase: Sendable, Equatable {
    /// The case's identifier, unique in a run: `spring/17/60` (the 18th
    /// spring of the grid at 60 Hz), `decay/3/120`, `bezier/4`.
    public var id: String
    /// What to compute.
    public var problem: Problem

    /// What an engine computes for a case.
    public enum Problem: Sendable, Equatable {
        /// A spring released at `from` with `velocity`, moving to `to`:
        /// the values (and, if the engine has them, the velocities) at `times`.
        case spring(SpringProblem)
        /// A decay thrown from `from` with `velocity`: the values at `times`.
        case decay(DecayProblem)
        /// A unit bezier timing curve: y at each x.
        case bezier(BezierProblem)
    }

    /// Creates a case.
    public init(id: String, problem: Problem) {
        self.id = id
        self.problem = problem
    }

    /// How many values the answer must hold.
    public var valueCount: Int {
        switch problem {
        case .spring(let spring): spring.times.count
        case .decay(let decay): decay.times.count
        case .bezier(let bezier): bezier.x.count
        }
    }

    /// The kind's name on the wire: `spring`, `decay` or `bezier`.
    public var kind: String {
        switch problem {
        case .spring: "spring"
        case .decay: "decay"
        case .bezier: "bezier"
        }
    }
}

/// A spring case: the engine starts at `from` with `velocity` at time 0 and
/// reports its value at each of `times` (seconds, increasing, the first 0).
public struct SpringProblem: Sendable, Equatable {
    /// The spring. On the wire it is given in every parameterisation there
    /// is (tension, friction and mass; stiffness and damping; damping ratio
    /// and natural frequency; response and damping fraction; duration and
    /// bounce), so that an engine reads the one it takes.
    public var parameters: SpringParameters
    /// The start value.
    public var from: Double
    /// The target.
    public var to: Double
    /// The initial velocity, units per second.
    public var velocity: Double
    /// The frame times, in seconds.
    public var times: [Double]

    /// Creates a spring case.
    public init(parameters: SpringParameters, from: Double, to: Double, velocity: Double, times: [Double]) {
        self.parameters = parameters
        self.from = from
        self.to = to
        self.velocity = velocity
        self.times = times
    }
}

/// A decay case: thrown at time 0 from `from` with `velocity`, slowed by
/// Pop's `deceleration` per millisecond; the value at each of `times`.
public struct DecayProblem: Sendable, Equatable {
    /// The deceleration.
    public var parameters: DecayParameters
    /// The start value.
    public var from: Double
    /// The initial velocity, units per second.
    public var velocity: Double
    /// The frame times, in seconds.
    public var times: [Double]

    /// Creates a decay case.
    public init(parameters: DecayParameters, from: Double, velocity: Double, times: [Double]) {
        self.parameters = parameters
        self.from = from
        self.velocity = velocity
        self.times = times
    }
}

/// A timing-curve case: y of the unit bezier through (0, 0), (x1, y1),
/// (x2, y2), (1, 1) at each x.
public struct BezierProblem: Sendable, Equatable {
    /// The curve.
    public var curve: UnitBezier
    /// The x values, in [0, 1].
    public var x: [Double]

    /// Creates a curve case.
    public init(curve: UnitBezier, x: [Double]) {
        self.curve = curve
        self.x = x
    }
}

/// An engine's answer to one case.
///
/// On the wire: `{"id":"spring/0/60","values":[…],"velocities":[…]}`, one
/// line, in any order. A value that is not a number may be written `null`
/// (or, as Python's `json` writes it, `NaN`, `Infinity`, `-Infinity`): the
/// case then counts as diverged, which no tolerance accepts.
public struct EngineAnswer: Sendable, Equatable {
    /// One value per frame time (per x for a curve).
    public var values: [Double]
    /// The velocities at the frame times, if the engine reports them.
    public var velocities: [Double]?

    /// Creates an answer.
    public init(values: [Double], velocities: [Double]? = nil) {
        self.values = values
        self.velocities = velocities
    }
}

// MARK: - The wire form

extension EngineCase: Codable {
    /// The case as one line of the protocol (without the newline): keys
    /// sorted, slashes unescaped, numbers that read back to the same double.
    public func line() -> String {
        // Encoding a case of finite numbers cannot fail.
        String(decoding: try! Self.encoder.encode(self), as: UTF8.self)
    }

    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    private enum Keys: String, CodingKey {
        case `protocol`, id, kind
        case tension, friction, mass, stiffness, damping, dampingRatio, naturalFrequency
        case response, dampingFraction, duration, bounce
        case from, to, velocity, times
        case deceleration
        case x1, y1, x2, y2, x
    }

    /// Writes the flat wire form, every spring parameterisation included.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(engineProtocolVersion, forKey: .protocol)
        try container.encode(id, forKey: .id)
        try container.encode(kind, forKey: .kind)
        switch problem {
        case .spring(let spring):
            let p = spring.parameters
            try container.encode(p.tension, forKey: .tension)
            try container.encode(p.friction, forKey: .friction)
            try container.encode(p.mass, forKey: .mass)
            try container.encode(p.tension, forKey: .stiffness)
            try container.encode(p.friction, forKey: .damping)
            try container.encode(p.dampingRatio, forKey: .dampingRatio)
            try container.encode(p.naturalFrequency, forKey: .naturalFrequency)
            try container.encode(p.response, forKey: .response)
            try container.encode(p.dampingFraction, forKey: .dampingFraction)
            try container.encode(p.duration, forKey: .duration)
            try container.encode(p.bounce, forKey: .bounce)
            try container.encode(spring.from, forKey: .from)
            try container.encode(spring.to, forKey: .to)
            try container.encode(spring.velocity, forKey: .velocity)
            try container.encode(spring.times, forKey: .times)
        case .decay(let decay):
            try container.encode(decay.parameters.deceleration, forKey: .deceleration)
            try container.encode(decay.from, forKey: .from)
            try container.encode(decay.velocity, forKey: .velocity)
            try container.encode(decay.times, forKey: .times)
        case .bezier(let bezier):
            try container.encode(bezier.curve.x1, forKey: .x1)
            try container.encode(bezier.curve.y1, forKey: .y1)
            try container.encode(bezier.curve.x2, forKey: .x2)
            try container.encode(bezier.curve.y2, forKey: .y2)
            try container.encode(bezier.x, forKey: .x)
        }
    }

    /// Reads the wire form: the spring from its tension, friction and mass.
    ///
    /// - Throws: `DecodingError` for another protocol version, an unknown
    ///   kind, a missing field or parameters out of range.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Keys.self)
        let version = try container.decode(Int.self, forKey: .protocol)
        guard version == engineProtocolVersion else {
            throw DecodingError.dataCorruptedError(
                forKey: .protocol, in: container,
                debugDescription: "protocol \(version) is not the supported version \(engineProtocolVersion)")
        }
        let id = try container.decode(String.self, forKey: .id)
        self.id = id
        let kind = try container.decode(String.self, forKey: .kind)
        func checked<T>(_ make: () throws -> T) throws -> T {
            do { return try make() } catch {
                throw DecodingError.dataCorruptedError(
                    forKey: .kind, in: container, debugDescription: "case \(id): \(error)")
            }
        }
        switch kind {
        case "spring":
            let tension = try container.decode(Double.self, forKey: .tension)
            let friction = try container.decode(Double.self, forKey: .friction)
            let mass = try container.decode(Double.self, forKey: .mass)
            problem = .spring(
                SpringProblem(
                    parameters: try checked { try SpringParameters(tension: tension, friction: friction, mass: mass) },
                    from: try container.decode(Double.self, forKey: .from),
                    to: try container.decode(Double.self, forKey: .to),
                    velocity: try container.decode(Double.self, forKey: .velocity),
                    times: try container.decode([Double].self, forKey: .times)))
        case "decay":
            let deceleration = try container.decode(Double.self, forKey: .deceleration)
            problem = .decay(
                DecayProblem(
                    parameters: try checked { try DecayParameters(deceleration: deceleration) },
                    from: try container.decode(Double.self, forKey: .from),
                    velocity: try container.decode(Double.self, forKey: .velocity),
                    times: try container.decode([Double].self, forKey: .times)))
        case "bezier":
            let x1 = try container.decode(Double.self, forKey: .x1)
            let y1 = try container.decode(Double.self, forKey: .y1)
            let x2 = try container.decode(Double.self, forKey: .x2)
            let y2 = try container.decode(Double.self, forKey: .y2)
            problem = .bezier(
                BezierProblem(
                    curve: try checked { try UnitBezier(x1: x1, y1: y1, x2: x2, y2: y2) },
                    x: try container.decode([Double].self, forKey: .x)))
        default:
            throw DecodingError.dataCorruptedError(
                forKey: .kind, in: container,
                debugDescription: "unknown kind '\(kind)'; the kinds are spring, decay, bezier")
        }
    }
}
