/// The cold-path behaviour of one animation in an ``Animator``: starting,
/// events, completion, repeats. The per-frame work happens in the batches;
/// a box is only consulted when something happens to its animation.
class AnimationBox {
    /// Whether the animation has an element in a batch now.
    var hasElement: Bool { false }
    /// Whether this freed box can be reset for a new animation.
    var isReusable: Bool { false }
    /// The slot of a property animation's property when its value type is
    /// `type`; nil otherwise, and for other boxes. (Read with the box's
    /// header: the slot is its first field.)
    func slot(ifValueType type: ObjectIdentifier) -> PropertySlot? { nil }
    /// Drops what a freed box holds (callbacks may capture anything), at a
    /// point where none of its methods is running.
    func retire() {}
    /// Forgets the element and table entries of a run that finished quietly
    /// (its batch removed the element and gave the entries back).
    func forgetRun() {}

    func start(_ animator: Animator, _ handle: AnimationHandle, time: Double) {}
    func renderFirstFrame(
        _ animator: Animator, _ handle: AnimationHandle, context: FrameContext, output: inout FrameOutput
    ) {}
    func removeElement(_ animator: Animator, _ handle: AnimationHandle) {}
    func cancelChildren(_ animator: Animator, _ handle: AnimationHandle) {}
    func fireStart(_ animator: Animator, _ handle: AnimationHandle) {}
    func fireStop(_ animator: Animator, _ handle: AnimationHandle, finished: Bool) {}
    func frameEvents(_ animator: Animator, _ handle: AnimationHandle) {}
    func finalFrame(_ animator: Animator, _ handle: AnimationHandle) {}
    func repeatRun(_ animator: Animator, _ handle: AnimationHandle, time: Double) {}
    /// Pauses or resumes the element; a resumed timed animation's start
    /// moves by `pausedFor`, the seconds it was paused.
    func setPaused(_ animator: Animator, _ handle: AnimationHandle, _ paused: Bool, pausedFor: Double) {}
    func setSpringParameters(_ animator: Animator, _ handle: AnimationHandle, _ parameters: SpringParameters) -> Bool {
        false
    }
    func velocity(_ animator: Animator, _ handle: AnimationHandle) -> SIMD4<Double>? { nil }
    func propertyName(_ animator: Animator) -> String { "" }
    /// Counts the shared table entries the animation holds, for the invariant check.
    func countEntries(_ usage: inout TableUsage) {}
}

/// A property animation: an ``Animation`` of values of type `Value`, stored
/// in the lane of type `Stored` (the same, or `SIMD4` for 3-vectors).
///
/// The animator calls these methods through the base class, which reaches
/// the generic implementations; they are specialised for the four value
/// types the animator knows, so that starting and finishing an animation
/// does not look up generic metadata at run time.
final class PropertyAnimationBox<Value: AnimatableVector, Stored: AnimatableVector>: AnimationBox {
    /// The animator's lane, which outlives every box of the animator (no
    /// reference counting on each use).
    unowned(unsafe) let lane: Lane<Stored>
    let width: Int
    /// The mutable state. It skips the run-time exclusivity checks as
    /// ``UncheckedState``'s state does, declared here because the box
    /// inherits from ``AnimationBox`` (the state held in an object of its own
    /// would cost an allocation a box and move the slot out of the header's
    /// cache line).
    #if !KINETICS_CHECKED_EXCLUSIVITY
        @exclusivity(unchecked)
    #endif
    var state: State

    struct State {
        /// The property's slot in its lane: first, in the header's cache
        /// line, which the in-place check reads anyway.
        var slot: PropertySlot
        var installed = false
        /// The shared table entry in use: a spring group, a decay configuration
        /// or a basic animation's timing function; -1 when none is held. A
        /// decay's or timing function's is kept across repeats and released when
        /// the element goes for good; a spring's group is left at each repeat
        /// (the clock starts again) and while paused (the group's clock moves on).
        var shared: Int32 = -1
        /// The rest threshold of the current run.
        var threshold = 0.0
        /// A keyframe animation's tracks, forwards and backwards (none until
        /// used), kept across repeats.
        var forwardTrack = TrackIndex.none
        var backwardTrack = TrackIndex.none

