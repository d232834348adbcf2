/// The springs of one lane that share a method, in structure-of-arrays form.
///
/// State is the displacement from the target and the velocity (for `fixed`,
/// the grid state below the current time). Each spring belongs to a
/// ``SpringGroups`` group whose frame (a few 2×2 matrices, computed once
/// per tick) maps its state to the next; ``SpringStepper`` does the same
/// steps one at a time and is the reference this path is tested against.
final class SpringBatch<V: AnimatableVector>: ElementBatch {
    let method: SpringMethod
    let common = ElementColumns<V>()
    /// The state, displacement and velocity in columns of their own: two
    /// neighbouring scalar springs' displacements are one 16-byte load, as
    /// are their velocities (the straight path's pairs).
    let displacement = Column<V>()
    let velocity = Column<V>()
    /// Each spring's group: read through ``group(_:)``, written through
    /// ``setGroup(_:to:)`` (and the state's start and restart), which keep
    /// the springs' ``ElementFlag/groupStart`` set where it must be.
    let group = Column<GroupIndex>()
    /// `pop`: whether the last step's velocity slope passes its part of
    /// Pop's solver test (``SpringGroups/Frame/slopeSettled(_:kept:keeps:)``),
    /// for that test in a frame that takes no step: a byte where the slope
    /// took a value's width (a scalar spring's 45 bytes a frame become 38).
    ///
    /// Right wherever it can be read: the test reads it only when the
    /// velocity passes its own part (`25·t` squared) first, and neither a
    /// frame with no step nor a retarget changes the velocity, so a step
    /// that leaves a spring faster than that may leave the answer as it
    /// was (the scalar and point paths do; the others always write it).
    let slopeSettled = Column<Bool>()
    /// `fixed`: the blended output.
    let outputValue = Column<V>()
    let outputVelocity = Column<V>()

    /// `pop`: the frame of length 0 for the last new spring's rest threshold
    /// (``SpringGroups/immediatePopFrame(threshold:)``), kept for the next
    /// new spring's first frame: springs added together mostly share a
    /// threshold, and the frame is 256 bytes to fill.
    let firstFrame = Column<SpringGroups.Frame>(capacity: 1)

    /// The springs from here on were appended since the last tick's
    /// advance, which groups them (``groupNewSprings(output:)``).
    var groupedCount = 0
    /// The springs from here on may have a wrong ``ElementFlag/groupStart``
    /// (an operation on the columns moved springs); the next tick's advance
    /// sets theirs (``markGroupStarts()``).
    var groupStartsStale = 0
    /// Its scratch holds a tail of the widest column: the values, or the
    /// owners (8 bytes).
    let tailGrouping = TailGrouping(
        largestStride: max(MemoryLayout<V>.stride, MemoryLayout<AnimationHandle>.stride, 8))

    init(method: SpringMethod) {
        self.method = method
        firstFrame.append(SpringGroups.Frame())
    }

    /// Appends a spring at `value` with `velocity` in `group`, which will
    /// write `slot`; its common columns are appended by the caller through
    /// ``common``.
    func appendState(
        value: V, to target: V, velocity initial: V, group index: GroupIndex, slot: PropertySlot, threshold: Double
    ) {
        groupedCount = min(groupedCount, displacement.count)
        tailGrouping.reserve(elements: displacement.count - groupedCount + 1, slot: slot.index)
        tailGrouping.reserve(group: index.index)
        // The columns grow together, as the common ones do
        // (``ElementColumns/append``).
        if displacement.count == displacement.capacity { reserveColumns(Swift.max(16, 2 * displacement.count)) }
        // Each column gets the spring's value once, as ``restartState`` writes it.
        displacement.appendWithinCapacity(value - target)
        velocity.appendWithinCapacity(initial)
        group.appendWithinCapacity(index)
        switch method {
        case .pop:
            slopeSettled.appendWithinCapacity(Self.startsSettled(threshold))
        case .fixed:
            outputValue.appendWithinCapacity(value)
            outputVelocity.appendWithinCapacity(initial)
        case .rk4, .analytic:
            break
        }
    }

