import Foundation
import Kinetics

extension Scenario {
    /// The largest file a scenario may be: 16 MiB.
    public static let maximumSize = 16 << 20

    /// The most memory running a scenario takes a byte of its file, in
    /// bytes: its parse and its animations grow with the file, never with
    /// the frames (`kinetics animate` prints each frame as it is made).
    /// Measured at 17 for 80,000 springs (a 9 MB file took 181 MB), 28 for
    /// 200,000 springs written tightly (13.7 MB, 414 MB) and 15 for one
    /// keyframe animation of 700,000 keys (12.5 MB, 208 MB).
    public static let memoryPerByte = 48

    /// Reads a scenario from JSON.
    ///
    /// - Throws: ``ScenarioError`` naming the JSON path of the first problem:
    ///   not JSON, an unknown type or field, a value of the wrong kind, a
    ///   number that is not finite or out of range, a key used twice at once,
    ///   an action on a key no animation has.
    public static func parse(_ data: Data) throws(ScenarioError) -> Scenario {
        guard data.count <= maximumSize else {
            throw ScenarioError(
                path: "$", message: "the file is \(data.count) bytes; a scenario may have at most \(maximumSize)")
        }
        var root = try ObjectReader(try JSONValue.parse(data), path: "$")
        let clock = try readClock(&root)
        var initialValues: [String: [Double]] = [:]
        if var initial = try root.object("initial") {
            for name in initial.members.keys.sorted() {
                initialValues[name] = try initial.requiredVector(name)
            }
        }
        var animations: [AnimationSpec] = []
        var keysInUse: [String: String] = [:]
        for (index, item) in try root.requiredArray("animations").enumerated() {
            let path = "animations[\(index)]"
            let spec = try readAnimation(item, path: path)
            if let other = keysInUse[spec.key] {
                throw ScenarioError(path: "\(path).key", message: "'\(spec.key)' is already used by \(other)")
            }
            keysInUse[spec.key] = path
            animations.append(spec)
        }
        var actions: [ActionSpec] = []
        var transactionCount = 0
        for (index, item) in (try root.array("actions") ?? []).enumerated() {
            actions.append(try readAction(item, path: "actions[\(index)]", transactionCount: &transactionCount))
        }
        try root.finish(allowed: ["fps", "seconds", "times", "jitter", "initial", "animations", "actions"])
        // Actions may only name keys that some animation (or added animation) has.
        var known = Set(animations.map(\.key))
        for action in actions {
            switch action.verb {
            case .add(let spec):
                known.insert(spec.key)
            case .retarget(let key, _), .remove(let key), .pause(let key), .resume(let key):
                guard known.contains(key) else {
                    throw ScenarioError(path: action.path, message: "no animation has the key '\(key)' by then")
                }
            case .set, .transaction:
                break
            }
        }
        return Scenario(clock: clock, initialValues: initialValues, animations: animations, actions: actions)
    }

    private static func readClock(_ root: inout ObjectReader) throws(ScenarioError) -> Clock {
        if let times = try root.array("times") {
            guard root.members["fps"] == nil, root.members["seconds"] == nil, root.members["jitter"] == nil else {
                throw ScenarioError(path: "$.times", message: "give either times or fps and seconds, not both")
            }
            var values: [Double] = []
            for (index, item) in times.enumerated() {
                let path = "$.times[\(index)]"
                guard case .number(let time) = item else {
                    throw ScenarioError(path: path, message: "expected a number, got \(item.kindName)")
                }
                guard time.isFinite, time >= 0 else {
                    throw ScenarioError(path: path, message: "must be finite and >= 0, got \(time)")
                }
                if let last = values.last, time < last {
                    throw ScenarioError(path: path, message: "times must not decrease (\(time) after \(last))")
                }
                values.append(time)
            }
            guard values.count <= maximumFrameCount else {
                throw ScenarioError(
                    path: "$.times", message: "at most \(maximumFrameCount) frames, got \(values.count)")
            }
            return .times(values)
        }
        let fps = try root.requiredNumber("fps")
        let seconds = try root.requiredNumber("seconds")
        guard fps > 0 else { throw ScenarioError(path: "$.fps", message: "must be > 0, got \(fps)") }
        guard seconds > 0 else { throw ScenarioError(path: "$.seconds", message: "must be > 0, got \(seconds)") }
        guard fps * seconds <= Double(maximumFrameCount) else {
            throw ScenarioError(
                path: "$.seconds",
                message: "fps × seconds must give at most \(maximumFrameCount) frames, got \(fps * seconds)")
        }
        guard var jitter = try root.object("jitter") else { return .rate(fps: fps, seconds: seconds) }
        let seed = try jitter.requiredNumber("seed")
        guard seed >= 0, seed <= Double(UInt32.max), seed.rounded() == seed else {
            throw ScenarioError(
                path: "$.jitter.seed", message: "must be a whole number in [0, 4294967295], got \(seed)")
        }
        let dropRate = try jitter.number("dropRate") ?? 0.1
        guard dropRate >= 0, dropRate < 1 else {
            throw ScenarioError(path: "$.jitter.dropRate", message: "must be in [0, 1), got \(dropRate)")
        }
        let amount = try jitter.number("jitter") ?? 0.1
        guard amount >= 0, amount < 0.5 else {
            throw ScenarioError(path: "$.jitter.jitter", message: "must be in [0, 0.5) of a frame, got \(amount)")
        }
        try jitter.finish(allowed: ["seed", "dropRate", "jitter"])
        return .jittered(fps: fps, seconds: seconds, seed: UInt64(seed), dropRate: dropRate, jitter: amount)
    }

