// Bare springs: quiet springs that run without a box.
//
// A spring that nothing observes (no callbacks, markers, tracer, group,
// repeats, rounding or additive writes; removed on completion) and starts
// when it is added needs its box for nothing while it runs: its batch
// advances it, retargets it and finishes it quietly, and an in-place
// replacement restarts it, all from its element's columns. Such a spring,
// of one of the animator's own value types, is added with no box: its
// record's box is nil, and its run's state (ends, threshold, group, clamp)
// is its element's alone. Its completion or cancellation, while no tracer
// observes it, needs no box (`endBare`); the first operation that does
// (pausing, new parameters, an end or events once a tracer is set) makes
// one from the element, as the box would be after the spring's start:
// `box(_:)`. Adding a bare spring allocates nothing once the animator has
// grown, and a bare spring keeps no object in memory.

extension Animator {
    /// Whether `animation`, a spring with `life`, runs bare: quiet as a box
    /// would find it at its start (the animation unobserved, its last run,
    /// no tracer; a top-level add has no group), starting now, and of a
    /// value type that ``box(_:)`` can make a box for.
    @inline(__always)
    func runsBare<Value: AnimatableVector>(_ animation: borrowing Animation<Value>, life: LifeCycle) -> Bool {
        Self.isOwnValueType(Value.self) && state.tracer == nil && startsQuietNow(animation, life: life)
    }

    /// Whether `animation`, with `life`, starts now and is quiet as a box
    /// would find it at its start, tracer aside: unobserved, its last run.
    @inline(__always)
    func startsQuietNow<Value: AnimatableVector>(_ animation: borrowing Animation<Value>, life: LifeCycle) -> Bool {
        animation.beginTime <= time && animation.isUnobserved && life.endsWithThisRun
    }

    /// Whether `Value` is `Double` or a `SIMD2`, `SIMD3` or `SIMD4` of
    /// `Double`: the value type of a bare spring follows from its lane and
    /// component count (``SpringElement``), so that its box can be made.
    @inline(__always)
    static func isOwnValueType<Value: AnimatableVector>(_ type: Value.Type) -> Bool {
        type == Double.self || type == SIMD2<Double>.self || type == SIMD3<Double>.self
            || type == SIMD4<Double>.self
    }

    /// Adds `animation`, a spring that ``runsBare(_:life:)``, without a box:
    /// registered under `key` as ``register(_:id:target:key:life:lookup:)``
    /// would, started and rendered at once.
    func addBare<Value: AnimatableVector, Source: QuietSpringSource>(
        _ animation: consuming Source, _ spring: (parameters: SpringParameters, method: SpringMethod),
        to property: PropertyHandle<Value>, id: AnimationID, key: String?, life: LifeCycle, lookup: KeyLookup?
    ) -> AnimationHandle where Source.Value == Value {
        let (handle, isNew) = claimRecord(nil, id: id, target: property.target, key: key, life: life, lookup: lookup)
        guard isNew else { return handle }
        let index = handle.record.index
        // The stop callback of an animation this one replaced may have set
        // a tracer, which observes it: then it has a box, as any other.
        guard state.tracer == nil else {
            records[index].box = makePropertyBox(animation.animation(spring), property: property)
            startIfDue(handle, at: time)
            return handle
        }
        // The record is the one just claimed: in range of both columns.
        ColumnPointer(status)[index].phase = .running
        ColumnPointer(records)[index].startTime = time
        // No start event is due: nothing observes it.
        // (Switches on the width, as ``makePropertyBox``, for the animation.)
        switch Self.width(of: Value.self) {
        case 1: startBare(animation, spring, slot: property.slot, lane: lane1, width: 1, handle, index: index)
        case 2: startBare(animation, spring, slot: property.slot, lane: lane2, width: 2, handle, index: index)
        default: startBare(animation, spring, slot: property.slot, lane: lane4, width: 4, handle, index: index)
        }
        // The first frame (rendered with the start) may finish it, and a
        // completion calls out.
        withCallbacks { completeIfAtRest(handle) }
        return handle
    }

