/// A keyframe animation's values, key times and curves (indices into the
/// timing table), run forwards or backwards: plain pointers into storage
/// that ``KeyframeTracks`` owns.
struct KeyframeTrack<V: AnimatableVector> {
    let values: UnsafeMutablePointer<V>
    let keyTimes: UnsafeMutablePointer<Double>
    let timing: UnsafeMutablePointer<TimingIndex>
    /// The index of the last value.
    let last: Int
    let discrete: Bool
    /// Run backwards (an autoreversed pass): values and times are stored
    /// mirrored, and each segment's curve runs backwards, `t ↦ 1 - f(1 - t)`.
    let reversed: Bool

    /// The value at fraction `t` of the duration; `cursor` remembers the
    /// segment of the last call (always one before the last value, where
    /// a segment starts), so that a time still in that segment costs two
    /// comparisons and a forward-moving one O(1).
    @inline(__always)
    func value(
        at t: Double, cursor: inout Int32, evaluators: ColumnPointer<TimingEvaluator>,
        timings: TimingTable
    ) -> V {
        if last == 0 { return values[0] }
        var segment = Int(cursor)
        let local: Double
        if keyTimes[segment] <= t && t < keyTimes[segment + 1] {
            // Still in the cursor's segment, whose span is then > 0.
            let start = keyTimes[segment]
            local = (t - start) / (keyTimes[segment + 1] - start)
        } else {
            if segment > last || keyTimes[segment] > t { segment = 0 }
            while segment < last && keyTimes[segment + 1] <= t { segment += 1 }
            // At most the last segment's start: `last` < Int32.max (the
            // track's insertion checks it).
            cursor = Int32(truncatingIfNeeded: Swift.min(segment, last - 1))
            if segment == last { return values[last] }
            let start = keyTimes[segment]
            let span = keyTimes[segment + 1] - start
            local = span > 0 ? (t - start) / span : 1
        }
        if discrete { return values[segment] }
        let curve = evaluators[timing[segment].index]
        let eased = reversed ? 1 - curve.evaluate(1 - local, timings) : curve.evaluate(local, timings)
        return values[segment] + (values[segment + 1] - values[segment]) * eased
    }
}

/// The keyframe tracks of one lane, shared by every animation with the same
/// keyframes and direction: adding keyframes that are already in use builds
/// nothing and allocates nothing.
final class KeyframeTracks<V: AnimatableVector>: UncheckedState<KeyframeTracks<V>.State> {
    /// The tracks, by index (the hot loop reads these).
    let tracks = Column<KeyframeTrack<V>>()
    struct Entry {
        var packed: [SIMD4<Double>]
        var keyTimes: [Double]
        var functions: [TimingFunction]
        var calculation: KeyframeCalculation
        var duration: Double
        var reversed: Bool
        var hash: Int
        /// The next entry with the same hash, or none.
        var next: TrackIndex
    }
    struct State {
        var slots = CountedSlots<TrackSlot>()
        var entries: [Entry] = []
        /// The first entry of each hash; the rest are chained through `next`.
        var buckets: [Int: TrackIndex] = [:]
    }

    init() { super.init(State()) }

    deinit {
        for index in state.entries.indices where state.slots.users[index] > 0 { deallocate(tracks[index]) }
    }

    private func deallocate(_ track: KeyframeTrack<V>) {
        track.values.deallocate()
        track.keyTimes.deallocate()
        track.timing.deallocate()
    }

    /// The track of `keyframes` in the given direction, counting one more user.
    func acquire<Value: AnimatableVector>(_ keyframes: Keyframes<Value>, reversed: Bool, timings: TimingTable)
        -> TrackIndex
    {
        var hasher = Hasher()
        hasher.combine(keyframes.values.count)
        var position = 0
        while position < keyframes.values.count {
            hasher.combine(keyframes.values[position].packed)
            hasher.combine(keyframes.keyTimes[position])
            position += 1
        }
        position = 0
        while position < keyframes.timingFunctions.count {
            hasher.combine(keyframes.timingFunctions[position])
            position += 1
        }
        hasher.combine(keyframes.calculation)
        hasher.combine(keyframes.duration)
        hasher.combine(reversed)
        let hash = hasher.finalize()
        var candidate = state.buckets[hash] ?? .none
        while !candidate.isNone {
            if matches(candidate.index, keyframes, reversed: reversed) {
                state.slots.retain(candidate)
                return candidate
            }
            candidate = state.entries[candidate.index].next
        }
        return insert(keyframes, reversed: reversed, hash: hash, timings: timings)
    }

