// Replacing a quiet running spring with a quiet spring in place.

extension Animator {
    /// The record of the running spring that adding `animation` (a spring
    /// of `method`, with `life`) to the property in `slot` would replace
    /// (`running`: the record registered under its key), when the
    /// replacement can happen in place: nothing observes either
    /// animation (both quiet: no callbacks, markers, tracer, group, repeats,
    /// rounding or additive writes; removed on completion), the new one is a
    /// spring of the same method and value type, on the same property, that
    /// starts now, and the animator is between operations (not in a tick or
    /// a callback).
    ///
    /// Removing the old animation and adding the new one then leaves the
    /// same state as ``replaceInPlace(_:index:parameters:life:)``, event for event (none
    /// is observed) and value for value; only the element's place in its
    /// batch differs, which nothing observes either.
    @inline(__always)
    func quietSpringToReplace<Value: AnimatableVector>(
        _ type: Value.Type, id: AnimationID, startsQuietNow: Bool, method: SpringMethod, slot: PropertySlot,
        running existing: RecordIndex?
    ) -> Int? {
        // The box's test of a quiet run (a top-level animation has no parent).
        guard let existing, startsQuietNow, state.phase == .idle, state.tracer == nil else { return nil }
        let index = existing.index
        let running = status[index].spring
        guard status[index].phase == .running, running != .none, running.method == method.index,
            records[index].id != id
        else { return nil }
        let element = status[index].element.index
        // A key names an animation on a target, not on a property: the
        // running spring may animate another property, or values of
        // another type. A bare spring's element says both (its value type
        // is the animator's own for its lane and components); a box knows
        // its own. (Neither test binds the box: that would retain it.)
        let sameProperty =
            records[index].box == nil
            ? Self.isOwnValueType(Value.self) && running.width == Self.width(of: Value.self)
                && running.hasThreeComponents == (Value.componentCount == 3) && elementSlot(running, element) == slot
            : records[index].box?.slot(ifValueType: ObjectIdentifier(Value.self)) == slot
        guard sameProperty else { return nil }
        return elementFlags(running, element) & ElementFlag.quiet != 0 ? index : nil
    }

    /// Replaces the quiet spring of record `index` with `animation`
    /// (``quietSpringToReplace(_:method:slot:life:running:)`` found them), keeping its
    /// record (a generation on, as freeing and reusing it would), box,
    /// element and key (moved last among its target's keys, as removing and
    /// adding it would), and renders the new spring's first frame.
    func replaceInPlace<Source: QuietSpringSource>(
        _ animation: borrowing Source, index: Int, parameters: SpringParameters, life: LifeCycle
    ) -> AnimationHandle {
        // One check of the index for the record and its status (the
        // columns have the same count); then their pointers, which check in
        // debug builds.
        precondition(
            UInt(bitPattern: index) < UInt(bitPattern: status.count) && status.count == records.count,
            "record \(index) out of 0..<\(status.count)")
        let status = ColumnPointer(self.status)
        let records = ColumnPointer(self.records)
        let generation = status[index].generation &+ 1
        status[index].generation = generation
        status[index].reached = false
        let handle = AnimationHandle(record: RecordIndex(index), generation: generation)
        records[index].restart(id: animation.id, life: life, at: time)
        registry.moveToEnd(RecordIndex(index))
        state.registrations &+= 1
        state.nextSequence += 1
        if records[index].box != nil {
            // Not retained: the record keeps the box, and restarting a quiet
            // spring neither frees a record nor calls out. (Switches on the
            // width, as ``makePropertyBox``, for the animation borrowed,
            // read through a pointer: see ``restartBare``.)
            withUnsafePointer(to: animation) { animation in
                Unmanaged.passUnretained(records[index].box!)._withUnsafeGuaranteedRef { box in
                    switch Self.width(of: Source.Value.self) {
                    case 1: restart(box, Double.self, with: animation.pointee, parameters, handle, index: index)
                    case 2:
                        restart(box, SIMD2<Double>.self, with: animation.pointee, parameters, handle, index: index)
                    default:
                        restart(box, SIMD4<Double>.self, with: animation.pointee, parameters, handle, index: index)
                    }
                }
            }
            renderQuietSpring(handle, index: index, width: Self.width(of: Source.Value.self))
        } else {
            // Its first frame rendered with the restart, in the batch at hand.
            switch Self.width(of: Source.Value.self) {
            case 1: restartBare(animation, parameters: parameters, lane: lane1, width: 1, handle, index: index)
            case 2: restartBare(animation, parameters: parameters, lane: lane2, width: 2, handle, index: index)
            default: restartBare(animation, parameters: parameters, lane: lane4, width: 4, handle, index: index)
            }
            completeIfAtRest(handle)
        }
        return handle
    }

    private func restart<Source: QuietSpringSource, Stored: AnimatableVector>(
        _ box: AnimationBox, _ stored: Stored.Type, with animation: borrowing Source,
        _ parameters: SpringParameters, _ handle: AnimationHandle, index: Int
    ) {
        // The box's value type was checked: its type is this one (a cast
        // that checks would look up the generic class's metadata).
        unsafeDowncast(box, to: PropertyAnimationBox<Source.Value, Stored>.self)
            .restartQuietSpring(with: animation, parameters: parameters, self, handle, index: index)
    }
}
