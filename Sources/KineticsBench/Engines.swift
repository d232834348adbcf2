import CPopModel
import Foundation
import Kinetics

/// An engine under measurement: a frame is the scenario's changes (churn,
/// retargets) and the tick.
package protocol MeasuredEngine: AnyObject {
    /// Runs frame number `frame` at `time`.
    func frame(_ frame: Int, at time: Double)
    /// Whether the engine can add animations after its workload (the
    /// burst scenario): an engine behind the C interface cannot.
    var addsAnimations: Bool { get }
    /// How many animations are running.
    var running: Int { get }
    /// The values of the first few properties (scalar ones; a point gives
    /// x), a burst's own after the workload's.
    func sampleValues(_ count: Int) -> [Double]
}

extension MeasuredEngine {
    /// Runs a frame that the watchdog sees (``FrameWatchdog/mark()``): every
    /// frame of the harness but the timed loop's, which marks before its
    /// clock reads.
    @inline(__always)
    func markedFrame(_ frame: Int, at time: Double) {
        FrameWatchdog.mark()
        self.frame(frame, at: time)
    }
}

/// What an engine does to its workload's animations between frames; the
/// scenario decides which (``ScenarioDriven/interact(before:from:)``).
protocol ScenarioDriven: AnyObject {
    var workload: Workload { get }
    /// Where the next churn replacement starts.
    var churnCursor: Int { get set }
    /// Churn: removes property `index`'s animation and adds the workload's
    /// item `index` in its place, from the property's current value.
    func replace(_ index: Int)
    /// Retarget storm: gives property `index`'s spring a new target.
    func retarget(_ index: Int, to target: Double)
    /// Burst: adds the workload's item `index` on its own property. Called
    /// only when ``MeasuredEngine/addsAnimations``.
    func add(_ index: Int)
    /// Moves the engine's animations to `time`, after the scenario's changes.
    func advance(to time: Double)
    /// The value of property `index` (a point gives x).
    func value(at index: Int) -> Double
}

extension ScenarioDriven {
    /// The scenario's work before frame `frame`: a churn's replacements
    /// (from `cursor` on, cyclically), a storm's retargets, a burst's adds;
    /// returns where the next churn starts.
    ///
    /// Specialised into each engine's frame, so that an engine's calls are
    /// direct, as the engine's own code would make them.
    @inline(__always)
    func interact(before frame: Int, from cursor: Int) -> Int {
        var cursor = cursor
        switch workload.configuration.scenario {
        case .churn:
            for _ in 0 ..< workload.churnPerFrame {
                replace(cursor)
                cursor = (cursor + 1) % workload.count
            }
        case .retargetStorm:
            var index = 0
            while index < workload.count {
                retarget(index, to: workload.stormTarget(index, frame: frame))
                index += 1
            }
        case .burst where frame == workload.burstFrame:
            for index in workload.count ..< workload.allCount { add(index) }
        case .steady, .jitter, .massCompletion, .burst:
            break
        }
        return cursor
    }
}

extension ScenarioDriven where Self: MeasuredEngine {
    /// The scenario's changes, then the engine's own advance. The cursor is
    /// read before the changes and written after them, which reach the
    /// engine's state too.
    func frame(_ frame: Int, at time: Double) {
        churnCursor = interact(before: frame, from: churnCursor)
        advance(to: time)
    }

    /// The values of the first `count` properties that run: the workload's,
    /// and a burst's too where the engine adds them.
    func sampleValues(_ count: Int) -> [Double] {
        (0 ..< min(count, addsAnimations ? workload.allCount : workload.count)).map(value(at:))
    }
}

/// Makes the engine of a configuration, with its workload added at time 0.
///
/// - Throws: ``BenchError`` when an engine from a library refuses the
///   workload (its create fails), or when no engine of that name is built
///   in or loaded.
package func makeEngine(_ configuration: BenchConfiguration) throws(BenchError) -> MeasuredEngine {
    let workload = Workload(configuration)
    switch configuration.engine {
    case .animator: return AnimatorEngine(workload)
    case .animatorKeys: return AnimatorEngine(workload, keys: .madeOnce)
    case .animatorUnkeyed: return AnimatorEngine(workload, keys: .none)
    case .animatorSprings: return AnimatorEngine(workload, keys: .madeOnce, springsFromNumbers: true)
    case .batch: return BatchEngine(workload)
    case .reference: return ReferenceEngine(workload)
    case .popC: return try CEngine(kinetics_pop_c_engine().pointee, workload: workload)
    case .abiNull: return try CEngine(kinetics_null_engine().pointee, workload: workload)
    default:
        guard let engine = try EngineRegistry.make(configuration.engine, workload) else {
            throw BenchError(description: "no engine named '\(configuration.engine)' is built in or registered")
        }
        return engine
    }
}