    /// Makes room for `count` springs in all, writing properties of slots
    /// below `slots`, in groups of index below `groups`: appending up to
    /// that many, grouping them in one tick and finishing them in one
    /// allocates nothing.
    func reserve(_ count: Int, slots: Int, groups: Int) {
        reserveColumns(count)
        common.reserve(count)
        tailGrouping.reserve(elements: count, slot: slots - 1)
        tailGrouping.reserve(group: groups - 1)
    }

    /// Makes element `element` a spring at `value` with `velocity` in
    /// `group`, as ``appendState`` makes a new one.
    ///
    /// One bounds check for the columns it writes (they have the same
    /// count), then their pointers, which check in debug builds.
    func restartState(
        _ element: Int, value: V, to target: V, velocity initial: V, group index: GroupIndex, threshold: Double
    ) {
        precondition(
            UInt(bitPattern: element) < UInt(bitPattern: displacement.count),
            "spring element \(element) out of 0..<\(displacement.count)")
        tailGrouping.reserve(group: index.index)
        ColumnPointer(displacement)[element] = value - target
        ColumnPointer(velocity)[element] = initial
        let groups = ColumnPointer(group)
        if groups[element] != index {
            groups[element] = index
            markGroupStarts(around: element)
        }
        switch method {
        case .pop:
            ColumnPointer(slopeSettled)[element] = Self.startsSettled(threshold)
        case .fixed:
            ColumnPointer(outputValue)[element] = value
            ColumnPointer(outputVelocity)[element] = initial
        case .rk4, .analytic:
            break
        }
    }

    /// Appends the element of `owner`'s spring, which writes `slot`, from
    /// `start` in `group`, with the given settings and `flags` set beyond
    /// those the settings imply; returns its index.
    func appendSpring(
        owner: AnimationHandle, slot: PropertySlot, _ start: SpringStart<V>, group index: GroupIndex, clamp: ClampMode,
        roundingFactor: Double, additive: Bool, wantsEvents: Bool, flags: UInt8
    ) -> ElementIndex {
        appendState(
            value: start.from, to: start.to, velocity: start.velocity, group: index, slot: slot,
            threshold: start.threshold)
        let element = common.count
        common.append(
            owner: owner, slot: slot, from: start.from, to: start.to, clamp: clamp, roundingFactor: roundingFactor,
            additive: additive, threshold: start.threshold, wantsEvents: wantsEvents, flags: flags)
        return ElementIndex(element)
    }

    /// Makes quiet element `element` (its slot kept) the new run of
    /// `owner`, a quiet spring from `start` in `group`, as removing it and
    /// ``appendSpring`` would.
    @inline(__always)
    func restartQuiet(
        _ element: Int, owner: AnimationHandle, _ start: SpringStart<V>, group index: GroupIndex, clamp: ClampMode
    ) {
        restartState(
            element, value: start.from, to: start.to, velocity: start.velocity, group: index,
            threshold: start.threshold)
        common.restart(
            element, owner: owner, from: start.from, to: start.to, clamp: clamp, roundingFactor: 0, additive: false,
            threshold: start.threshold, wantsEvents: false, flags: ElementFlag.unwritten | ElementFlag.quiet)
    }

    /// The group of element `element`.
    @inline(__always)
    func group(_ element: Int) -> GroupIndex { group[element] }

    /// ``slopeSettled`` of a spring that has taken no step, whose slope is
    /// zero (Pop's solver starts so), with rest threshold `threshold`.
    @inline(__always)
    static func startsSettled(_ threshold: Double) -> Bool {
        V.zero.squaredNorm < PopRestTest.Bounds(threshold).slopeSquared
    }

    /// Moves element `element` to group `index` (its state unchanged).
    func setGroup(_ element: Int, to index: GroupIndex) {
        group[element] = index
        markGroupStarts(around: element)
    }

    /// The columns this spring's method uses (the others stay empty).
    func forEachColumn<Operation: ColumnOperation>(_ operation: Operation) {
        // Each operation that moves the batch's springs moves its groups.
        groupStartsStale = Swift.min(groupStartsStale, operation.firstChanged)
        operation.apply(to: displacement)
        operation.apply(to: velocity)
        operation.apply(to: group)
        switch method {
        case .pop:
            operation.apply(to: slopeSettled)
        case .fixed:
            operation.apply(to: outputValue)
            operation.apply(to: outputVelocity)
        case .rk4, .analytic:
            break
        }
    }