    /// Starts bare spring `animation` of record `index` (`handle`) on `slot`
    /// of `lane`: joins its group and appends its element, quiet, as its box
    /// would; then renders its first frame into the quiet output
    /// (``renderFirstQuietFrame(_:lane:method:element:index:)``).
    private func startBare<Source: QuietSpringSource, Stored: AnimatableVector>(
        _ animation: borrowing Source, _ spring: (parameters: SpringParameters, method: SpringMethod),
        slot: PropertySlot, lane: Lane<Stored>, width: Int, _ handle: AnimationHandle, index: Int
    ) {
        let start = SpringStart<Stored>(animation, current: lane[slot: slot]) {
            propertyInfo(width: width, slot: slot).kind.defaultThreshold
        }
        let method = spring.method.index
        let group = shared.acquireSpringGroup(method: method, spring.parameters, threshold: start.threshold)
        let clamp = animation.clamp
        let element = lane.withSprings(method) { batch in
            batch.appendSpring(
                owner: handle, slot: slot, start, group: group, clamp: clamp, roundingFactor: 0, additive: false,
                wantsEvents: false, flags: ElementFlag.unwritten | ElementFlag.quiet)
        }
        // (Its status is new: not reached. The record is the one just
        // claimed: in range.)
        let status = ColumnPointer(self.status)
        status[index].spring = SpringElement(
            width: width, methodIndex: method, components: Source.Value.componentCount, observesReach: false)
        status[index].element = element
        lane.withSprings(method) {
            renderFirstQuietFrame($0, lane: lane, method: method, element: element.index, index: index)
        }
    }

    /// Renders the first frame of quiet spring element `element` of
    /// `batch` (method index `method`, record `index`) into the quiet
    /// output, as ``renderQuietSpring(_:index:width:)`` would, but in the
    /// batch at hand: the lane's dispatch, through the record's status,
    /// cost every add and replacement (docs/performance.md).
    @inline(__always)
    private func renderFirstQuietFrame<Stored: AnimatableVector>(
        _ batch: SpringBatch<Stored>, lane: Lane<Stored>, method: Int, element: Int, index: Int
    ) {
        if method == SpringMethod.pop.index {
            lane.withValues { batch.renderFirstPopFrame(element, values: $0, output: &outputs.quietOutput) }
        } else {
            lane.renderFirstSpringFrame(index, animator: self, output: &outputs.quietOutput)
        }
    }

    /// Restarts the quiet bare spring of record `index` as `animation`, a
    /// quiet spring with `parameters` on the same property (its handle
    /// `handle`), in its element: what its box's
    /// ``PropertyAnimationBox/restartQuietSpring(with:parameters:_:_:index:)``
    /// does, with no box to keep; then renders its first frame into the
    /// quiet output (``renderFirstQuietFrame(_:lane:method:element:index:)``).
    func restartBare<Source: QuietSpringSource, Stored: AnimatableVector>(
        _ animation: borrowing Source, parameters: SpringParameters, lane: Lane<Stored>, width: Int,
        _ handle: AnimationHandle, index: Int
    ) {
        let method = status[index].spring.method
        let element = status[index].element.index
        // Read through a pointer: a closure cannot capture a borrowed value
        // of a generic type, and one that captured a copy copied it.
        withUnsafePointer(to: animation) { animation in
            lane.withSprings(method) { batch in
                let slot = batch.common.slot[element]
                let start = SpringStart<Stored>(animation.pointee, current: lane[slot: slot]) {
                    propertyInfo(width: width, slot: slot).kind.defaultThreshold
                }
                let group = shared.rejoinSpringGroup(
                    method: method, batch.group(element), parameters, threshold: start.threshold)
                batch.restartQuiet(element, owner: handle, start, group: group, clamp: animation.pointee.clamp)
                renderFirstQuietFrame(batch, lane: lane, method: method, element: element, index: index)
            }
        }
    }

    /// The number of springs running bare, for tests. O(n).
    package var bareSpringCount: Int {
        (0 ..< records.count).count { status[$0].live && records[$0].box == nil }
    }

    /// Ends bare spring record `index` (`handle`), which nothing observes
    /// (no tracer), without a box: as its completion (`finished`: its exact
    /// target written) or its cancellation would, with no event to fire.
    func endBare(_ handle: AnimationHandle, index: Int, finished: Bool) {
        let spring = status[index].spring
        let element = status[index].element.index
        let moved = onLane(
            width: spring.width,
            RemoveSpring(element: element, method: spring.method, writingTarget: finished, tables: shared))
        if let moved, let movedIndex = liveIndex(moved) { status[movedIndex].element = ElementIndex(element) }
        status[index].spring = .none
        status[index].element = .none
        status[index].phase = .finished
        free(handle)
    }

    /// The box of live record `index`: a bare spring's is made now, from its
    /// element, and kept (``runsBare(_:life:)``); nil for a dead record.
    func box(_ index: Int) -> AnimationBox? {
        if let box = records[index].box { return box }
        guard status[index].live, status[index].spring != .none else { return nil }
        let spring = status[index].spring
        let box = onLane(width: spring.width, MakeBox(animator: self, index: index, spring: spring))
        records[index].box = box
        return box
    }

