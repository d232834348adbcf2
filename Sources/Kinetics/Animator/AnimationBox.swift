/// The cold-path behaviour of one animation in an ``Animator``: starting,
/// events, completion, repeats. The per-frame work happens in the batches;
/// a box is only consulted when something happens to its animation.
class AnimationBox {
    /// Whether the animation has an element in a batch now.
    var hasElement: Bool { false }

    func start(_ animator: Animator, _ handle: AnimationHandle, time: Double) {}
    func renderFirstFrame(_ animator: Animator, _ handle: AnimationHandle, context: FrameContext, output: inout FrameOutput) {}
    func removeElement(_ animator: Animator, _ handle: AnimationHandle) {}
    func cancelChildren(_ animator: Animator, _ handle: AnimationHandle) {}
    func fireStart(_ animator: Animator, _ handle: AnimationHandle) {}
    func fireStop(_ animator: Animator, _ handle: AnimationHandle, finished: Bool) {}
    func frameEvents(_ animator: Animator, _ handle: AnimationHandle) {}
    func finalFrame(_ animator: Animator, _ handle: AnimationHandle) {}
    func repeatRun(_ animator: Animator, _ handle: AnimationHandle, time: Double) {}
    func setPaused(_ animator: Animator, _ handle: AnimationHandle, _ paused: Bool) {}
    func shiftStart(_ animator: Animator, _ handle: AnimationHandle, by delta: Double) {}
    func retarget(_ animator: Animator, _ handle: AnimationHandle, to target: SIMD4<Double>) -> Bool { false }
    func setSpringParameters(_ animator: Animator, _ handle: AnimationHandle, _ parameters: SpringParameters) -> Bool { false }
    func velocity(_ animator: Animator, _ handle: AnimationHandle) -> SIMD4<Double>? { nil }
    func propertyName(_ animator: Animator) -> String { "" }
}

/// A property animation: an ``Animation`` of values of type `Value`, stored
/// in the lane of type `Stored` (the same, or `SIMD4` for 3-vectors).
final class PropertyAnimationBox<Value: AnimatableVector, Stored: AnimatableVector>: AnimationBox {
    private var animation: Animation<Value>
    private let slot: Int32
    private unowned let lane: Lane<Stored>
    private let width: Int
    private var installed = false
    private var configuration: Int32 = -1
    /// The run's resolved ends and start velocity (set at the first start,
    /// swapped on repeats).
    private var resolved = false
    private var from = Stored.zero
    private var to = Stored.zero
    private var startVelocity = Stored.zero
    private var distance = Stored.zero
    private var reversed = false
    private var hasExplicitEnd: Bool

    init(_ animation: Animation<Value>, slot: Int32, lane: Lane<Stored>, width: Int) {
        self.animation = animation
        self.slot = slot
        self.lane = lane
        self.width = width
        hasExplicitEnd = animation.to != nil
    }

    override var hasElement: Bool { installed }

    private func convert(_ value: Value) -> Stored { Stored(packed: value.packed) }
    private func external(_ value: Stored) -> Value { Value(packed: value.packed) }

    override func propertyName(_ animator: Animator) -> String {
        animator.propertyInfo(width: width, slot: slot).name
    }

    // MARK: Start and removal

