// A spring batch's frame: the straight path each method's springs take,
// the general path for flagged ones, and the rest tests they share.
extension SpringBatch {
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
    /// others of their group within each window of ``groupingWindow``
    /// springs (``TailGrouping``), reporting each one moved in
    /// `output.moved`.
    func groupNewSprings(output: inout FrameOutput) {
        let start = min(groupedCount, count)
        groupedCount = count
        groupStartsStale = min(groupStartsStale, start)
        var window = start
        while window < count {
            let size = Swift.min(Self.groupingWindow, count - window)
            defer { window += size }
            guard
                let permutation = tailGrouping.order(
                    start: window, count: size, group: ColumnPointer(group), slot: ColumnPointer(common.slot))
            else { continue }
            forEachColumn(permutation)
            common.forEachColumn(permutation)
            let owners = ColumnPointer(common.owner)
            for place in 0 ..< permutation.count where Int(permutation.order[place]) != place {
                output.moved.append(MovedElement(owner: owners[window + place], element: ElementIndex(window + place)))
            }
        }
    }

    /// How many springs of a tail are grouped together. Springs added
    /// together of interleaved groups write interleaved properties: sorted
    /// across the whole tail, each group's run wrote every n-th value of
    /// the lane, and every line of the values came into the first-level
    /// cache once per group. Within a window, the values its groups write
    /// (8 KB for scalars) stay there from one group's run to the next; the
    /// window is large enough that finding a group's law where its run
    /// starts costs little (docs/performance.md, "Windows of 1,024
    /// springs").
    static var groupingWindow: Int { 1024 }

