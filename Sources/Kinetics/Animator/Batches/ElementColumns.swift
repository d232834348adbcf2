extension AnimatableVector {
    /// The value of ``ElementColumns/previous`` before the first write.
    static var unwritten: Self { Self(packed: SIMD4(repeating: .nan)) }

    /// Whether this is the value before the first write.
    var isFirstWrite: Bool { self[component: 0].isNaN }
}

/// Bits of an element's ``ElementColumns/flags``.
enum ElementFlag {
    static let paused: UInt8 = 1
    static let wantsEvents: UInt8 = 2
    static let clamps: UInt8 = 4
    static let rounds: UInt8 = 8
    static let additive: UInt8 = 16
    /// A spring that has not written yet (its rest test has no previous value).
    static let unwritten: UInt8 = 32
    /// Any of clamping, rounding and additive writing: the slow write path.
    static let special: UInt8 = clamps | rounds | additive
    /// Finishes quietly: nothing observes its end (no callbacks, markers,
    /// tracing, repeats or group; not additive or rounded; removed on
    /// completion), so its batch writes its target and removes it at the
    /// end of the tick's advance (``ElementColumns/finishQuietly``). The
    /// only flag the straight paths ignore.
    static let quiet: UInt8 = 64
    /// A spring whose group is not the previous element's (the first
    /// spring of a batch has it): the pair loop of ``SpringBatch`` finds a
    /// group's frame only at such a spring. Kept by the spring batch (where
    /// a spring changes groups, and at a tick's advance for springs moved);
    /// every other test of the flags ignores it, and other batches never
    /// set it.
    static let groupStart: UInt8 = 128
    /// The flags a straight path lets through: ``quiet`` and ``groupStart``.
    static let straight: UInt8 = quiet | groupStart
    /// ``quiet`` in both bytes of two elements' flags read as one
    /// (``ElementColumns/Pointers/twoFlags(_:)``): two straight elements
    /// of the group of the element before them.
    static let twoQuiet = UInt16(quiet) &* 0x0101
    /// Two straight elements of one group, which the first may start.
    static let twoStraightInOneGroup = twoQuiet | UInt16(groupStart)
    /// ``quiet`` in each byte of four elements' flags read as one
    /// (``ElementColumns/Pointers/fourFlags(_:)``): four straight elements
    /// of the group of the element before them.
    static let fourQuiet = UInt32(quiet) &* 0x0101_0101
    /// Past the last element (``ElementColumns/markEnd()``): not a flag of
    /// any element.
    static let stop: UInt8 = 0xFF
}

/// The columns every kind of element has: where it writes, its ends, the
/// last value it wrote (for Pop's rest test and additive writes), its rest
/// threshold and its flags; and the rarely read ones (owner, rounding,
/// clamping). ``quietlyFinished`` is a work list, not a column.
final class ElementColumns<V: AnimatableVector>: ColumnList {
    let owner = Column<AnimationHandle>()
    let slot = Column<PropertySlot>()
    let from = Column<V>()
    let to = Column<V>()
    /// The last value written; NaN before the first write (no animated
    /// value is NaN, so the rest test fails and an additive write adds the
    /// whole value).
    let previous = Column<V>()
    let threshold = Column<Double>()
    /// With room for four more than the other columns (``markEnd()``).
    let flags = Column<UInt8>(capacity: 20)
    let roundingScale = Column<Double>()
    let clamp = Column<ClampMode>()
    /// The quiet elements that finished in this tick's advance, ascending.
    let quietlyFinished = Column<ElementIndex>()

    var count: Int { owner.count }