    // MARK: Animations

    static let commonFields = [
        "key", "type", "property", "from", "to", "velocity", "threshold", "clamp", "roundingFactor", "additive",
        "beginTime", "repeatCount", "repeatForever", "autoreverses", "progressMarkers", "removedOnCompletion",
    ]
    static let springFields = [
        "tension", "friction", "mass", "bounciness", "speed", "stiffness", "damping", "response",
        "dampingFraction", "duration", "bounce", "method",
    ]
    /// The values of an animation's `type`.
    enum AnimationType: String, CaseIterable {
        case spring, decay, basic, keyframe, sequence, group

        /// The fields only this type reads.
        var fields: [String] {
            switch self {
            case .spring: springFields
            case .decay: ["deceleration", "method"]
            case .basic: ["duration", "curve", "method"]
            case .keyframe: ["values", "keyTimes", "curve", "calculationMode", "duration"]
            case .sequence, .group: ["children"]
            }
        }
    }

    static func readAnimation(_ value: JSONValue, path: String) throws(ScenarioError) -> AnimationSpec {
        var reader = try ObjectReader(value, path: path)
        let key = try reader.requiredString("key")
        guard !key.isEmpty else { throw ScenarioError(path: "\(path).key", message: "must not be empty") }
        let name = try reader.requiredString("type")
        guard let type = AnimationType(rawValue: name) else {
            let names = AnimationType.allCases.map(\.rawValue).joined(separator: ", ")
            throw ScenarioError(path: "\(path).type", message: "unknown type '\(name)'; the types are \(names)")
        }
        var spec = AnimationSpec(
            path: path, key: key, property: try reader.string("property") ?? key, kind: .group([]), width: 1)
        try readLifeCycle(&reader, into: &spec)
        switch type {
        case .spring:
            spec.kind = .spring(
                try readSpring(&reader, path: path), try reader.choice("method", SpringMethod.self) ?? .rk4)
        case .decay:
            let deceleration = try reader.number("deceleration") ?? DecayParameters.popDefault.deceleration
            let parameters: DecayParameters
            do {
                parameters = try DecayParameters(deceleration: deceleration)
            } catch {
                throw ScenarioError(
                    path: "\(path).deceleration", message: "must be \(error.accepted), got \(deceleration)")
            }
            guard spec.velocity != nil else {
                throw ScenarioError(path: "\(path).velocity", message: "a decay needs a velocity")
            }
            spec.kind = .decay(parameters, try reader.choice("method", DecayMethod.self) ?? .pop)
        case .basic:
            let duration = try reader.number("duration") ?? 0.4
            guard duration > 0 else {
                throw ScenarioError(path: "\(path).duration", message: "must be > 0, got \(duration)")
            }
            let timing = try reader.curve("curve") ?? .default
            spec.kind = .basic(
                duration: duration, timing: timing, bezier: try reader.choice("method", BezierMethod.self) ?? .fast)
        case .keyframe:
            spec.kind = try readKeyframes(&reader, path: path, spec: &spec)
        case .sequence, .group:
            var children: [AnimationSpec] = []
            for (index, item) in try reader.requiredArray("children").enumerated() {
                children.append(try readAnimation(item, path: "\(path).children[\(index)]"))
            }
            spec.kind = type == .sequence ? .sequence(children) : .group(children)
            for field in [
                "from", "to", "velocity", "threshold", "clamp", "roundingFactor", "additive", "autoreverses",
                "progressMarkers", "property",
            ]
            where reader.members[field] != nil {
                throw ScenarioError(path: "\(path).\(field)", message: "does not apply to a \(type)")
            }
        }
        try reader.finish(allowed: commonFields + type.fields) { field throws(ScenarioError) in
            if AnimationType.allCases.contains(where: { $0.fields.contains(field) }) {
                throw ScenarioError(path: "\(path).\(field)", message: "does not apply to a \(type) animation")
            }
        }
        return spec
    }

