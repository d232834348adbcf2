/// The animator's structure-of-arrays batches driven directly: no registry,
/// no records, no callbacks, no events. This is the floor the animator's
/// bookkeeping is measured against (the `batch` engine of `kinetics bench`),
/// so it runs exactly the per-frame code the animator runs.
///
/// Elements have stable ids; a finished element is removed at once
/// (swap-remove) and reported.
package final class BatchSet: UncheckedState<BatchSet.State> {
    private let scalars = Lane<Double>()
    private let points = Lane<SIMD2<Double>>()
    private let shared = SharedTables()
    package struct State {
        var output = FrameOutput()
        /// The time of the last frame.
        var time = 0.0
        /// Per element id: where it is (kind, batch index), or nil once removed.
        var positions: [Position?] = []
        var freeIDs: [RecordIndex] = []
    }
    /// The time of the last frame.
    package var time: Double { state.time }

    package struct Position {
        var kind: ElementKind
        var points: Bool
        var index: ElementIndex
    }

    package init() {
        super.init(State())
        state.output.events.reserveCapacity(1_024)
        state.output.finished.reserveCapacity(1_024)
        state.output.collectsQuiet = true
    }

    /// The number of elements.
    package var count: Int { scalars.animationCount + points.animationCount }

    /// A new scalar property; returns its slot.
    package func addProperty(_ initial: Double) -> PropertySlot {
        scalars.values.append(initial)
        return PropertySlot(scalars.values.count - 1)
    }

    /// A new point property; returns its slot.
    package func addProperty(_ initial: SIMD2<Double>) -> PropertySlot {
        points.values.append(initial)
        return PropertySlot(points.values.count - 1)
    }

    /// The value of scalar property `slot`.
    package func value(_ slot: PropertySlot) -> Double { scalars[slot: slot] }

    /// The value of point property `slot`.
    package func point(_ slot: PropertySlot) -> SIMD2<Double> { points[slot: slot] }

    private func newID() -> RecordIndex {
        if let id = state.freeIDs.popLast() { return id }
        let capacity = state.positions.capacity
        state.positions.append(nil)
        // What grows with the ids grows when they do (each call retains
        // and releases what it reaches).
        if state.positions.capacity != capacity {
            state.output.reserveQuiet(state.positions.capacity)
            state.freeIDs.reserveCapacity(state.positions.capacity)
        }
        return RecordIndex(state.positions.count - 1)
    }

    /// Makes room for `count` elements in all, any of them springs of
    /// `method` (on scalar properties, and on point properties when
    /// `points`) made before this call, and for `settings` new groups of
    /// that method: adding them allocates nothing
    /// (``Animator/reserveCapacity(_:springsOf:method:settings:)``).
    package func reserveSprings(_ count: Int, method: SpringMethod, points withPoints: Bool, settings: Int = 16) {
        state.positions.reserveCapacity(count)
        state.output.reserveQuiet(state.positions.capacity)
        state.freeIDs.reserveCapacity(state.positions.capacity)
        scalars.reserveSprings(count, method: method.index, settings: settings, tables: shared)
        if withPoints { points.reserveSprings(count, method: method.index, settings: settings, tables: shared) }
    }

    /// Appends the common columns of a new element and records where it is.
    private func appendCommon<V: AnimatableVector>(
        _ common: ElementColumns<V>, id: RecordIndex, kind: ElementKind, slot: PropertySlot, from: V, to: V,
        threshold: Double
    ) {
        state.positions[id.index] = Position(
            kind: kind, points: V.componentCount != 1, index: ElementIndex(common.count))
        common.append(
            owner: AnimationHandle(record: id, generation: 0), slot: slot, from: from, to: to, clamp: [],
            roundingFactor: 0, additive: false, threshold: threshold, wantsEvents: false,
            // Nothing here observes an end: every element finishes quietly.
            flags: ElementFlag.quiet)
    }

    private func lane<V: AnimatableVector>(_ type: V.Type) -> Lane<V> {
        V.componentCount == 1 ? scalars as! Lane<V> : points as! Lane<V>
    }

    /// A spring on scalar property `slot`; returns its id.
    @discardableResult
    package func addSpring(
        slot: PropertySlot, from: Double, to: Double, velocity: Double, parameters: SpringParameters,
        method: SpringMethod,
        threshold: Double
    ) -> RecordIndex {
        appendSpring(
            slot: slot, from: from, to: to, velocity: velocity, parameters: parameters, method: method,
            threshold: threshold)
    }

    /// A spring on point property `slot`; returns its id.
    @discardableResult
    package func addSpring(
        slot: PropertySlot, from: SIMD2<Double>, to: SIMD2<Double>, velocity: SIMD2<Double>,
        parameters: SpringParameters,
        method: SpringMethod, threshold: Double
    ) -> RecordIndex {
        appendSpring(
            slot: slot, from: from, to: to, velocity: velocity, parameters: parameters, method: method,
            threshold: threshold)
    }

    // Generic, but only called with concrete types (so specialised where it
    // is compiled): an unspecialised call would look up the metadata of
    // every generic type it touches.
    private func appendSpring<V: AnimatableVector>(
        slot: PropertySlot, from: V, to: V, velocity: V, parameters: SpringParameters, method: SpringMethod,
        threshold: Double
    ) -> RecordIndex {
        let id = newID()
        let group = shared.acquireSpringGroup(method: method.index, parameters, threshold: threshold)
        lane(V.self).withSprings(method.index) { batch in
            batch.appendState(
                value: from, to: to, velocity: velocity, group: group, slot: slot, threshold: threshold)
            appendCommon(
                batch.common, id: id, kind: .spring(method), slot: slot, from: from, to: to, threshold: threshold)
            batch.common.setFlag(batch.count - 1, ElementFlag.unwritten, true)
        }
        return id
    }

    /// A decay on scalar property `slot`; returns its id.
    @discardableResult
    package func addDecay(
        slot: PropertySlot, from: Double, velocity: Double, deceleration: DecayParameters, method: DecayMethod,
        threshold: Double
    ) -> RecordIndex {
        let id = newID()
        let end = deceleration.endValue(from: from, velocity: velocity, threshold: threshold, method: method)
        let batch = scalars.decays[method.index]
        batch.state.append(
            DecayState(
                value: from, velocity: velocity, configuration: shared.decays.acquire(deceleration.deceleration, method)
            ))
        appendCommon(batch.common, id: id, kind: .decay(method), slot: slot, from: from, to: end, threshold: threshold)
        return id
    }

    /// A basic animation on scalar property `slot`, starting now; returns its id.
    @discardableResult
    package func addBasic(
        slot: PropertySlot, from: Double, to: Double, duration: Double, timing: TimingFunction, bezier: BezierMethod
    ) -> RecordIndex {
        let id = newID()
        scalars.basics.state.append(
            BasicState(
                span: TimedSpan(start: state.time, duration: duration),
                timing: shared.timings.acquire(timing, bezier: bezier, duration: duration)))
        appendCommon(scalars.basics.common, id: id, kind: .basic, slot: slot, from: from, to: to, threshold: 0.01)
        return id
    }

    /// A keyframe animation on scalar property `slot`, starting now; returns its id.
    @discardableResult
    package func addKeyframes(slot: PropertySlot, _ keyframes: Keyframes<Double>) -> RecordIndex {
        let id = newID()
        let track = scalars.tracks.acquire(keyframes, reversed: false, timings: shared.timings)
        scalars.keyframes.state.append(
            KeyframeState(span: TimedSpan(start: state.time, duration: keyframes.duration), track: track))
        appendCommon(
            scalars.keyframes.common, id: id, kind: .keyframe, slot: slot, from: keyframes.values[0],
            to: keyframes.values[keyframes.values.count - 1], threshold: 0.01)
        return id
    }

    /// Removes element `id` (swap-remove); does nothing if it is gone.
    package func remove(_ id: RecordIndex) {
        guard !id.isNone, id.index < state.positions.count, let position = state.positions[id.index] else { return }
        let index = position.index.index
        let moved: AnimationHandle?
        if position.points {
            moved = remove(kind: position.kind, at: index, from: points)
        } else {
            moved = remove(kind: position.kind, at: index, from: scalars)
        }
        if let moved { state.positions[moved.record.index]?.index = position.index }
        state.positions[id.index] = nil
        state.freeIDs.append(id)
    }

    private func remove<V: AnimatableVector>(kind: ElementKind, at index: Int, from lane: Lane<V>) -> AnimationHandle? {
        switch kind {
        case .spring(let method):
            return lane.withSprings(method.index) { batch in
                shared.releaseSpringGroup(method: method.index, batch.group(index))
                return batch.remove(at: index)
            }
        case .decay(let method):
            let batch = lane.decays[method.index]
            shared.decays.release(batch.state[index].configuration)
            return batch.remove(at: index)
        case .basic:
            shared.timings.release(lane.basics.state[index].timing)
            return lane.basics.remove(at: index)
        case .keyframe:
            lane.tracks.release(lane.keyframes.state[index].track, timings: shared.timings)
            return lane.keyframes.remove(at: index)
        case .custom: return lane.customs.remove(at: index)
        }
    }

    /// Advances every element to `time`; finished elements are removed (by
    /// their batches, as the animator's quiet animations are). Returns how
    /// many finished.
    @discardableResult
    package func advance(to time: Double) -> Int {
        let dt = time - state.time
        guard dt > 0 else { return 0 }
        state.time = time
        state.output.reset()
        shared.prepare(dt: dt)
        let context = FrameContext(time: time, dt: dt)
        scalars.advance(context, shared: shared, output: &state.output)
        points.advance(context, shared: shared, output: &state.output)
        precondition(state.output.finished.isEmpty, "every element of a batch set is quiet")
        let quiet = state.output.quiet
        let moved = state.output.moved
        state.positions.withUnsafeMutableBufferPointer { positions in
            for element in moved.elements { positions[element.owner.record.index]?.index = element.element }
            for record in quiet.elements { positions[record.index] = nil }
        }
        state.freeIDs.append(contentsOf: quiet.elements)
        return quiet.count
    }

    /// Moves the spring `id`'s target, keeping its value and velocity; a
    /// point spring's target is `(target, target)`.
    package func retarget(_ id: RecordIndex, to target: Double) {
        guard !id.isNone, id.index < state.positions.count, let position = state.positions[id.index],
            case .spring(let method) = position.kind
        else { return }
        if position.points {
            points.withSprings(method.index) { $0.retarget(position.index.index, to: SIMD2(target, target)) }
        } else {
            scalars.withSprings(method.index) { $0.retarget(position.index.index, to: target) }
        }
    }

    /// The bytes one element of a kind touches in a frame: the strides of
    /// every column the frame reads or writes for it, its property value
    /// included. The calibration kernel of `kinetics bench` streams the same
    /// number of bytes.
    package static func bytesPerElement(_ kind: ElementKind, points: Bool) -> Int {
        func size<V: AnimatableVector>(_ type: V.Type) -> Int {
            let value = MemoryLayout<V>.stride
            // Read every frame: slot, to, previous, threshold (a spring's is
            // its group's), flags; plus the property value written.
            let common = 4 + value + value + 8 + 1 + value
            switch kind {
            case .spring(let method):
                // A spring reads neither a threshold (its group has it) nor
                // a previous value (it is derived from the state). Its own:
                // displacement, velocity, group; pop adds a byte (whether
                // the slope passes its part of the rest test), fixed
                // the blended output. Scalar springs stepped in pairs (all
                // but fixed ones) read a group only where one starts
                // (``ElementFlag/groupStart``): not per spring.
                let group = V.componentCount == 1 && method != .fixed ? 0 : 4
                let own = common - 8 - value + 2 * value + group
                switch method {
                case .pop: return own + 1
                case .fixed: return own + 2 * value
                case .rk4, .analytic: return own
                }
            case .decay:  // its state (value, velocity, configuration); from for the end clamp
                return common + MemoryLayout<DecayState<V>>.stride + value
            case .basic:  // its state (start, duration, timing); from
                return common + MemoryLayout<BasicState>.stride + value
            // keyframe: its state (start, duration, track, cursor); two values
            // and two key times of the track. A custom element's closure
            // reads what it likes; it is counted as a keyframe.
            case .keyframe, .custom:
                return common + MemoryLayout<KeyframeState>.stride + 2 * value + 2 * 8
            }
        }
        return points ? size(SIMD2<Double>.self) : size(Double.self)
    }
}