    override func start(_ animator: Animator, _ handle: AnimationHandle, time: Double) {
        guard let index = animator.liveIndex(handle) else { return }
        let current = lane.values[Int(slot)]
        if !resolved {
            from = animation.from.map(convert) ?? current
            to = animation.to.map(convert) ?? current
            startVelocity = animation.velocity.map(convert) ?? .zero
            resolved = true
        }
        let threshold = animation.threshold ?? animator.propertyInfo(width: width, slot: slot).kind.defaultThreshold
        let element: Int32
        switch animation.kind {
        case .spring(let parameters, let method):
            configuration = animator.springConfigurations.acquire(parameters, method)
            element = lane.springs[method.index].append(
                state(handle, threshold: threshold, animator: animator), value: from, velocity: startVelocity,
                configuration: configuration)
        case .decay(let parameters, let method):
            if !hasExplicitEnd {
                to = parameters.endValue(from: from, velocity: startVelocity, threshold: threshold, method: method)
            }
            element = lane.decays[method.index].append(
                state(handle, threshold: threshold, animator: animator), value: from, velocity: startVelocity,
                deceleration: parameters.deceleration)
        case .basic(let duration, let timing, let bezier):
            element = lane.basics.append(
                state(handle, threshold: threshold, animator: animator), start: time, duration: duration,
                timing: TimingEvaluator(timing, bezier: bezier, duration: duration))
        case .keyframes(let keyframes):
            let values = keyframes.values.map(convert)
            from = reversed ? values.last! : values[0]
            to = reversed ? values[0] : values.last!
            let track = KeyframeTrack(
                values: values, keyTimes: keyframes.keyTimes, timing: keyframes.timingFunctions,
                calculation: keyframes.calculation, duration: keyframes.duration, bezier: .fast, reversed: reversed)
            element = lane.keyframes.append(
                state(handle, threshold: threshold, animator: animator), start: time, track: track,
                duration: keyframes.duration)
        case .custom(let step):
            from = current
            to = current
            element = lane.customs.append(state(handle, threshold: threshold, animator: animator), start: time) {
                (frame: inout CustomFrame<Stored>) -> Bool in
                var outer = CustomFrame(
                    time: frame.time, frameLength: frame.frameLength, elapsed: frame.elapsed,
                    value: Value(packed: frame.value.packed))
                let done = step(&outer)
                frame.value = Stored(packed: outer.value.packed)
                return done
            }
        }
        distance = to - from
        animator.records[index].element = element
        animator.records[index].reached = false
        animator.records[index].nextMarker = 0
        installed = true
    }

    private func state(_ handle: AnimationHandle, threshold: Double, animator: Animator) -> ElementState<Stored> {
        ElementState(
            owner: handle, slot: slot, from: from, to: to, clamp: animation.clamp,
            roundingFactor: animation.roundingFactor, additive: animation.additive, threshold: threshold,
            wantsEvents: wantsEvents(animator, handle))
    }

    /// Whether the element must report every frame: for progress markers,
    /// a pending reached-to-value, an apply callback or tracing.
    private func wantsEvents(_ animator: Animator, _ handle: AnimationHandle) -> Bool {
        guard let index = animator.liveIndex(handle) else { return false }
        let record = animator.records[index]
        return record.nextMarker < animation.progressMarkers.count
            || (!record.reached && animation.callbacks.onReachToValue != nil)
            || animation.callbacks.onApply != nil
            || animator.wantsTracing(handle)
    }

    override func renderFirstFrame(_ animator: Animator, _ handle: AnimationHandle, context: FrameContext, output: inout FrameOutput) {
        guard let index = animator.liveIndex(handle) else { return }
        let element = Int(animator.records[index].element)
        lane.withValues { values in
            switch animation.kind {
            case .spring(_, let method):
                lane.springs[method.index].advanceElement(
                    element, context: context, maps: SpringConfigurations.FrameMaps(),
                    configurations: animator.springConfigurations, values: values, output: &output)
            case .decay(_, let method):
                lane.decays[method.index].advanceElement(element, context: context, values: values, output: &output)
            case .basic:
                lane.basics.advanceElement(element, context: context, values: values, output: &output)
            case .keyframes:
                lane.keyframes.advanceElement(element, context: context, values: values, output: &output)
            case .custom:
                lane.customs.advanceElement(element, context: context, values: values, output: &output)
            }
        }
    }

    override func removeElement(_ animator: Animator, _ handle: AnimationHandle) {
        guard installed, let index = animator.liveIndex(handle) else { return }
        let element = Int(animator.records[index].element)
        let moved: AnimationHandle?
        switch animation.kind {
        case .spring(_, let method):
            moved = lane.springs[method.index].remove(at: element)
            animator.springConfigurations.release(configuration)
            configuration = -1
        case .decay(_, let method): moved = lane.decays[method.index].remove(at: element)
        case .basic: moved = lane.basics.remove(at: element)
        case .keyframes: moved = lane.keyframes.remove(at: element)
        case .custom: moved = lane.customs.remove(at: element)
        }
        if let moved, let movedIndex = animator.liveIndex(moved) {
            animator.records[movedIndex].element = Int32(element)
        }
        animator.records[index].element = -1
        installed = false
    }