    /// Whether entry `index` holds `keyframes` in the given direction. Plain
    /// loops: no closure or iterator that an unoptimised build would box.
    private func matches<Value: AnimatableVector>(_ index: Int, _ keyframes: Keyframes<Value>, reversed: Bool) -> Bool {
        guard state.entries[index].reversed == reversed, state.entries[index].calculation == keyframes.calculation,
            state.entries[index].duration == keyframes.duration, state.entries[index].keyTimes == keyframes.keyTimes,
            state.entries[index].functions == keyframes.timingFunctions,
            state.entries[index].packed.count == keyframes.values.count
        else { return false }
        var position = 0
        while position < keyframes.values.count {
            if state.entries[index].packed[position] != keyframes.values[position].packed { return false }
            position += 1
        }
        return true
    }

    private func insert<Value: AnimatableVector>(
        _ keyframes: Keyframes<Value>, reversed: Bool, hash: Int, timings: TimingTable
    ) -> TrackIndex {
        let count = keyframes.values.count
        precondition(count < Int(Int32.max), "a keyframe track holds fewer than 2^31 - 1 values")
        let values = UnsafeMutablePointer<V>.allocate(capacity: count)
        let keyTimes = UnsafeMutablePointer<Double>.allocate(capacity: count)
        let timing = UnsafeMutablePointer<TimingIndex>.allocate(capacity: max(count - 1, 1))
        for index in 0 ..< count {
            let source = reversed ? count - 1 - index : index
            values[index] = V(packed: keyframes.values[source].packed)
            keyTimes[index] = reversed ? 1 - keyframes.keyTimes[source] : keyframes.keyTimes[source]
        }
        for segment in 0 ..< count - 1 {
            let source = reversed ? count - 2 - segment : segment
            timing[segment] = timings.acquire(
                keyframes.timingFunctions[source], bezier: .fast, duration: keyframes.duration)
        }
        let track = KeyframeTrack(
            values: values, keyTimes: keyTimes, timing: timing, last: count - 1,
            discrete: keyframes.calculation == .discrete, reversed: reversed)
        let entry = Entry(
            packed: keyframes.values.map(\.packed), keyTimes: keyframes.keyTimes, functions: keyframes.timingFunctions,
            calculation: keyframes.calculation, duration: keyframes.duration, reversed: reversed, hash: hash,
            next: state.buckets[hash] ?? .none)
        let index = state.slots.allocate()
        state.entries.store(entry, at: index)
        tracks.store(track, at: index)
        state.buckets[hash] = index
        return index
    }

    /// Counts one user fewer; at zero the track's storage and timing functions are released.
    ///
    /// Out of line: the batches call it once per run of finished elements,
    /// and inlined it would crowd their loops.
    @inline(never)
    func release(_ index: TrackIndex, count released: Int = 1, timings: TimingTable) {
        guard state.slots.release(index, count: released) else { return }
        let position = index.index
        let entry = state.entries[position]
        // Unlink from its hash chain.
        if state.buckets[entry.hash] == index {
            state.buckets[entry.hash] = entry.next.isNone ? nil : entry.next
        } else {
            var previous = state.buckets[entry.hash] ?? .none
            while !previous.isNone && state.entries[previous.index].next != index {
                previous = state.entries[previous.index].next
            }
            if !previous.isNone { state.entries[previous.index].next = entry.next }
        }
        let track = tracks[position]
        for segment in 0 ..< track.last { timings.release(track.timing[segment]) }
        deallocate(track)
        state.entries[position].packed = []
        state.slots.recycle(index)
    }

    /// Every way the tracks disagree with the users counted from the
    /// animations; counts in `timings` the tracks' own users.
    func violations(expected: [Int], timings: inout [Int]) -> [String] {
        for index in state.entries.indices where state.slots.users[index] > 0 {
            for segment in 0 ..< tracks[index].last { TableUsage.count(tracks[index].timing[segment], in: &timings) }
        }
        return state.slots.violations(expected: expected, name: "keyframe track")
    }

    /// The first and last values of a track (its from and to).
    func ends(_ index: TrackIndex) -> (first: V, last: V) {
        let track = tracks[index.index]
        return (track.values[0], track.values[track.last])
    }
}
