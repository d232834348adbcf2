/// The ways of giving a spring, as optional fields: each set of ``sets``
/// (tension/friction, bounciness/speed, stiffness/damping, stiffness/damping
/// ratio, response/damping fraction, duration/bounce, Origami's tension and
/// friction, Motion's visual duration or duration with a bounce), with an
/// optional mass where the set's engines take one. Front ends (command line,
/// scenario files) fill it by field name and call ``resolve()``; the errors
/// say what is wrong in terms of the fields, and each front end names them
/// its own way.
public struct SpringFields: Sendable, Equatable {
    /// One way of giving a spring: its fields, whether it takes a mass, and
    /// how its two values make the spring.
    struct FieldSet: Sendable {
        let fields: [String]
        /// Whether the engines that speak it take a mass (else it is 1).
        let takesMass: Bool
        /// Why the mass is 1, for the error when one is given.
        let fixedMassReason: String
        let make: @Sendable (Double, Double, Double) throws(ParameterError) -> SpringParameters
    }

    /// Every way of giving a spring, in the order errors and help list them.
    static let fieldSets: [FieldSet] = [
        FieldSet(fields: ["tension", "friction"], takesMass: true, fixedMassReason: "") {
            a, b, m throws(ParameterError) in
            try SpringParameters(tension: a, friction: b, mass: m)
        },
        FieldSet(
            fields: ["bounciness", "speed"], takesMass: false, fixedMassReason: "Pop's mapping fixes the mass at 1"
        ) { a, b, _ throws(ParameterError) in try SpringParameters(bounciness: a, speed: b) },
        FieldSet(fields: ["stiffness", "damping"], takesMass: true, fixedMassReason: "") {
            a, b, m throws(ParameterError) in
            try SpringParameters(stiffness: a, damping: b, mass: m)
        },
        FieldSet(fields: ["stiffness", "dampingRatio"], takesMass: true, fixedMassReason: "") {
            a, b, m throws(ParameterError) in try SpringParameters(stiffness: a, dampingRatio: b, mass: m)
        },
        FieldSet(fields: ["response", "dampingFraction"], takesMass: true, fixedMassReason: "") {
            a, b, m throws(ParameterError) in try SpringParameters(response: a, dampingFraction: b, mass: m)
        },
        FieldSet(fields: ["duration", "bounce"], takesMass: true, fixedMassReason: "") {
            a, b, m throws(ParameterError) in
            try SpringParameters(duration: a, bounce: b, mass: m)
        },
        FieldSet(
            fields: ["origamiTension", "origamiFriction"], takesMass: false,
            fixedMassReason: "Rebound and React Native fix the mass of an Origami spring at 1"
        ) { a, b, _ throws(ParameterError) in try SpringParameters(origamiTension: a, origamiFriction: b) },
        FieldSet(
            fields: ["motionVisualDuration", "bounce"], takesMass: false,
            fixedMassReason: "Motion fixes the mass of a spring given by a duration at 1"
        ) { a, b, _ throws(ParameterError) in try SpringParameters(motionVisualDuration: a, bounce: b) },
        FieldSet(
            fields: ["motionDuration", "bounce"], takesMass: false,
            fixedMassReason: "Motion fixes the mass of a spring given by a duration at 1"
        ) { a, b, _ throws(ParameterError) in try SpringParameters(motionDuration: a, bounce: b) },
    ]

    /// Every field's name, each once: `mass`, then the fields of ``sets`` in
    /// their order. What a front end reads.
    public static let names: [String] = {
        var names = ["mass"]
        for set in fieldSets {
            for field in set.fields where !names.contains(field) { names.append(field) }
        }
        return names
    }()

    /// The sets, as field names, in the order errors list them.
    public static let sets: [[String]] = fieldSets.map(\.fields)

    /// The values given, by field name.
    private var given: [String: Double] = [:]

    /// No fields.
    public init() {}

    /// The value of the field `name` (one of ``names``), or nil.
    public subscript(name: String) -> Double? {
        get { given[name] }
        set {
            precondition(Self.names.contains(name), "no spring field is named \(name)")
            given[name] = newValue
        }
    }