    private struct RemoveSpring: LaneOperation {
        let element: Int
        let method: Int
        let writingTarget: Bool
        let tables: SharedTables

        @inline(__always)
        func callAsFunction<V: AnimatableVector>(_ lane: Lane<V>, _: inout Void) -> AnimationHandle? {
            lane.removeSpring(element, method: method, writingTarget: writingTarget, tables: tables)
        }
    }

    private struct MakeBox: LaneOperation {
        let animator: Animator
        let index: Int
        let spring: SpringElement

        @inline(__always)
        func callAsFunction<V: AnimatableVector>(_ lane: Lane<V>, _: inout Void) -> AnimationBox {
            // The lane of 4 holds 3-vectors too.
            if V.componentCount == 4 && spring.hasThreeComponents {
                return animator.makeBox(SIMD3<Double>.self, lane: lane, width: 4, index: index)
            }
            return animator.makeBox(V.self, lane: lane, width: V.componentCount, index: index)
        }
    }

    /// A box of bare spring record `index` (its value type `Value`, its
    /// element in `lane`), as the spring's box would be after its start:
    /// its animation a spring of the element's group's parameters, from and
    /// to the element's ends, with its threshold and clamping.
    fileprivate func makeBox<Value: AnimatableVector, Stored: AnimatableVector>(
        _ type: Value.Type, lane: Lane<Stored>, width: Int, index: Int
    ) -> AnimationBox {
        let method = status[index].spring.method
        let element = status[index].element.index
        let (slot, from, to, threshold, clamp, group) = lane.withSprings(method) { batch in
            let common = batch.common
            return (
                common.slot[element], common.from[element], common.to[element], common.threshold[element],
                common.clamp[element], batch.group(element)
            )
        }
        var animation = Animation<Value>.spring(
            shared.springGroups[method].parameters(group), method: SpringMethod.allCases[method],
            from: Value(packed: from.packed), to: Value(packed: to.packed))
        animation.threshold = threshold
        animation.clamp = clamp
        let box = propertyBox(animation, slot: slot, lane: lane, width: width)
        unsafeDowncast(box, to: PropertyAnimationBox<Value, Stored>.self)
            .adoptRunningSpring(group: group, threshold: threshold, from: from, to: to)
        return box
    }
}

// A spring element's columns, reached through its record's status (the
// in-place check's two inlined: it runs on every replacement).
extension Animator {
    /// The flags of element `element` of `spring`'s batch.
    @inline(__always)
    func elementFlags(_ spring: SpringElement, _ element: Int) -> UInt8 {
        onLane(width: spring.width, ReadElement<FlagsField>(method: spring.method, element: element))
    }

    /// The slot that element `element` of `spring`'s batch writes.
    @inline(__always)
    func elementSlot(_ spring: SpringElement, _ element: Int) -> PropertySlot {
        onLane(width: spring.width, ReadElement<SlotField>(method: spring.method, element: element))
    }

    /// The group of element `element` of `spring`'s batch.
    func elementGroup(_ spring: SpringElement, _ element: Int) -> GroupIndex {
        onLane(width: spring.width, ReadElement<GroupField>(method: spring.method, element: element))
    }

    /// One field of a spring element, read in a batch of any width.
    private struct ReadElement<Field: SpringElementField>: LaneOperation {
        let method: Int
        let element: Int

        @inline(__always)
        func callAsFunction<V: AnimatableVector>(_ lane: Lane<V>, _: inout Void) -> Field.Value {
            lane.withSprings(method) { Field.read($0, element) }
        }
    }
}

/// A field of a spring batch's elements (a column of any width's batch).
private protocol SpringElementField {
    associatedtype Value
    static func read<V: AnimatableVector>(_ batch: SpringBatch<V>, _ element: Int) -> Value
}

private enum FlagsField: SpringElementField {
    static func read<V: AnimatableVector>(_ batch: SpringBatch<V>, _ element: Int) -> UInt8 {
        batch.common.flags[element]
    }
}

private enum SlotField: SpringElementField {
    static func read<V: AnimatableVector>(_ batch: SpringBatch<V>, _ element: Int) -> PropertySlot {
        batch.common.slot[element]
    }
}

private enum GroupField: SpringElementField {
    static func read<V: AnimatableVector>(_ batch: SpringBatch<V>, _ element: Int) -> GroupIndex {
        batch.group(element)
    }
}