        // The shared entry as the index of its table: the one place that
        // reads the union by the element's kind.
        var group: GroupIndex {
            get { GroupIndex(raw: shared) }
            set { shared = newValue.raw }
        }
        var decay: DecayIndex {
            get { DecayIndex(raw: shared) }
            set { shared = newValue.raw }
        }
        var timing: TimingIndex {
            get { TimingIndex(raw: shared) }
            set { shared = newValue.raw }
        }
        /// The run's resolved ends and start velocity (set at the first start,
        /// swapped on repeats).
        var resolved = false
        var from = Stored.zero
        var to = Stored.zero
        var startVelocity = Stored.zero
        var distance = Stored.zero
        var reversed = false
        var hasExplicitEnd: Bool
        /// A spring's batch in the lane (its method's index), -1 for other
        /// kinds: read without matching `animation.kind`, which copies it.
        var springMethod: Int
        /// A spring's parameters as last set (by the add, or by
        /// ``Animator/setSpringParameters(_:_:)``), for a run's start; nil for
        /// other kinds.
        var springParameters: SpringParameters?
        // Last, after what starting and restarting use (a replacement under
        // churn touches the box's first lines only).
        /// A paused spring's clock and parameters, to join a group with on
        /// resuming.
        var parked: (clock: Double, grid: Int, parameters: SpringParameters)?
        /// The animation as added (its spring parameters as last set, for a
        /// repeat's start). Once a run has started the box reads only its kind's
        /// case and method and what makes it observed (callbacks, markers,
        /// additive, rounding): a quiet spring restarted in place keeps the
        /// animation it replaced, whose observers are the same (none).
        var animation: Animation<Value>

        init(_ animation: consuming Animation<Value>, slot: PropertySlot) {
            hasExplicitEnd = animation.to != nil
            (springMethod, springParameters) = PropertyAnimationBox.spring(of: animation)
            self.animation = animation
            self.slot = slot
        }
    }

    init(_ animation: consuming Animation<Value>, slot: PropertySlot, lane: Lane<Stored>, width: Int) {
        self.lane = lane
        self.width = width
        state = State(animation, slot: slot)
    }

    /// A spring's method index and parameters; -1 and nil for other kinds.
    static func spring(of animation: borrowing Animation<Value>) -> (Int, SpringParameters?) {
        if case .spring(let parameters, let method) = animation.kind { (method.index, parameters) } else { (-1, nil) }
    }

    override var hasElement: Bool { state.installed }
    override func slot(ifValueType type: ObjectIdentifier) -> PropertySlot? {
        type == ObjectIdentifier(Value.self) ? state.slot : nil
    }
    override var isReusable: Bool {
        !state.installed && state.shared < 0 && state.forwardTrack.isNone && state.backwardTrack.isNone
    }

    @_specialize(where Value == Double, Stored == Double)
    @_specialize(where Value == SIMD2<Double>, Stored == SIMD2<Double>)
    @_specialize(where Value == SIMD3<Double>, Stored == SIMD4<Double>)
    @_specialize(where Value == SIMD4<Double>, Stored == SIMD4<Double>)
    override func retire() {
        // Only what may hold references is dropped: each assignment destroys
        // the old value through the animation type's generic witness.
        if state.animation.observers != nil { state.animation.observers = nil }
        if state.springMethod < 0 { state.animation.kind = .basic(duration: 1, timing: .linear, bezier: .webkit) }
        state.springMethod = -1
        state.springParameters = nil
    }

    override func forgetRun() {
        state.installed = false
        state.shared = -1
        state.forwardTrack = .none
        state.backwardTrack = .none
        state.parked = nil
    }

    /// Makes a freed box (its element and table entries already given back)
    /// the box of `animation` on `slot`, as new.
    @_specialize(where Value == Double, Stored == Double)
    @_specialize(where Value == SIMD2<Double>, Stored == SIMD2<Double>)
    @_specialize(where Value == SIMD3<Double>, Stored == SIMD4<Double>)
    @_specialize(where Value == SIMD4<Double>, Stored == SIMD4<Double>)
    func reset(_ animation: consuming Animation<Value>, slot: PropertySlot) {
        precondition(
            !state.installed && state.shared < 0 && state.forwardTrack.isNone && state.backwardTrack.isNone,
            "a box in use cannot be reset")
        state.hasExplicitEnd = animation.to != nil
        (state.springMethod, state.springParameters) = Self.spring(of: animation)
        state.animation = animation
        state.slot = slot
        state.resolved = false
        state.from = .zero
        state.to = .zero
        state.startVelocity = .zero
        state.distance = .zero
        state.reversed = false
        state.parked = nil
        state.threshold = 0
    }

