import Kinetics

/// One frame of a scenario's output: every property written so far, in the
/// order they were first written.
public struct ScenarioFrame: Sendable {
    /// The frame's time.
    public let time: Double
    /// Property names and their components.
    public let values: [(property: String, components: [Double])]
}

/// One event of a scenario: `start`, `reached`, `repeat`, `marker:P`,
/// `stop:finished` or `stop:cancelled`.
public struct ScenarioEvent: Sendable, Equatable {
    /// The animator's time.
    public let time: Double
    /// The animation's key (a group's child: its property).
    public let key: String
    /// What happened.
    public let name: String
}

/// Runs a ``Scenario`` on a manual frame clock.
///
/// Animations of the file are added at time 0 (each writes its first value
/// at once). An action applies right after the tick of the first frame at or
/// after its time (so it never happens early, and the frame printed shows
/// its effect); actions at time 0 apply right after the animations are
/// added; several actions at one frame apply in time order, then file order. Properties start at their
/// `initial` value, else zero, and are created on first use; their rest
/// threshold follows Pop's defaults by name (`opacity`/`alpha` 0.01,
/// `scale` 0.005, `rotation` 0.01, `color` 0.01, `radius` 0.01; positions and
/// sizes such as `x`, `position`, `frame`, `width` 1.0; anything else 0.01).
/// An action on a key whose animation has ended does nothing.
public final class ScenarioRunner {
    private let scenario: Scenario
    private let animator = Animator()
    private let tracer = AnimationTracer(traceAll: true)
    private let target: TargetID
    private var properties: [String: PropertyRef] = [:]
    /// The properties written so far, in the order they were first written
    /// (with a set of them: a scenario may have 100,000 properties).
    private var visible: [(name: String, reference: PropertyRef)] = []
    private var visibleSet: Set<String> = []
    private var propertyOfKey: [String: String] = [:]
    private var groupKeys: Set<String> = []
    /// The implicit changes' layer: the scenario's target.
    private lazy var layer = ImplicitLayer(animator: animator, target: target)
    /// Transaction completions, reported after the frame's traced events.
    private var pendingEvents: [ScenarioEvent] = []

    private enum PropertyRef {
        case scalar(PropertyHandle<Double>)
        case pair(PropertyHandle<SIMD2<Double>>)
        case triple(PropertyHandle<SIMD3<Double>>)
        case quad(PropertyHandle<SIMD4<Double>>)

        var width: Int {
            switch self {
            case .scalar: 1
            case .pair: 2
            case .triple: 3
            case .quad: 4
            }
        }
    }

    /// A runner for `scenario`.
    public init(_ scenario: Scenario) {
        self.scenario = scenario
        animator.tracer = tracer
        target = animator.makeTarget()
    }

    /// The frame times: 0 first, then the clock's.
    private var frameTimes: [Double] {
        var times: [Double] = []
        switch scenario.clock {
        case .rate(let fps, let seconds):
            var clock = ManualFrameClock(fps: fps, duration: seconds)
            while let time = clock.nextFrame() { times.append(time) }
        case .times(let list):
            times = list.filter { $0 > 0 }
        case .jittered(let fps, let seconds, let seed, let dropRate, let jitter):
            var clock = ManualFrameClock.jittered(
                fps: fps, seed: seed, dropRate: dropRate, jitter: jitter, duration: seconds)
            while let time = clock.nextFrame() { times.append(time) }
        }
        return [0] + times
    }

    /// Runs the scenario, handing every frame and every event to the closures
    /// as they happen.
    ///
    /// - Throws: ``ScenarioError`` for a problem only running can find (a
    ///   property used with two different numbers of components, keyframes
    ///   the animator rejects).
    public func run(frame: (ScenarioFrame) -> Void, event: (ScenarioEvent) -> Void) throws(ScenarioError) {
        for spec in scenario.animations { try add(spec) }
        // In time order, file order among equal times (the file need not be sorted).
        let actions = scenario.actions.enumerated().sorted { ($0.element.at, $0.offset) < ($1.element.at, $1.offset) }
            .map(\.element)
        var nextAction = 0
        for time in frameTimes {
            if time > animator.time { animator.tick(at: time) }
            while nextAction < actions.count && actions[nextAction].at <= time {
                try apply(actions[nextAction])
                nextAction += 1
            }
            for traced in tracer.events {
                noteStart(traced)
                if let name = Self.name(traced.kind) {
                    event(ScenarioEvent(time: traced.time, key: traced.key, name: name))
                }
            }
            tracer.clear()
            for pending in pendingEvents { event(pending) }
            pendingEvents.removeAll()
            frame(ScenarioFrame(time: time, values: visible.map { ($0.name, read($0.reference)) }))
        }
    }

