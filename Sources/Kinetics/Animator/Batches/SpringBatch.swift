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
    private let group = Column<GroupIndex>()
    /// `pop`: the last step's velocity slope, for Pop's rest test in a frame
    /// that takes no step.
    let slope = Column<V>()
    /// `fixed`: the blended output.
    let outputValue = Column<V>()
    let outputVelocity = Column<V>()

    /// `pop`: the frame of length 0 for the last new spring's rest threshold
    /// (``SpringGroups/immediatePopFrame(threshold:)``), kept for the next
    /// new spring's first frame: springs added together mostly share a
    /// threshold, and the frame is 256 bytes to fill.
    private let firstFrame = Column<SpringGroups.Frame>(capacity: 1)

    /// The springs from here on were appended since the last tick's
    /// advance, which groups them (``groupNewSprings(output:)``).
    private var groupedCount = 0
    /// The springs from here on may have a wrong ``ElementFlag/groupStart``
    /// (an operation on the columns moved springs); the next tick's advance
    /// sets theirs (``markGroupStarts()``).
    private var groupStartsStale = 0
    /// Its scratch holds a tail of the widest column: the values, or the
    /// owners (8 bytes).
    private let tailGrouping = TailGrouping(
        largestStride: max(MemoryLayout<V>.stride, MemoryLayout<AnimationHandle>.stride, 8))

    init(method: SpringMethod) {
        self.method = method
        firstFrame.append(SpringGroups.Frame())
    }

    /// Appends a spring at `value` with `velocity` in `group`, which will
    /// write `slot`; its common columns are appended by the caller through
    /// ``common``.
    func appendState(value: V, to target: V, velocity initial: V, group index: GroupIndex, slot: PropertySlot) {
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
            slope.appendWithinCapacity(.zero)
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
    func restartState(_ element: Int, value: V, to target: V, velocity initial: V, group index: GroupIndex) {
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
            ColumnPointer(slope)[element] = .zero
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
        appendState(value: start.from, to: start.to, velocity: start.velocity, group: index, slot: slot)
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
        restartState(element, value: start.from, to: start.to, velocity: start.velocity, group: index)
        common.restart(
            element, owner: owner, from: start.from, to: start.to, clamp: clamp, roundingFactor: 0, additive: false,
            threshold: start.threshold, wantsEvents: false, flags: ElementFlag.unwritten | ElementFlag.quiet)
    }

    /// The group of element `element`.
    @inline(__always)
    func group(_ element: Int) -> GroupIndex { group[element] }

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
            operation.apply(to: slope)
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
            output: &output, entry: { group.base[$0] },
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
        let slope: ColumnPointer<V>
        let outputValue: ColumnPointer<V>
        let outputVelocity: ColumnPointer<V>
        let common: ElementColumns<V>.Pointers

        @inline(__always)
        init(_ batch: SpringBatch) {
            displacement = ColumnPointer(batch.displacement)
            velocity = ColumnPointer(batch.velocity)
            group = ColumnPointer(batch.group)
            slope = ColumnPointer(batch.slope)
            outputValue = ColumnPointer(batch.outputValue)
            outputVelocity = ColumnPointer(batch.outputVelocity)
            common = ElementColumns.Pointers(batch.common)
        }
    }

    /// Advances every unpaused element by the tick's frame of its group and
    /// writes its value.
    ///
    /// Elements with any flag set (paused, clamping, rounding, additive,
    /// wanting events, not written yet) take the general path; the rest take
    /// the straight path below, whose only branch on the element's state is
    /// the rare one that reports it done.
    ///
    /// Pop's animation rest test compares the value written with the one
    /// written the frame before. That one is not stored: it is the target
    /// plus the state's displacement before this frame (the blended output
    /// for `fixed`), which a retarget keeps (it moves the state with the
    /// target) and a clamp resets (it moves the state to the bound).
    func advance(_ groups: SpringGroups, values: ColumnPointer<V>, output: inout FrameOutput) {
        groupNewSprings(output: &output)
        markGroupStarts()
        // One loop per method, so that the method's tests are constants in it.
        switch method {
        // Pop stores every slope; it reads the stored one only in a frame
        // where some group took no step.
        case .pop where groups.keepsAnySlope:
            advance(groups, values: values, output: &output, PopKeepingSlope.self)
        case .pop:
            advance(groups, values: values, output: &output, PopStepping.self)
        case .fixed:
            advance(groups, values: values, output: &output, FixedGrid.self)
        case .rk4, .analytic:
            advance(groups, values: values, output: &output, ExactMap.self)
        }
    }

    /// Puts the springs appended since the last tick's advance next to the
    /// others of their group (``TailGrouping``), reporting each one moved in
    /// `output.moved`.
    private func groupNewSprings(output: inout FrameOutput) {
        let start = min(groupedCount, count)
        groupedCount = count
        groupStartsStale = min(groupStartsStale, start)
        guard
            let permutation = tailGrouping.order(
                start: start, count: count - start, group: ColumnPointer(group), slot: ColumnPointer(common.slot))
        else { return }
        forEachColumn(permutation)
        common.forEachColumn(permutation)
        let owners = ColumnPointer(common.owner)
        for place in 0 ..< permutation.count where Int(permutation.order[place]) != place {
            output.moved.append(MovedElement(owner: owners[start + place], element: ElementIndex(start + place)))
        }
    }

    /// Sets ``ElementFlag/groupStart`` on the springs from
    /// ``groupStartsStale`` on: on each whose group is not the previous
    /// spring's, off on the others.
    private func markGroupStarts() {
        let end = count
        var element = groupStartsStale
        groupStartsStale = Int.max
        guard element < end else { return }
        let flags = ColumnPointer(common.flags)
        let groups = ColumnPointer(group)
        if element == 0 {
            flags[0] |= ElementFlag.groupStart
            element = 1
        }
        var previous = groups[element &- 1]
        while element < end {
            let next = groups[element]
            flags[element] = flags[element] & ~ElementFlag.groupStart | (next != previous ? ElementFlag.groupStart : 0)
            previous = next
            element &+= 1
        }
    }

    /// Sets ``ElementFlag/groupStart`` of element `element` and of the
    /// next, after the first's group changed. Its callers have checked the
    /// index against a column of the batch (they all have its count); debug
    /// builds check it again.
    @inline(__always)
    private func markGroupStarts(around element: Int) {
        let end = count
        assert(UInt(bitPattern: element) < UInt(bitPattern: end), "spring element \(element) out of 0..<\(end)")
        let flags = common.flags.base
        let groups = group.base
        let joined = groups[element]
        let starts = element == 0 || groups[element &- 1] != joined
        flags[element] = flags[element] & ~ElementFlag.groupStart | (starts ? ElementFlag.groupStart : 0)
        let next = element &+ 1
        if next < end {
            flags[next] = flags[next] & ~ElementFlag.groupStart | (groups[next] != joined ? ElementFlag.groupStart : 0)
        }
    }

    /// Whether the state's columns hold as many springs as the common
    /// ones (a test of the bookkeeping: a restart checks an index against
    /// one column and writes the others through their pointers).
    var columnsHaveOneCount: Bool {
        var counts = [displacement.count, velocity.count, group.count]
        switch method {
        case .pop: counts.append(slope.count)
        case .fixed: counts += [outputValue.count, outputVelocity.count]
        case .rk4, .analytic: break
        }
        return counts.allSatisfy { $0 == common.count }
    }

    /// Whether each spring has ``ElementFlag/groupStart`` exactly when its
    /// group is not the previous spring's, as far as the next advance will
    /// not set it again (a test of the bookkeeping,
    /// ``Animator/invariantViolations()``).
    var groupStartsAreMarked: Bool {
        (0 ..< Swift.min(groupStartsStale, groupedCount, count)).allSatisfy { element in
            let starts = element == 0 || group[element] != group[element - 1]
            return (common.flags[element] & ElementFlag.groupStart != 0) == starts
        }
    }

    @inline(__always)
    private func advance<Path: StraightPath>(
        _ groups: SpringGroups, values: ColumnPointer<V>, output: inout FrameOutput, _ path: Path.Type
    ) {
        precondition(output.collectsQuiet, "the straight path runs in a tick's advance")
        let frames = groups.frames.base
        let p = Pointers(self)
        if Path.stepsInPairs, let scalars = self as? SpringBatch<Double> {
            let scalarValues = values.assumingMemoryBound(to: Double.self)
            let q = SpringBatch<Double>.Pointers(scalars)
            scalars.advanceInRuns(
                frames, q, values: scalarValues, output: &output,
                pair: { SpringBatch<Double>.pairStep($0, $1, q, values: scalarValues, path) },
                step: { scalars.straightStep($0, q, frames, values: scalarValues, path) })
            return
        }
        advanceInRuns(
            frames, p, values: values, output: &output, pair: nil,
            step: { straightStep($0, p, frames, values: values, path) })
    }

    /// Advances every unpaused element in runs of straight elements: a run
    /// ends at an element with a flag other than quiet and group start
    /// (``ElementFlag/straight``), which takes the general path, or at one
    /// that `step` (which advances an element on the straight path) finds
    /// at rest; the run resumes after it. With `pair`
    /// (scalar springs), two neighbouring straight elements of one group
    /// are advanced together where `pair` can (see ``run``).
    ///
    /// A run makes no call (`step` is inlined), so it keeps the batch's
    /// pointers in registers; the calls of the general path and of a
    /// finish are outside it.
    @inline(__always)
    private func advanceInRuns(
        _ frames: UnsafeMutablePointer<SpringGroups.Frame>, _ p: Pointers, values: ColumnPointer<V>,
        output: inout FrameOutput, pair: ((Int, UnsafeMutablePointer<SpringGroups.Frame>) -> Bool)?,
        step: (Int) -> Bool
    ) {
        let end = count
        // A stop byte past the last element ends the last run (``run``).
        common.markEnd()
        var index = 0
        // After a spring found at rest, its neighbours are likely near too.
        var afterRest = false
        while true {
            let atRest: Bool
            (index, atRest) = run(from: index, p, frames, afterRest: afterRest, pair: pair, step: step)
            afterRest = atRest
            guard index < end else { return }
            let bits = p.common.flags[index]
            if atRest {
                if bits & ElementFlag.quiet != 0 {
                    // Quiet, the one flag a run lets through; a tick's
                    // advance collects quiet elements (its precondition).
                    common.noteQuietFinish(
                        index, target: p.common.to[index], slot: p.common.slot[index], values: values)
                } else {
                    common.reportFinished(index, bits: bits, values: values, output: &output)
                }
            } else if bits & ElementFlag.paused == 0 {
                advanceElement(index, p, frame: frames + p.group[index].index, values: values, output: &output)
            }
            index &+= 1
        }
    }

    /// Advances elements `start`, `start + 1`, … with `step` until one has
    /// a flag other than quiet and group start (returned not advanced) or
    /// `step` finds it at rest (returned advanced, `atRest`); ``count`` when
    /// none does.
    ///
    /// With `pair`, an element and the next, both straight and of one
    /// group, are first given to `pair` with their group's frame (of the
    /// `frames` by group index), which advances both unless either is near
    /// its target; then it writes nothing, and `step` takes the
    /// next ``nearRun`` elements one at a time, as it does from `start`
    /// when `afterRest`: springs near their targets come in crowds (a batch
    /// added together ends together), and each pair tried among them would
    /// be work thrown away.
    ///
    /// The loop tests no bound: the two stop bytes from ``count``
    /// (``ElementColumns/markEnd()``) have every flag set, so the flag test
    /// ends the last run there (and a pair's test reads at most the second).
    /// Pairs in a row are of one group until one starts a group
    /// (``ElementFlag/groupStart``): the frame is found again only there.
    @inline(__always)
    private func run(
        from start: Int, _ p: Pointers, _ frames: UnsafeMutablePointer<SpringGroups.Frame>, afterRest: Bool,
        pair: ((Int, UnsafeMutablePointer<SpringGroups.Frame>) -> Bool)?, step: (Int) -> Bool
    ) -> (index: Int, atRest: Bool) {
        var index = start
        var alone = pair == nil ? Int.max : afterRest ? Self.nearRun : 0
        while true {
            while alone > 0 {
                if p.common.flags[index] & ~ElementFlag.straight != 0 { return (index, false) }
                if step(index) { return (index, true) }
                index &+= 1
                alone &-= 1
            }
            guard let pair else { continue }
            var two = p.common.twoFlags(index)
            if two & ~ElementFlag.twoStraightInOneGroup == 0 {
                var frame = frames + p.group[index].index
                while pair(index, frame) {
                    index &+= 2
                    two = p.common.twoFlags(index)
                    if two & ~ElementFlag.twoQuiet != 0 {
                        guard two & ~ElementFlag.twoStraightInOneGroup == 0 else { break }
                        frame = frames + p.group[index].index
                    }
                }
            }
            // Not a pair (the next element alone), or a pair near its targets.
            alone = two & ~ElementFlag.twoStraightInOneGroup == 0 ? Self.nearRun : 1
        }
    }

    /// How many elements ``run`` takes one at a time after a pair with a
    /// spring near its target.
    static var nearRun: Int { 8 }

    /// One element's frame on the straight path; whether it came to rest.
    @inline(__always)
    private func straightStep<Path: StraightPath>(
        _ index: Int, _ p: Pointers, _ frames: UnsafeMutablePointer<SpringGroups.Frame>,
        values: ColumnPointer<V>, _ path: Path.Type
    ) -> Bool {
        let f = frames + p.group[index].index
        let d0 = p.displacement[index]
        let v0 = p.velocity[index]
        let step = f.pointee.step(
            displacement: d0, velocity: v0, blendsOutput: Path.blendsOutput, keepsSlope: Path.keepsSlope,
            storedSlope: p.slope[index])
        p.displacement[index] = step.state.displacement
        p.velocity[index] = step.state.velocity
        let outD = step.displacement
        let outV = step.velocity
        let restSlope = step.slope
        if Path.storesSlope { p.slope[index] = restSlope }
        let target = p.common.to[index]
        let current = target + outD
        let before: V
        if Path.blendsOutput {
            before = p.outputValue[index]
            p.outputValue[index] = current
            p.outputVelocity[index] = outV
        } else {
            before = target + d0
        }
        values[p.common.slot[index].index] = current
        return Self.isNear(current[component: 0], target[component: 0], f)
            && Self.atRest(before: before, current: current, target: target, velocity: outV, slope: restSlope, f)
    }

    /// Whether a value's first component is near enough its target's for
    /// either rest test to pass: farther than the frame's `nearBound`,
    /// neither can. NaN passes (and fails the tests).
    @inline(__always)
    static func isNear(_ value: Double, _ target: Double, _ f: UnsafeMutablePointer<SpringGroups.Frame>) -> Bool {
        // Not `<`: this form compares with the bound in memory, without loading it.
        !(abs(value - target) >= f.pointee.nearBound)
    }

    /// Pop's two rest tests: the animation's (the last two written values
    /// within `t/5` of the target and of each other) or the solver's
    /// (displacement within `t/2`, squared velocity below `25·t`, squared
    /// slope below `625·t²`). NaN before the first write fails the first.
    ///
    /// The one copy of ``PopRestTest``'s law, kept for speed: the two tests
    /// fused into one pass over the components, with the group's bounds.
    /// `RestTestTests.fusedIsPops` holds it equal to the two on cases at and
    /// around every bound.
    @inline(__always)
    static func atRest(
        before: V, current: V, target: V, velocity: V, slope: V, _ f: UnsafeMutablePointer<SpringGroups.Frame>
    ) -> Bool {
        atRest(before: before, current: current, target: target, velocity: velocity, slope: slope, f.pointee)
    }

    @inline(__always)
    static func atRest(before: V, current: V, target: V, velocity: V, slope: V, _ f: SpringGroups.Frame) -> Bool {
        var settled = true
        var written = true
        for component in 0 ..< V.componentCount {
            let x = abs(current[component: component] - target[component: component])
            settled = settled && x < f.positionBound
            written =
                written && x < f.restBound
                && abs(before[component: component] - current[component: component]) < f.restBound
        }
        return written || (settled && velocity.squaredNorm < f.velocityBound && slope.squaredNorm < f.slopeBound)
    }

    /// The first frame (length 0) of `pop` element `index`, which a new
    /// spring renders at once: with its group's frame of length 0, which
    /// needs only the element's threshold (its group's), so that the group
    /// table is not read.
    func renderFirstPopFrame(_ index: Int, values: ColumnPointer<V>, output: inout FrameOutput) {
        precondition(method == .pop, "a \(method) spring's first frame needs its group's")
        let threshold = common.threshold[index]
        if threshold != firstFrame.base.pointee.threshold {
            firstFrame[0] = SpringGroups.immediatePopFrame(threshold: threshold)
        }
        let bits = common.flags[index]
        // Two tests of the byte in memory, where one masked copy would take
        // three instructions: an add's spring starts no group yet (its tail
        // is grouped at the next tick), a replacement's may.
        let started = ElementFlag.quiet | ElementFlag.unwritten
        guard bits == started || bits == started | ElementFlag.groupStart else {
            advanceElement(index, Pointers(self), frame: firstFrame.base, values: values, output: &output)
            return
        }
        // A quiet spring just started (every add and replacement of one):
        // what the general path does for an element with no flag but these
        // two, in its order of operations, without its tests and the
        // batch's pointers. (The flags' subscript checked the index; the
        // columns have the same count, and their pointers check in debug
        // builds.)
        let f = firstFrame.base
        let displacements = ColumnPointer(displacement)
        let velocities = ColumnPointer(velocity)
        let slopes = ColumnPointer(slope)
        let d0 = displacements[index]
        let v0 = velocities[index]
        let target = ColumnPointer(common.to)[index]
        let step = f.pointee.step(
            displacement: d0, velocity: v0, blendsOutput: false, keepsSlope: true, storedSlope: slopes[index])
        displacements[index] = step.state.displacement
        velocities[index] = step.state.velocity
        slopes[index] = step.slope
        let current = target + step.displacement
        ColumnPointer(common.flags)[index] &= ~ElementFlag.unwritten
        values[ColumnPointer(common.slot)[index].index] = current
        if Self.atRest(
            before: .unwritten, current: current, target: target, velocity: step.velocity, slope: step.slope, f)
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

    private func advanceElement(
        _ index: Int, _ p: Pointers, frame f: UnsafeMutablePointer<SpringGroups.Frame>, values: ColumnPointer<V>,
        output: inout FrameOutput
    ) {
        let d0 = p.displacement[index]
        let v0 = p.velocity[index]
        let target = p.common.to[index]
        let step = f.pointee.step(
            displacement: d0, velocity: v0, blendsOutput: method == .fixed, keepsSlope: method == .pop,
            storedSlope: p.slope[index])
        var d = step.state.displacement
        let v = step.state.velocity
        var outD = step.displacement
        let outV = step.velocity
        let restSlope = step.slope
        if method == .pop { p.slope[index] = restSlope }
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
                || Self.solverSettled(current - target, outV, restSlope, f)
        } else {
            values[p.common.slot[index].index] = current
            done = Self.atRest(before: before, current: current, target: target, velocity: outV, slope: restSlope, f)
        }
        common.report(index, done: done, flags: bits, owner: p.common.owner, values: values, output: &output)
    }

    /// The solver's rest test alone.
    @inline(__always)
    static func solverSettled(
        _ displacement: V, _ velocity: V, _ slope: V, _ f: UnsafeMutablePointer<SpringGroups.Frame>
    ) -> Bool {
        PopRestTest.solverHasConverged(
            displacement: displacement, velocity: velocity, slope: slope,
            bounds: PopRestTest.Bounds(
                position: f.pointee.positionBound, velocitySquared: f.pointee.velocityBound,
                slopeSquared: f.pointee.slopeBound, animation: f.pointee.restBound))
    }

    static var inversePopStep: Double { 1 / SpringMethod.popStep }

    /// How many of Pop's steps fit in `accumulated` and what is left, as Pop's
    /// loop of subtractions counts them: by division, with the loop itself
    /// where the quotient is within rounding of a whole number.
    @inline(__always)
    static func popSteps(_ accumulated: Double) -> (steps: Int, left: Double) {
        let h = SpringMethod.popStep
        // Truncation is the floor here (the clock is never negative); the
        // product rounds differently from a quotient only next to a whole
        // number of steps, where the loop below decides.
        var steps = Int(accumulated * inversePopStep)
        var left = accumulated - Double(steps) * h
        if left < 1e-12 || h - left < 1e-12 {
            steps = 0
            left = accumulated
            while left >= h {
                left -= h
                steps += 1
            }
        }
        return (steps, left)
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
    init<Value: AnimatableVector>(
        _ animation: borrowing Animation<Value>, current: V, defaultThreshold: () -> Double
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
    /// group whose frame is `f`, two at a time: their displacements in one
    /// SIMD register and their velocities in another. Unless either is
    /// near its target (``isNear``), it stores their states, slopes and
    /// values and returns true; else it writes nothing and returns false
    /// (the straight step then takes them one at a time).
    ///
    /// The one second copy of the law of
    /// ``SpringGroups/Frame/step(displacement:velocity:blendsOutput:keepsSlope:storedSlope:)``,
    /// for the paths that neither blend an output nor keep a slope: each
    /// lane does that step's products and sums in its order, so the
    /// results are identical. `ScalarPathTests` holds every value and every
    /// end equal to those of the generic step (a 2-vector lane, whose
    /// components take it) for every method, with springs of one group side
    /// by side and springs of groups of their own.
    @inline(__always)
    fileprivate static func pairStep<Path: StraightPath>(
        _ index: Int, _ f: UnsafeMutablePointer<SpringGroups.Frame>, _ p: Pointers,
        values: ColumnPointer<Double>, _ path: Path.Type
    ) -> Bool {
        typealias Pair = SIMD2<Double>
        let d = p.displacement.pair(index)
        let v = p.velocity.pair(index)
        let nextD = d * f.pointee.pairDD + v * f.pointee.pairDV
        let target = p.common.to.pair(index)
        let current = target + nextD
        // Neither near (``isNear``): the nearer at least the bound away.
        // A NaN distance may pass as far: its spring is not at rest either
        // way, and what is stored is what the step one at a time stores.
        let distance = unsafeBitCast(
            unsafeBitCast(current - target, to: SIMD2<UInt64>.self) & SIMD2(repeating: ~(1 << 63)), to: Pair.self)
        guard Swift.min(distance[0], distance[1]) >= f.pointee.nearBound else { return false }
        p.displacement.setPair(index, nextD)
        p.velocity.setPair(index, d * f.pointee.pairVD + v * f.pointee.pairVV)
        if Path.storesSlope { p.slope.setPair(index, d * f.pointee.pairSlopeD + v * f.pointee.pairSlopeV) }
        values[p.common.slot[index].index] = current[0]
        values[p.common.slot[index &+ 1].index] = current[1]
        return true
    }
}

extension ColumnPointer where Element == Double {
    /// Elements `index` and `index + 1`, in one SIMD register.
    @inline(__always)
    func pair(_ index: Int) -> SIMD2<Double> {
        check(index &+ 1)
        return UnsafeRawPointer(base + index).loadUnaligned(as: SIMD2<Double>.self)
    }

    /// Stores `pair` in elements `index` and `index + 1`.
    @inline(__always)
    func setPair(_ index: Int, _ pair: SIMD2<Double>) {
        check(index &+ 1)
        UnsafeMutableRawPointer(base + index).storeBytes(of: pair, as: SIMD2<Double>.self)
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