    /// Sets ``ElementFlag/groupStart`` on the springs from
    /// ``groupStartsStale`` on: on each whose group is not the previous
    /// spring's, off on the others.
    func markGroupStarts() {
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
    func markGroupStarts(around element: Int) {
        let end = count
        assert(UInt(bitPattern: element) < UInt(bitPattern: end), "spring element \(element) out of 0..<\(end)")
        let flags = common.flags.pointer
        let groups = group.pointer
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
        case .pop: counts.append(slopeSettled.count)
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
    func advance<Path: StraightPath>(
        _ groups: SpringGroups, values: ColumnPointer<V>, output: inout FrameOutput, _ path: Path.Type
    ) {
        precondition(output.collectsQuiet, "the straight path runs in a tick's advance")
        let frames = groups.frames.pointer
        let p = Pointers(self)
        if Path.stepsInPairs, let scalars = self as? SpringBatch<Double> {
            let scalarValues = values.assumingMemoryBound(to: Double.self)
            let q = SpringBatch<Double>.Pointers(scalars)
            scalars.advanceInRuns(
                frames, q, values: scalarValues, output: &output,
                pair: { SpringBatch<Double>.pairStep($0, $1, q, values: scalarValues, path, four: $2) },
                step: { scalars.straightStep($0, q, frames, values: scalarValues, path) })
            return
        }
        if !Path.blendsOutput, let points = self as? SpringBatch<SIMD2<Double>> {
            let pointValues = values.assumingMemoryBound(to: SIMD2<Double>.self)
            let q = SpringBatch<SIMD2<Double>>.Pointers(points)
            points.advanceInRuns(
                frames, q, values: pointValues, output: &output, pair: nil,
                step: { points.pointStep($0, q, frames, values: pointValues, path) })
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
    /// (scalar springs), two or four neighbouring straight elements of one
    /// group are advanced together where `pair` can (see ``run``).
    ///
    /// A run makes no call (`step` is inlined), so it keeps the batch's
    /// pointers in registers; the calls of the general path and of a
    /// finish are outside it.
    @inline(__always)
    func advanceInRuns(
        _ frames: ColumnPointer<SpringGroups.Frame>, _ p: Pointers, values: ColumnPointer<V>,
        output: inout FrameOutput, pair: ((Int, SpringGroups.PairLaw, Bool) -> Bool)?,
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
                advanceElement(index, p, frame: frames.address(p.group[index].index), values: values, output: &output)
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
    /// group, are first given to `pair` with their group's law (of the
    /// `frames` by group index; the last argument false), which advances
    /// both unless either is near its target or slow
    /// (``SpringBatch/pairStep``); then it writes nothing, and `step` takes
    /// the next ``nearRun`` elements one at a time, as it does from `start`
    /// when `afterRest`: springs near their targets come in crowds (a batch
    /// added together ends together), and each pair tried among them would
    /// be work thrown away. After a pair, while the next four elements are
    /// straight and of the same group, they go to `pair` together (the last
    /// argument true), which advances all four
    /// or writes nothing.
    ///
    /// The loop tests no bound: the four stop bytes from ``count``
    /// (``ElementColumns/markEnd()``) have every flag set, so the flag test
    /// ends the last run there (and a test of four reads at most the
    /// fourth). Pairs in a row are of one group until one starts a group
    /// (``ElementFlag/groupStart``): the law is read again only there.
    @inline(__always)
    func run(
        from start: Int, _ p: Pointers, _ frames: ColumnPointer<SpringGroups.Frame>, afterRest: Bool,
        pair: ((Int, SpringGroups.PairLaw, Bool) -> Bool)?, step: (Int) -> Bool
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
                var law = SpringGroups.PairLaw(frames.address(p.group[index].index))
                while pair(index, law, false) {
                    index &+= 2
                    // Two pairs at once while four in a row are straight
                    // and of this group.
                    while p.common.fourFlags(index) & ~ElementFlag.fourQuiet == 0 && pair(index, law, true) {
                        index &+= 4
                    }
                    two = p.common.twoFlags(index)
                    if two & ~ElementFlag.twoQuiet != 0 {
                        guard two & ~ElementFlag.twoStraightInOneGroup == 0 else { break }
                        law = SpringGroups.PairLaw(frames.address(p.group[index].index))
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
    func straightStep<Path: StraightPath>(
        _ index: Int, _ p: Pointers, _ frames: ColumnPointer<SpringGroups.Frame>,
        values: ColumnPointer<V>, _ path: Path.Type
    ) -> Bool {
        let f = frames.address(p.group[index].index)
        let d0 = p.displacement[index]
        let v0 = p.velocity[index]
        let step = f.pointee.step(displacement: d0, velocity: v0, blendsOutput: Path.blendsOutput)
        p.displacement[index] = step.state.displacement
        p.velocity[index] = step.state.velocity
        let outD = step.displacement
        let outV = step.velocity
        // The slope's answer only where it can be read (``slopeSettled``), as
        // in ``pointStep``.
        var restSlope = false
        if Path.keepsSlope && f.pointee.keep != 0 {
            restSlope = p.slopeSettled[index]
        } else if outV.squaredNorm < f.pointee.velocityBound {
            restSlope = f.pointee.slopeSettled(step.slope, kept: false, keeps: false)
            if Path.storesSlope { p.slopeSettled[index] = restSlope }
        }
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
            && Self.atRest(
                before: before, current: current, target: target, velocity: outV, slopeSettled: restSlope, f)
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
    /// slope below `625·t²`, whose answer `slopeSettled` is). NaN before the
    /// first write fails the first.
    ///
    /// The one copy of ``PopRestTest``'s law, kept for speed: the two tests
    /// fused into one pass over the components, with the group's bounds.
    /// `RestTestTests.fusedIsPops` holds it equal to the two on cases at and
    /// around every bound.
    @inline(__always)
    static func atRest(
        before: V, current: V, target: V, velocity: V, slopeSettled: Bool,
        _ f: UnsafeMutablePointer<SpringGroups.Frame>
    ) -> Bool {
        atRest(
            before: before, current: current, target: target, velocity: velocity, slopeSettled: slopeSettled,
            f.pointee)
    }

    @inline(__always)
    static func atRest(
        before: V, current: V, target: V, velocity: V, slopeSettled: Bool, _ f: SpringGroups.Frame
    ) -> Bool {
        var settled = true
        var written = true
        for component in 0 ..< V.componentCount {
            let x = abs(current[component: component] - target[component: component])
            settled = settled && x < f.positionBound
            written =
                written && x < f.restBound
                && abs(before[component: component] - current[component: component]) < f.restBound
        }
        return written || (settled && velocity.squaredNorm < f.velocityBound && slopeSettled)
    }
}

extension SpringBatch where V == SIMD2<Double> {
    /// One point spring's frame on a straight path that writes its state
    /// (every method but `fixed`): ``straightStep`` with the group's pair
    /// forms (``SpringGroups/Frame/pairDD`` …), each entry stored twice, so
    /// that each product is one multiplication where the scalar entries
    /// were first copied into both lanes. The same operations on each
    /// component, so the same bits; whether it came to rest.
    @inline(__always)
    func pointStep<Path: StraightPath>(
        _ index: Int, _ p: Pointers, _ frames: ColumnPointer<SpringGroups.Frame>,
        values: ColumnPointer<V>, _ path: Path.Type
    ) -> Bool {
        let f = frames.address(p.group[index].index)
        let d0 = p.displacement[index]
        let v0 = p.velocity[index]
        let d = d0 * f.pointee.pairDD + v0 * f.pointee.pairDV
        let v = d0 * f.pointee.pairVD + v0 * f.pointee.pairVV
        p.displacement[index] = d
        p.velocity[index] = v
        // The slope's answer only where it can be read (``slopeSettled``):
        // kept in a frame with no step, else made where the velocity may
        // pass its own part of the test, whose squared norm is at least its
        // first component's square (false elsewhere, where it is not read).
        var slopeSettled = false
        if Path.keepsSlope && f.pointee.keep != 0 {
            slopeSettled = p.slopeSettled[index]
        } else if v[0] * v[0] < f.pointee.velocityBound {
            slopeSettled = f.pointee.slopeSettled(
                d0 * f.pointee.pairSlopeD + v0 * f.pointee.pairSlopeV, kept: false, keeps: false)
            if Path.storesSlope { p.slopeSettled[index] = slopeSettled }
        }
        let target = p.common.to[index]
        let current = target + d
        values[p.common.slot[index].index] = current
        return Self.isNear(current[0], target[0], f)
            && Self.atRest(
                before: target + d0, current: current, target: target, velocity: v, slopeSettled: slopeSettled, f)
    }
}
