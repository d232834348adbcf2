/// How a timing function is evaluated inside the animator: WebKit's tolerance
/// is Pop's `1/(1000·duration)`, and the `fast` bezier method reads a
/// precomputed ``BezierTable``.
struct TimingEvaluator {
    let function: TimingFunction
    let bezier: BezierMethod
    let epsilon: Double
    let table: BezierTable?

    init(_ function: TimingFunction, bezier: BezierMethod, duration: Double) {
        self.function = function
        self.bezier = bezier
        epsilon = 1 / (1000 * duration)
        if bezier == .fast, case .bezier(let curve) = function.shape {
            table = BezierTable(curve)
        } else {
            table = nil
        }
    }

    @inline(__always)
    func callAsFunction(_ fraction: Double) -> Double {
        if let table { return table.solve(fraction) }
        return function.transform(fraction, method: bezier, epsilon: epsilon)
    }
}

/// The timing functions in use, shared by every animation with the same
/// function, bezier method and (for WebKit's tolerance) duration; a fast
/// bezier's table is built once for all of them.
final class TimingTable {
    struct Key: Hashable {
        let function: TimingFunction
        let bezier: BezierMethod
        let epsilon: Double
    }

    let evaluators = Column<TimingEvaluator>()
    private var keys: [Key] = []
    private var users: [Int] = []
    private var free: [Int32] = []
    private var lookup: [Key: Int32] = [:]

    func acquire(_ function: TimingFunction, bezier: BezierMethod, duration: Double) -> Int32 {
        let key = Key(function: function, bezier: bezier, epsilon: bezier == .webkit ? 1 / (1000 * duration) : 0)
        if let index = lookup[key] {
            users[Int(index)] += 1
            return index
        }
        let evaluator = TimingEvaluator(function, bezier: bezier, duration: duration)
        let index: Int32
        if let reused = free.popLast() {
            index = reused
            keys[Int(index)] = key
            users[Int(index)] = 1
            evaluators[Int(index)] = evaluator
        } else {
            index = Int32(keys.count)
            keys.append(key)
            users.append(1)
            evaluators.append(evaluator)
        }
        lookup[key] = index
        return index
    }

    func release(_ index: Int32) {
        users[Int(index)] -= 1
        if users[Int(index)] == 0 {
            lookup[keys[Int(index)]] = nil
            free.append(index)
        }
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

    /// The eased progress at `time` (Pop's progress of a basic animation).
    func progress(_ index: Int, at time: Double, timings: TimingTable) -> Double {
        let length = duration[index]
        return timings.evaluators[Int(timing[index])](Swift.min(time - start[index], length) / length)
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
        let writes: UnsafeMutablePointer<UInt8>
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
            writes = batch.common.writes.base
            threshold = batch.common.threshold.base
        }
    }

    func advance(_ context: FrameContext, timings: TimingTable, values: UnsafeMutablePointer<V>, output: inout FrameOutput) {
        let p = Pointers(self, timings)
        for index in 0 ..< count where p.flags[index] & ElementFlag.paused == 0 {
            advanceElement(index, p, context: context, values: values, output: &output)
        }
    }

    /// One element's frame (also the immediate first frame of a new animation).
    func advanceOne(_ index: Int, context: FrameContext, timings: TimingTable, values: UnsafeMutablePointer<V>,
                    output: inout FrameOutput) {
        advanceElement(index, Pointers(self, timings), context: context, values: values, output: &output)
    }

    /// Pop's basic frame: `t = min(elapsed, duration)/duration`,
    /// `value = from + p·(to - from)` with `p` the timing function at `t`;
    /// done when `t + 1e-6 >= 1`.
    @inline(__always)
    private func advanceElement(_ index: Int, _ p: Pointers, context: FrameContext, values: UnsafeMutablePointer<V>,
                                output: inout FrameOutput) {
        let length = p.duration[index]
        let t = Swift.min(context.time - p.start[index], length) / length
        let eased = p.evaluators[Int(p.timing[index])](t)
        let bits = p.flags[index]
        var current = p.from[index] + (p.to[index] - p.from[index]) * eased
        if bits & ElementFlag.clamps != 0 { current = common.clamped(index, current) }
        _ = common.write(
            index, current, flags: bits, values: values, slots: p.slot, previous: p.previous, writes: p.writes,
            to: p.to, threshold: p.threshold)
        if t + timeProgressThreshold >= 1 {
            output.finished.append(p.owner[index])
        } else if bits & ElementFlag.wantsEvents != 0 {
            output.events.append(p.owner[index])
        }
    }
}

/// A keyframe animation's values, key times and curves (indices into the
/// timing table), run forwards or backwards.
final class KeyframeTrack<V: AnimatableVector> {
    let values: [V]
    let keyTimes: [Double]
    let timing: [Int32]
    let calculation: KeyframeCalculation
    let isReversed: Bool

    /// A track through `values` at `keyTimes`; `reversed` runs it backwards
    /// (an autoreversed pass): values and times mirrored, and each segment's
    /// curve run backwards, `t ↦ 1 - f(1 - t)`.
    init(values: [V], keyTimes: [Double], timing: [Int32], calculation: KeyframeCalculation, reversed: Bool) {
        if reversed {
            self.values = values.reversed()
            self.keyTimes = keyTimes.reversed().map { 1 - $0 }
            self.timing = timing.reversed()
        } else {
            self.values = values
            self.keyTimes = keyTimes
            self.timing = timing
        }
        self.calculation = calculation
        isReversed = reversed
    }