    private static func name(_ kind: TraceEvent.Kind) -> String? {
        switch kind {
        case .start: "start"
        case .reached: "reached"
        case .repeated: "repeat"
        case .marker(let progress): "marker:\(progress)"
        case .stop(let finished): finished ? "stop:finished" : "stop:cancelled"
        case .valueWritten: nil
        }
    }

    /// A started animation has written its property: the property appears.
    private func noteStart(_ event: TraceEvent) {
        guard case .start = event.kind, !groupKeys.contains(event.key) else { return }
        let property = propertyOfKey[event.key] ?? event.key
        show(property)
    }

    private func show(_ property: String) {
        guard let reference = properties[property], visibleSet.insert(property).inserted else { return }
        visible.append((property, reference))
    }

    private func read(_ reference: PropertyRef) -> [Double] {
        switch reference {
        case .scalar(let handle): [animator[handle]]
        case .pair(let handle): animator[handle].components
        case .triple(let handle): animator[handle].components
        case .quad(let handle): animator[handle].components
        }
    }

    // MARK: Actions

    private func apply(_ action: ActionSpec) throws(ScenarioError) {
        switch action.verb {
        case .add(let spec):
            try add(spec)
        case .remove(let key):
            animator.removeAnimation(forKey: key, on: target)
        case .pause(let key):
            if let handle = animator.animation(forKey: key, on: target) { animator.pause(handle) }
        case .resume(let key):
            if let handle = animator.animation(forKey: key, on: target) { animator.resume(handle) }
        case .set(let sets):
            try implicitSets(sets, path: "\(action.path).set")
        case .transaction(let spec):
            try transaction(spec, path: "\(action.path).transaction")
        case .retarget(let key, let to):
            guard let handle = animator.animation(forKey: key, on: target) else { return }
            let property = propertyOfKey[key] ?? key
            guard let reference = properties[property] else { return }
            guard reference.width == to.count else {
                throw ScenarioError(
                    path: "\(action.path).to",
                    message: "has \(to.count) components but '\(property)' has \(reference.width)")
            }
            switch reference {
            case .scalar: animator.retarget(handle, to: to[0])
            case .pair: animator.retarget(handle, to: SIMD2(to[0], to[1]))
            case .triple: animator.retarget(handle, to: SIMD3(to[0], to[1], to[2]))
            case .quad: animator.retarget(handle, to: SIMD4(to[0], to[1], to[2], to[3]))
            }
        }
    }

    // MARK: Implicit changes

    /// Sets each key through the layer; a key appears in the output when it
    /// is first set.
    private func implicitSets(_ sets: [ImplicitSetSpec], path: String) throws(ScenarioError) {
        for set in sets {
            let setPath = "\(path).\(set.key)"
            let reference = try implicitProperty(set.key, value: set.value, path: setPath)
            let v = set.value
            do {
                switch reference {
                case .scalar: try layer.set(set.key, to: v[0])
                case .pair: try layer.set(set.key, to: SIMD2(v[0], v[1]))
                case .triple: try layer.set(set.key, to: SIMD3(v[0], v[1], v[2]))
                case .quad: try layer.set(set.key, to: SIMD4(v[0], v[1], v[2], v[3]))
                }
            } catch {
                throw ScenarioError(path: setPath, message: "must be \(error.accepted), got \(error.value)")
            }
            show(set.key)
        }
    }

    private func implicitProperty(_ key: String, value: [Double], path: String) throws(ScenarioError) -> PropertyRef {
        if let existing = properties[key] {
            guard existing.width == value.count else {
                throw ScenarioError(
                    path: path, message: "has \(value.count) components but '\(key)' has \(existing.width)")
            }
            return existing
        }
        return makeProperty(key, initial: value)
    }