    /// Completes the quiet springs that finished in this advance
    /// (``ElementColumns/finishQuietly``), leaving their groups.
    func finishQuietly(_ groups: SpringGroups, configurations: SpringConfigurations, output: inout FrameOutput) {
        finishQuietly(
            output: &output, entry: { group.pointer[$0] },
            release: { entry, users in groups.release(entry, count: users, configurations: configurations) })
    }

    /// The current value of element `index`.
    @inline(__always)
    func value(_ index: Int) -> V {
        method == .fixed ? outputValue[index] : common.to[index] + displacement[index]
    }

    /// The current velocity of element `index`.
    func currentVelocity(_ index: Int) -> V {
        method == .fixed ? outputVelocity[index] : velocity[index]
    }

    /// A new target: the state moves with it, so value and velocity do not
    /// jump, and the run starts again from the current value (Pop's `from`,
    /// for progress and clamping).
    ///
    /// One bounds check for the three columns it writes (a batch's columns
    /// have its count: the displacements' is the one at hand), then their
    /// pointers, which check in debug builds: each column's own subscript
    /// would check again.
    @inline(__always)
    func retarget(_ index: Int, to target: V) {
        let count = displacement.count
        precondition(UInt(bitPattern: index) < UInt(bitPattern: count), "spring element \(index) out of 0..<\(count)")
        let to = ColumnPointer(common.to)
        let from = ColumnPointer(common.from)
        let displacements = ColumnPointer(displacement)
        let old = to[index]
        let displacement = displacements[index]
        // ``value(_:)``, from what was read.
        let current = method == .fixed ? outputValue[index] : old + displacement
        displacements[index] = displacement + (old - target)
        to[index] = target
        from[index] = current
    }

    /// Makes element `index` report frame events again (after a retarget:
    /// its reached-to-value callback or a tracer waits for the new target).
    func armEvents(_ index: Int) {
        common.flags[index] |= ElementFlag.wantsEvents
    }

    /// The batch's columns as raw pointers, read once per frame so that the
    /// loop touches no class property.
    struct Pointers {
        let displacement: ColumnPointer<V>
        let velocity: ColumnPointer<V>
        let group: ColumnPointer<GroupIndex>
        let slopeSettled: ColumnPointer<Bool>
        let outputValue: ColumnPointer<V>
        let outputVelocity: ColumnPointer<V>
        let common: ElementColumns<V>.Pointers

        @inline(__always)
        init(_ batch: SpringBatch) {
            displacement = ColumnPointer(batch.displacement)
            velocity = ColumnPointer(batch.velocity)
            group = ColumnPointer(batch.group)
            slopeSettled = ColumnPointer(batch.slopeSettled)
            outputValue = ColumnPointer(batch.outputValue)
            outputVelocity = ColumnPointer(batch.outputVelocity)
            common = ElementColumns.Pointers(batch.common)
        }
    }

