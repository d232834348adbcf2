// How a property animation box starts its element (a spring into its
// group, a quiet spring restarted in place) and reads where it stands.
extension PropertyAnimationBox {
    // MARK: Start

    @inline(never)
    func startBody(_ animator: Animator, _ handle: AnimationHandle, time: Double) {
        guard let index = animator.liveIndex(handle) else { return }
        let current = withLane { $0[slot: state.slot] }
        if !state.resolved {
            state.from = state.animation.from.map(convert) ?? current
            state.to = state.animation.to.map(convert) ?? current
            state.startVelocity = state.animation.velocity.map(convert) ?? .zero
            state.resolved = true
        }
        state.threshold =
            state.animation.threshold ?? animator.propertyInfo(width: width, slot: state.slot).kind.defaultThreshold
        if let springParameters = state.springParameters {
            startSpring(springParameters, animator, handle, index: index)
            return
        }
        let tables = animator.shared
        switch state.animation.kind {
        case .spring:
            preconditionFailure("a spring's box has its parameters")
        case .decay(let parameters, let method):
            if !state.hasExplicitEnd {
                state.to = parameters.endValue(
                    from: state.from, velocity: state.startVelocity, threshold: state.threshold, method: method)
            }
            if state.decay.isNone { state.decay = tables.decays.acquire(parameters.deceleration, method) }
            lane.decays[method.index].state.append(
                DecayState(value: state.from, velocity: state.startVelocity, configuration: state.decay))
        case .basic(let duration, let timing, let bezier):
            if state.timing.isNone { state.timing = tables.timings.acquire(timing, bezier: bezier, duration: duration) }
            lane.basics.state.append(BasicState(span: TimedSpan(start: time, duration: duration), timing: state.timing))
        case .keyframes(let keyframes):
            if (state.reversed ? state.backwardTrack : state.forwardTrack).isNone {
                let track = lane.tracks.acquire(keyframes, reversed: state.reversed, timings: tables.timings)
                if state.reversed { state.backwardTrack = track } else { state.forwardTrack = track }
            }
            let track = state.reversed ? state.backwardTrack : state.forwardTrack
            (state.from, state.to) = lane.tracks.ends(track)
            lane.keyframes.state.append(
                KeyframeState(span: TimedSpan(start: time, duration: keyframes.duration), track: track))
        case .custom(let step):
            state.from = current
            state.to = current
            lane.customs.appendState(start: time) { (frame: inout CustomFrame<Stored>) -> Bool in
                var outer = CustomFrame(
                    time: frame.time, frameLength: frame.frameLength, elapsed: frame.elapsed,
                    value: Value(packed: frame.value.packed))
                let done = step(&outer)
                frame.value = Stored(packed: outer.value.packed)
                return done
            }
        }
        let common = columns
        let element = ElementIndex(common.count)
        common.append(
            owner: handle, slot: state.slot, from: state.from, to: state.to, clamp: state.animation.clamp,
            roundingFactor: state.animation.roundingFactor, additive: state.animation.additive,
            threshold: state.threshold,
            wantsEvents: wantsEvents(animator, index))
        if isQuiet(animator, index) { common.setFlag(element.index, ElementFlag.quiet, true) }
        state.distance = state.to - state.from
        finishStart(animator, index: index, element: element)
    }

    /// Starts a spring with `parameters` (record `index`, `handle`): joins
    /// the group of its parameters and appends its element, reaching the
    /// tables and the batch unretained and never matching (copying)
    /// `animation.kind`, as an in-place restart does.
    func startSpring(
        _ parameters: SpringParameters, _ animator: Animator, _ handle: AnimationHandle, index: Int
    ) {
        SharedTables.with(animator) { tables in
            tables.withSpringGroups(state.springMethod) { groups in
                state.group = groups.acquire(parameters, threshold: state.threshold, configurations: tables.springs)
            }
        }
        let wants = wantsEvents(animator, index)
        let flags = ElementFlag.unwritten | (isQuiet(animator, index) ? ElementFlag.quiet : 0)
        let clamp = state.animation.clamp
        let roundingFactor = state.animation.roundingFactor
        let additive = state.animation.additive
        let start = SpringStart(
            from: state.from, to: state.to, velocity: state.startVelocity, threshold: state.threshold)
        let element = withLane { lane in
            lane.withSprings(state.springMethod) { batch in
                batch.appendSpring(
                    owner: handle, slot: state.slot, start, group: state.group, clamp: clamp,
                    roundingFactor: roundingFactor,
                    additive: additive, wantsEvents: wants, flags: flags)
            }
        }
        state.distance = state.to - state.from
        animator.status[index].spring = SpringElement(
            width: width, methodIndex: state.springMethod, components: Value.componentCount,
            observesReach: state.animation.observers?.callbacks.onReachToValue != nil)
        finishStart(animator, index: index, element: element)
    }

    /// What every start ends with: the record's element, its reach and
    /// markers reset, and the box installed.
    func finishStart(_ animator: Animator, index: Int, element: ElementIndex) {
        animator.status[index].element = element
        animator.status[index].reached = false
        animator.records[index].nextMarker = 0
        state.installed = true
    }