    func convert(_ value: Value) -> Stored { Stored(packed: value.packed) }
    func external(_ value: Stored) -> Value { Value(packed: value.packed) }

    @_specialize(where Value == Double, Stored == Double)
    @_specialize(where Value == SIMD2<Double>, Stored == SIMD2<Double>)
    @_specialize(where Value == SIMD3<Double>, Stored == SIMD4<Double>)
    @_specialize(where Value == SIMD4<Double>, Stored == SIMD4<Double>)
    override func propertyName(_ animator: Animator) -> String {
        animator.propertyInfo(width: width, slot: state.slot).name
    }

    /// The columns every kind shares, of the batch this animation runs in.
    var columns: ElementColumns<Stored> {
        if state.springMethod >= 0 { return lane.springs[state.springMethod].common }
        switch state.animation.kind {
        case .spring(_, let method): return lane.springs[method.index].common
        case .decay(_, let method): return lane.decays[method.index].common
        case .basic: return lane.basics.common
        case .keyframes: return lane.keyframes.common
        case .custom: return lane.customs.common
        }
    }

    /// The element's index in its batch, if it has one.
    func element(_ animator: Animator, _ handle: AnimationHandle) -> Int? {
        guard state.installed, let index = animator.liveIndex(handle) else { return nil }
        return animator.status[index].element.index
    }

    // MARK: Start and removal

    // Start, first frame and removal, which every add and removal calls,
    // forward to bodies: the unspecialised entry of a generic override sets
    // up its generic locals (a metadata lookup each) before it dispatches to
    // a specialisation, and a forwarder has none.
    @_specialize(where Value == Double, Stored == Double)
    @_specialize(where Value == SIMD2<Double>, Stored == SIMD2<Double>)
    @_specialize(where Value == SIMD3<Double>, Stored == SIMD4<Double>)
    @_specialize(where Value == SIMD4<Double>, Stored == SIMD4<Double>)
    override func start(_ animator: Animator, _ handle: AnimationHandle, time: Double) {
        startBody(animator, handle, time: time)
    }

    @_specialize(where Value == Double, Stored == Double)
    @_specialize(where Value == SIMD2<Double>, Stored == SIMD2<Double>)
    @_specialize(where Value == SIMD3<Double>, Stored == SIMD4<Double>)
    @_specialize(where Value == SIMD4<Double>, Stored == SIMD4<Double>)
    override func renderFirstFrame(
        _ animator: Animator, _ handle: AnimationHandle, context: FrameContext, output: inout FrameOutput
    ) {
        renderFirstFrameBody(animator, handle, context: context, output: &output)
    }

    @inline(never)
    private func renderFirstFrameBody(
        _ animator: Animator, _ handle: AnimationHandle, context: FrameContext, output: inout FrameOutput
    ) {
        guard let element = element(animator, handle) else { return }
        let tables = animator.shared
        lane.withValues { values in
            switch state.animation.kind {
            case .spring: preconditionFailure("a spring's first frame is rendered from its lane (Animator.render)")
            case .decay(_, let method):
                let decays = lane.decays[method.index]
                decays.advanceElement(
                    element, factors: DecayFactors(), DecayBatch.Pointers(decays), method, values: values,
                    output: &output)
            case .basic:
                lane.basics.advanceOne(
                    element, context: context, timings: tables.timings, values: values, output: &output)
            case .keyframes:
                lane.keyframes.advanceOne(
                    element, context: context, timings: tables.timings, tracks: lane.tracks, values: values,
                    output: &output)
            case .custom:
                // The step is the caller's code, run while the frame holds a
                // pointer to the values: as in a tick's advance, it cannot
                // change the animator (a new property could move them).
                let phase = animator.state.phase
                animator.state.phase = .advancing
                lane.customs.advanceElement(element, context: context, values: values, output: &output)
                animator.state.phase = phase
            }
        }
    }

