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
public final class Animator {
    /// The time of the last tick (the animator's "now"); new animations are
    /// rendered at this time.
    public private(set) var time: Double
    /// Ticks ignored because their time went backwards or was not finite.
    public private(set) var ignoredTicks = 0
    /// Records the events of traced animations when set.
    ///
    /// Setting a tracer makes every running animation report its events
    /// from then on, the end of those that would have finished quietly
    /// included.
    public var tracer: AnimationTracer? {
        didSet {
            guard tracer != nil else { return }
            lane1.clearQuietFlags()
            lane2.clearQuietFlags()
            lane4.clearQuietFlags()
        }
    }

    let lane1 = Lane<Double>()
    let lane2 = Lane<SIMD2<Double>>()
    let lane4 = Lane<SIMD4<Double>>()
    let shared = SharedTables()

    var records: [AnimationRecord] = []
    /// The records' hot fields, by the same index.
    var status: [RecordStatus] = []
    private let freeRecords = Column<Int32>()
    /// The keys of registered records, per target in the order added.
    private var registry = KeyRegistry()
    /// Boxes of freed animations, by type, for new animations to reuse (so
    /// that adding an animation allocates nothing once the animator has
    /// grown), and those freed since the last safe point.
    private var boxPools: [ObjectIdentifier: BoxPool] = [:]
    private var retiredBoxes: [AnimationBox] = []
    /// Reusable boxes made so far, of every type.
    private var boxesMade = 0
    private var waiting: [AnimationHandle] = []
    private var output = FrameOutput()
    /// Reusable output lists for first frames rendered outside the tick's
    /// loop, one per level of nesting (a callback may add an animation
    /// whose first frame fires a callback that adds another).
    private var immediateOutputs: [FrameOutput] = []
    private var renderDepth = 0
    private var phase = TickPhase.idle
    private var nextTarget: UInt64 = 1
    /// The open transactions, innermost last.
    var transactionStack: [Transaction] = []
    /// The keyframe blocks being captured, innermost last.
    var keyframeBlocks: [KeyframeBlock] = []
    /// How deep in implicit-layer operations the caller is, and the
    /// transaction completions (and explicit animations' stop callbacks)
    /// held back until the outermost one returns.
    var implicitDepth = 0
    var deferredCallbacks: [() -> Void] = []
    /// How many animations were ever registered under a key.
    private var registrations = 0
    private var nextSequence: UInt64 = 0

    private var properties: [PropertyKey: PropertyInfo] = [:]
    var propertyInfos: [Int: [PropertyInfo]] = [1: [], 2: [], 4: []]

    /// An animator whose clock starts at `time` (default 0).
    public init(time: Double = 0) {
        precondition(time.isFinite, "an animator's start time must be finite")
        self.time = time
        output.events.reserveCapacity(64)
        output.finished.reserveCapacity(64)
        output.collectsQuiet = true
    }

    // MARK: Targets and properties

    /// A new target, different from every target this animator made before.
    public func makeTarget() -> TargetID {
        defer { nextTarget += 1 }
        return TargetID(nextTarget)
    }

    /// The property `name` of `target`, created with `initial` if it does not
    /// exist yet (then `initial` and `kind` are ignored).
    ///
    /// `kind` sets the default rest threshold of animations of the property
    /// (Pop's per-property defaults).
    ///
    /// - Precondition: an existing property has the same number of components.
    public func property<Value: AnimatableVector>(
        _ name: String, of target: TargetID, initial: Value, kind: PropertyKind = .generic
    ) -> PropertyHandle<Value> {
        let key = PropertyKey(target: target, name: name)
        if let info = properties[key] {
            precondition(
                info.width == Self.width(of: Value.self),
                "property \(name) has \(info.components) components, not \(Value.componentCount)")
            return PropertyHandle(target: target, slot: info.slot)
        }
        let width = Self.width(of: Value.self)
        let slot: Int32
        switch width {
        case 1:
            slot = Int32(lane1.values.count)
            lane1.values.append(initial[component: 0])
        case 2:
            slot = Int32(lane2.values.count)
            lane2.values.append(SIMD2(initial[component: 0], initial[component: 1]))
        default:
            slot = Int32(lane4.values.count)
            lane4.values.append(initial.packed)
        }
        let info = PropertyInfo(
            name: name, target: target, kind: kind, width: width, components: Value.componentCount, slot: slot)
        properties[key] = info
        propertyInfos[width]!.append(info)
        return PropertyHandle(target: target, slot: slot)
    }