    /// Makes this box, whose quiet spring runs, run `animation` (a spring
    /// with `parameters`) instead in the same element, record `handle` (the
    /// old one's, a generation on): what removing the old animation and
    /// adding the new one would leave, without giving back and taking again
    /// the element, the box and the key. `animation` is a quiet spring of
    /// the same method that starts now (the caller checked:
    /// ``Animator/quietSpringToReplace(_:method:slot:life:running:)``); nothing observes
    /// either animation, so no event is due.
    ///
    /// The box keeps its stored animation: a quiet spring does not start
    /// again (no repeats), and a running spring's parameters are its
    /// group's; the rest the start takes from `animation` here. Storing the
    /// new animation wrote the box's cold lines, through the generic type's
    /// assignment witness; at 100,000 springs, where each line a replacement
    /// touches is a cache miss, churn frames took longer with it
    /// (docs/performance.md).
    func restartQuietSpring<Source: QuietSpringSource>(
        with animation: borrowing Source, parameters: SpringParameters, _ animator: Animator,
        _ handle: AnimationHandle, index: Int
    ) {
        let element = animator.status[index].element.index
        let start = SpringStart(animation, current: withLane { $0[slot: state.slot] }) {
            animator.propertyInfo(width: width, slot: state.slot).kind.defaultThreshold
        }
        state.from = start.from
        state.to = start.to
        state.startVelocity = start.velocity
        state.distance = state.to - state.from
        state.resolved = true
        state.reversed = false
        state.hasExplicitEnd = animation.packedTo != nil
        state.threshold = start.threshold
        SharedTables.with(animator) { tables in
            tables.withSpringGroups(state.springMethod) { groups in
                state.group = groups.rejoin(
                    state.group, parameters, threshold: state.threshold, configurations: tables.springs)
            }
        }
        let clamp = animation.clamp
        withLane { lane in
            lane.withSprings(state.springMethod) { batch in
                batch.restartQuiet(element, owner: handle, start, group: state.group, clamp: clamp)
            }
        }
    }

    /// Makes this box, new, that of the running spring of a bare record
    /// (``Animator/box(_:)``), whose run's state is its element's: its
    /// `group`, `threshold` and ends.
    func adoptRunningSpring(group: GroupIndex, threshold: Double, from: Stored, to: Stored) {
        state.group = group
        state.threshold = threshold
        state.from = from
        state.to = to
        state.distance = to - from
        state.resolved = true
        state.installed = true
    }

    /// Runs `body` with the lane, not retained: it outlives the box. (Each
    /// use of the unowned reference retained and released it, two atomic
    /// operations.)
    @inline(__always)
    func withLane<Result>(_ body: (Lane<Stored>) -> Result) -> Result {
        Unmanaged.passUnretained(lane)._withUnsafeGuaranteedRef(body)
    }

    /// Whether nothing observes the end of this run, so its batch may
    /// finish it (``ElementFlag/quiet``): no callbacks at all, no markers,
    /// no tracer, no group; not additive, rounded or custom; the last run,
    /// removed on completion.
    func isQuiet(_ animator: Animator, _ index: Int) -> Bool {
        guard state.animation.isUnobserved, animator.records[index].life.endsWithThisRun,
            animator.state.tracer == nil,
            animator.places[index].parent == nil
        else { return false }
        if state.springMethod < 0, case .custom = state.animation.kind { return false }
        return true
    }

    /// Whether the element must report every frame: for progress markers,
    /// a pending reached-to-value, an apply callback or tracing.
    func wantsEvents(_ animator: Animator, _ index: Int) -> Bool {
        // The record's fields one by one: a copy of the record would
        // retain and release its box.
        animator.records[index].nextMarker < (state.animation.observers?.progressMarkers.count ?? 0)
            || (!animator.status[index].reached && state.animation.observers?.callbacks.onReachToValue != nil)
            || state.animation.observers?.callbacks.onApply != nil
            || animator.wantsTracing(index: index)
    }

    // MARK: Where it stands

    /// The element's current (unrounded) value and its progress.
    func currentValueAndProgress(_ animator: Animator, _ handle: AnimationHandle) -> (Stored, Double)? {
        guard let element = element(animator, handle) else { return nil }
        let value: Stored
        switch state.animation.kind {
        case .spring(_, let method):
            readSpringEnds(element)
            value = lane.springs[method.index].value(element)
        case .decay(_, let method): value = lane.decays[method.index].state[element].value
        case .basic:
            let timings = animator.shared.timings
            return (
                lane.basics.value(element, at: animator.time, timings: timings),
                lane.basics.progress(element, at: animator.time, timings: timings)
            )
        case .keyframes: return (lane[slot: state.slot], lane.keyframes.progress(element, at: animator.time))
        case .custom: value = lane[slot: state.slot]
        }
        return (value, Self.distanceProgress(value, from: state.from, to: state.to))
    }
    /// Reads a spring's ends back from its element's columns, where a
    /// retarget changes them (``Animator/retarget(_:to:)`` does not go
    /// through the box); nothing for other kinds.
    func readSpringEnds(_ element: Int) {
        guard state.springMethod >= 0 else { return }
        let common = lane.springs[state.springMethod].common
        state.from = common.from[element]
        state.to = common.to[element]
        state.distance = state.to - state.from
    }

    /// Pop's progress of a spring or decay: how far along from → to, by distance.
    static func distanceProgress(_ value: Stored, from: Stored, to: Stored) -> Double {
        let s = (value - from).squaredNorm
        let e = (value - to).squaredNorm
        let d = (to - from).squaredNorm
        if d == 0 { return 1 }
        return s > e ? (s / d).squareRoot() : 1 - (e / d).squareRoot()
    }

    /// Whether `value` has reached or crossed `to` in every component that
    /// moves (Pop's test, with components that do not move left out).
    func hasReached(_ value: Stored) -> Bool {
        let remaining = state.to - value
        if remaining.squaredNorm == 0 { return true }
        if state.distance.squaredNorm == 0 { return false }
        for component in 0 ..< Stored.componentCount where state.distance[component: component] != 0 {
            if remaining[component: component].sign == state.distance[component: component].sign
                && remaining[component: component] != 0
            {
                return false
            }
        }
        return true
    }
}