    /// Appends an element with these settings, its flags those the settings
    /// imply and `extra`.
    func append(
        owner handle: AnimationHandle, slot index: PropertySlot, from start: V, to end: V, clamp mode: ClampMode,
        roundingFactor: Double, additive: Bool, threshold rest: Double, wantsEvents: Bool, flags extra: UInt8 = 0
    ) {
        // The columns grow together (``reserve(_:)``, which also makes room
        // for every element to finish in one frame and for the flags' four
        // stop bytes): room in the owners' column is room in each, which
        // debug builds check column by column.
        if count == owner.capacity { reserve(Swift.max(16, 2 * count)) }
        // Each column gets the element's value once, as ``restart`` writes it.
        owner.appendWithinCapacity(handle)
        slot.appendWithinCapacity(index)
        from.appendWithinCapacity(start)
        to.appendWithinCapacity(end)
        previous.appendWithinCapacity(.unwritten)
        threshold.appendWithinCapacity(rest)
        flags.appendWithinCapacity(
            Self.flags(clamp: mode, roundingFactor: roundingFactor, additive: additive, wantsEvents: wantsEvents)
                | extra)
        roundingScale.appendWithinCapacity(Self.roundingScale(roundingFactor))
        clamp.appendWithinCapacity(mode)
    }

    /// The flags an element's settings imply.
    @inline(__always)
    private static func flags(clamp mode: ClampMode, roundingFactor: Double, additive: Bool, wantsEvents: Bool) -> UInt8
    {
        var bits: UInt8 = wantsEvents ? ElementFlag.wantsEvents : 0
        if !mode.isEmpty { bits |= ElementFlag.clamps }
        if roundingFactor != 0 { bits |= ElementFlag.rounds }
        if additive { bits |= ElementFlag.additive }
        return bits
    }

    /// What a value is multiplied by before rounding (0: not rounded).
    @inline(__always)
    private static func roundingScale(_ roundingFactor: Double) -> Double {
        roundingFactor == 0 ? 0 : 1 / roundingFactor
    }

    /// Makes room for `count` elements: appending up to that many, and
    /// finishing them all in one frame, allocates nothing.
    func reserve(_ count: Int) {
        reserveColumns(count)
        // The columns grew alike; what ``append`` relies on, for any count
        // up to theirs: room for every element to finish in one frame, and
        // for the flags' four stop bytes past the last element.
        quietlyFinished.reserve(owner.capacity)
        flags.reserve(owner.capacity + 4)
    }

    /// Makes element `index` (its slot kept) a new run, as ``append`` would
    /// make a new element, with `extra` flags set beyond those the settings
    /// imply.
    ///
    /// The caller checks the index against a column of the batch (a spring
    /// batch's restart, against its state's, which have this count); the
    /// columns are written through their pointers, which check in debug
    /// builds, as does the index here.
    func restart(
        _ index: Int, owner handle: AnimationHandle, from start: V, to end: V, clamp mode: ClampMode,
        roundingFactor: Double, additive: Bool, threshold rest: Double, wantsEvents: Bool, flags extra: UInt8
    ) {
        assert(index >= 0 && index < count, "element \(index) out of 0..<\(count)")
        ColumnPointer(owner)[index] = handle
        ColumnPointer(from)[index] = start
        ColumnPointer(to)[index] = end
        ColumnPointer(previous)[index] = .unwritten
        ColumnPointer(threshold)[index] = rest
        let flags = ColumnPointer(flags)
        // The group start stays: it is the spring batch's to change.
        flags[index] =
            Self.flags(clamp: mode, roundingFactor: roundingFactor, additive: additive, wantsEvents: wantsEvents)
            | extra | flags[index] & ElementFlag.groupStart
        ColumnPointer(roundingScale)[index] = Self.roundingScale(roundingFactor)
        ColumnPointer(clamp)[index] = mode
    }

    /// Writes four stop bytes (every flag set) just past the last element's
    /// flags, in room that ``append`` keeps: a loop over the elements that
    /// stops at the first element with a flag also stops there, with no
    /// test of the index, and may read two or four elements' flags at once
    /// (``Pointers/twoFlags(_:)``, ``Pointers/fourFlags(_:)``) at any index
    /// up to the count.
    @inline(__always)
    func markEnd() {
        precondition(flags.capacity > flags.count &+ 3, "no room for the flags' stop bytes")
        UnsafeMutableRawPointer(flags.pointer.address(flags.count &+ 3) - 3).storeBytes(
            of: UInt32(ElementFlag.stop) &* 0x0101_0101, as: UInt32.self)
    }