    /// The property `name` of `target` if it exists with this value type.
    public func existingProperty<Value: AnimatableVector>(
        _ name: String, of target: TargetID, as type: Value.Type = Value.self
    ) -> PropertyHandle<Value>? {
        guard let info = properties[PropertyKey(target: target, name: name)], info.components == Value.componentCount
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

    func load<Value: AnimatableVector>(_ type: Value.Type, slot: Int32) -> Value {
        switch Self.width(of: Value.self) {
        case 1: Value(repeating: lane1.values[Int(slot)])
        case 2: Value(packed: SIMD4(lowHalf: lane2.values[Int(slot)], highHalf: .zero))
        default: Value(packed: lane4.values[Int(slot)])
        }
    }

    func store<Value: AnimatableVector>(_ value: Value, slot: Int32) {
        switch Self.width(of: Value.self) {
        case 1: lane1.values[Int(slot)] = value[component: 0]
        case 2: lane2.values[Int(slot)] = SIMD2(value[component: 0], value[component: 1])
        default: lane4.values[Int(slot)] = value.packed
        }
    }

    func propertyInfo(width: Int, slot: Int32) -> PropertyInfo { propertyInfos[width]![Int(slot)] }

    // MARK: Adding

    /// Adds `animation` of `property` under `key` (nil: a unique key) and
    /// renders its first frame at once when its begin time has come.
    ///
    /// Adding under a key the target already uses stops (cancels) and
    /// replaces the animation there, and any animation that its stop
    /// callback adds under the same key; adding the same animation (or a copy of
    /// it) under its key again is a no-op that returns the running handle.
    ///
    /// - Throws: ``ParameterError`` naming a setting that is out of range.
    /// - Complexity: O(1) expected.
    @discardableResult
    @_specialize(where Value == Double)
    @_specialize(where Value == SIMD2<Double>)
    @_specialize(where Value == SIMD3<Double>)
    @_specialize(where Value == SIMD4<Double>)
    public func add<Value: AnimatableVector>(
        _ animation: Animation<Value>, to property: PropertyHandle<Value>, forKey key: String? = nil
    ) throws(ParameterError) -> AnimationHandle {
        try animation.validate()
        let box = makePropertyBox(animation, property: property)
        return register(box, id: animation.id, target: property.target, key: key, life: LifeCycle(animation))
    }

    /// Adds a group (a sequence or a concurrent group of animations, nestable)
    /// on `target` under `key`.
    ///
    /// - Throws: ``ParameterError`` naming a child's setting that is out of range.
    @discardableResult
    public func add(_ group: AnimationGroup, on target: TargetID, forKey key: String? = nil) throws(ParameterError)
        -> AnimationHandle
    {
        try group.validate()
        return register(GroupBox(group), id: group.id, target: target, key: key, life: LifeCycle(group))
    }

    func makePropertyBox<Value: AnimatableVector>(_ animation: Animation<Value>, property: PropertyHandle<Value>)
        -> AnimationBox
    {
        switch Self.width(of: Value.self) {
        case 1: propertyBox(animation, slot: property.slot, lane: lane1, width: 1)
        case 2: propertyBox(animation, slot: property.slot, lane: lane2, width: 2)
        default: propertyBox(animation, slot: property.slot, lane: lane4, width: 4)
        }
    }

    private func propertyBox<Value: AnimatableVector, Stored: AnimatableVector>(
        _ animation: Animation<Value>, slot: Int32, lane: Lane<Stored>, width: Int
    ) -> AnimationBox {
        if let box = reusableBox(PropertyAnimationBox<Value, Stored>.self) {
            box.reset(animation, slot: slot)
            return box
        }
        reserveRoom(for: PropertyAnimationBox<Value, Stored>.self)
        return PropertyAnimationBox<Value, Stored>(animation, slot: slot, lane: lane, width: width)
    }

    /// Counts a new box of `type` and makes room for it in its pool and in
    /// the retired list, so that retiring and recycling boxes never
    /// allocates: neither list can hold more boxes than were made. (Without
    /// this the pools grew late, in a frame of churn seconds after the
    /// animator seemed grown.) Room grows by doubling, with the making of
    /// boxes, which allocates anyway.
    private func reserveRoom<Box: AnimationBox>(for type: Box.Type) {
        let pool: BoxPool
        if let existing = boxPools[ObjectIdentifier(type)] {
            pool = existing
        } else {
            pool = BoxPool()
            boxPools[ObjectIdentifier(type)] = pool
        }
        pool.made += 1
        if pool.boxes.capacity < pool.made { pool.boxes.reserveCapacity(Swift.max(pool.made, 2 * pool.boxes.capacity)) }
        boxesMade += 1
        if retiredBoxes.capacity < boxesMade {
            retiredBoxes.reserveCapacity(Swift.max(boxesMade, 2 * retiredBoxes.capacity))
        }
    }

    private func register(_ box: AnimationBox, id: AnimationID, target: TargetID, key: String?, life: LifeCycle)
        -> AnimationHandle
    {
        precondition(phase != .advancing, "the animator cannot be changed while animations advance")
        let key = key ?? "animation-\(nextSequence)"
        if let existing = registry.find(target, key) {
            if records[Int(existing)].id == id { return registeredHandle(existing) }
            let registered = registrations
            cancel(registeredHandle(existing))
            // The replaced animation's stop callback may have added another
            // animation under the same key; this one, added last by the
            // caller, replaces that too. (Looked up again only if anything
            // was added: a lookup hashes the key.)
            if registrations != registered {
                while let again = registry.find(target, key) { cancel(registeredHandle(again)) }
            }
        }
        let handle = makeRecord(box: box, id: id, target: target, key: key, life: life, parent: nil, time: time)
        registry.insert(handle.index, target: target, key: key)
        registrations &+= 1
        startIfDue(handle, at: time)
        return handle
    }

    /// Creates a record for `box`, waiting to start at its begin time.
    func makeRecord(
        box: AnimationBox, id: AnimationID, target: TargetID, key: String, life: LifeCycle,
        parent: AnimationHandle?, time: Double
    ) -> AnimationHandle {
        let index: Int32
        if let reused = freeRecords.popLast() {
            index = reused
        } else {
            index = Int32(records.count)
            records.append(AnimationRecord())
            status.append(RecordStatus())
            output.reserveQuiet(records.capacity)
            freeRecords.reserve(records.capacity)
        }
        nextSequence += 1
        // A quietly finished animation left its box here.
        if let left = records[Int(index)].box {
            left.forgetRun()
            if left.isReusable { retiredBoxes.append(left) }
        }
        let generation = status[Int(index)].generation &+ 1
        status[Int(index)] = RecordStatus(generation: generation, live: true)
        records[Int(index)] = AnimationRecord(id: id, key: key, target: target, life: life, box: box, parent: parent)
        return AnimationHandle(index: index, generation: generation)
    }

    // MARK: Looking up

    /// The handle of the animation under `key` on `target`.
    public func animation(forKey key: String, on target: TargetID) -> AnimationHandle? {
        registry.find(target, key).map(registeredHandle)
    }

    /// The handle of registered record `index` (registered records are live).
    private func registeredHandle(_ index: Int32) -> AnimationHandle {
        AnimationHandle(index: index, generation: status[Int(index)].generation)
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
        guard let index = liveIndex(handle), let box = records[index].box else { return nil }
        return box.velocity(self, handle).map { Value(packed: $0) }
    }

    // MARK: Removing

    /// Removes the animation under `key` on `target`: it stops (cancelled).
    public func removeAnimation(forKey key: String, on target: TargetID) {
        if let handle = animation(forKey: key, on: target) { cancel(handle) }
    }

    /// Removes `handle` (cancelled); a group takes its running children with it.
    public func remove(_ handle: AnimationHandle) { cancel(handle) }

    /// Removes every animation of `target`.
    public func removeAllAnimations(on target: TargetID) {
        for key in keys(on: target) { removeAnimation(forKey: key, on: target) }
    }

    /// Removes every animation.
    public func removeAllAnimations() {
        for target in registry.targets { removeAllAnimations(on: target) }
    }

    /// Stops `handle` as cancelled and frees it: not started yet → start then
    /// stop (as Core Animation and Pop do); running or paused → stop;
    /// finished and kept → no event (it already stopped once).
    func cancel(_ handle: AnimationHandle) {
        precondition(phase != .advancing, "the animator cannot be changed while animations advance")
        guard let index = liveIndex(handle), let box = records[index].box else { return }
        let recordPhase = status[index].phase
        if recordPhase == .running || recordPhase == .paused { box.removeElement(self, handle) }
        box.cancelChildren(self, handle)
        // A child's stop callback may have removed this animation already,
        // and its record may hold a new animation now.
        guard let index = liveIndex(handle) else { return }
        unregister(index)
        status[index].phase = .finished
        withCallbacks {
            switch recordPhase {
            case .waiting:
                box.fireStart(self, handle)
                if liveIndex(handle) != nil { box.fireStop(self, handle, finished: false) }
            case .running, .paused:
                box.fireStop(self, handle, finished: false)
            case .finished:
                break
            }
        }
        free(handle)
    }

    private func unregister(_ index: Int) { registry.remove(Int32(index)) }

    func free(_ handle: AnimationHandle) {
        guard let index = liveIndex(handle) else { return }
        unregister(index)
        status[index].live = false
        if let box = records[index].box, box.isReusable { retiredBoxes.append(box) }
        if phase == .idle && retiredBoxes.count > 1_024 { recycleRetiredBoxes() }
        records[index].box = nil
        freeRecords.append(handle.index)
    }

    /// A box of type `Box` to reuse, if one is free; only outside ticks and
    /// callbacks, so that no box in use is on the stack.
    func reusableBox<Box: AnimationBox>(_ type: Box.Type) -> Box? {
        guard phase == .idle else { return nil }
        // The record the next animation gets may hold a box of this type,
        // left by a quietly finished animation.
        if let next = freeRecords.last, let left = records[Int(next)].box as? Box {
            records[Int(next)].box = nil
            left.forgetRun()
            return left
        }
        recycleRetiredBoxes()
        return boxPools[ObjectIdentifier(type)]?.boxes.popLast() as? Box
    }

    /// Moves the boxes freed since the last safe point to their pools.
    private func recycleRetiredBoxes() {
        while let box = retiredBoxes.popLast() {
            box.retire()
            let type = ObjectIdentifier(Swift.type(of: box))
            if let pool = boxPools[type] {
                pool.boxes.append(box)
            } else {
                let pool = BoxPool()
                pool.boxes.append(box)
                boxPools[type] = pool
            }
        }
    }

    /// The record index of a live handle.
    @inline(__always)
    func liveIndex(_ handle: AnimationHandle) -> Int? {
        let index = Int(handle.index)
        guard index >= 0, index < records.count, status[index].live, status[index].generation == handle.generation
        else { return nil }
        return index
    }

    // MARK: Pause, resume, retarget

    /// Pauses a running animation: it keeps its value and state and does not
    /// advance; timed animations resume where they were. Returns whether it
    /// was running.
    @discardableResult
    public func pause(_ handle: AnimationHandle) -> Bool {
        precondition(phase != .advancing, "the animator cannot be changed while animations advance")
        guard let index = liveIndex(handle), status[index].phase == .running, let box = records[index].box else {
            return false
        }
        status[index].phase = .paused
        records[index].pausedAt = time
        box.setPaused(self, handle, true)
        return true
    }

    /// Resumes a paused animation from where it was. Returns whether it was paused.
    @discardableResult
    public func resume(_ handle: AnimationHandle) -> Bool {
        precondition(phase != .advancing, "the animator cannot be changed while animations advance")
        guard let index = liveIndex(handle), status[index].phase == .paused, let box = records[index].box else {
            return false
        }
        status[index].phase = .running
        box.shiftStart(self, handle, by: time - records[index].pausedAt)
        box.setPaused(self, handle, false)
        return true
    }

    /// Gives a spring a new target: it continues from its current value and
    /// velocity, so neither jumps. Returns false for anything but a live spring.
    @discardableResult
    public func retarget<Value: AnimatableVector>(_ handle: AnimationHandle, to target: Value) -> Bool {
        precondition(phase != .advancing, "the animator cannot be changed while animations advance")
        guard target.isFinite, let index = liveIndex(handle), let box = records[index].box else { return false }
        return box.retarget(self, handle, to: target.packed)
    }

    /// Gives a spring new parameters from the next frame on, keeping its value
    /// and velocity. Returns false for anything but a live spring, and for
    /// parameters its method cannot run (a `pop` or `fixed` spring whose
    /// 1 ms step would diverge: ``SpringMethod/isStable(for:)``); the spring
    /// then keeps its old parameters.
    @discardableResult
    public func setSpringParameters(_ handle: AnimationHandle, _ parameters: SpringParameters) -> Bool {
        precondition(phase != .advancing, "the animator cannot be changed while animations advance")
        guard let index = liveIndex(handle), let box = records[index].box else { return false }
        return box.setSpringParameters(self, handle, parameters)
    }

    // MARK: Ticking

    /// Advances every running animation to `time`.
    ///
    /// The frame length is the difference from the last tick. A time earlier
    /// than the last one, or not finite, is ignored (``ignoredTicks`` counts
    /// it); the same time again changes nothing; a gap over 30 s finishes
    /// every running animation at its target.
    ///
    /// - Precondition: not called from a callback of this animator.
    public func tick(at time: Double) {
        precondition(phase == .idle, "tick(at:) cannot be called from a callback or an animation step")
        guard time.isFinite, time >= self.time else {
            ignoredTicks += 1
            return
        }
        guard time > self.time else { return }
        let dt = time - self.time
        self.time = time
        output.reset()
        if dt > SpringMethod.maxFrameInterval {
            collectRunning(into: &output.finished)
        } else {
            phase = .advancing
            shared.prepare(dt: dt)
            let context = FrameContext(time: time, dt: dt)
            lane1.advance(context, shared: shared, output: &output)
            lane2.advance(context, shared: shared, output: &output)
            lane4.advance(context, shared: shared, output: &output)
            retireQuietlyFinished()
        }
        phase = .events
        startWaiting(at: time)
        // Events, then completions. The lists are walked by index: callbacks
        // that add animations render them at once, outside these lists.
        var index = 0
        while index < output.events.count {
            let handle = output.events[index]
            if let record = liveIndex(handle), status[record].phase == .running, let box = records[record].box {
                box.frameEvents(self, handle)
            }
            index += 1
        }
        index = 0
        while index < output.finished.count {
            complete(output.finished[index], at: time)
            index += 1
        }
        phase = .idle
        recycleRetiredBoxes()
    }

    /// Frees the records of the quiet animations that finished in this
    /// tick's advance (their batches wrote their targets and removed their
    /// elements), and points the records of elements those removals moved
    /// at their new places. No callback has run yet in the tick, so none
    /// sees them half-finished.
    ///
    /// A quiet animation's box stays in its freed record (it holds no
    /// callbacks) and is reused with the record or pooled then.
    private func retireQuietlyFinished() {
        let quiet = output.quiet
        let moved = output.moved
        guard quiet.count > 0 else { return }
        status.withUnsafeMutableBufferPointer { status in
            for position in 0 ..< moved.count {
                status[Int(moved.base[position].owner.index)].element = moved.base[position].element
            }
            // One pass over the list: each record leaves the registry, its
            // status is set and it joins the free list.
            freeRecords.append(count: quiet.count) { free in
                registry.remove(quiet.base, count: quiet.count) { position, index in
                    status[Int(index)].live = false
                    status[Int(index)].phase = .finished
                    status[Int(index)].element = -1
                    free[position] = index
                }
            }
        }
    }

    /// Every running element's owner, for the 30 s shutdown.
    private func collectRunning(into list: inout [AnimationHandle]) {
        for index in records.indices where status[index].live && status[index].phase == .running {
            if records[index].box?.hasElement == true {
                list.append(AnimationHandle(index: Int32(index), generation: status[index].generation))
            }
        }
    }

    private func startWaiting(at time: Double) {
        guard !waiting.isEmpty else { return }
        // Swap the list out: starting may queue more (a group's children).
        var due: [AnimationHandle] = []
        swap(&due, &waiting)
        for handle in due {
            guard let index = liveIndex(handle), status[index].phase == .waiting else { continue }
            if records[index].life.beginTime <= time {
                start(handle, at: time)
            } else {
                waiting.append(handle)
            }
        }
    }

    /// Starts `handle` now if its begin time has come, else queues it.
    func startIfDue(_ handle: AnimationHandle, at time: Double) {
        guard let index = liveIndex(handle) else { return }
        if records[index].life.beginTime <= time {
            start(handle, at: time)
        } else {
            waiting.append(handle)
        }
    }

    /// Starts a waiting animation: start event, first frame written at once.
    private func start(_ handle: AnimationHandle, at time: Double) {
        guard let index = liveIndex(handle), let box = records[index].box else { return }
        status[index].phase = .running
        records[index].startTime = time
        withCallbacks {
            box.fireStart(self, handle)
            guard liveIndex(handle) != nil, status[index].phase == .running else { return }
            box.start(self, handle, time: time)
            render(handle, at: time)
        }
    }

    /// Runs `body`, which may call callbacks, with ticking forbidden.
    func withCallbacks(_ body: () -> Void) {
        let previous = phase
        if phase == .idle { phase = .events }
        body()
        phase = previous
    }

    /// Renders the first frame of a just-started element (frame length 0) and
    /// handles what it reports at once.
    func render(_ handle: AnimationHandle, at time: Double) {
        guard let index = liveIndex(handle), let box = records[index].box, box.hasElement else { return }
        if renderDepth == immediateOutputs.count {
            // Room for what one element reports (an event, a finish), made
            // now rather than the first time an animation is added already
            // at rest, which can come long after the animator has grown.
            var fresh = FrameOutput()
            fresh.events.reserveCapacity(4)
            fresh.finished.reserveCapacity(4)
            immediateOutputs.append(fresh)
        }
        let depth = renderDepth
        renderDepth += 1
        defer { renderDepth -= 1 }
        immediateOutputs[depth].reset()
        box.renderFirstFrame(self, handle, context: FrameContext(time: time, dt: 0), output: &immediateOutputs[depth])
        var position = 0
        while position < immediateOutputs[depth].events.count {
            let event = immediateOutputs[depth].events[position]
            if let record = liveIndex(event), status[record].phase == .running {
                records[record].box?.frameEvents(self, event)
            }
            position += 1
        }
        position = 0
        while position < immediateOutputs[depth].finished.count {
            complete(immediateOutputs[depth].finished[position], at: time)
            position += 1
        }
    }

    /// A running animation finished: final value, then a repeat or a stop.
    func complete(_ handle: AnimationHandle, at time: Double) {
        guard let index = liveIndex(handle), status[index].phase == .running, let box = records[index].box else {
            return
        }
        box.finalFrame(self, handle)
        guard let index = liveIndex(handle), status[index].phase == .running else { return }
        records[index].life.repeatRemaining -= 1
        if records[index].life.repeatForever || records[index].life.repeatRemaining > 0 {
            trace(handle, .repeated)
            box.repeatRun(self, handle, time: time)
            return
        }
        box.removeElement(self, handle)
        status[index].phase = .finished
        // As Pop does: out of the registry first, then the stop event, so a
        // stop callback may add a new animation under the same key.
        let parent = records[index].parent
        let removing = records[index].life.removedOnCompletion || parent != nil
        if removing { unregister(index) }
        withCallbacks { box.fireStop(self, handle, finished: true) }
        if removing { free(handle) }
        if let parent, let parentIndex = liveIndex(parent), let group = records[parentIndex].box as? GroupBox {
            group.childFinished(self, parent, time: time)
        }
    }

    /// Records `kind` for `handle` when it is traced.
    @inline(__always)
    func trace(_ handle: AnimationHandle, _ kind: TraceEvent.Kind) {
        guard let tracer, let index = liveIndex(handle), tracer.traceAll || records[index].life.traced else { return }
        if case .valueWritten = kind, !tracer.recordsValues { return }
        tracer.record(TraceEvent(time: time, handle: handle, key: records[index].eventKey(self), kind: kind))
    }

    /// Whether per-frame events of `handle` should be produced.
    func wantsTracing(_ handle: AnimationHandle) -> Bool {
        guard let tracer, let index = liveIndex(handle) else { return false }
        return tracer.traceAll || records[index].life.traced
    }
}

/// Which phase a tick is in.
enum TickPhase {
    case idle
    case advancing
    case events
}

struct PropertyKey: Hashable {
    let target: TargetID
    let name: String
}

/// A property's description.
struct PropertyInfo {
    let name: String
    let target: TargetID
    let kind: PropertyKind
    /// The lane: 1, 2 or 4.
    let width: Int
    /// The value type's component count (3-vectors live in the 4 lane).
    let components: Int
    let slot: Int32
}

/// Pop's life-cycle settings of an animation or a group.
struct LifeCycle {
    var beginTime: Double
    /// Pop's internal count of runs left: `repeatCount`, doubled when autoreversing.
    var repeatRemaining: Int
    var repeatForever: Bool
    var autoreverses: Bool
    var removedOnCompletion: Bool
    var traced: Bool