    /// Pop's tension (stiffness over mass 1), with ``friction``.
    public var tension: Double? {
        get { self["tension"] }
        set { self["tension"] = newValue }
    }
    /// Pop's friction (damping), with ``tension``.
    public var friction: Double? {
        get { self["friction"] }
        set { self["friction"] = newValue }
    }
    /// The mass, with the sets that take one (1 when absent).
    public var mass: Double? {
        get { self["mass"] }
        set { self["mass"] = newValue }
    }
    /// Pop's bounciness, with ``speed``.
    public var bounciness: Double? {
        get { self["bounciness"] }
        set { self["bounciness"] = newValue }
    }
    /// Pop's speed, with ``bounciness``.
    public var speed: Double? {
        get { self["speed"] }
        set { self["speed"] = newValue }
    }
    /// The spring constant, with ``damping`` or ``dampingRatio``.
    public var stiffness: Double? {
        get { self["stiffness"] }
        set { self["stiffness"] = newValue }
    }
    /// The damping coefficient, with ``stiffness``.
    public var damping: Double? {
        get { self["damping"] }
        set { self["damping"] = newValue }
    }
    /// The damping ratio ζ (Android's and Compose's), with ``stiffness``.
    public var dampingRatio: Double? {
        get { self["dampingRatio"] }
        set { self["dampingRatio"] = newValue }
    }
    /// SwiftUI's response (the period of the undamped oscillation, in seconds), with ``dampingFraction``.
    public var response: Double? {
        get { self["response"] }
        set { self["response"] = newValue }
    }
    /// SwiftUI's damping fraction (the damping ratio), with ``response``.
    public var dampingFraction: Double? {
        get { self["dampingFraction"] }
        set { self["dampingFraction"] = newValue }
    }
    /// SwiftUI's or Flutter's duration, in seconds, with ``bounce``.
    public var duration: Double? {
        get { self["duration"] }
        set { self["duration"] = newValue }
    }
    /// The bounce, with ``duration`` (SwiftUI's or Flutter's), ``motionVisualDuration`` or ``motionDuration``.
    public var bounce: Double? {
        get { self["bounce"] }
        set { self["bounce"] = newValue }
    }
    /// Origami's tension (Rebound, React Native), with ``origamiFriction``.
    public var origamiTension: Double? {
        get { self["origamiTension"] }
        set { self["origamiTension"] = newValue }
    }
    /// Origami's friction, with ``origamiTension``.
    public var origamiFriction: Double? {
        get { self["origamiFriction"] }
        set { self["origamiFriction"] = newValue }
    }
    /// Motion's `visualDuration`, in seconds, with ``bounce``.
    public var motionVisualDuration: Double? {
        get { self["motionVisualDuration"] }
        set { self["motionVisualDuration"] = newValue }
    }
    /// Motion's `duration`, in seconds, with ``bounce``.
    public var motionDuration: Double? {
        get { self["motionDuration"] }
        set { self["motionDuration"] = newValue }
    }

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

    /// Whether any field is set.
    public var isEmpty: Bool { given.isEmpty }

    /// The spring the fields describe.
    ///
    /// - Throws: ``Problem`` when no set, two sets or an incomplete set is
    ///   given, when `mass` goes with bounciness and speed, or when a value
    ///   is out of range (a `mass` given with another set that fixes it at 1
    ///   is a ``ParameterError`` naming `mass`).
    public func resolve() throws(Problem) -> SpringParameters {
        let named = Set(given.keys).subtracting(["mass"])
        guard let first = Self.names.first(where: named.contains) else { throw .none }
        let sets = Self.fieldSets
        // The sets that hold every field given: one of them complete is the spring.
        let covering = sets.filter { named.isSubset(of: $0.fields) }
        guard let chosen = covering.first(where: { Set($0.fields) == named }) else {
            if let set = covering.first {
                let field = set.fields.first(where: named.contains) ?? first
                throw .incomplete(field: field, partner: set.fields.first { !named.contains($0) } ?? field)
            }
            // Fields of two sets: the first set touched, and one holding a field it lacks.
            let one = sets.first { $0.fields.contains(first) }!.fields
            let other = sets.first { set in set.fields.contains { named.contains($0) && !one.contains($0) } }!.fields
            throw .twoSets(one, other)
        }
        if given["mass"] != nil, !chosen.takesMass {
            if chosen.fields == ["bounciness", "speed"] { throw .massWithBounciness }
            throw .parameter(
                ParameterError(
                    parameter: "mass", value: given["mass"]!,
                    accepted: "left out with \(chosen.fields.joined(separator: "/")) (\(chosen.fixedMassReason))"))
        }
        do {
            return try chosen.make(given[chosen.fields[0]]!, given[chosen.fields[1]]!, given["mass"] ?? 1)
        } catch {
            throw .parameter(error)
        }
    }
}