    private static func readLifeCycle(_ reader: inout ObjectReader, into spec: inout AnimationSpec)
        throws(ScenarioError)
    {
        let path = spec.path
        var widths: [(String, Int)] = []
        for field in ["from", "to", "velocity"] {
            guard let vector = try reader.vector(field) else { continue }
            widths.append((field, vector.count))
            switch field {
            case "from": spec.from = vector
            case "to": spec.to = vector
            default: spec.velocity = vector
            }
        }
        if let first = widths.first {
            for (field, width) in widths where width != first.1 {
                throw ScenarioError(
                    path: "\(path).\(field)", message: "has \(width) components but \(first.0) has \(first.1)")
            }
            spec.width = first.1
        }
        // The distance travelled, where both ends are given (else the
        // animator's output is checked as it runs).
        if let from = spec.from, let to = spec.to,
            let index = from.indices.first(where: { !(to[$0] - from[$0]).isFinite })
        {
            throw ScenarioError(
                path: "\(path).to",
                message:
                    "is \(to[index] - from[index]) from \(path).from in component \(index) (\(from[index]) to \(to[index])): the distance must be finite, within \(Limit.doubleRange)"
            )
        }
        if let threshold = try reader.number("threshold") {
            guard threshold > 0 else {
                throw ScenarioError(path: "\(path).threshold", message: "must be > 0, got \(threshold)")
            }
            spec.threshold = threshold
        }
        if let clamp = try reader.string("clamp") {
            switch clamp {
            case "none": spec.clamp = []
            case "start": spec.clamp = .start
            case "end": spec.clamp = .end
            case "both": spec.clamp = .both
            default:
                throw ScenarioError(
                    path: "\(path).clamp", message: "must be one of none, start, end, both, got '\(clamp)'")
            }
        }
        if let rounding = try reader.number("roundingFactor") {
            guard rounding >= 0 else {
                throw ScenarioError(path: "\(path).roundingFactor", message: "must be >= 0, got \(rounding)")
            }
            spec.roundingFactor = rounding
        }
        spec.additive = try reader.bool("additive") ?? false
        spec.beginTime = try reader.number("beginTime") ?? 0
        if let count = try reader.number("repeatCount") {
            guard count >= 0, count <= 1e9, count.rounded() == count else {
                throw ScenarioError(
                    path: "\(path).repeatCount", message: "must be a whole number in [0, 1000000000], got \(count)")
            }
            spec.repeatCount = Int(count)
        }
        spec.repeatForever = try reader.bool("repeatForever") ?? false
        spec.autoreverses = try reader.bool("autoreverses") ?? false
        spec.removedOnCompletion = try reader.bool("removedOnCompletion") ?? true
        if let markers = try reader.array("progressMarkers") {
            for (index, item) in markers.enumerated() {
                guard case .number(let marker) = item, marker >= 0, marker <= 1 else {
                    throw ScenarioError(
                        path: "\(path).progressMarkers[\(index)]", message: "must be a number in [0, 1]")
                }
                spec.progressMarkers.append(marker)
            }
        }
    }

    private static func readSpring(_ reader: inout ObjectReader, path: String) throws(ScenarioError) -> SpringParameters
    {
        var fields = SpringFields()
        for name in SpringFields.names { fields[name] = try reader.number(name) }
        if fields.isEmpty { return .popDefault }
        do {
            return try fields.resolve()
        } catch {
            switch error {
            case .none:
                throw ScenarioError(
                    path: path,
                    message: "a spring needs one of "
                        + SpringFields.sets.map { $0.joined(separator: "/") }.joined(separator: ", "))
            case .twoSets(let a, let b):
                throw ScenarioError(
                    path: path,
                    message: "give one spring, not two: \(a.joined(separator: "/")) and \(b.joined(separator: "/"))")
            case .incomplete(let field, let partner):
                throw ScenarioError(path: "\(path).\(field)", message: "needs \(partner)")
            case .massWithBounciness:
                throw ScenarioError(
                    path: "\(path).mass",
                    message: "does not apply to bounciness/speed (Pop's mapping fixes the mass at 1)")
            case .parameter(let problem):
                throw ScenarioError(
                    path: "\(path).\(problem.parameter)", message: "must be \(problem.accepted), got \(problem.value)")
            }
        }
    }

