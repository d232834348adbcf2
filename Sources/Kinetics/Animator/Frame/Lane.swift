/// The property values of one width and the batches that animate them.
///
/// Widths are 1 (`Double`), 2 (`SIMD2<Double>`) and 4 (`SIMD4<Double>`, which
/// also holds 3-vectors); each lane is contiguous storage of its own type, so
/// a frame of scalar springs touches only scalars.
final class Lane<V: AnimatableVector> {
    /// The property values, by slot: read and written through
    /// ``subscript(slot:)``, which checks the slot, or ``withValues(_:)``.
    /// Appended to only between frames (``Animator/property(_:of:initial:kind:)``):
    /// a frame writes through a pointer to them.
    /// A column, not an array: an array held by a class checks that it is
    /// not shared before each write, and pays a closure to lend a pointer.
    let values = Column<V>()
    /// By slot: the record last added to the property under a key given by
    /// the caller (none yet: `.none`), so that adding under that key again can
    /// find what runs there without hashing the key. Only a hint: the
    /// record may have ended, or run under another key since
    /// (``KeyLookup/init(_:_:_:hint:)`` checks it).
    let keyedRecords = Column<RecordIndex>()
    /// One batch per method, in the order of ``SpringMethod/index``.
    let springs: [SpringBatch<V>] = SpringMethod.allCases.map { SpringBatch(method: $0) }
    let decays: [DecayBatch<V>] = DecayMethod.allCases.map { DecayBatch(method: $0) }
    let basics = BasicBatch<V>()
    let keyframes = KeyframeBatch<V>()
    /// The keyframe tracks of this lane's keyframe animations.
    let tracks = KeyframeTracks<V>()
    let customs = CustomBatch<V>()

    /// Runs `body` on the spring batch of method index `method`, borrowed
    /// without a retain (the lane holds its batches for its whole life): an
    /// atomic retain and release would cost a retarget more than its work.
    ///
    /// The index is checked against the number of methods, a constant,
    /// which `springs` (a constant) has one batch each of: where `method`
    /// comes from ``SpringElement/method`` (two bits), the compiler drops
    /// the check, as it could not drop one against the array's count.
    @inline(__always)
    func withSprings<Result>(_ method: Int, _ body: (SpringBatch<V>) -> Result) -> Result {
        precondition(UInt(bitPattern: method) < UInt(Self.springMethods), "spring method index \(method) out of 0..<4")
        return springs.withUnsafeBufferPointer {
            Unmanaged.passUnretained($0[method])._withUnsafeGuaranteedRef(body)
        }
    }

    /// How many spring batches a lane has: one per method.
    private static var springMethods: Int { 4 }

    init() {
        precondition(springs.count == Self.springMethods, "a lane has \(Self.springMethods) spring batches")
    }

    /// Renders the first frame (length 0) of record `index`'s spring element
    /// (``Animator/renderFirstFrame(_:at:_:)``), as its box would.
    ///
    /// A `pop` spring's frame needs only its rest threshold, its group's,
    /// which its element keeps (``SpringBatch/renderFirstPopFrame(_:values:output:)``):
    /// a new spring's first frame is part of every add and every replacement.
    func renderFirstSpringFrame(_ index: Int, animator: Animator, output: inout FrameOutput) {
        let spring = animator.status[index].spring
        let element = animator.status[index].element.index
        guard spring.method == SpringMethod.pop.index else {
            renderFirstGroupFrame(element, method: spring.method, animator: animator, output: &output)
            return
        }
        withSprings(spring.method) { batch in
            withValues { values in batch.renderFirstPopFrame(element, values: values, output: &output) }
        }
    }

    /// ``renderFirstSpringFrame(_:animator:output:)`` of a method whose
    /// first frame needs its group's. Out of line: its frame, 256 bytes on
    /// the stack, would make every `pop` spring's first frame set up that
    /// much stack and its guard.
    @inline(never)
    private func renderFirstGroupFrame(_ element: Int, method: Int, animator: Animator, output: inout FrameOutput) {
        withSprings(method) { batch in
            let frame = SharedTables.with(animator) { tables in
                tables.withSpringGroups(method) {
                    $0.immediateFrame(batch.group(element), configurations: tables.springs)
                }
            }
            withValues { values in batch.advanceOne(element, frame: frame, values: values, output: &output) }
        }
    }

