/// Where a batch reports what happened to its elements during a frame.
struct FrameOutput {
    /// Elements whose records want per-frame events.
    var events: [AnimationHandle] = []
    /// Elements that finished this frame.
    var finished: [AnimationHandle] = []
    /// Whether batches complete quiet elements themselves
    /// (``ElementColumns/finishQuietly``): in a tick's advance, not in an
    /// element's immediate first frame.
    var collectsQuiet = false
    /// The records (their owners' indices) of quiet elements that finished
    /// and were removed from their batches: 4 bytes each, since a frame in
    /// which 100,000 finish writes and reads them all. (Columns, not arrays:
    /// no copy-on-write check per append; their owner reserves room for
    /// every element it has, so no frame allocates.)
    let quiet = Column<RecordIndex>()
    /// Elements moved to a new index by those removals, or by a spring
    /// batch grouping the springs it gained (``TailGrouping``), in order
    /// (one may move more than once; the last move holds).
    let moved = Column<MovedElement>()

    /// Makes room for `count` quiet elements finishing in one frame (and as
    /// many moves again, for the springs grouped).
    func reserveQuiet(_ count: Int) {
        quiet.reserve(count)
        moved.reserve(2 * count)
    }

    mutating func reset() {
        // Checked first: emptying an array goes through a generic replace.
        if !events.isEmpty { events.removeAll(keepingCapacity: true) }
        if !finished.isEmpty { finished.removeAll(keepingCapacity: true) }
        quiet.truncate(to: 0)
        moved.truncate(to: 0)
    }
}

/// An element that a removal moved, and its new index.
struct MovedElement {
    let owner: AnimationHandle
    let element: ElementIndex
}

/// What a batch needs to know about the frame.
struct FrameContext {
    /// The frame's time.
    let time: Double
    /// The frame length (0 for an element's first, immediate frame).
    let dt: Double
}

/// Counts the users of shared table entries in runs, to give them back a
/// run at a time: elements that finish together mostly share one entry.
struct ReleaseRuns<Table> {
    private var entry = TableIndex<Table>.none
    private var users = 0

    /// Counts one user of `index`; a different entry first ends the run so far.
    @inline(__always)
    mutating func add(_ index: TableIndex<Table>, release: (TableIndex<Table>, Int) -> Void) {
        if index != entry {
            flush(release)
            entry = index
        }
        users += 1
    }

    /// Gives back the run so far.
    mutating func flush(_ release: (TableIndex<Table>, Int) -> Void) {
        if users > 0 { release(entry, users) }
        users = 0
    }
}