    init<Value>(_ animation: Animation<Value>) {
        beginTime = animation.beginTime
        autoreverses = animation.autoreverses
        let count = max(animation.repeatCount, animation.autoreverses ? 1 : 0)
        repeatRemaining = animation.autoreverses ? min(count, Int.max / 2) * 2 : count
        repeatForever = animation.repeatForever
        removedOnCompletion = animation.removedOnCompletion
        traced = animation.isTraced
    }

    init(_ group: AnimationGroup) {
        beginTime = group.beginTime
        autoreverses = false
        repeatRemaining = group.repeatCount
        repeatForever = group.repeatForever
        removedOnCompletion = group.removedOnCompletion
        traced = group.isTraced
    }
}

/// Free boxes of one type.
final class BoxPool {
    var boxes: [AnimationBox] = []
    /// Boxes of this type made so far: the most the pool can ever hold.
    var made = 0
}

/// The fields of a record that handle checks and completions touch, kept
/// apart from the rest (12 bytes instead of a record's 120), so that a
/// frame in which many animations finish touches little memory.
struct RecordStatus {
    var generation: UInt32 = 0
    var live = false
    var phase = Animator.Phase.waiting
    /// The element's index in its batch, or -1.
    var element: Int32 = -1
}

/// The cold, per-animation part of the animator's state.
struct AnimationRecord {
    var id = AnimationID(rawValue: 0)
    var key = ""
    var target = TargetID(0)
    var life = LifeCycle(Animation<Double>.custom { _ in true })
    var startTime = 0.0
    var pausedAt = 0.0
    var box: AnimationBox?
    var parent: AnimationHandle?
    var nextMarker = 0
    var reached = false

