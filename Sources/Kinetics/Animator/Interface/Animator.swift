/// Drives any number of animations of property values on a frame clock, with
/// Pop's life cycle: keyed per target, rendered at once when added, started
/// at their begin time, finished by their rest tests, repeated, autoreversed,
/// removed on completion.
///
/// ```swift
/// let animator = Animator()
/// let view = animator.makeTarget()
/// let x = animator.property("x", of: view, initial: 0.0, kind: .point)
/// try animator.add(.spring(.popDefault, to: 100), to: x, forKey: "x")
/// for frame in 1 ... 60 { animator.tick(at: Double(frame) / 60) }
/// print(animator[x])
/// ```
///
/// **Isolation.** An animator is not `Sendable`: it lives in the isolation
/// domain (actor, thread or task) that created it, and the compiler keeps
/// every use there. Nothing in it locks.
///
/// **Storage.** Property values live in contiguous arrays by width (scalars,
/// pairs, quads); animations live in structure-of-arrays batches by kind and
/// method, with records and handles pointing into them. Adding and removing
/// are O(1) (swap-remove); a steady tick allocates nothing.
///
/// **A tick**, ``tick(at:)``, runs in three phases: every running animation
/// advances and writes its value (no callbacks run here); animations whose
/// begin time has come start and write their first value; then events fire:
/// per-frame events (progress markers, reached-to-value, apply) in batch
/// order, then completions (final value, repeat or stop). An animation that
/// nothing observes (no callbacks, markers or tracer, not in a group, not
/// additive or rounded, not repeating, removed on completion) finishes
/// quietly in the first phase: its batch writes its exact target and
/// removes it, and it is gone from the registry before any callback of the
/// tick runs. Callbacks may add,
/// remove, replace, pause or retarget any animation, their own included:
/// - an animation added during a tick writes its first value at once (its
///   start event fires inside the callback that added it) and advances from
///   the next tick;
/// - an animation removed during a tick gets its stop event at once and no
///   further events, and is not advanced again;
/// - removing every animation from a callback is allowed;
/// - ``tick(at:)`` itself may not be called from a callback (a programmer
///   error, trapped), nor may custom animation steps call the animator.
///
/// **Clock faults**: a time earlier than the last tick, or not finite, is
/// ignored and counted in ``ignoredTicks``; the same time twice changes
/// nothing; a gap over 30 s finishes every running animation at its target
/// (Pop's shutdown rule).
///
/// **Memory access**: an animator is used from one thread, and none of its
/// operations runs inside another (callbacks run between them), so its
/// mutable state, gathered in a few stored properties, opts out of Swift's
/// run-time exclusivity checks. A build with `KINETICS_CHECKED_EXCLUSIVITY`
/// turns them back on; CI runs the animator's suites in such a build.
public final class Animator {
    /// The time of the last tick (the animator's "now"); new animations are
    /// rendered at this time.
    public var time: Double { state.time }
    /// Ticks ignored because their time went backwards or was not finite.
    public var ignoredTicks: Int { state.ignoredTicks }
    /// Records the events of traced animations when set.
    ///
    /// Setting a tracer makes every running animation report its events
    /// from then on, the end of those that would have finished quietly
    /// included.
    public var tracer: AnimationTracer? {
        get { state.tracer }
        set {
            state.tracer = newValue
            guard newValue != nil else { return }
            lane1.clearQuietFlags()
            lane2.clearQuietFlags()
            lane4.clearQuietFlags()
        }
    }

    /// Whether ``checkInternally(after:)`` runs, in a build with
    /// `KINETICS_INTERNAL_CHECKS`. The checks allocate, so tests and
    /// benches that count allocations turn them off.
    package var checksInternally: Bool {
        get { state.checksInternally }
        set { state.checksInternally = newValue }
    }

    let lane1 = Lane<Double>()
    let lane2 = Lane<SIMD2<Double>>()
    let lane4 = Lane<SIMD4<Double>>()
    let shared = SharedTables()
    /// The animations' records, in columns held in constants: written in
    /// place, with no uniqueness check (a Swift array's every write has
    /// one) and no retain of the column (a column in ``state`` would be
    /// retained around each access), and grown together
    /// (``makeRecord(box:id:target:key:life:parent:time:)``).
    let records = Column<AnimationRecord>()
    /// The records' hot fields, by the same index.
    let status = Column<RecordStatus>()
    /// The records' keys, targets and parents, by the same index.
    let places = Column<RecordPlace>()
    let freeRecords = Column<RecordIndex>()
    /// The keys of registered records, per target in the order added.
    let registry = KeyRegistry()

