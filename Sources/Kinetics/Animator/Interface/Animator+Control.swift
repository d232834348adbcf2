// Pausing, resuming, retargeting and respringing running animations.

extension Animator {
    /// Pauses a running animation: it keeps its value and state and does not
    /// advance; timed animations resume where they were. Returns whether it
    /// was running.
    @discardableResult
    public func pause(_ handle: AnimationHandle) -> Bool {
        defer { checkInternally(after: "pause") }
        guard let (index, box) = changeable(handle), status[index].phase == .running else { return false }
        status[index].phase = .paused
        records[index].pausedAt = time
        box.setPaused(self, handle, true, pausedFor: 0)
        return true
    }

    /// Resumes a paused animation from where it was. Returns whether it was paused.
    @discardableResult
    public func resume(_ handle: AnimationHandle) -> Bool {
        defer { checkInternally(after: "resume") }
        guard let (index, box) = changeable(handle), status[index].phase == .paused else { return false }
        status[index].phase = .running
        box.setPaused(self, handle, false, pausedFor: time - records[index].pausedAt)
        return true
    }

    /// Gives a spring a new target: it continues from its current value and
    /// velocity, so neither jumps. Returns false for anything but a live spring.
    ///
    /// A retarget writes the element's columns and nothing else (its box is
    /// not consulted): inlined into the caller, which knows `Value`, it
    /// costs about as much as a frame of the spring.
    @inlinable
    @discardableResult
    public func retarget<Value: AnimatableVector>(_ handle: AnimationHandle, to target: Value) -> Bool {
        retargetSpring(handle, to: target.packed, isFinite: target.isFinite)
    }

    /// ``retarget(_:to:)`` with the value packed.
    @usableFromInline
    func retargetSpring(_ handle: AnimationHandle, to target: SIMD4<Double>, isFinite: Bool) -> Bool {
        defer { checkInternally(after: "retarget") }
        precondition(state.phase != .advancing, "the animator cannot be changed while animations advance")
        guard isFinite, let index = liveIndex(handle) else { return false }
        let record = status[index]
        let spring = record.spring
        guard spring != .none else { return false }
        onLane(
            width: spring.width, RetargetSpring(method: spring.method, element: record.element.index, target: target))
        // What a retarget of an observed spring does besides, out of line
        // and after the write, so that the common path makes no call before
        // it; its last call, so that the common path saves no register.
        if record.retargetIsObserved || state.tracer != nil {
            return observeRetarget(index, handle, spring, reached: record.reached)
        }
        return true
    }

    /// For ``retargetSpring(_:to:isFinite:)``: clears the reached flag and,
    /// when a reached-to-value callback or a tracer waits for the new
    /// target, makes the element report frame events again. Returns true
    /// (the retarget's result).
    @inline(never)
    private func observeRetarget(_ index: Int, _ handle: AnimationHandle, _ spring: SpringElement, reached: Bool)
        -> Bool
    {
        if reached { status[index].reached = false }
        if spring.observesReach || wantsTracing(handle) {
            onLane(width: spring.width, ArmEvents(method: spring.method, element: status[index].element.index))
        }
        return true
    }

    private struct RetargetSpring: LaneOperation {
        let method: Int
        let element: Int
        let target: SIMD4<Double>

        @inline(__always)
        func callAsFunction<V: AnimatableVector>(_ lane: Lane<V>, _: inout Void) {
            lane.withSprings(method) { $0.retarget(element, to: V(packed: target)) }
        }
    }

    private struct ArmEvents: LaneOperation {
        let method: Int
        let element: Int

        func callAsFunction<V: AnimatableVector>(_ lane: Lane<V>, _: inout Void) {
            lane.withSprings(method) { $0.armEvents(element) }
        }
    }

    /// Gives a spring new parameters from the next frame on, keeping its value
    /// and velocity. Returns false for anything but a live spring, and for
    /// parameters its method cannot run (a `pop` or `fixed` spring whose
    /// 1 ms step would diverge: ``SpringMethod/isStable(for:)``); the spring
    /// then keeps its old parameters.
    @discardableResult
    public func setSpringParameters(_ handle: AnimationHandle, _ parameters: SpringParameters) -> Bool {
        defer { checkInternally(after: "setSpringParameters") }
        guard let (_, box) = changeable(handle) else { return false }
        return box.setSpringParameters(self, handle, parameters)
    }
}