    /// The value at fraction `t` of the duration; `cursor` remembers the
    /// segment of the last call, so that a forward-moving time costs O(1).
    @inline(__always)
    func value(at t: Double, cursor: inout Int, evaluators: UnsafeMutablePointer<TimingEvaluator>) -> V {
        let last = values.count - 1
        if last == 0 { return values[0] }
        if cursor > last || keyTimes[cursor] > t { cursor = 0 }
        while cursor < last && keyTimes[cursor + 1] <= t { cursor += 1 }
        if cursor == last { return values[last] }
        if calculation == .discrete { return values[cursor] }
        let start = keyTimes[cursor]
        let span = keyTimes[cursor + 1] - start
        let local = span > 0 ? (t - start) / span : 1
        let curve = evaluators[Int(timing[cursor])]
        let eased = isReversed ? 1 - curve(1 - local) : curve(local)
        return values[cursor] + (values[cursor + 1] - values[cursor]) * eased
    }
}

/// The keyframe animations of one lane.
final class KeyframeBatch<V: AnimatableVector> {
    let common = ElementColumns<V>()
    let start = Column<Double>()
    let duration = Column<Double>()
    let track = Column<KeyframeTrack<V>>()
    let cursor = Column<Int>()

    var count: Int { common.count }

    func appendState(start time: Double, track keyframes: KeyframeTrack<V>, duration length: Double) {
        start.append(time)
        duration.append(length)
        track.append(keyframes)
        cursor.append(0)
    }

    func remove(at index: Int) -> AnimationHandle? {
        start.removeSwapping(at: index)
        duration.removeSwapping(at: index)
        track.removeSwapping(at: index)
        cursor.removeSwapping(at: index)
        return common.remove(at: index)
    }

    /// The time fraction at `time`.
    func progress(_ index: Int, at time: Double) -> Double {
        Swift.min(time - start[index], duration[index]) / duration[index]
    }

    /// The columns as raw pointers, read once per frame.
    struct Pointers {
        let evaluators: UnsafeMutablePointer<TimingEvaluator>
        let start: UnsafeMutablePointer<Double>
        let duration: UnsafeMutablePointer<Double>
        let track: UnsafeMutablePointer<KeyframeTrack<V>>
        let cursor: UnsafeMutablePointer<Int>
        let to: UnsafeMutablePointer<V>
        let flags: UnsafeMutablePointer<UInt8>
        let owner: UnsafeMutablePointer<AnimationHandle>
        let slot: UnsafeMutablePointer<Int32>
        let previous: UnsafeMutablePointer<V>
        let writes: UnsafeMutablePointer<UInt8>
        let threshold: UnsafeMutablePointer<Double>

        init(_ batch: KeyframeBatch, _ timings: TimingTable) {
            evaluators = timings.evaluators.base
            start = batch.start.base
            duration = batch.duration.base
            track = batch.track.base
            cursor = batch.cursor.base
            to = batch.common.to.base
            flags = batch.common.flags.base
            owner = batch.common.owner.base
            slot = batch.common.slot.base
            previous = batch.common.previous.base
            writes = batch.common.writes.base
            threshold = batch.common.threshold.base
        }
    }

    func advance(_ context: FrameContext, timings: TimingTable, values: UnsafeMutablePointer<V>, output: inout FrameOutput) {
        let p = Pointers(self, timings)
        for index in 0 ..< count where p.flags[index] & ElementFlag.paused == 0 {
            advanceElement(index, p, context: context, values: values, output: &output)
        }
    }

    /// One element's frame (also the immediate first frame of a new animation).
    func advanceOne(_ index: Int, context: FrameContext, timings: TimingTable, values: UnsafeMutablePointer<V>,
                    output: inout FrameOutput) {
        advanceElement(index, Pointers(self, timings), context: context, values: values, output: &output)
    }

    @inline(__always)
    private func advanceElement(_ index: Int, _ p: Pointers, context: FrameContext, values: UnsafeMutablePointer<V>,
                                output: inout FrameOutput) {
        let length = p.duration[index]
        let t = Swift.min(context.time - p.start[index], length) / length
        var current = p.track[index].value(at: t, cursor: &p.cursor[index], evaluators: p.evaluators)
        let bits = p.flags[index]
        if bits & ElementFlag.clamps != 0 { current = common.clamped(index, current) }
        _ = common.write(
            index, current, flags: bits, values: values, slots: p.slot, previous: p.previous, writes: p.writes,
            to: p.to, threshold: p.threshold)
        if t + timeProgressThreshold >= 1 {
            output.finished.append(p.owner[index])
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

    func advanceElement(_ index: Int, context: FrameContext, values: UnsafeMutablePointer<V>, output: inout FrameOutput) {
        let slot = Int(common.slot[index])
        var frame = CustomFrame(
            time: context.time, frameLength: context.dt, elapsed: context.time - start[index], value: values[slot])
        let done = step[index](&frame)
        let value = frame.value.isFinite ? frame.value : values[slot]
        let bits = common.flags[index]
        _ = common.write(
            index, value, flags: bits, values: values, slots: common.slot.base, previous: common.previous.base,
            writes: common.writes.base, to: common.to.base, threshold: common.threshold.base)
        if done {
            output.finished.append(common.owner[index])
        } else if bits & ElementFlag.wantsEvents != 0 {
            output.events.append(common.owner[index])
        }
    }
}