    @_specialize(where Value == Double, Stored == Double)
    @_specialize(where Value == SIMD2<Double>, Stored == SIMD2<Double>)
    @_specialize(where Value == SIMD3<Double>, Stored == SIMD4<Double>)
    @_specialize(where Value == SIMD4<Double>, Stored == SIMD4<Double>)
    override func removeElement(_ animator: Animator, _ handle: AnimationHandle) {
        removeElementBody(animator, handle)
    }

    @inline(never)
    private func removeElementBody(_ animator: Animator, _ handle: AnimationHandle) {
        detach(animator, handle)
        releaseTables(animator)
    }

    /// Takes the element out of its batch, keeping the shared table entries.
    private func detach(_ animator: Animator, _ handle: AnimationHandle) {
        guard let element = element(animator, handle), let index = animator.liveIndex(handle) else { return }
        let moved: AnimationHandle?
        switch state.animation.kind {
        case .spring(_, let method):
            readSpringEnds(element)
            animator.status[index].spring = .none
            moved = lane.springs[method.index].remove(at: element)
            if state.parked == nil {
                animator.shared.springGroups[method.index].release(
                    state.group, configurations: animator.shared.springs)
            }
            state.shared = -1
            state.parked = nil
        case .decay(_, let method): moved = lane.decays[method.index].remove(at: element)
        case .basic: moved = lane.basics.remove(at: element)
        case .keyframes: moved = lane.keyframes.remove(at: element)
        case .custom: moved = lane.customs.remove(at: element)
        }
        if let moved, let movedIndex = animator.liveIndex(moved) {
            animator.status[movedIndex].element = ElementIndex(element)
        }
        animator.status[index].element = .none
        state.installed = false
    }

    override func countEntries(_ usage: inout TableUsage) {
        if state.shared >= 0 {
            switch state.animation.kind {
            case .spring(_, let method):
                // A paused spring has left its group (parked).
                if state.parked == nil { TableUsage.count(state.group, in: &usage.springGroups[method.index]) }
            case .decay: TableUsage.count(state.decay, in: &usage.decays)
            case .basic: TableUsage.count(state.timing, in: &usage.timings)
            case .keyframes, .custom: break
            }
        }
        for track in [state.forwardTrack, state.backwardTrack] where !track.isNone {
            TableUsage.count(track, in: &usage.tracks[width == 1 ? 0 : width == 2 ? 1 : 2])
        }
    }

    /// Gives back the shared table entries this animation holds.
    private func releaseTables(_ animator: Animator) {
        let tables = animator.shared
        if state.shared >= 0 {
            switch state.animation.kind {
            case .spring: break  // released by detach
            case .decay: tables.decays.release(state.decay)
            case .basic: tables.timings.release(state.timing)
            case .keyframes, .custom: break
            }
            state.shared = -1
        }
        if !state.forwardTrack.isNone { lane.tracks.release(state.forwardTrack, timings: tables.timings) }
        if !state.backwardTrack.isNone { lane.tracks.release(state.backwardTrack, timings: tables.timings) }
        state.forwardTrack = .none
        state.backwardTrack = .none
    }

    // MARK: Events

    @_specialize(where Value == Double, Stored == Double)
    @_specialize(where Value == SIMD2<Double>, Stored == SIMD2<Double>)
    @_specialize(where Value == SIMD3<Double>, Stored == SIMD4<Double>)
    @_specialize(where Value == SIMD4<Double>, Stored == SIMD4<Double>)
    override func fireStart(_ animator: Animator, _ handle: AnimationHandle) {
        animator.trace(handle, .start)
        state.animation.observers?.callbacks.onStart?(animator, handle)
    }

    @_specialize(where Value == Double, Stored == Double)
    @_specialize(where Value == SIMD2<Double>, Stored == SIMD2<Double>)
    @_specialize(where Value == SIMD3<Double>, Stored == SIMD4<Double>)
    @_specialize(where Value == SIMD4<Double>, Stored == SIMD4<Double>)
    override func fireStop(_ animator: Animator, _ handle: AnimationHandle, finished: Bool) {
        animator.trace(handle, .stop(finished: finished))
        state.animation.observers?.callbacks.onStop?(animator, handle, finished)
    }

