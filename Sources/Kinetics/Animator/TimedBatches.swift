/// A timing function as the hot loops evaluate it: linear and table-backed
/// beziers inline (a table's split segments and ends through its own slow
/// path), everything else (WebKit's and the precise solver, steps) through
/// ``TimingTable/evaluateSlowly(_:_:)``.
/// It holds no references, so reading it costs no reference counting.
struct TimingEvaluator {
    enum Form: UInt8 {
        case linear
        case table
        case slow
    }

    var form: Form
    /// The table as evaluation reads it (see ``BezierTable``; the timing
    /// table keeps the table alive).
    var table: BezierTable.Lookup?
    /// The entry in the timing table.
    var index: Int32

    /// The eased fraction at `x`.
    @inline(__always)
    func evaluate(_ x: Double, _ timings: TimingTable) -> Double {
        switch form {
        case .linear:
            return x
        case .table:
            // The ends too, as ``BezierTable/solve(_:)`` gives them.
            return table.unsafelyUnwrapped.solve(x)
        case .slow:
            return timings.evaluateSlowly(index, x)
        }
    }
}

/// The timing functions in use, shared by every animation with the same
/// function, bezier method and (for WebKit's tolerance, Pop's
/// `1/(1000·duration)`) duration; a fast bezier's table is built once for
/// all of them.
final class TimingTable {
    struct Key: Hashable {
        let function: TimingFunction
        let bezier: BezierMethod
        let epsilon: Double
    }

    let evaluators = Column<TimingEvaluator>()
    private var keys: [Key] = []
    private var users: [Int] = []
    private var tables: [BezierTable?] = []
    private var free: [Int32] = []
    private var lookup: [Key: Int32] = [:]
    /// Entries nobody uses, oldest first, kept so that the next animation
    /// along the same curve does not build its table again (a UI often runs
    /// one ease-in-out at a time); beyond ``idleLimit`` the oldest goes.
    private var idle: [Int32] = []
    static let idleLimit = 16

    init() { idle.reserveCapacity(Self.idleLimit + 1) }

    /// The entry for `function` solved with `bezier` over `duration`, counting one more user.
    func acquire(_ function: TimingFunction, bezier: BezierMethod, duration: Double) -> Int32 {
        let key = Key(function: function, bezier: bezier, epsilon: bezier == .webkit ? 1 / (1000 * duration) : 0)
        if let index = lookup[key] {
            if users[Int(index)] == 0, let position = idle.firstIndex(of: index) { idle.remove(at: position) }
            users[Int(index)] += 1
            return index
        }
        let index = free.popLast() ?? Int32(keys.count)
        var evaluator = TimingEvaluator(form: .slow, index: index)
        var table: BezierTable?
        switch function.shape {
        case .linear:
            evaluator.form = .linear
        case .bezier(let curve) where bezier == .fast:
            let built = BezierTable(curve)
            evaluator.form = .table
            evaluator.table = built.lookup
            table = built
        case .bezier, .steps:
            break
        }
        if Int(index) == keys.count {
            keys.append(key)
            // Room to free every entry without allocating (in a frame).
            free.reserveCapacity(keys.capacity)
            users.append(1)
            tables.append(table)
            evaluators.append(evaluator)
        } else {
            keys[Int(index)] = key
            users[Int(index)] = 1
            tables[Int(index)] = table
            evaluators[Int(index)] = evaluator
        }
        lookup[key] = index
        return index
    }

    /// Counts one user fewer; at zero the entry waits, idle, for a new user
    /// and is recycled when too many others wait.
    func release(_ index: Int32, count released: Int = 1) {
        users[Int(index)] -= released
        guard users[Int(index)] == 0 else { return }
        idle.append(index)
        if idle.count > Self.idleLimit { recycle(idle.removeFirst()) }
    }

    private func recycle(_ index: Int32) {
        let position = Int(index)
        lookup[keys[position]] = nil
        evaluators[position] = TimingEvaluator(form: .slow, index: index)
        tables[position] = nil
        free.append(index)
    }

    /// The eased fraction at `x` the slow way: WebKit's and the precise
    /// solver, steps (a table's evaluator solves with its own lookup).
    @inline(never)
    func evaluateSlowly(_ index: Int32, _ x: Double) -> Double {
        let key = keys[Int(index)]
        return key.function.transform(x, method: key.bezier, epsilon: key.epsilon)
    }
}