    /// The first frame (length 0) of `pop` element `index`, which a new
    /// spring renders at once: with its group's frame of length 0, which
    /// needs only the element's threshold (its group's), so that the group
    /// table is not read.
    func renderFirstPopFrame(_ index: Int, values: ColumnPointer<V>, output: inout FrameOutput) {
        precondition(method == .pop, "a \(method) spring's first frame needs its group's")
        let threshold = common.threshold[index]
        if threshold != firstFrame.pointer[0].threshold {
            firstFrame[0] = SpringGroups.immediatePopFrame(threshold: threshold)
        }
        let bits = common.flags[index]
        // Two tests of the byte in memory, where one masked copy would take
        // three instructions: an add's spring starts no group yet (its tail
        // is grouped at the next tick), a replacement's may.
        let started = ElementFlag.quiet | ElementFlag.unwritten
        guard bits == started || bits == started | ElementFlag.groupStart else {
            advanceElement(index, Pointers(self), frame: firstFrame.pointer.address(0), values: values, output: &output)
            return
        }
        // A quiet spring just started (every add and replacement of one):
        // what the general path does for an element with no flag but these
        // two, in its order of operations, without its tests and the
        // batch's pointers. (The flags' subscript checked the index; the
        // columns have the same count, and their pointers check in debug
        // builds.)
        let f = firstFrame.pointer.address(0)
        let displacements = ColumnPointer(displacement)
        let velocities = ColumnPointer(velocity)
        let settled = ColumnPointer(slopeSettled)
        let d0 = displacements[index]
        let v0 = velocities[index]
        let target = ColumnPointer(common.to)[index]
        let step = f.pointee.step(displacement: d0, velocity: v0, blendsOutput: false)
        let slopeSettled = f.pointee.slopeSettled(step.slope, kept: settled[index], keeps: true)
        displacements[index] = step.state.displacement
        velocities[index] = step.state.velocity
        settled[index] = slopeSettled
        let current = target + step.displacement
        ColumnPointer(common.flags)[index] &= ~ElementFlag.unwritten
        values[ColumnPointer(common.slot)[index].index] = current
        if Self.atRest(
            before: .unwritten, current: current, target: target, velocity: step.velocity,
            slopeSettled: slopeSettled, f)
        {
            common.reportFinished(index, bits: bits, values: values, output: &output)
        }
    }

    /// One element's frame with its group's `frame` (also the immediate
    /// first frame of a new animation, with the group's frame of length 0),
    /// honouring clamping, rounding, additive writes and events.
    func advanceOne(_ index: Int, frame: SpringGroups.Frame, values: ColumnPointer<V>, output: inout FrameOutput) {
        var frame = frame
        advanceElement(index, Pointers(self), frame: &frame, values: values, output: &output)
    }

    func advanceElement(
        _ index: Int, _ p: Pointers, frame f: UnsafeMutablePointer<SpringGroups.Frame>, values: ColumnPointer<V>,
        output: inout FrameOutput
    ) {
        let d0 = p.displacement[index]
        let v0 = p.velocity[index]
        let target = p.common.to[index]
        let step = f.pointee.step(displacement: d0, velocity: v0, blendsOutput: method == .fixed)
        var d = step.state.displacement
        let v = step.state.velocity
        var outD = step.displacement
        let outV = step.velocity
        let restSlope = f.pointee.slopeSettled(step.slope, kept: p.slopeSettled[index], keeps: method == .pop)
        if method == .pop { p.slopeSettled[index] = restSlope }
        var current = target + outD
        let bits = p.common.flags[index]
        // Pop clamps the state itself: a clamped spring restarts from the bound.
        if bits & ElementFlag.clamps != 0 {
            let clamped = common.clamped(index, current)
            if clamped != current {
                current = clamped
                outD = current - target
                if method != .fixed { d = outD }
            }
        }
        p.displacement[index] = d
        p.velocity[index] = v
        // The value written last frame (see ``advance(_:values:output:)``).
        var before = method == .fixed ? p.outputValue[index] : target + d0
        if bits & ElementFlag.unwritten != 0 {
            before = .unwritten
            p.common.flags[index] = bits & ~ElementFlag.unwritten
        }
        if method == .fixed {
            p.outputValue[index] = current
            p.outputVelocity[index] = outV
        }
        let done: Bool
        if bits & (ElementFlag.rounds | ElementFlag.additive) != 0 {
            done =
                common.writeSpecial(index, current, into: values)
                || Self.solverSettled(current - target, outV, slopeSettled: restSlope, f)
        } else {
            values[p.common.slot[index].index] = current
            done = Self.atRest(
                before: before, current: current, target: target, velocity: outV, slopeSettled: restSlope, f)
        }
        common.report(index, done: done, flags: bits, owner: p.common.owner, values: values, output: &output)
    }

    /// The solver's rest test alone.
    @inline(__always)
    static func solverSettled(
        _ displacement: V, _ velocity: V, slopeSettled: Bool, _ f: UnsafeMutablePointer<SpringGroups.Frame>
    ) -> Bool {
        PopRestTest.solverHasConverged(
            displacement: displacement, velocity: velocity, slopeSettled: slopeSettled,
            bounds: PopRestTest.Bounds(
                position: f.pointee.positionBound, velocitySquared: f.pointee.velocityBound,
                slopeSquared: f.pointee.slopeBound, animation: f.pointee.restBound))
    }
}