    private static func readKeyframes(
        _ reader: inout ObjectReader, path: String, spec: inout AnimationSpec
    ) throws(ScenarioError) -> AnimationSpec.Kind {
        var values: [[Double]] = []
        for (index, item) in try reader.requiredArray("values").enumerated() {
            values.append(try ObjectReader.vector(item, path: "\(path).values[\(index)]"))
        }
        guard let first = values.first else {
            throw ScenarioError(path: "\(path).values", message: "needs at least one value")
        }
        for (index, value) in values.enumerated() where value.count != first.count {
            throw ScenarioError(
                path: "\(path).values[\(index)]",
                message: "has \(value.count) components but values[0] has \(first.count)")
        }
        spec.width = first.count
        if spec.from != nil || spec.to != nil || spec.velocity != nil {
            throw ScenarioError(path: path, message: "a keyframe animation takes values, not from, to or velocity")
        }
        var keyTimes: [Double]?
        if let times = try reader.array("keyTimes") {
            var list: [Double] = []
            for (index, item) in times.enumerated() {
                guard case .number(let time) = item else {
                    throw ScenarioError(
                        path: "\(path).keyTimes[\(index)]", message: "expected a number, got \(item.kindName)")
                }
                list.append(time)
            }
            keyTimes = list
        }
        var timing: [TimingFunction] = []
        switch reader.members["curve"] {
        case .array(let items)? where items.contains(where: { if case .number = $0 { false } else { true } }):
            reader.used.insert("curve")
            for (index, item) in items.enumerated() {
                timing.append(try ObjectReader.curve(item, path: "\(path).curve[\(index)]"))
            }
        default:
            if let curve = try reader.curve("curve") { timing = [curve] }
        }
        let calculation = try reader.choice("calculationMode", KeyframeCalculation.self) ?? .linear
        let duration = try reader.number("duration") ?? 0.4
        do {
            _ = try Keyframes(
                values: values.map { SIMD4(packing: $0) }, keyTimes: keyTimes, timingFunctions: timing,
                calculation: calculation, duration: duration)
        } catch {
            throw ScenarioError(
                path: "\(path).\(error.parameter)", message: "must be \(error.accepted), got \(error.value)")
        }
        return .keyframe(
            values: values, keyTimes: keyTimes, timing: timing, calculation: calculation, duration: duration)
    }

    // MARK: Actions

    private static func readAction(_ value: JSONValue, path: String, transactionCount: inout Int) throws(ScenarioError)
        -> ActionSpec
    {
        var reader = try ObjectReader(value, path: path)
        let at = try reader.requiredNumber("at")
        guard at >= 0 else { throw ScenarioError(path: "\(path).at", message: "must be >= 0, got \(at)") }
        let verbs = ["retarget", "remove", "pause", "resume", "add", "set", "transaction"].filter {
            reader.members[$0] != nil
        }
        guard verbs.count == 1 else {
            throw ScenarioError(
                path: path,
                message: verbs.isEmpty
                    ? "an action needs one of retarget, remove, pause, resume, add, set, transaction"
                    : "an action does one thing, not \(verbs.joined(separator: " and "))")
        }
        let verb: ActionSpec.Verb
        switch verbs[0] {
        case "retarget":
            let key = try reader.requiredString("retarget")
            guard let to = try reader.vector("to") else {
                throw ScenarioError(path: "\(path).to", message: "a retarget needs the new target")
            }
            verb = .retarget(key: key, to: to)
        case "remove": verb = .remove(key: try reader.requiredString("remove"))
        case "pause": verb = .pause(key: try reader.requiredString("pause"))
        case "resume": verb = .resume(key: try reader.requiredString("resume"))
        case "set":
            verb = .set(try readSets(try reader.requiredValue("set", expected: "an object"), path: "\(path).set"))
        case "transaction":
            let transaction = try reader.requiredValue("transaction", expected: "an object")
            verb = .transaction(try readTransaction(transaction, path: "\(path).transaction", index: transactionCount))
            transactionCount += 1
        default:
            verb = .add(try readAnimation(try reader.requiredValue("add", expected: "an object"), path: "\(path).add"))
        }
        try reader.finish(allowed: ["at", "retarget", "to", "remove", "pause", "resume", "add", "set", "transaction"])
        return ActionSpec(at: at, verb: verb, path: path)
    }