/// Makes a built-in engine of a configuration: they accept every workload.
package func makeBuiltInEngine(_ configuration: BenchConfiguration) -> MeasuredEngine {
    precondition(configuration.engine.isBuiltIn, "\(configuration.engine) is not a built-in engine")
    do {
        return try makeEngine(configuration)
    } catch {
        preconditionFailure("the built-in engines accept every workload: \(error)")
    }
}

// MARK: - Animator

/// The mutable state of ``AnimatorEngine``.
struct AnimatorEngineState {
    fileprivate var scalars: [PropertyHandle<Double>?] = []
    fileprivate var points: [PropertyHandle<SIMD2<Double>>?] = []
    fileprivate var handles: [AnimationHandle] = []
    fileprivate var churnCursor = 0
}

/// The Kinetics animator with one target and a property per animation.
///
final class AnimatorEngine: UncheckedEngineState<AnimatorEngineState>, MeasuredEngine, ScenarioDriven {
    let workload: Workload
    private let animator: Animator = {
        let animator = Animator()
        // The bench counts allocations per frame; the checks of a test build allocate.
        animator.checksInternally = false
        return animator
    }()
    private let target: TargetID
    /// How the engine keys its animations.
    enum Keys {
        /// Strings (`animator`).
        case strings
        /// Keys made once, `AnimationKey` (`animator-keys`).
        case madeOnce
        /// None (`animator-unkeyed`).
        case none
    }
    private let keying: Keys
    /// Whether springs are added from their numbers (`addSpring`), not as
    /// an `Animation` (`animator-springs`).
    private let springsFromNumbers: Bool
    private let keys: [String]
    /// The keys made once (`AnimationKey`), for `animator-keys` and
    /// `animator-springs`; empty for the others.
    private let madeKeys: [AnimationKey]

    var churnCursor: Int {
        get { state.churnCursor }
        set { state.churnCursor = newValue }
    }

    init(_ workload: Workload, keys keying: Keys = .strings, springsFromNumbers: Bool = false) {
        precondition(
            !springsFromNumbers || keying == .madeOnce, "springs from their numbers are added under keys made once")
        self.workload = workload
        self.keying = keying
        self.springsFromNumbers = springsFromNumbers
        target = animator.makeTarget()
        keys = keying == .none ? [] : workload.keys()
        madeKeys = keying == .madeOnce ? keys.map { AnimationKey($0) } : []
        super.init(AnimatorEngineState())
        setUp()
        #if KINETICS_INTERNAL_CHECKS
            if let text = ProcessInfo.processInfo.environment["KINETICS_TEST_EXTRA_PERCENT"],
                let percent = Double(text), percent > 0
            {
                addExtraSprings(percent: percent)
            }
        #endif
    }

    #if KINETICS_INTERNAL_CHECKS
        /// A knob for the tests of the gates, in test builds only: with
        /// KINETICS_TEST_EXTRA_PERCENT=P in the environment, the animator
        /// also runs P% of the workload's count of springs more, each a copy
        /// of a workload animation's spring on a property of its own, so that
        /// its frame does about P% more work (a build made slower by a known
        /// share, with no fixed cost per tick added). Their count is rounded
        /// to a multiple of 8, so that the springs of each of the workload's
        /// four groups stay an even number: the test build steps a pair of
        /// springs that starts at an odd index through a slow unaligned load,
        /// which would make the share depend on the count's parity.
        private func addExtraSprings(percent: Double) {
            let share = Double(workload.count) * percent / 100
            let extra = max(8, Int((share / 8).rounded()) * 8)
            for number in 0 ..< extra {
                let index = number % workload.count
                let item = workload.item(index)
                var animation = Animation<Double>.spring(
                    item.spring, method: workload.configuration.method, to: item.to)
                animation.threshold = item.threshold
                let property = animator.property(
                    "extra\(number)", of: target, initial: workload.initial(index), kind: .point)
                do {
                    _ = try animator.add(animation, to: property, forKey: "extra\(number)")
                } catch {
                    preconditionFailure("the workload's springs are valid: \(error)")
                }
            }
        }
    #endif