    /// Makes room for `count` springs of method index `method` in all,
    /// writing the properties made so far, and for `settings` new groups of
    /// that method in `tables` (``SpringBatch/reserve(_:slots:groups:)``).
    func reserveSprings(_ count: Int, method: Int, settings: Int, tables: SharedTables) {
        let groups = tables.withSpringGroups(method) {
            $0.reserve(additional: settings, configurations: tables.springs)
        }
        withSprings(method) { $0.reserve(count, slots: values.count, groups: groups) }
    }

    /// Removes spring element `element` of the batch of method index
    /// `method`, giving back its group, after writing its target when
    /// `writingTarget` (a quiet end: neither rounded nor additive); returns
    /// the owner of the element moved into its place, if any.
    func removeSpring(_ element: Int, method: Int, writingTarget: Bool, tables: SharedTables) -> AnimationHandle? {
        withSprings(method) { batch in
            if writingTarget { self[slot: batch.common.slot[element]] = batch.common.to[element] }
            tables.releaseSpringGroup(method: method, batch.group(element))
            return batch.remove(at: element)
        }
    }

    /// Advances every batch, springs first; each batch then completes its
    /// quiet elements that finished, if the output collects them.
    ///
    /// The loops over batches count indices rather than iterate the arrays:
    /// an unspecialised `IndexingIterator` (debug builds) allocates.
    func advance(_ context: FrameContext, shared: SharedTables, output: inout FrameOutput) {
        guard values.count > 0 else { return }
        let pointer = values.pointer
        var index = 0
        while index < springs.count {
            let batch = springs[index]
            if batch.count > 0 {
                batch.advance(shared.springGroups[index], values: pointer, output: &output)
                if batch.common.quietlyFinished.count > 0 {
                    batch.finishQuietly(shared.springGroups[index], configurations: shared.springs, output: &output)
                }
            }
            index += 1
        }
        index = 0
        while index < decays.count {
            let batch = decays[index]
            if batch.count > 0 {
                batch.advance(context, configurations: shared.decays, values: pointer, output: &output)
                if batch.common.quietlyFinished.count > 0 {
                    batch.finishQuietly(shared.decays, output: &output)
                }
            }
            index += 1
        }
        if basics.count > 0 {
            basics.advance(context, timings: shared.timings, values: pointer, output: &output)
            if basics.common.quietlyFinished.count > 0 {
                basics.finishQuietly(shared.timings, output: &output)
            }
        }
        if keyframes.count > 0 {
            keyframes.advance(context, timings: shared.timings, tracks: tracks, values: pointer, output: &output)
            if keyframes.common.quietlyFinished.count > 0 {
                keyframes.finishQuietly(tracks, timings: shared.timings, output: &output)
            }
        }
        // Custom animations are never quiet: their steps are closures.
        if customs.count > 0 { customs.advance(context, values: pointer, output: &output) }
    }

    /// Appends a property of value `value`; returns its slot.
    func appendProperty(_ value: V) -> PropertySlot {
        values.append(value)
        keyedRecords.append(.none)
        return PropertySlot(values.count - 1)
    }

    /// The value of the property in `slot`, which must be one of the lane's.
    @inline(__always)
    subscript(slot slot: PropertySlot) -> V {
        get {
            checkSlot(slot)
            return values.pointer[slot.index]
        }
        set {
            checkSlot(slot)
            values.pointer[slot.index] = newValue
        }
    }

    @inline(__always)
    private func checkSlot(_ slot: PropertySlot) {
        precondition(
            UInt(bitPattern: slot.index) < UInt(bitPattern: values.count),
            "property slot \(slot.index) out of 0..<\(values.count)")
    }

    /// Runs `body` with a pointer to the values (which checks its indices
    /// in debug builds).
    @inline(__always)
    func withValues<Result>(_ body: (ColumnPointer<V>) -> Result) -> Result {
        body(values.pointer)
    }

    /// The number of animations in the lane's batches.
    var animationCount: Int {
        springs.reduce(0) { $0 + $1.count } + decays.reduce(0) { $0 + $1.count } + basics.count
            + keyframes.count + customs.count
    }
}

extension Lane {
    /// Makes every element report its end to the animator (when a tracer is set).
    func clearQuietFlags() {
        for common in allColumns {
            for index in 0 ..< common.count { common.setFlag(index, ElementFlag.quiet, false) }
        }
    }

    /// The columns of every batch in the lane, for the invariant check.
    var allColumns: [ElementColumns<V>] {
        springs.map(\.common) + decays.map(\.common) + [basics.common, keyframes.common, customs.common]
    }
}