    /// `{"key": value, …}`: numbers or arrays of up to four numbers.
    private static func readSets(_ value: JSONValue, path: String) throws(ScenarioError) -> [ImplicitSetSpec] {
        guard case .object(let members) = value, !members.isEmpty else {
            throw ScenarioError(path: path, message: "expected an object of keys and values, got \(value.kindName)")
        }
        var sets: [ImplicitSetSpec] = []
        for (key, member) in members.sorted(by: { $0.key < $1.key }) {
            sets.append(ImplicitSetSpec(key: key, value: try ObjectReader.vector(member, path: "\(path).\(key)")))
        }
        return sets
    }

    private static func readTransaction(_ value: JSONValue, path: String, index: Int) throws(ScenarioError)
        -> TransactionSpec
    {
        var reader = try ObjectReader(value, path: path)
        var spec = TransactionSpec(
            duration: try reader.number("duration"), timing: try reader.curve("curve"), spring: nil,
            delay: try reader.number("delay"), disableActions: try reader.bool("disableActions"),
            additive: try reader.bool("additive"), sets: [], keyframes: [], index: index)
        if let name = try reader.string("fillMode") {
            guard let fillMode = FillMode(rawValue: name) else {
                let names = FillMode.allCases.map(\.rawValue).joined(separator: ", ")
                throw ScenarioError(path: "\(path).fillMode", message: "must be one of \(names), got \"\(name)\"")
            }
            spec.fillMode = fillMode
        }
        if let duration = spec.duration, !(duration > 0) {
            throw ScenarioError(path: "\(path).duration", message: "must be a finite number > 0, got \(duration)")
        }
        if let delay = spec.delay, !(delay >= 0) {
            throw ScenarioError(path: "\(path).delay", message: "must be a finite number >= 0, got \(delay)")
        }
        if var springReader = try reader.object("spring") {
            spec.spring = try readSpring(&springReader, path: "\(path).spring")
            try springReader.finish(allowed: [
                "tension", "friction", "mass", "bounciness", "speed", "stiffness", "damping", "response",
                "dampingFraction", "duration", "bounce",
            ])
        }
        if let sets = reader.members["set"] {
            reader.used.insert("set")
            spec.sets = try readSets(sets, path: "\(path).set")
        }
        if let keyframes = reader.members["keyframes"] {
            reader.used.insert("keyframes")
            guard case .array(let items) = keyframes, !items.isEmpty else {
                throw ScenarioError(path: "\(path).keyframes", message: "expected a non-empty array of keyframes")
            }
            guard spec.duration != nil else {
                throw ScenarioError(path: "\(path).duration", message: "a keyframe block needs a duration")
            }
            guard spec.sets.isEmpty else {
                throw ScenarioError(path: "\(path).set", message: "a keyframe block sets values inside its keyframes")
            }
            guard spec.additive != true else {
                throw ScenarioError(path: "\(path).additive", message: "a keyframe block is never additive")
            }
            for (offset, item) in items.enumerated() {
                let itemPath = "\(path).keyframes[\(offset)]"
                var keyframe = try ObjectReader(item, path: itemPath)
                let start = try keyframe.requiredNumber("relativeStart")
                let length = try keyframe.requiredNumber("relativeDuration")
                guard (0 ... 1).contains(start), (0 ... 1).contains(length), start + length <= 1 + 1e-12 else {
                    throw ScenarioError(
                        path: itemPath,
                        message:
                            "relativeStart and relativeDuration must be in [0, 1] and end by 1, got \(start) and \(length)"
                    )
                }
                let timing = try keyframe.curve("curve") ?? .linear
                guard let sets = keyframe.members["set"] else {
                    throw ScenarioError(path: "\(itemPath).set", message: "is required")
                }
                keyframe.used.insert("set")
                spec.keyframes.append(
                    .init(
                        relativeStart: start, relativeDuration: length, timing: timing,
                        sets: try readSets(sets, path: "\(itemPath).set")))
                try keyframe.finish(allowed: ["relativeStart", "relativeDuration", "curve", "set"])
            }
        }
        try reader.finish(allowed: [
            "duration", "curve", "spring", "delay", "disableActions", "fillMode", "additive", "set", "keyframes",
        ])
        return spec
    }
}