    /// A transaction around its sets, or a keyframe block; its completion is
    /// the event `transaction-complete:finished|cancelled` keyed by its index.
    private func transaction(_ spec: TransactionSpec, path: String) throws(ScenarioError) {
        let completion: (Bool) -> Void = { [unowned self] finished in
            pendingEvents.append(
                ScenarioEvent(
                    time: animator.time, key: "\(spec.index)",
                    name: "transaction-complete:" + (finished ? "finished" : "cancelled")))
        }
        do {
            if spec.keyframes.isEmpty {
                try animator.transaction(
                    duration: spec.duration, timing: spec.timing, spring: spec.spring, delay: spec.delay,
                    disableActions: spec.disableActions, fillMode: spec.fillMode, additive: spec.additive,
                    completion: completion
                ) { try self.implicitSets(spec.sets, path: "\(path).set") }
            } else {
                try animator.keyframes(
                    duration: spec.duration ?? 1, delay: spec.delay, fillMode: spec.fillMode, completion: completion
                ) { block in
                    for (index, keyframe) in spec.keyframes.enumerated() {
                        try block.keyframe(
                            relativeStart: keyframe.relativeStart, relativeDuration: keyframe.relativeDuration,
                            timing: keyframe.timing
                        ) {
                            try self.implicitSets(keyframe.sets, path: "\(path).keyframes[\(index)].set")
                        }
                    }
                }
            }
        } catch let error as ScenarioError {
            throw error
        } catch let error as ParameterError {
            throw ScenarioError(
                path: "\(path).\(error.parameter)", message: "must be \(error.accepted), got \(error.value)")
        } catch {
            throw ScenarioError(path: path, message: "\(error)")
        }
    }

    // MARK: Adding animations

    private func add(_ spec: AnimationSpec) throws(ScenarioError) {
        if spec.isGroup {
            groupKeys.insert(spec.key)
            let group = try makeGroup(spec)
            do {
                try animator.add(group, on: target, forKey: spec.key)
            } catch {
                throw ScenarioError(
                    path: "\(spec.path).\(error.parameter)", message: "must be \(error.accepted), got \(error.value)")
            }
            return
        }
        propertyOfKey[spec.key] = spec.property
        switch try property(for: spec) {
        case .scalar(let handle): try add(make(spec, as: Double.self), spec, handle)
        case .pair(let handle): try add(make(spec, as: SIMD2<Double>.self), spec, handle)
        case .triple(let handle): try add(make(spec, as: SIMD3<Double>.self), spec, handle)
        case .quad(let handle): try add(make(spec, as: SIMD4<Double>.self), spec, handle)
        }
    }

    private func add<Value>(_ animation: Animation<Value>, _ spec: AnimationSpec, _ handle: PropertyHandle<Value>)
        throws(ScenarioError)
    {
        do {
            try animator.add(animation, to: handle, forKey: spec.key)
        } catch {
            throw ScenarioError(
                path: "\(spec.path).\(error.parameter)", message: "must be \(error.accepted), got \(error.value)")
        }
    }

    private func makeGroup(_ spec: AnimationSpec) throws(ScenarioError) -> AnimationGroup {
        var children: [GroupChild] = []
        let (mode, specs): (AnimationGroup.Mode, [AnimationSpec]) =
            switch spec.kind {
            case .sequence(let list): (.sequence, list)
            case .group(let list): (.concurrent, list)
            default: (.concurrent, [])
            }
        for child in specs {
            if child.isGroup {
                children.append(.group(try makeGroup(child)))
                continue
            }
            switch try property(for: child) {
            case .scalar(let handle): children.append(.animation(try make(child, as: Double.self), on: handle))
            case .pair(let handle): children.append(.animation(try make(child, as: SIMD2<Double>.self), on: handle))
            case .triple(let handle): children.append(.animation(try make(child, as: SIMD3<Double>.self), on: handle))
            case .quad(let handle): children.append(.animation(try make(child, as: SIMD4<Double>.self), on: handle))
            }
        }
        var group = AnimationGroup(mode, children)
        group.name = spec.key
        spec.applyTiming(to: &group)
        return group
    }