    /// The animator's bookkeeping. It and ``outputs`` skip the run-time
    /// exclusivity checks as ``UncheckedState``'s state does, declared here
    /// because a public class cannot inherit from it (the state held in an
    /// object of that class instead would add a load to each access, a
    /// retarget's included).
    #if !KINETICS_CHECKED_EXCLUSIVITY
        @exclusivity(unchecked)
    #endif
    var state: State
    /// The lists a frame's batches write to: apart from ``state``, so that
    /// a batch can write them while the animator's records are read.
    #if !KINETICS_CHECKED_EXCLUSIVITY
        @exclusivity(unchecked)
    #endif
    var outputs = Outputs()

    /// The animator's bookkeeping.
    struct State {
        var time: Double
        var ignoredTicks = 0
        var tracer: AnimationTracer?
        var checksInternally = true
        #if KINETICS_INTERNAL_CHECKS
            /// Operations to go before the next internal check: see ``checkInternally(after:)``.
            var operationsToNextCheck = 0
        #endif
        /// Boxes of freed animations, by type, for new animations to reuse (so
        /// that adding an animation allocates nothing once the animator has
        /// grown), and those freed since the last safe point.
        var boxPools = BoxPools()
        var retiredBoxes: [AnimationBox] = []
        /// Reusable boxes made so far, of every type.
        var boxesMade = 0
        var waiting: [AnimationHandle] = []
        var renderDepth = 0
        var phase = TickPhase.idle
        var nextTarget: UInt64 = 1
        /// Transactions, keyframe blocks and held-back callbacks of implicit animations.
        var implicit = ImplicitState()
        /// How many animations were ever registered under a key.
        var registrations = 0
        var nextSequence: UInt64 = 0
        var properties: [PropertyKey: PropertyInfo] = [:]
        var propertyInfos: [Int: [PropertyInfo]] = [1: [], 2: [], 4: []]
    }

    /// The lists a frame's batches write to.
    struct Outputs {
        var output = FrameOutput()
        /// Reusable output lists for first frames rendered outside the tick's
        /// loop, one per level of nesting (a callback may add an animation
        /// whose first frame fires a callback that adds another).
        var immediateOutputs: [FrameOutput] = []
        /// The output of a quiet spring's first frame
        /// (``renderQuietSpring(_:index:width:)``): its end, when it starts at
        /// rest, and nothing else.
        var quietOutput = FrameOutput()
    }

    /// An animator whose clock starts at `time` (default 0).
    public init(time: Double = 0) {
        precondition(time.isFinite, "an animator's start time must be finite")
        state = State(time: time)
        outputs.output.events.reserveCapacity(64)
        outputs.output.finished.reserveCapacity(64)
        outputs.output.collectsQuiet = true
        outputs.quietOutput.finished.reserveCapacity(1)
    }

    // MARK: Targets and properties

    /// A new target, different from every target this animator made before.
    public func makeTarget() -> TargetID {
        defer { state.nextTarget += 1 }
        return TargetID(state.nextTarget)
    }

    /// The property `name` of `target`, created with `initial` if it does not
    /// exist yet (then `initial` and `kind` are ignored).
    ///
    /// `kind` sets the default rest threshold of animations of the property
    /// (Pop's per-property defaults).
    ///
    /// - Precondition: an existing property has the same number of
    ///   components; a new one is not made while animations advance (from a
    ///   custom animation's step), when the frame writes the values in place.
    public func property<Value: AnimatableVector>(
        _ name: String, of target: TargetID, initial: Value, kind: PropertyKind = .generic
    ) -> PropertyHandle<Value> {
        let key = PropertyKey(target: target, name: name)
        if let info = state.properties[key] {
            precondition(
                info.width == Self.width(of: Value.self),
                "property \(name) has \(info.components) components, not \(Value.componentCount)")
            return PropertyHandle(target: target, slot: info.slot)
        }
        // The advance holds a pointer to the lane's values; a new property
        // could move them.
        precondition(state.phase != .advancing, "the animator cannot be changed while animations advance")
        let width = Self.width(of: Value.self)
        let slot = onLane(width: width, AppendProperty(initial: initial.packed))
        let info = PropertyInfo(
            name: name, target: target, kind: kind, width: width, components: Value.componentCount, slot: slot)
        state.properties[key] = info
        state.propertyInfos[width]!.append(info)
        return PropertyHandle(target: target, slot: slot)
    }

    /// The property `name` of `target` if it exists with this value type.
    public func existingProperty<Value: AnimatableVector>(
        _ name: String, of target: TargetID, as type: Value.Type = Value.self
    ) -> PropertyHandle<Value>? {
        guard let info = state.properties[PropertyKey(target: target, name: name)],
            info.components == Value.componentCount
        else { return nil }
        return PropertyHandle(target: target, slot: info.slot)
    }