    /// Makes the workload's properties and starts its animations.
    private func setUp() {
        for index in 0 ..< workload.allCount {
            let item = workload.item(index)
            if item.kind == .pointSpring {
                state.points.append(
                    animator.property(
                        "p\(index)", of: target, initial: SIMD2(workload.initial(index), workload.initial(index)),
                        kind: .point))
                state.scalars.append(nil)
            } else {
                state.scalars.append(
                    animator.property("p\(index)", of: target, initial: workload.initial(index), kind: .point))
                state.points.append(nil)
            }
            if index < workload.count { state.handles.append(start(index)) }
        }
        state.handles.reserveCapacity(workload.allCount)
        if workload.configuration.scenario == .burst { reserveBurst() }
    }

    /// Makes room for the burst's springs ahead, as an app that expects a
    /// burst would: every spring of the workload, scalar and point.
    private func reserveBurst() {
        do {
            try animator.reserveCapacity(
                workload.allCount, springsOf: Double.self, method: workload.configuration.method)
            if state.points.contains(where: { $0 != nil }) {
                try animator.reserveCapacity(
                    workload.allCount, springsOf: SIMD2<Double>.self, method: workload.configuration.method)
            }
        } catch {
            preconditionFailure("a workload's count is within the animator's capacity: \(error)")
        }
    }

    var addsAnimations: Bool { true }

    private func start(_ index: Int) -> AnimationHandle {
        switch keying {
        case .strings: start(index, key: keys[index])
        case .madeOnce: start(index, key: madeKeys[index])
        case .none: start(index, key: ())
        }
    }

    /// Starts item `index` under `key` (specialised for each kind of key).
    private func start<Key>(_ index: Int, key: Key) -> AnimationHandle {
        let item = workload.item(index)
        let method = workload.configuration.method
        do {
            switch item.kind {
            // Every animation starts from the property's current value (its
            // initial value the first time), as a replacement under churn does in Pop.
            case .spring where springsFromNumbers:
                return try addSpring(to: item.to, of: state.scalars[index]!, key, item)
            case .pointSpring where springsFromNumbers:
                return try addSpring(to: SIMD2(item.to, item.to), of: state.points[index]!, key, item)
            case .spring:
                var animation = Animation<Double>.spring(item.spring, method: method, to: item.to)
                animation.threshold = item.threshold
                // Moved in, as a temporary would be: copying an animation
                // (a few hundred bytes and its references) is the caller's.
                return try add(consume animation, to: state.scalars[index]!, key)
            case .pointSpring:
                var animation = Animation<SIMD2<Double>>.spring(
                    item.spring, method: method, to: SIMD2(item.to, item.to))
                animation.threshold = item.threshold
                return try add(consume animation, to: state.points[index]!, key)
            case .decay:
                var animation = Animation<Double>.decay(
                    velocity: item.velocity, parameters: workload.deceleration, method: .pop)
                animation.threshold = item.threshold
                return try add(consume animation, to: state.scalars[index]!, key)
            case .basic:
                let animation = Animation<Double>.basic(
                    duration: item.duration, timing: .easeInEaseOut, bezier: .fast, to: item.to)
                return try add(animation, to: state.scalars[index]!, key)
            case .keyframes:
                return try add(.keyframes(workload.keyframes), to: state.scalars[index]!, key)
            }
        } catch {
            preconditionFailure("the workload's animations are valid: \(error)")
        }
    }

    /// Adds `animation` under `key`: a `String`, a key made once, or none
    /// (anything else). In each specialisation of ``start(_:key:)`` the
    /// casts are decided at compile time, so the add is the direct call an
    /// app would make.
    @inline(__always)
    private func add<Value: AnimatableVector, Key>(
        _ animation: consuming Animation<Value>, to property: PropertyHandle<Value>, _ key: Key
    ) throws(ParameterError) -> AnimationHandle {
        switch key {
        case let key as String: try animator.add(consume animation, to: property, forKey: key)
        case let key as AnimationKey: try animator.add(consume animation, to: property, forKey: key)
        default: try animator.add(consume animation, to: property)
        }
    }