    init() {}

    init(
        id: AnimationID, key: String, target: TargetID, life: LifeCycle,
        box: AnimationBox, parent: AnimationHandle?
    ) {
        self.id = id
        self.key = key
        self.target = target
        self.life = life
        self.box = box
        self.parent = parent
    }

    /// The key events report: the registry key, or a child's property name.
    func eventKey(_ animator: Animator) -> String {
        key.isEmpty ? (box?.propertyName(animator) ?? "") : key
    }
}

// MARK: - The invariant check (in this file: it reads the private registry)

extension Animator {
    /// Every way the animator's bookkeeping disagrees with itself, as
    /// sentences (empty when consistent). A test hook: O(n) in the number of
    /// records, for tests that drive random operations and check after each.
    ///
    /// It checks that the free list holds distinct dead records and the rest
    /// are live; that the registry is consistent and names live records by
    /// their keys; that every batch element is owned by a live running or
    /// paused record that points back at it, and every record holding an
    /// element is such an owner; and that every waiting record is queued to
    /// start.
    package func invariantViolations() -> [String] {
        var problems: [String] = []
        var isFree = [Bool](repeating: false, count: records.count)
        for index in UnsafeBufferPointer(start: freeRecords.base, count: freeRecords.count) {
            let i = Int(index)
            guard i >= 0 && i < records.count else {
                problems.append("free record \(i) out of range")
                continue
            }
            if isFree[i] { problems.append("record \(i) is free twice") }
            isFree[i] = true
            if status[i].live { problems.append("free record \(i) is live") }
        }
        for i in records.indices where !isFree[i] && !status[i].live {
            problems.append("record \(i) is neither live nor free")
        }

        // The registry: consistent in itself, and naming live records by their keys.
        problems += registry.violations()
        for i in registry.entries.indices where registry.contains(Int32(i)) {
            let entry = registry.entries[i]
            if i >= records.count || !status[i].live {
                problems.append("registry key \(entry.key) names a dead record")
                continue
            }
            if records[i].key != entry.key || records[i].target != entry.target {
                problems.append("registry key \(entry.key) and record \(i) disagree")
            }
        }

        // Batch elements and their owners.
        var owned = [Bool](repeating: false, count: records.count)
        func checkColumns<V>(_ columns: [ElementColumns<V>]) {
            for common in columns {
                for element in 0 ..< common.count {
                    let owner = common.owner[element]
                    guard let i = liveIndex(owner) else {
                        problems.append("an element's owner is dead")
                        continue
                    }
                    if owned[i] { problems.append("record \(i) owns two elements") }
                    owned[i] = true
                    if status[i].element != Int32(element) {
                        problems.append("record \(i) points at element \(status[i].element), owns \(element)")
                    }
                    if status[i].phase != .running && status[i].phase != .paused {
                        problems.append("record \(i) owns an element while \(status[i].phase)")
                    }
                }
            }
        }
        checkColumns(lane1.allColumns)
        checkColumns(lane2.allColumns)
        checkColumns(lane4.allColumns)
        for i in records.indices where status[i].live && records[i].box?.hasElement == true && !owned[i] {
            problems.append("record \(i) has an element that no batch holds")
        }

        // Waiting records are queued.
        let queued = Set(waiting)
        for i in records.indices where status[i].live && status[i].phase == .waiting {
            if !queued.contains(AnimationHandle(index: Int32(i), generation: status[i].generation)) {
                problems.append("waiting record \(i) is not queued")
            }
        }
        return problems
    }
}