    /// The property's current (presentation) value; setting it writes the
    /// value directly, as a model change would (running animations keep
    /// running and write over it on the next frame).
    public subscript<Value: AnimatableVector>(property: PropertyHandle<Value>) -> Value {
        get { load(Value.self, slot: property.slot) }
        set { store(newValue, slot: property.slot) }
    }

    static func width<Value: AnimatableVector>(of type: Value.Type) -> Int {
        switch Value.componentCount {
        case 1: 1
        case 2: 2
        default: 4
        }
    }

    func load<Value: AnimatableVector>(_ type: Value.Type, slot: PropertySlot) -> Value {
        Value(packed: onLane(width: Self.width(of: Value.self), LoadValue(slot: slot)))
    }

    func store<Value: AnimatableVector>(_ value: Value, slot: PropertySlot) {
        onLane(width: Self.width(of: Value.self), StoreValue(slot: slot, value: value.packed))
    }

    private struct AppendProperty: LaneOperation {
        let initial: SIMD4<Double>

        @inline(__always)
        func callAsFunction<V: AnimatableVector>(_ lane: Lane<V>, _: inout Void) -> PropertySlot {
            lane.appendProperty(V(packed: initial))
        }
    }

    private struct LoadValue: LaneOperation {
        let slot: PropertySlot

        @inline(__always)
        func callAsFunction<V: AnimatableVector>(_ lane: Lane<V>, _: inout Void) -> SIMD4<Double> {
            lane[slot: slot].packed
        }
    }

    private struct StoreValue: LaneOperation {
        let slot: PropertySlot
        let value: SIMD4<Double>

        @inline(__always)
        func callAsFunction<V: AnimatableVector>(_ lane: Lane<V>, _: inout Void) {
            lane[slot: slot] = V(packed: value)
        }
    }

    func propertyInfo(width: Int, slot: PropertySlot) -> PropertyInfo { state.propertyInfos[width]![slot.index] }

    // MARK: Looking up

    /// The handle of the animation under `key` on `target`.
    public func animation(forKey key: String, on target: TargetID) -> AnimationHandle? {
        registry.find(target, key).map(registeredHandle)
    }

    /// The handle of the animation under `key` (made once) on `target`.
    public func animation(forKey key: AnimationKey, on target: TargetID) -> AnimationHandle? {
        registry.find(target, key.name, hash: registry.hash(target, key.name, prefix: key.prefix))
            .map(registeredHandle)
    }

    /// The handle of registered record `index` (registered records are live).
    func registeredHandle(_ index: RecordIndex) -> AnimationHandle {
        AnimationHandle(record: index, generation: status[index.index].generation)
    }

    /// The keys in use on `target`, in the order they were added.
    ///
    /// - Complexity: O(k) for k keys.
    public func keys(on target: TargetID) -> [String] { registry.keys(on: target) }

    /// Whether `handle` is an animation of this animator that has not been removed.
    public func contains(_ handle: AnimationHandle) -> Bool { liveIndex(handle) != nil }

    /// Where an animation is in its life.
    public enum Phase: Equatable, Sendable {
        /// Added, waiting for its begin time.
        case waiting
        /// Advancing every frame.
        case running
        /// Paused: keeps its value and state.
        case paused
        /// Finished and kept (not removed on completion).
        case finished
    }

    /// The phase of `handle`, or nil if it was removed.
    public func phase(of handle: AnimationHandle) -> Phase? {
        liveIndex(handle).map { status[$0].phase }
    }

    /// The number of animations (waiting, running, paused or finished and
    /// kept), group children included.
    public var animationCount: Int { records.count - freeRecords.count }

    /// The current velocity of a running spring or decay, in units per second.
    public func velocity<Value: AnimatableVector>(of handle: AnimationHandle, as type: Value.Type = Value.self)
        -> Value?
    {
        guard let index = liveIndex(handle) else { return nil }
        // A spring's from its element (a bare spring has no box to ask).
        let spring = status[index].spring
        if spring != .none {
            let element = status[index].element.index
            return Value(packed: onLane(width: spring.width, SpringVelocity(method: spring.method, element: element)))
        }
        guard let box = records[index].box else { return nil }
        return box.velocity(self, handle).map { Value(packed: $0) }
    }

    private struct SpringVelocity: LaneOperation {
        let method: Int
        let element: Int

        @inline(__always)
        func callAsFunction<V: AnimatableVector>(_ lane: Lane<V>, _: inout Void) -> SIMD4<Double> {
            lane.withSprings(method) { $0.currentVelocity(element) }.packed
        }
    }
}