    @_specialize(where Value == Double, Stored == Double)
    @_specialize(where Value == SIMD2<Double>, Stored == SIMD2<Double>)
    @_specialize(where Value == SIMD3<Double>, Stored == SIMD4<Double>)
    @_specialize(where Value == SIMD4<Double>, Stored == SIMD4<Double>)
    override func frameEvents(_ animator: Animator, _ handle: AnimationHandle) {
        guard let (value, progress) = currentValueAndProgress(animator, handle) else { return }
        guard progressAndReached(animator, handle, progress: progress, value: value) else { return }
        applied(animator, handle)
        // A live record (it has an element) is the handle's index.
        if let element = element(animator, handle) {
            columns.setFlag(element, ElementFlag.wantsEvents, wantsEvents(animator, handle.record.index))
        }
    }

    /// Fires the markers passed and reached-to-value; false if a callback
    /// removed the animation.
    private func progressAndReached(_ animator: Animator, _ handle: AnimationHandle, progress: Double, value: Stored)
        -> Bool
    {
        let markers = state.animation.observers?.progressMarkers ?? []
        while let index = animator.liveIndex(handle), animator.records[index].nextMarker < markers.count,
            progress >= markers[animator.records[index].nextMarker]
        {
            let marker = markers[animator.records[index].nextMarker]
            animator.records[index].nextMarker += 1
            animator.trace(handle, .marker(marker))
            state.animation.observers?.callbacks.onProgressMarker?(animator, handle, marker)
        }
        guard let index = animator.liveIndex(handle) else { return false }
        if case .custom = state.animation.kind { return true }
        if !animator.status[index].reached && hasReached(value) {
            animator.status[index].reached = true
            animator.trace(handle, .reached)
            state.animation.observers?.callbacks.onReachToValue?(animator, handle)
        }
        return animator.liveIndex(handle) != nil
    }

    /// The value-written trace event and the apply callback.
    private func applied(_ animator: Animator, _ handle: AnimationHandle) {
        let written = lane[slot: state.slot]
        animator.trace(handle, .valueWritten(written.packed))
        state.animation.observers?.callbacks.onApply?(animator, handle, external(written))
    }

    /// Pop's final frame: progress 1, the exact target written (unless the
    /// property already holds it), then the apply callback.
    @_specialize(where Value == Double, Stored == Double)
    @_specialize(where Value == SIMD2<Double>, Stored == SIMD2<Double>)
    @_specialize(where Value == SIMD3<Double>, Stored == SIMD4<Double>)
    @_specialize(where Value == SIMD4<Double>, Stored == SIMD4<Double>)
    override func finalFrame(_ animator: Animator, _ handle: AnimationHandle) {
        if let element = element(animator, handle) { readSpringEnds(element) }
        guard progressAndReached(animator, handle, progress: 1, value: state.to) else { return }
        if case .custom = state.animation.kind {
            applied(animator, handle)
            return
        }
        if let element = element(animator, handle) {
            let common = columns
            let out = common.rounded(element, state.to)
            if common.flags[element] & ElementFlag.additive != 0 {
                if !common.previous[element].isFirstWrite && out == common.previous[element] { return }
            } else if lane[slot: state.slot] == out {
                return
            }
            lane.withValues { _ = common.writeSpecial(element, state.to, into: $0) }
        }
        applied(animator, handle)
    }

    /// Pop's repeat: the next run goes from the old end; with autoreverse it
    /// goes back to the old start (a decay reverses its velocity, keyframes
    /// run backwards), without it the run starts over from the original start.
    @_specialize(where Value == Double, Stored == Double)
    @_specialize(where Value == SIMD2<Double>, Stored == SIMD2<Double>)
    @_specialize(where Value == SIMD3<Double>, Stored == SIMD4<Double>)
    @_specialize(where Value == SIMD4<Double>, Stored == SIMD4<Double>)
    override func repeatRun(_ animator: Animator, _ handle: AnimationHandle, time: Double) {
        let endVelocity = velocity(animator, handle).map { Stored(packed: $0) } ?? .zero
        detach(animator, handle)
        if animator.records[handle.record.index].life.switches.contains(.autoreverses) {
            (state.from, state.to) = (state.to, state.from)
            state.reversed.toggle()
            if case .decay = state.animation.kind { state.startVelocity = state.startVelocity * -1.0 }
        }
        // A spring keeps the velocity it ended with, as Pop's does; a decay's
        // end is computed again from its new start.
        if case .spring = state.animation.kind { state.startVelocity = endVelocity }
        start(animator, handle, time: time)
    }

