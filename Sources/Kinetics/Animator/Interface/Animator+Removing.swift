// Removing animations: cancelling, freeing records, retiring boxes to their pools.

extension Animator {
    /// Removes the animation under `key` on `target`: it stops (cancelled).
    public func removeAnimation(forKey key: String, on target: TargetID) {
        defer { checkInternally(after: "removeAnimation") }
        if let handle = animation(forKey: key, on: target) { cancel(handle) }
    }

    /// Removes the animation under `key` (made once) on `target`: it stops
    /// (cancelled).
    public func removeAnimation(forKey key: AnimationKey, on target: TargetID) {
        defer { checkInternally(after: "removeAnimation") }
        if let handle = animation(forKey: key, on: target) { cancel(handle) }
    }

    /// Removes `handle` (cancelled); a group takes its running children with it.
    public func remove(_ handle: AnimationHandle) {
        cancel(handle)
        checkInternally(after: "remove")
    }

    /// Removes every animation of `target`.
    public func removeAllAnimations(on target: TargetID) {
        defer { checkInternally(after: "removeAllAnimations") }
        for key in keys(on: target) { removeAnimation(forKey: key, on: target) }
    }

    /// Removes every animation.
    public func removeAllAnimations() {
        defer { checkInternally(after: "removeAllAnimations") }
        for target in registry.targets { removeAllAnimations(on: target) }
    }

    /// Stops `handle` as cancelled and frees it: not started yet → start then
    /// stop (as Core Animation and Pop do); running or paused → stop;
    /// finished and kept → no event (it already stopped once).
    func cancel(_ handle: AnimationHandle) {
        // A bare spring ends without a box while nothing observes it.
        if let index = liveIndex(handle), records[index].box == nil, state.tracer == nil {
            precondition(state.phase != .advancing, "the animator cannot be changed while animations advance")
            endBare(handle, index: index, finished: false)
            return
        }
        guard let (index, box) = changeable(handle) else { return }
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

    func unregister(_ index: Int) { registry.remove(RecordIndex(index)) }

    func free(_ handle: AnimationHandle) {
        guard let index = liveIndex(handle) else { return }
        unregister(index)
        status[index].live = false
        if let box = records[index].box, box.isReusable { state.retiredBoxes.append(box) }
        if state.phase == .idle && state.retiredBoxes.count > 1_024 { recycleRetiredBoxes() }
        records[index].box = nil
        freeRecords.append(handle.record)
    }

    /// A box of type `Box` to reuse, if one is free; only outside ticks and
    /// callbacks, so that no box in use is on the stack.
    func reusableBox<Box: AnimationBox>(_ type: Box.Type) -> Box? {
        guard state.phase == .idle else { return nil }
        // The record the next animation gets may hold a box of this type,
        // left by a quietly finished animation.
        if let next = freeRecords.last, let left = records[next.index].box as? Box {
            records[next.index].box = nil
            left.forgetRun()
            return left
        }
        recycleRetiredBoxes()
        if let box = state.boxPools.take(ObjectIdentifier(type)) as? Box { return box }
        // None is free: quietly finished animations may have left boxes of
        // this type in free records further down. They all go to their
        // pools, each once; the walk runs only where a box would be made.
        releaseLeftBoxes()
        return state.boxPools.take(ObjectIdentifier(type)) as? Box
    }

    /// Moves the boxes that quietly finished animations left in free records
    /// to their pools.
    private func releaseLeftBoxes() {
        for position in 0 ..< freeRecords.count {
            let index = freeRecords[position].index
            guard let left = records[index].box else { continue }
            records[index].box = nil
            left.forgetRun()
            if left.isReusable { state.retiredBoxes.append(left) }
        }
        recycleRetiredBoxes()
    }

    /// Moves the boxes freed since the last safe point to their pools.
    func recycleRetiredBoxes() {
        while let box = state.retiredBoxes.popLast() {
            box.retire()
            state.boxPools.put(box)
        }
    }

    /// The record index and box of a live `handle` about to be changed.
    /// Changing the animator while its animations advance stops the process.
    @inline(__always)
    func changeable(_ handle: AnimationHandle) -> (index: Int, box: AnimationBox)? {
        precondition(state.phase != .advancing, "the animator cannot be changed while animations advance")
        guard let index = liveIndex(handle), let box = box(index) else { return nil }
        return (index, box)
    }

    /// The record index of a live handle.
    @inline(__always)
    func liveIndex(_ handle: AnimationHandle) -> Int? {
        let index = handle.record.index
        // One unsigned comparison for both ends.
        guard UInt(bitPattern: index) < UInt(bitPattern: status.count), status[index].live,
            status[index].generation == handle.generation
        else { return nil }
        return index
    }
}