    /// Reads or changes the element's shared state.
    private func withState<Result>(_ animator: Animator, _ handle: AnimationHandle, _ body: (inout ElementState<Stored>) -> Result) -> Result? {
        guard installed, let index = animator.liveIndex(handle) else { return nil }
        let element = Int(animator.records[index].element)
        switch animation.kind {
        case .spring(_, let method): return body(&lane.springs[method.index].state[element])
        case .decay(_, let method): return body(&lane.decays[method.index].state[element])
        case .basic: return body(&lane.basics.state[element])
        case .keyframes: return body(&lane.keyframes.state[element])
        case .custom: return body(&lane.customs.state[element])
        }
    }

    /// The element's current (unrounded) value and its progress.
    private func currentValueAndProgress(_ animator: Animator, _ handle: AnimationHandle) -> (Stored, Double)? {
        guard installed, let index = animator.liveIndex(handle) else { return nil }
        let element = Int(animator.records[index].element)
        let value: Stored
        switch animation.kind {
        case .spring(_, let method): value = lane.springs[method.index].value(element)
        case .decay(_, let method): value = lane.decays[method.index].value[element]
        case .basic: return (lane.basics.value(element), lane.basics.progress[element])
        case .keyframes: return (lane.values[Int(slot)], lane.keyframes.progress[element])
        case .custom: value = lane.values[Int(slot)]
        }
        return (value, Self.distanceProgress(value, from: from, to: to))
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
    private func hasReached(_ value: Stored) -> Bool {
        let remaining = to - value
        if remaining.squaredNorm == 0 { return true }
        if distance.squaredNorm == 0 { return false }
        for component in 0 ..< Stored.componentCount where distance[component: component] != 0 {
            if remaining[component: component].sign == distance[component: component].sign
                && remaining[component: component] != 0
            {
                return false
            }
        }
        return true
    }

    // MARK: Events

    override func fireStart(_ animator: Animator, _ handle: AnimationHandle) {
        animator.trace(handle, .start)
        animation.callbacks.onStart?(animator, handle)
    }

    override func fireStop(_ animator: Animator, _ handle: AnimationHandle, finished: Bool) {
        animator.trace(handle, .stop(finished: finished))
        animation.callbacks.onStop?(animator, handle, finished)
    }

    override func frameEvents(_ animator: Animator, _ handle: AnimationHandle) {
        guard let (value, progress) = currentValueAndProgress(animator, handle) else { return }
        guard progressAndReached(animator, handle, progress: progress, value: value) else { return }
        applied(animator, handle)
        if let stillWanted = withState(animator, handle, { _ in wantsEvents(animator, handle) }) {
            _ = withState(animator, handle) { $0.wantsEvents = stillWanted }
        }
    }

    /// Fires the markers passed and reached-to-value; false if a callback
    /// removed the animation.
    private func progressAndReached(_ animator: Animator, _ handle: AnimationHandle, progress: Double, value: Stored) -> Bool {
        let markers = animation.progressMarkers
        while let index = animator.liveIndex(handle), animator.records[index].nextMarker < markers.count,
            progress >= markers[animator.records[index].nextMarker]
        {
            let marker = markers[animator.records[index].nextMarker]
            animator.records[index].nextMarker += 1
            animator.trace(handle, .marker(marker))
            animation.callbacks.onProgressMarker?(animator, handle, marker)
        }
        guard let index = animator.liveIndex(handle) else { return false }
        if case .custom = animation.kind { return true }
        if !animator.records[index].reached && hasReached(value) {
            animator.records[index].reached = true
            animator.trace(handle, .reached)
            animation.callbacks.onReachToValue?(animator, handle)
        }
        return animator.liveIndex(handle) != nil
    }

    /// The value-written trace event and the apply callback.
    private func applied(_ animator: Animator, _ handle: AnimationHandle) {
        let written = lane.values[Int(slot)]
        animator.trace(handle, .valueWritten(written.packed))
        animation.callbacks.onApply?(animator, handle, external(written))
    }

    /// Pop's final frame: progress 1, the exact target written (unless the
    /// property already holds it), then the apply callback.
    override func finalFrame(_ animator: Animator, _ handle: AnimationHandle) {
        guard progressAndReached(animator, handle, progress: 1, value: to) else { return }
        if case .custom = animation.kind {
            applied(animator, handle)
            return
        }
        let target = to
        let slot = Int(self.slot)
        _ = withState(animator, handle) { state in
            let out = state.rounded(target)
            if state.additive {
                if state.writes > 0 && out == state.previous { return }
            } else if lane.values[slot] == out {
                return
            }
            lane.withValues { state.write(target, into: $0) }
        }
        applied(animator, handle)
    }

    /// Pop's repeat: the next run goes from the old end; with autoreverse it
    /// goes back to the old start (a decay reverses its velocity, keyframes
    /// run backwards), without it the run starts over from the original start.
    override func repeatRun(_ animator: Animator, _ handle: AnimationHandle, time: Double) {
        let endVelocity = velocity(animator, handle).map { Stored(packed: $0) } ?? .zero
        removeElement(animator, handle)
        if animator.records[Int(handle.index)].life.autoreverses {
            swap(&from, &to)
            reversed.toggle()
            if case .decay = animation.kind { startVelocity = startVelocity * -1.0 }
        }
        // A spring keeps the velocity it ended with, as Pop's does; a decay's
        // end is computed again from its new start.
        if case .spring = animation.kind { startVelocity = endVelocity }
        start(animator, handle, time: time)
    }

    // MARK: Control

    override func setPaused(_ animator: Animator, _ handle: AnimationHandle, _ paused: Bool) {
        _ = withState(animator, handle) { $0.paused = paused }
    }

    override func shiftStart(_ animator: Animator, _ handle: AnimationHandle, by delta: Double) {
        guard installed, let index = animator.liveIndex(handle) else { return }
        let element = Int(animator.records[index].element)
        switch animation.kind {
        case .basic: lane.basics.start[element] += delta
        case .keyframes: lane.keyframes.start[element] += delta
        case .custom: lane.customs.start[element] += delta
        case .spring, .decay: break
        }
    }

    override func retarget(_ animator: Animator, _ handle: AnimationHandle, to target: SIMD4<Double>) -> Bool {
        guard installed, case .spring(_, let method) = animation.kind, let index = animator.liveIndex(handle) else { return false }
        let element = Int(animator.records[index].element)
        let newTarget = Stored(packed: target)
        let batch = lane.springs[method.index]
        batch.retarget(element, to: newTarget)
        from = batch.value(element)
        to = newTarget
        distance = to - from
        animator.records[index].reached = false
        batch.state[element].from = from
        batch.state[element].wantsEvents = wantsEvents(animator, handle)
        return true
    }

    override func setSpringParameters(_ animator: Animator, _ handle: AnimationHandle, _ parameters: SpringParameters) -> Bool {
        guard installed, case .spring(_, let method) = animation.kind, let index = animator.liveIndex(handle) else { return false }
        let element = Int(animator.records[index].element)
        let next = animator.springConfigurations.acquire(parameters, method)
        animator.springConfigurations.release(configuration)
        configuration = next
        lane.springs[method.index].configuration[element] = next
        animation.kind = .spring(parameters, method: method)
        return true
    }

    override func velocity(_ animator: Animator, _ handle: AnimationHandle) -> SIMD4<Double>? {
        guard installed, let index = animator.liveIndex(handle) else { return nil }
        let element = Int(animator.records[index].element)
        switch animation.kind {
        case .spring(_, let method): return lane.springs[method.index].currentVelocity(element).packed
        case .decay(_, let method): return lane.decays[method.index].velocity[element].packed
        case .basic, .keyframes, .custom: return nil
        }
    }
}

extension SpringMethod {
    /// The method's position in `allCases`, the index of its batch.
    var index: Int {
        switch self {
        case .pop: 0
        case .fixed: 1
        case .rk4: 2
        case .analytic: 3
        }
    }
}

extension DecayMethod {
    /// The method's position in `allCases`, the index of its batch.
    var index: Int {
        switch self {
        case .pop: 0
        case .exact: 1
        case .continuous: 2
        }
    }
}