/// Pop's threshold for calling a basic animation done.
let timeProgressThreshold = 1e-6

/// The basic animations of one lane: from `from` to `to` along a timing
/// function over a duration (Pop's `POPBasicAnimation`).
final class BasicBatch<V: AnimatableVector> {
    let common = ElementColumns<V>()
    let start = Column<Double>()
    let duration = Column<Double>()
    let timing = Column<Int32>()

    var count: Int { common.count }

    func appendState(start time: Double, duration length: Double, timing index: Int32) {
        start.append(time)
        duration.append(length)
        timing.append(index)
    }

    func remove(at index: Int) -> AnimationHandle? {
        start.removeSwapping(at: index)
        duration.removeSwapping(at: index)
        timing.removeSwapping(at: index)
        return common.remove(at: index)
    }

    /// Completes the quiet animations that finished in this advance
    /// (``ElementColumns/finishQuietly``), giving back their timing functions.
    func finishQuietly(_ timings: TimingTable, output: inout FrameOutput) {
        let end = common.finishQuietly(
            output: &output, entry: { timing.base[$0] },
            release: { entry, users in timings.release(entry, count: users) },
            move: { source, destination in
                start.copy(from: source, to: destination)
                duration.copy(from: source, to: destination)
                timing.copy(from: source, to: destination)
            })
        start.truncate(to: end)
        duration.truncate(to: end)
        timing.truncate(to: end)
    }

    /// The eased progress at `time` (Pop's progress of a basic animation).
    func progress(_ index: Int, at time: Double, timings: TimingTable) -> Double {
        let length = duration[index]
        return timings.evaluators[Int(timing[index])].evaluate(Swift.min(time - start[index], length) / length, timings)
    }

    /// The (clamped, unrounded) value at `time`.
    func value(_ index: Int, at time: Double, timings: TimingTable) -> V {
        let p = progress(index, at: time, timings: timings)
        return common.clamped(index, common.from[index] + (common.to[index] - common.from[index]) * p)
    }

    /// The columns as raw pointers, read once per frame.
    struct Pointers {
        let evaluators: UnsafeMutablePointer<TimingEvaluator>
        let start: UnsafeMutablePointer<Double>
        let duration: UnsafeMutablePointer<Double>
        let timing: UnsafeMutablePointer<Int32>
        let from: UnsafeMutablePointer<V>
        let to: UnsafeMutablePointer<V>
        let flags: UnsafeMutablePointer<UInt8>
        let owner: UnsafeMutablePointer<AnimationHandle>
        let slot: UnsafeMutablePointer<Int32>
        let previous: UnsafeMutablePointer<V>
        let threshold: UnsafeMutablePointer<Double>

        init(_ batch: BasicBatch, _ timings: TimingTable) {
            evaluators = timings.evaluators.base
            start = batch.start.base
            duration = batch.duration.base
            timing = batch.timing.base
            from = batch.common.from.base
            to = batch.common.to.base
            flags = batch.common.flags.base
            owner = batch.common.owner.base
            slot = batch.common.slot.base
            previous = batch.common.previous.base
            threshold = batch.common.threshold.base
        }
    }

    func advance(
        _ context: FrameContext, timings: TimingTable, values: UnsafeMutablePointer<V>, output: inout FrameOutput
    ) {
        let p = Pointers(self, timings)
        for index in 0 ..< count where p.flags[index] & ElementFlag.paused == 0 {
            advanceElement(index, p, context: context, timings: timings, values: values, output: &output)
        }
    }

    /// One element's frame (also the immediate first frame of a new animation).
    func advanceOne(
        _ index: Int, context: FrameContext, timings: TimingTable, values: UnsafeMutablePointer<V>,
        output: inout FrameOutput
    ) {
        advanceElement(
            index, Pointers(self, timings), context: context, timings: timings, values: values, output: &output)
    }