    func forEachColumn<Operation: ColumnOperation>(_ operation: Operation) {
        operation.apply(to: owner)
        operation.apply(to: slot)
        operation.apply(to: from)
        operation.apply(to: to)
        operation.apply(to: previous)
        operation.apply(to: threshold)
        operation.apply(to: flags)
        operation.apply(to: roundingScale)
        operation.apply(to: clamp)
    }

    /// Removes element `index` (the last element moves into its place);
    /// returns the owner of the element moved, if any.
    func remove(at index: Int) -> AnimationHandle? {
        let moved: AnimationHandle? = index == count - 1 ? nil : owner[count - 1]
        removeElement(at: index)
        return moved
    }

    /// Reports element `index` finished: to the animator, or, if it is quiet
    /// and the output collects quiet ones (a tick's advance), to the list
    /// ``finishQuietly`` works through. Out of line, so that the loops that
    /// call it on their rare finishing branch stay small.
    @inline(never)
    func reportFinished(_ index: Int, bits: UInt8, values: ColumnPointer<V>, output: inout FrameOutput) {
        if bits & ElementFlag.quiet != 0 && output.collectsQuiet {
            noteQuietFinish(index, target: to.pointer[index], slot: slot.pointer[index], values: values)
        } else {
            output.finished.append(owner.pointer[index])
        }
    }

    /// Notes quiet element `index` finished, for ``finishQuietly``: Pop's
    /// final frame writes its exact target into `slot` (a quiet element is
    /// neither rounded nor additive). The list has room for every element.
    @inline(__always)
    func noteQuietFinish(_ index: Int, target: V, slot: PropertySlot, values: ColumnPointer<V>) {
        values[slot.index] = target
        quietlyFinished.appendWithinCapacity(ElementIndex(index))
    }

    /// Completes the quiet elements that finished in this advance (their
    /// targets already written), in one pass: each one's owner is reported
    /// in `output.quiet`, the shared table entry it holds (`entry`) is given
    /// back through `release` (entry, users) in runs, elements that finish
    /// together mostly sharing one, and it is removed by moving the last
    /// element into its place.
    ///
    /// Taking them in descending order, the last element is never one that
    /// finished, so each removal moves at most one survivor (reported in
    /// `output.moved`, with `move` copying the batch's own columns), and when
    /// every element finishes none moves (nor is the list read: the owners
    /// are reported in element order). The caller truncates its own columns to
    /// the count returned.
    @inline(__always)
    func finishQuietly<Table>(
        output: inout FrameOutput, entry: (Int) -> TableIndex<Table>, release: (TableIndex<Table>, Int) -> Void,
        move: (Int, Int) -> Void
    ) -> Int {
        var releases = ReleaseRuns<Table>()
        if quietlyFinished.count == count {
            // Every element finished (as a batch of animations started
            // together does): none moves, and one pass in element order
            // reports the owners and counts the entries.
            let owners = owner.pointer
            let all = count
            output.quiet.append(count: all) { records in
                for element in 0 ..< all {
                    (records + element).initialize(to: owners[element].record)
                    releases.add(entry(element), release: release)
                }
            }
            releases.flush(release)
            truncateColumns(to: 0)
            quietlyFinished.truncate(to: 0)
            return 0
        }
        let finished = quietlyFinished.pointer
        var end = count
        var position = quietlyFinished.count
        while position > 0 {
            position -= 1
            let element = finished[position].index
            output.quiet.append(owner.pointer[element].record)
            releases.add(entry(element), release: release)
            end -= 1
            if element != end {
                copyElement(from: end, to: element)
                move(end, element)
                output.moved.append(MovedElement(owner: owner.pointer[element], element: ElementIndex(element)))
            }
        }
        releases.flush(release)
        truncateColumns(to: end)
        quietlyFinished.truncate(to: 0)
        return end
    }

    func setFlag(_ index: Int, _ flag: UInt8, _ on: Bool) {
        flags[index] = on ? flags[index] | flag : flags[index] & ~flag
    }

    /// Pop's clamp of a value into [from, to] at the chosen ends, per component.
    func clamped(_ index: Int, _ value: V) -> V {
        let mode = clamp[index]
        guard !mode.isEmpty else { return value }
        let low = from[index]
        let high = to[index]
        var result = value
        for component in 0 ..< V.componentCount {
            let start = low[component: component]
            let end = high[component: component]
            let increasing = end > start
            var x = result[component: component]
            if mode.contains(.start) && (increasing ? x < start : x > start) { x = start }
            if mode.contains(.end) && (increasing ? x > end : x < end) { x = end }
            result[component: component] = x
        }
        return result
    }

