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
        box.setPaused(self, handle, true)
        return true
    }

    /// Resumes a paused animation from where it was. Returns whether it was paused.
    @discardableResult
    public func resume(_ handle: AnimationHandle) -> Bool {
        defer { checkInternally(after: "resume") }
        guard let (index, box) = changeable(handle), status[index].phase == .paused else { return false }
        status[index].phase = .running
        box.shiftStart(self, handle, by: time - records[index].pausedAt)
        box.setPaused(self, handle, false)
        return true
    }

    /// Gives a spring a new target: it continues from its current value and
    /// velocity, so neither jumps. Returns false for anything but a live spring.
    @discardableResult
    public func retarget<Value: AnimatableVector>(_ handle: AnimationHandle, to target: Value) -> Bool {
        defer { checkInternally(after: "retarget") }
        guard let (_, box) = changeable(handle), target.isFinite else { return false }
        return box.retarget(self, handle, to: target.packed)
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