    /// Pop's basic frame: `t = min(elapsed, duration)/duration`,
    /// `value = from + p·(to - from)` with `p` the timing function at `t`;
    /// done when `t + 1e-6 >= 1`.
    @inline(__always)
    private func advanceElement(
        _ index: Int, _ p: Pointers, context: FrameContext, timings: TimingTable,
        values: UnsafeMutablePointer<V>, output: inout FrameOutput
    ) {
        let length = p.duration[index]
        let t = Swift.min(context.time - p.start[index], length) / length
        let eased = p.evaluators[Int(p.timing[index])].evaluate(t, timings)
        let bits = p.flags[index]
        var current = p.from[index] + (p.to[index] - p.from[index]) * eased
        if bits & ElementFlag.clamps != 0 { current = common.clamped(index, current) }
        _ = common.write(
            index, current, flags: bits, values: values, slots: p.slot, previous: p.previous,
            to: p.to, threshold: p.threshold)
        if t + timeProgressThreshold >= 1 {
            common.reportFinished(index, bits: bits, values: values, output: &output)
        } else if bits & ElementFlag.wantsEvents != 0 {
            output.events.append(p.owner[index])
        }
    }
}

/// A keyframe animation's values, key times and curves (indices into the
/// timing table), run forwards or backwards: plain pointers into storage
/// that ``KeyframeTracks`` owns.
struct KeyframeTrack<V: AnimatableVector> {
    let values: UnsafeMutablePointer<V>
    let keyTimes: UnsafeMutablePointer<Double>
    let timing: UnsafeMutablePointer<Int32>
    /// The index of the last value.
    let last: Int
    let discrete: Bool
    /// Run backwards (an autoreversed pass): values and times are stored
    /// mirrored, and each segment's curve runs backwards, `t ↦ 1 - f(1 - t)`.
    let reversed: Bool

    /// The value at fraction `t` of the duration; `cursor` remembers the
    /// segment of the last call, so that a forward-moving time costs O(1).
    @inline(__always)
    func value(
        at t: Double, cursor: inout Int32, evaluators: UnsafeMutablePointer<TimingEvaluator>,
        timings: TimingTable
    ) -> V {
        if last == 0 { return values[0] }
        var segment = Int(cursor)
        if segment > last || keyTimes[segment] > t { segment = 0 }
        while segment < last && keyTimes[segment + 1] <= t { segment += 1 }
        cursor = Int32(segment)
        if segment == last { return values[last] }
        if discrete { return values[segment] }
        let start = keyTimes[segment]
        let span = keyTimes[segment + 1] - start
        let local = span > 0 ? (t - start) / span : 1
        let curve = evaluators[Int(timing[segment])]
        let eased = reversed ? 1 - curve.evaluate(1 - local, timings) : curve.evaluate(local, timings)
        return values[segment] + (values[segment + 1] - values[segment]) * eased
    }
}

/// The keyframe tracks of one lane, shared by every animation with the same
/// keyframes and direction: adding keyframes that are already in use builds
/// nothing and allocates nothing.
final class KeyframeTracks<V: AnimatableVector> {
    /// The tracks, by index (the hot loop reads these).
    let tracks = Column<KeyframeTrack<V>>()
    private struct Entry {
        var packed: [SIMD4<Double>]
        var keyTimes: [Double]
        var functions: [TimingFunction]
        var calculation: KeyframeCalculation
        var duration: Double
        var reversed: Bool
        var users: Int
        var hash: Int
        /// The next entry with the same hash, or -1.
        var next: Int32
    }
    private var entries: [Entry] = []
    private var buckets: [Int: Int32] = [:]
    private var free: [Int32] = []

    deinit {
        for index in entries.indices where entries[index].users > 0 { deallocate(tracks[index]) }
    }

    private func deallocate(_ track: KeyframeTrack<V>) {
        track.values.deallocate()
        track.keyTimes.deallocate()
        track.timing.deallocate()
    }