    /// Adds item `item`'s spring from its numbers under `key`, a key made
    /// once (``Animator/addSpring(to:of:forKey:parameters:method:velocity:threshold:)``).
    @inline(__always)
    private func addSpring<Value: AnimatableVector, Key>(
        to target: Value, of property: PropertyHandle<Value>, _ key: Key, _ item: BenchAnimation
    ) throws(ParameterError) -> AnimationHandle {
        try animator.addSpring(
            to: target, of: property, forKey: key as! AnimationKey, parameters: item.spring,
            method: workload.configuration.method, threshold: item.threshold)
    }

    func replace(_ index: Int) {
        // Under a key the add replaces what runs there; without one, what
        // runs goes first.
        if keying == .none { animator.remove(state.handles[index]) }
        state.handles[index] = start(index)
    }

    func retarget(_ index: Int, to target: Double) {
        if state.points[index] != nil {
            animator.retarget(state.handles[index], to: SIMD2(target, target))
        } else {
            animator.retarget(state.handles[index], to: target)
        }
    }

    func add(_ index: Int) { state.handles.append(start(index)) }

    func advance(to time: Double) { animator.tick(at: time) }

    var running: Int { animator.animationCount }

    func value(at index: Int) -> Double {
        if let scalar = state.scalars[index] { return animator[scalar] }
        return animator[state.points[index]!].x
    }
}

// MARK: - Batch

/// The mutable state of ``BatchEngine``.
struct BatchEngineState {
    fileprivate var slots: [PropertySlot] = []
    fileprivate var ids: [RecordIndex] = []
    fileprivate var churnCursor = 0
}

/// The animator's batches alone.
final class BatchEngine: UncheckedEngineState<BatchEngineState>, MeasuredEngine, ScenarioDriven {
    let workload: Workload
    private let batches = BatchSet()

    var churnCursor: Int {
        get { state.churnCursor }
        set { state.churnCursor = newValue }
    }

    init(_ workload: Workload) {
        self.workload = workload
        super.init(BatchEngineState())
        for index in 0 ..< workload.allCount {
            let item = workload.item(index)
            state.slots.append(
                item.kind == .pointSpring
                    ? batches.addProperty(SIMD2(workload.initial(index), workload.initial(index)))
                    : batches.addProperty(workload.initial(index)))
            if index < workload.count { state.ids.append(start(index)) }
        }
        state.ids.reserveCapacity(workload.allCount)
        // The burst's room, as the animator engine makes it.
        if workload.configuration.scenario == .burst {
            batches.reserveSprings(
                workload.allCount, method: workload.configuration.method,
                points: (0 ..< workload.allCount).contains { workload.item($0).kind == .pointSpring })
        }
    }

    var addsAnimations: Bool { true }

    private func start(_ index: Int) -> RecordIndex {
        let item = workload.item(index)
        let slot = state.slots[index]
        let method = workload.configuration.method
        // From the property's current value, as in the animator engine.
        switch item.kind {
        case .spring:
            return batches.addSpring(
                slot: slot, from: batches.value(slot), to: item.to, velocity: 0, parameters: item.spring,
                method: method, threshold: item.threshold)
        case .pointSpring:
            return batches.addSpring(
                slot: slot, from: batches.point(slot), to: SIMD2(item.to, item.to), velocity: .zero,
                parameters: item.spring, method: method, threshold: item.threshold)
        case .decay:
            return batches.addDecay(
                slot: slot, from: batches.value(slot), velocity: item.velocity, deceleration: workload.deceleration,
                method: .pop, threshold: item.threshold)
        case .basic:
            return batches.addBasic(
                slot: slot, from: batches.value(slot), to: item.to, duration: item.duration, timing: .easeInEaseOut,
                bezier: .fast)
        case .keyframes:
            return batches.addKeyframes(slot: slot, workload.keyframes)
        }
    }

    func replace(_ index: Int) {
        batches.remove(state.ids[index])
        state.ids[index] = start(index)
    }

    func retarget(_ index: Int, to target: Double) { batches.retarget(state.ids[index], to: target) }

    func add(_ index: Int) { state.ids.append(start(index)) }

    func advance(to time: Double) { batches.advance(to: time) }

    var running: Int { batches.count }

    func value(at index: Int) -> Double {
        let slot = state.slots[index]
        return workload.item(index).kind == .pointSpring ? batches.point(slot).x : batches.value(slot)
    }
}