    /// The value as written: multiples of the rounding factor (Pop's
    /// `round(v·(1/r))/(1/r)`).
    func rounded(_ index: Int, _ value: V) -> V {
        let scale = roundingScale[index]
        guard scale != 0 else { return value }
        return value.map { ($0 * scale).rounded() / scale }
    }

    /// The slow write: rounding and additive writes. Returns whether Pop's
    /// animation rest test passes after it.
    func writeSpecial(_ index: Int, _ value: V, into values: ColumnPointer<V>) -> Bool {
        let out = rounded(index, value)
        let target = slot[index].index
        let last = previous[index]
        if flags[index] & ElementFlag.additive != 0 {
            values[target] = values[target] + (last.isFirstWrite ? out : out - last)
        } else {
            values[target] = out
        }
        previous[index] = out
        if last.isFirstWrite { return false }
        if roundingScale[index] != 0 { return last == out && out == rounded(index, to[index]) }
        return Self.converged(previous: last, current: out, target: to[index], threshold: threshold[index])
    }

    /// Pop's animation rest test: the last two written values within
    /// `threshold/5` of the target and of each other, per component.
    @inline(__always)
    static func converged(previous: V, current: V, target: V, threshold: Double) -> Bool {
        PopRestTest.animationHasConverged(
            previous2: previous, previous: current, target: target, bound: PopRestTest.Bounds.animation(threshold))
    }

    /// The columns a frame reads and writes, as raw pointers read once per
    /// frame, so that a batch's loop touches no class property.
    struct Pointers {
        let from: ColumnPointer<V>
        let to: ColumnPointer<V>
        let flags: ColumnPointer<UInt8>
        let owner: ColumnPointer<AnimationHandle>
        let slot: ColumnPointer<PropertySlot>
        let previous: ColumnPointer<V>

        @inline(__always)
        init(_ columns: ElementColumns) {
            from = ColumnPointer(columns.from)
            to = ColumnPointer(columns.to)
            flags = ColumnPointer(columns.flags)
            owner = ColumnPointer(columns.owner)
            slot = ColumnPointer(columns.slot)
            previous = ColumnPointer(columns.previous)
        }

        /// The flags of elements `index` (low byte) and `index + 1`, read
        /// as one: past the last element, the stop bytes
        /// (``ElementColumns/markEnd()``).
        @inline(__always)
        func twoFlags(_ index: Int) -> UInt16 {
            flags.check(index &+ 1)
            return UInt16(littleEndian: UnsafeRawPointer(flags.address(index)).loadUnaligned(as: UInt16.self))
        }

        /// The flags of elements `index` (low byte) to `index + 3`, read
        /// as one: past the last element, the stop bytes
        /// (``ElementColumns/markEnd()``).
        @inline(__always)
        func fourFlags(_ index: Int) -> UInt32 {
            flags.check(index &+ 3)
            return UInt32(littleEndian: UnsafeRawPointer(flags.address(index)).loadUnaligned(as: UInt32.self))
        }
    }

    /// Ends a basic or keyframe element's frame (springs and decays clamp in
    /// their own way and write and report themselves): writes `value`
    /// (clamped when the element clamps; rounded or added the slow way), then
    /// reports the element finished when `done`, or its frame event when it
    /// wants events.
    @inline(__always)
    func endFrame(
        _ index: Int, _ value: V, done: Bool, flags bits: UInt8, _ p: Pointers, values: ColumnPointer<V>,
        output: inout FrameOutput
    ) {
        let current = bits & ElementFlag.clamps != 0 ? clamped(index, value) : value
        write(index, current, flags: bits, p, values: values)
        report(index, done: done, flags: bits, owner: p.owner, values: values, output: &output)
    }