    /// The track of `keyframes` in the given direction, counting one more user.
    func acquire<Value: AnimatableVector>(_ keyframes: Keyframes<Value>, reversed: Bool, timings: TimingTable) -> Int32
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
        var candidate = buckets[hash] ?? -1
        while candidate >= 0 {
            if matches(Int(candidate), keyframes, reversed: reversed) {
                entries[Int(candidate)].users += 1
                return candidate
            }
            candidate = entries[Int(candidate)].next
        }
        return insert(keyframes, reversed: reversed, hash: hash, timings: timings)
    }

    /// Whether entry `index` holds `keyframes` in the given direction. Plain
    /// loops: no closure or iterator that an unoptimised build would box.
    private func matches<Value: AnimatableVector>(_ index: Int, _ keyframes: Keyframes<Value>, reversed: Bool) -> Bool {
        guard entries[index].reversed == reversed, entries[index].calculation == keyframes.calculation,
            entries[index].duration == keyframes.duration, entries[index].keyTimes == keyframes.keyTimes,
            entries[index].functions == keyframes.timingFunctions, entries[index].packed.count == keyframes.values.count
        else { return false }
        var position = 0
        while position < keyframes.values.count {
            if entries[index].packed[position] != keyframes.values[position].packed { return false }
            position += 1
        }
        return true
    }

    private func insert<Value: AnimatableVector>(
        _ keyframes: Keyframes<Value>, reversed: Bool, hash: Int, timings: TimingTable
    ) -> Int32 {
        let count = keyframes.values.count
        let values = UnsafeMutablePointer<V>.allocate(capacity: count)
        let keyTimes = UnsafeMutablePointer<Double>.allocate(capacity: count)
        let timing = UnsafeMutablePointer<Int32>.allocate(capacity: max(count - 1, 1))
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
            calculation: keyframes.calculation, duration: keyframes.duration, reversed: reversed, users: 1, hash: hash,
            next: buckets[hash] ?? -1)
        let index: Int32
        if let reused = free.popLast() {
            index = reused
            entries[Int(index)] = entry
            tracks[Int(index)] = track
        } else {
            index = Int32(entries.count)
            entries.append(entry)
            tracks.append(track)
            // Room to free every entry without allocating (in a frame).
            free.reserveCapacity(entries.capacity)
        }
        buckets[hash] = index
        return index
    }

    /// Counts one user fewer; at zero the track's storage and timing functions are released.
    func release(_ index: Int32, count released: Int = 1, timings: TimingTable) {
        let position = Int(index)
        entries[position].users -= released
        guard entries[position].users == 0 else { return }
        let entry = entries[position]
        // Unlink from its hash chain.
        if buckets[entry.hash] == index {
            buckets[entry.hash] = entry.next >= 0 ? entry.next : nil
        } else {
            var previous = buckets[entry.hash] ?? -1
            while previous >= 0 && entries[Int(previous)].next != index { previous = entries[Int(previous)].next }
            if previous >= 0 { entries[Int(previous)].next = entry.next }
        }
        let track = tracks[position]
        for segment in 0 ..< track.last { timings.release(track.timing[segment]) }
        deallocate(track)
        entries[position].packed = []
        free.append(index)
    }

    /// The first and last values of a track (its from and to).
    func ends(_ index: Int32) -> (first: V, last: V) {
        let track = tracks[Int(index)]
        return (track.values[0], track.values[track.last])
    }
}

/// The keyframe animations of one lane.
final class KeyframeBatch<V: AnimatableVector> {
    let common = ElementColumns<V>()
    let start = Column<Double>()
    let duration = Column<Double>()
    let track = Column<Int32>()
    let cursor = Column<Int32>()

    var count: Int { common.count }

    func appendState(start time: Double, track index: Int32, duration length: Double) {
        start.append(time)
        duration.append(length)
        track.append(index)
        cursor.append(0)
    }

    func remove(at index: Int) -> AnimationHandle? {
        start.removeSwapping(at: index)
        duration.removeSwapping(at: index)
        track.removeSwapping(at: index)
        cursor.removeSwapping(at: index)
        return common.remove(at: index)
    }

    /// Completes the quiet animations that finished in this advance
    /// (``ElementColumns/finishQuietly``), giving back their tracks.
    func finishQuietly(
        _ tracks: KeyframeTracks<V>, timings: TimingTable, output: inout FrameOutput
    ) {
        let end = common.finishQuietly(
            output: &output, entry: { track.base[$0] },
            release: { entry, users in tracks.release(entry, count: users, timings: timings) },
            move: { source, destination in
                start.copy(from: source, to: destination)
                duration.copy(from: source, to: destination)
                track.copy(from: source, to: destination)
                cursor.copy(from: source, to: destination)
            })
        start.truncate(to: end)
        duration.truncate(to: end)
        track.truncate(to: end)
        cursor.truncate(to: end)
    }

    /// The time fraction at `time`.
    func progress(_ index: Int, at time: Double) -> Double {
        Swift.min(time - start[index], duration[index]) / duration[index]
    }

    /// The columns as raw pointers, read once per frame.
    struct Pointers {
        let evaluators: UnsafeMutablePointer<TimingEvaluator>
        let tracks: UnsafeMutablePointer<KeyframeTrack<V>>
        let start: UnsafeMutablePointer<Double>
        let duration: UnsafeMutablePointer<Double>
        let track: UnsafeMutablePointer<Int32>
        let cursor: UnsafeMutablePointer<Int32>
        let to: UnsafeMutablePointer<V>
        let flags: UnsafeMutablePointer<UInt8>
        let owner: UnsafeMutablePointer<AnimationHandle>
        let slot: UnsafeMutablePointer<Int32>
        let previous: UnsafeMutablePointer<V>
        let threshold: UnsafeMutablePointer<Double>