    // MARK: Control

    @_specialize(where Value == Double, Stored == Double)
    @_specialize(where Value == SIMD2<Double>, Stored == SIMD2<Double>)
    @_specialize(where Value == SIMD3<Double>, Stored == SIMD4<Double>)
    @_specialize(where Value == SIMD4<Double>, Stored == SIMD4<Double>)
    override func setPaused(_ animator: Animator, _ handle: AnimationHandle, _ paused: Bool, pausedFor: Double) {
        guard let element = element(animator, handle) else { return }
        columns.setFlag(element, ElementFlag.paused, paused)
        switch state.animation.kind {
        case .spring(_, let method): park(animator, element, method, paused)
        case .basic: lane.basics.state[element].span.start += pausedFor
        case .keyframes: lane.keyframes.state[element].span.start += pausedFor
        case .custom: lane.customs.start[element] += pausedFor
        case .decay: break
        }
    }

    /// A paused spring leaves its group (parked with its clock), so that the
    /// group's frame does not count it; it joins one again when it resumes.
    private func park(_ animator: Animator, _ element: Int, _ method: SpringMethod, _ paused: Bool) {
        let groups = animator.shared.springGroups[method.index]
        if paused, state.parked == nil {
            let clock = groups.clock(state.group)
            state.parked = (clock.clock, clock.grid, groups.parameters(state.group))
            groups.release(state.group, configurations: animator.shared.springs)
        } else if !paused, let resumed = state.parked {
            state.group = groups.acquire(
                resumed.parameters, threshold: state.threshold, clock: resumed.clock, grid: resumed.grid,
                configurations: animator.shared.springs)
            lane.springs[method.index].setGroup(element, to: state.group)
            state.parked = nil
        }
    }

    @_specialize(where Value == Double, Stored == Double)
    @_specialize(where Value == SIMD2<Double>, Stored == SIMD2<Double>)
    @_specialize(where Value == SIMD3<Double>, Stored == SIMD4<Double>)
    @_specialize(where Value == SIMD4<Double>, Stored == SIMD4<Double>)
    override func setSpringParameters(_ animator: Animator, _ handle: AnimationHandle, _ parameters: SpringParameters)
        -> Bool
    {
        guard case .spring(_, let method) = state.animation.kind, let element = element(animator, handle),
            method.isStable(for: parameters)
        else { return false }
        // For the next run's start (a repeat's).
        state.springParameters = parameters
        // A paused spring joins a group when it resumes.
        if state.parked != nil {
            state.parked?.parameters = parameters
            return true
        }
        let groups = animator.shared.springGroups[method.index]
        let clock = groups.clock(state.group)
        let next = groups.acquire(
            parameters, threshold: state.threshold, clock: clock.clock, grid: clock.grid,
            configurations: animator.shared.springs)
        groups.release(state.group, configurations: animator.shared.springs)
        state.group = next
        lane.springs[method.index].setGroup(element, to: next)
        return true
    }

    @_specialize(where Value == Double, Stored == Double)
    @_specialize(where Value == SIMD2<Double>, Stored == SIMD2<Double>)
    @_specialize(where Value == SIMD3<Double>, Stored == SIMD4<Double>)
    @_specialize(where Value == SIMD4<Double>, Stored == SIMD4<Double>)
    override func velocity(_ animator: Animator, _ handle: AnimationHandle) -> SIMD4<Double>? {
        guard let element = element(animator, handle) else { return nil }
        switch state.animation.kind {
        case .spring(_, let method): return lane.springs[method.index].currentVelocity(element).packed
        case .decay(_, let method): return lane.decays[method.index].state[element].velocity.packed
        case .basic, .keyframes, .custom: return nil
        }
    }
}