    /// The property an animation writes, created on first use.
    private func property(for spec: AnimationSpec) throws(ScenarioError) -> PropertyRef {
        let name = spec.property
        let initial = scenario.initialValues[name]
        if let existing = properties[name] {
            guard existing.width == spec.width || !spec.hasValues else {
                throw ScenarioError(
                    path: spec.path,
                    message: "property '\(name)' has \(existing.width) components, this animation \(spec.width)")
            }
            return existing
        }
        let width = spec.hasValues ? spec.width : initial?.count ?? 1
        if let initial, initial.count != width {
            throw ScenarioError(
                path: "$.initial.\(name)", message: "has \(initial.count) components, the animation \(width)")
        }
        return makeProperty(name, initial: initial ?? Array(repeating: 0, count: width))
    }

    /// Creates property `name` with as many components as `initial` has
    /// (1 to 4), at that value, with Pop's kind for its name.
    private func makeProperty(_ name: String, initial start: [Double]) -> PropertyRef {
        let kind = Self.kind(of: name)
        let reference: PropertyRef =
            switch start.count {
            case 1: .scalar(animator.property(name, of: target, initial: start[0], kind: kind))
            case 2: .pair(animator.property(name, of: target, initial: SIMD2(start[0], start[1]), kind: kind))
            case 3:
                .triple(animator.property(name, of: target, initial: SIMD3(start[0], start[1], start[2]), kind: kind))
            default:
                .quad(
                    animator.property(
                        name, of: target, initial: SIMD4(start[0], start[1], start[2], start[3]), kind: kind))
            }
        properties[name] = reference
        return reference
    }

    /// Pop's property kinds by name.
    static func kind(of name: String) -> PropertyKind {
        let lower = name.lowercased()
        if lower.contains("opacity") || lower.contains("alpha") { return .opacity }
        if lower.contains("scale") { return .scale }
        if lower.contains("rotation") || lower.contains("angle") { return .rotation }
        if lower.contains("color") || lower.contains("colour") { return .color }
        if lower.contains("radius") { return .radius }
        let pointWords = ["position", "center", "origin", "frame", "bounds", "size", "offset"]
        let pointNames = ["x", "y", "width", "height", "left", "top"]
        if pointWords.contains(where: { lower.contains($0) }) || pointNames.contains(lower) { return .point }
        return .generic
    }

    private func make<Value: AnimatableVector>(_ spec: AnimationSpec, as type: Value.Type) throws(ScenarioError)
        -> Animation<Value>
    {
        func value(_ components: [Double]?) -> Value? {
            components.map { Value(packed: SIMD4(packing: $0)) }
        }
        var animation: Animation<Value>
        switch spec.kind {
        case .spring(let parameters, let method):
            animation = .spring(parameters, method: method)
        case .decay(let parameters, let method):
            animation = .decay(velocity: value(spec.velocity) ?? .zero, parameters: parameters, method: method)
        case .basic(let duration, let timing, let bezier):
            animation = .basic(duration: duration, timing: timing, bezier: bezier)
        case .keyframe(let values, let keyTimes, let timing, let calculation, let duration):
            do {
                animation = .keyframes(
                    try Keyframes(
                        values: values.map { Value(packed: SIMD4(packing: $0)) }, keyTimes: keyTimes,
                        timingFunctions: timing, calculation: calculation, duration: duration))
            } catch {
                throw ScenarioError(
                    path: "\(spec.path).\(error.parameter)", message: "must be \(error.accepted), got \(error.value)")
            }
        case .sequence, .group:
            preconditionFailure("groups are built by makeGroup")
        }
        animation.from = value(spec.from)
        animation.to = value(spec.to)
        if animation.velocity == nil { animation.velocity = value(spec.velocity) }
        animation.threshold = spec.threshold
        animation.clamp = spec.clamp
        animation.roundingFactor = spec.roundingFactor
        animation.additive = spec.additive
        spec.applyTiming(to: &animation)
        animation.autoreverses = spec.autoreverses
        animation.progressMarkers = spec.progressMarkers
        return animation
    }
}

extension AnimationSpec {
    /// Sets the begin time, repeats and removal the spec gives.
    func applyTiming(to target: inout some AnimationTiming) {
        target.beginTime = beginTime
        target.repeatCount = repeatCount
        target.repeatForever = repeatForever
        target.removedOnCompletion = removedOnCompletion
    }

    /// Whether the animation gives values (and so fixes its property's width).
    var hasValues: Bool {
        if from != nil || to != nil || velocity != nil { return true }
        if case .keyframe = kind { return true }
        return false
    }
}