        init(_ batch: KeyframeBatch, _ timings: TimingTable, _ tracks: KeyframeTracks<V>) {
            evaluators = timings.evaluators.base
            self.tracks = tracks.tracks.base
            start = batch.start.base
            duration = batch.duration.base
            track = batch.track.base
            cursor = batch.cursor.base
            to = batch.common.to.base
            flags = batch.common.flags.base
            owner = batch.common.owner.base
            slot = batch.common.slot.base
            previous = batch.common.previous.base
            threshold = batch.common.threshold.base
        }
    }

    func advance(
        _ context: FrameContext, timings: TimingTable, tracks: KeyframeTracks<V>,
        values: UnsafeMutablePointer<V>, output: inout FrameOutput
    ) {
        let p = Pointers(self, timings, tracks)
        for index in 0 ..< count where p.flags[index] & ElementFlag.paused == 0 {
            advanceElement(index, p, context: context, timings: timings, values: values, output: &output)
        }
    }

    /// One element's frame (also the immediate first frame of a new animation).
    func advanceOne(
        _ index: Int, context: FrameContext, timings: TimingTable, tracks: KeyframeTracks<V>,
        values: UnsafeMutablePointer<V>, output: inout FrameOutput
    ) {
        advanceElement(
            index, Pointers(self, timings, tracks), context: context, timings: timings, values: values,
            output: &output)
    }

    @inline(__always)
    private func advanceElement(
        _ index: Int, _ p: Pointers, context: FrameContext, timings: TimingTable,
        values: UnsafeMutablePointer<V>, output: inout FrameOutput
    ) {
        let length = p.duration[index]
        let t = Swift.min(context.time - p.start[index], length) / length
        var current = p.tracks[Int(p.track[index])].value(
            at: t, cursor: &p.cursor[index], evaluators: p.evaluators, timings: timings)
        let bits = p.flags[index]
        if bits & ElementFlag.clamps != 0 { current = common.clamped(index, current) }
        _ = common.write(
            index, current, flags: bits, values: values, slots: p.slot, previous: p.previous,
            to: p.to, threshold: p.threshold)
        if t + timeProgressThreshold >= 1 {
            common.reportFinished(index, bits: bits, values: values, output: &output)
        } else if bits & ElementFlag.wantsEvents != 0 {
            output.events.append(p.owner[index])
        }
    }
}

/// The custom animations of one lane: a closure per animation.
final class CustomBatch<V: AnimatableVector> {
    let common = ElementColumns<V>()
    let start = Column<Double>()
    let step = Column<(inout CustomFrame<V>) -> Bool>()

    var count: Int { common.count }

    func appendState(start time: Double, step closure: @escaping (inout CustomFrame<V>) -> Bool) {
        start.append(time)
        step.append(closure)
    }

    func remove(at index: Int) -> AnimationHandle? {
        start.removeSwapping(at: index)
        step.removeSwapping(at: index)
        return common.remove(at: index)
    }

    func advance(_ context: FrameContext, values: UnsafeMutablePointer<V>, output: inout FrameOutput) {
        let flags = common.flags.base
        for index in 0 ..< count where flags[index] & ElementFlag.paused == 0 {
            advanceElement(index, context: context, values: values, output: &output)
        }
    }

    func advanceElement(_ index: Int, context: FrameContext, values: UnsafeMutablePointer<V>, output: inout FrameOutput)
    {
        let slot = Int(common.slot[index])
        var frame = CustomFrame(
            time: context.time, frameLength: context.dt, elapsed: context.time - start[index], value: values[slot])
        let done = step[index](&frame)
        let value = frame.value.isFinite ? frame.value : values[slot]
        let bits = common.flags[index]
        _ = common.write(
            index, value, flags: bits, values: values, slots: common.slot.base, previous: common.previous.base,
            to: common.to.base, threshold: common.threshold.base)
        if done {
            output.finished.append(common.owner[index])
        } else if bits & ElementFlag.wantsEvents != 0 {
            output.events.append(common.owner[index])
        }
    }
}