/// A spring's displacement from its target and its velocity.
/// Where a spring's run starts: its ends and velocity resolved against the
/// property's current value, and its rest threshold.
struct SpringStart<V: AnimatableVector> {
    var from: V
    var to: V
    var velocity: V
    var threshold: Double

    init(from: V, to: V, velocity: V, threshold: Double) {
        self.from = from
        self.to = to
        self.velocity = velocity
        self.threshold = threshold
    }

    /// The start of `animation` on a property whose value is `current`:
    /// its missing ends are the current value, a missing velocity zero, a
    /// missing threshold `defaultThreshold()` (the property kind's).
    @inline(__always)
    init<Source: QuietSpringSource>(
        _ animation: borrowing Source, current: V, defaultThreshold: () -> Double
    ) {
        from = animation.packedFrom.map { V(packed: $0) } ?? current
        to = animation.packedTo.map { V(packed: $0) } ?? current
        velocity = animation.packedVelocity.map { V(packed: $0) } ?? .zero
        threshold = animation.threshold ?? defaultThreshold()
    }
}

struct SpringState<V: AnimatableVector> {
    var displacement: V
    var velocity: V
}

extension SpringBatch where V == Double {
    /// The straight step of scalar springs `index` and `index + 1`, of the
    /// group whose law is `f`, two at a time: their displacements in one
    /// SIMD register and their velocities in another. Unless either is
    /// near its target (``isNear``) or, where the path stores a slope's
    /// answer, slow enough for the answer to be read (``slopeSettled``), it
    /// stores their states and values and returns true; else it writes
    /// nothing and returns false (the straight step then takes them one at
    /// a time, and stores the answers).
    ///
    /// The one second copy of the law of
    /// ``SpringGroups/Frame/step(displacement:velocity:blendsOutput:)``,
    /// for the paths that neither blend an output nor keep a slope: each
    /// lane does that step's products and sums in its order, so the
    /// results are identical. `ScalarPathTests` holds every value and every
    /// end equal to those of the generic step (a 2-vector lane, whose
    /// components take it) for every method, with springs of one group side
    /// by side and springs of groups of their own.
    ///
    /// With `four`, springs `index` to `index + 3`, all of the group: two
    /// pairs, whose tests make one branch; unless any of the four is near
    /// its target or slow, it stores both pairs and returns true, else it
    /// writes nothing and returns false.
    @inline(__always)
    static func pairStep<Path: StraightPath>(
        _ index: Int, _ f: SpringGroups.PairLaw, _ p: Pointers,
        values: ColumnPointer<Double>, _ path: Path.Type, four: Bool
    ) -> Bool {
        let first = PairMove(index, f, p, path)
        guard four else {
            guard PairMove.isFar(first.reach(within: first.distance, f, path), f) else { return false }
            first.store(index, p, values: values)
            return true
        }
        let second = PairMove(index &+ 2, f, p, path)
        let distance = PairMove.minimum(first.distance, second.distance)
        let reach = second.reach(within: first.reach(within: distance, f, path), f, path)
        guard PairMove.isFar(reach, f) else { return false }
        first.store(index, p, values: values)
        second.store(index &+ 2, p, values: values)
        return true
    }

    /// Two neighbouring scalar springs' step, computed but not stored, and
    /// how far it is from needing the step one at a time.
    struct PairMove {
        /// The springs' states after the step.
        let state: SpringState<SIMD2<Double>>
        /// The values they write.
        let value: SIMD2<Double>
        /// Each lane's distance from its target, squared (`(target -
        /// value)²`, whose difference is the negation of `value - target`
        /// exactly, rounding being symmetric).
        let distance: SIMD2<Double>
        /// Each lane's velocity squared, as the rest test rounds it.
        let speed: SIMD2<Double>