    /// Writes `value` as it is or, when the element rounds or adds, the slow
    /// way (``writeSpecial(_:_:into:)``); remembers it as the last value.
    @inline(__always)
    func write(_ index: Int, _ value: V, flags bits: UInt8, _ p: Pointers, values: ColumnPointer<V>) {
        if bits & (ElementFlag.rounds | ElementFlag.additive) != 0 {
            _ = writeSpecial(index, value, into: values)
        } else {
            values[p.slot[index].index] = value
            p.previous[index] = value
        }
    }

    /// Reports element `index` finished when `done`, or its frame event when
    /// it wants events.
    @inline(__always)
    func report(
        _ index: Int, done: Bool, flags bits: UInt8, owner owners: ColumnPointer<AnimationHandle>,
        values: ColumnPointer<V>, output: inout FrameOutput
    ) {
        if done {
            reportFinished(index, bits: bits, values: values, output: &output)
        } else if bits & ElementFlag.wantsEvents != 0 {
            output.events.append(owners[index])
        }
    }
}

/// A batch of one kind of animation: the common columns plus its own
/// (listed in ``ColumnList/forEachColumn(_:)``), removed from together.
protocol ElementBatch: ColumnList {
    associatedtype V: AnimatableVector
    var common: ElementColumns<V> { get }
}

extension ElementBatch {
    /// Advances the batch's unpaused elements in runs of straight ones (no
    /// flag but ``ElementFlag/straight``'s: neither paused, observed,
    /// clamped, rounded nor additive). `run` advances a run from an index
    /// (``straightRun(from:_:step:)``) and says where it stopped and whether
    /// the element there finished (written, not yet reported), which is
    /// then reported finished. A run also ends at an element with another
    /// flag, which `general` advances unless it is paused. The flags' stop
    /// bytes end the last run (``ElementColumns/markEnd()``).
    @inline(__always)
    func advanceInStraightRuns(
        _ flags: ColumnPointer<UInt8>, values: ColumnPointer<V>, output: inout FrameOutput,
        run: (Int) -> (index: Int, finished: Bool), general: (Int, inout FrameOutput) -> Void
    ) {
        let end = count
        common.markEnd()
        var index = 0
        while true {
            let finished: Bool
            (index, finished) = run(index)
            guard index < end else { return }
            let bits = flags[index]
            if finished {
                common.reportFinished(index, bits: bits, values: values, output: &output)
            } else if bits & ElementFlag.paused == 0 {
                general(index, &output)
            }
            index &+= 1
        }
    }

    /// A run of straight elements from `start`, each advanced by `step`
    /// inline, with no call, so that the run keeps the batch's pointers in
    /// registers; where it stopped (an element with another flag, or one
    /// that `step` says finished) and whether that one finished. Returned
    /// from the closure a batch passes as ``advanceInStraightRuns``' `run`
    /// rather than ended by a flag that the loop tests: decays and basic
    /// animations then compile to 4 instructions fewer an element.
    @inline(__always)
    func straightRun(
        from start: Int, _ flags: ColumnPointer<UInt8>, step: (Int) -> Bool
    ) -> (index: Int, finished: Bool) {
        var index = start
        while flags[index] & ~ElementFlag.straight == 0 {
            if step(index) { return (index, true) }
            index &+= 1
        }
        return (index, false)
    }
}

// Inlined into each batch's callers, which know its concrete type: called
// through the protocol, a generic batch's conformance would be looked up at
// run time on every removal.
extension ElementBatch {
    @inline(__always)
    var count: Int { common.count }

    /// Removes element `index` (the last element moves into its place);
    /// returns the owner of the element moved, if any.
    @inline(__always)
    func remove(at index: Int) -> AnimationHandle? {
        removeElement(at: index)
        return common.remove(at: index)
    }

    /// Completes the quiet elements that finished in this advance
    /// (``ElementColumns/finishQuietly(output:entry:release:move:)``): each
    /// gives back the shared table entry `entry` reads through `release`.
    @inline(__always)
    func finishQuietly<Table>(
        output: inout FrameOutput, entry: (Int) -> TableIndex<Table>, release: (TableIndex<Table>, Int) -> Void
    ) {
        let end = common.finishQuietly(
            output: &output, entry: entry, release: release,
            move: { source, destination in copyElement(from: source, to: destination) })
        truncateColumns(to: end)
    }
}