        @inline(__always)
        init<Path: StraightPath>(
            _ index: Int, _ f: SpringGroups.PairLaw, _ p: Pointers, _: Path.Type
        ) {
            let d = p.displacement.pair(index)
            let v = p.velocity.pair(index)
            let displacement = d * f.dd + v * f.dv
            let velocity = d * f.vd + v * f.vv
            state = SpringState(displacement: displacement, velocity: velocity)
            let target = p.common.to.pair(index)
            value = target + displacement
            // The target's register takes the difference: the value is
            // not copied. Squares, not magnitudes: no mask to hold.
            let offset = target - value
            distance = offset * offset
            speed = velocity * velocity
        }

        /// `reach` with this pair's squared speeds folded in where the path
        /// stores a slope's answer: each scaled to the squared near bound
        /// (``SpringGroups/PairLaw/speedScale``), under it where the spring
        /// is slow enough for its answer to be read (``slopeSettled``).
        /// Folded into each lane's squared distance, the lane is under the
        /// squared near bound where its spring is near its target
        /// (``isNear``) or slow; either leaves the springs to the step one
        /// at a time.
        @inline(__always)
        func reach<Path: StraightPath>(within reach: SIMD2<Double>, _ f: SpringGroups.PairLaw, _: Path.Type)
            -> SIMD2<Double>
        {
            Path.storesSlope ? Self.minimum(speed * f.speedScale, reach) : reach
        }

        /// Whether both lanes of `reach` are at the squared near bound or
        /// beyond (a NaN lane is not).
        @inline(__always)
        static func isFar(_ reach: SIMD2<Double>, _ f: SpringGroups.PairLaw) -> Bool {
            reach[0] >= f.nearSquared && reach[1] >= f.nearSquared
        }

        /// Stores the springs' states and writes their values.
        @inline(__always)
        func store(_ index: Int, _ p: Pointers, values: ColumnPointer<Double>) {
            p.displacement.setPair(index, state.displacement)
            p.velocity.setPair(index, state.velocity)
            values[p.common.slot[index].index] = value[0]
            values[p.common.slot[index &+ 1].index] = value[1]
        }

        /// The lanes' minima as `minpd` makes them: `a`'s lane where it is
        /// the smaller, else `b`'s, so a NaN in `b` is kept and one in `a`
        /// dropped. The pair tests pass each new vector as `a` and what
        /// they have folded so far as `b`: a NaN that took the place of a
        /// near or slow lane is kept to the end, where ``isFar`` fails on
        /// it, and a NaN of a spring's own may pass (its spring is at rest
        /// neither way, and what is stored is what the step one at a time
        /// stores).
        @inline(__always)
        static func minimum(_ a: SIMD2<Double>, _ b: SIMD2<Double>) -> SIMD2<Double> {
            b.replacing(with: a, where: a .< b)
        }
    }
}

/// What a method's straight path does besides the state's map, fixed when
/// the path is specialised for it (so each method's loop tests none of it);
/// each is false unless a path says otherwise.
protocol StraightPath {
    /// Adds `keep` times the stored slope to the rest test's slope (Pop, in
    /// a frame where some group takes no step).
    static var keepsSlope: Bool { get }
    /// Stores the rest test's slope (Pop).
    static var storesSlope: Bool { get }
    /// Writes the blend between grid states, not the state (`fixed`).
    static var blendsOutput: Bool { get }
    /// Steps scalar springs two at a time (``SpringBatch`` `pairStep`):
    /// those paths that neither keep a slope nor blend an output.
    static var stepsInPairs: Bool { get }
}

extension StraightPath {
    static var keepsSlope: Bool { false }
    static var storesSlope: Bool { false }
    static var blendsOutput: Bool { false }
    static var stepsInPairs: Bool { !keepsSlope && !blendsOutput }
}

/// `pop` in a frame where some group takes no step.
enum PopKeepingSlope: StraightPath {
    static var keepsSlope: Bool { true }
    static var storesSlope: Bool { true }
}

/// `pop` in a frame where every group steps.
enum PopStepping: StraightPath {
    static var storesSlope: Bool { true }
}

/// `fixed`: the grid's state, and a blend of it written.
enum FixedGrid: StraightPath {
    static var blendsOutput: Bool { true }
}

/// `rk4` and `analytic`: the state is what is written.
enum ExactMap: StraightPath {}
