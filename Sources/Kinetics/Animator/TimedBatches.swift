/// How a timing function is evaluated inside the animator.
struct TimingEvaluator: Sendable {
    let function: TimingFunction
    let bezier: BezierMethod
    /// WebKit's tolerance, Pop's `1/(1000·duration)`.
    let epsilon: Double

    init(_ function: TimingFunction, bezier: BezierMethod, duration: Double) {
        self.function = function
        self.bezier = bezier
        epsilon = 1 / (1000 * duration)
    }

    func callAsFunction(_ fraction: Double) -> Double {
        function.transform(fraction, method: bezier, epsilon: epsilon)
    }
}

/// Pop's threshold for calling a basic animation done.
let timeProgressThreshold = 1e-6

/// The basic animations of one lane: from `from` to `to` along a timing
/// function over a duration (Pop's `POPBasicAnimation`).
final class BasicBatch<V: AnimatableVector> {
    var state: [ElementState<V>] = []
    var start: [Double] = []
    var duration: [Double] = []
    var timing: [TimingEvaluator] = []
    /// The eased progress of the last frame.
    var progress: [Double] = []

    init() {}

    var count: Int { state.count }

    func append(_ element: ElementState<V>, start time: Double, duration length: Double, timing function: TimingEvaluator) -> Int32 {
        state.append(element)
        start.append(time)
        duration.append(length)
        timing.append(function)
        progress.append(0)
        return Int32(state.count - 1)
    }

    func remove(at index: Int) -> AnimationHandle? {
        let last = state.count - 1
        let moved: AnimationHandle? = index == last ? nil : state[last].owner
        state.swapAt(index, last)
        state.removeLast()
        start.swapAt(index, last)
        start.removeLast()
        duration.swapAt(index, last)
        duration.removeLast()
        timing.swapAt(index, last)
        timing.removeLast()
        progress.swapAt(index, last)
        progress.removeLast()
        return moved
    }

    func value(_ index: Int) -> V {
        let s = state[index]
        return s.clamped(s.from + (s.to - s.from) * progress[index])
    }

    func advance(_ context: FrameContext, values: UnsafeMutablePointer<V>, output: inout FrameOutput) {
        for index in 0 ..< state.count where !state[index].paused {
            advanceElement(index, context: context, values: values, output: &output)
        }
    }

    /// Pop's basic frame: `t = min(elapsed, duration)/duration`,
    /// `value = from + p·(to - from)` with `p` the timing function at `t`;
    /// done when `t + 1e-6 >= 1`.
    func advanceElement(_ index: Int, context: FrameContext, values: UnsafeMutablePointer<V>, output: inout FrameOutput) {
        let length = duration[index]
        let t = Swift.min(context.time - start[index], length) / length
        let p = timing[index](t)
        progress[index] = p
        let s = state[index]
        let current = s.clamped(s.from + (s.to - s.from) * p)
        state[index].write(current, into: values)
        if t + timeProgressThreshold >= 1 {
            output.finished.append(s.owner)
        } else if s.wantsEvents {
            output.events.append(s.owner)
        }
    }
}

/// A keyframe animation's track, shared by nothing and read every frame.
final class KeyframeTrack<V: AnimatableVector> {
    let values: [V]
    let keyTimes: [Double]
    let timing: [TimingEvaluator]
    let calculation: KeyframeCalculation

    /// A track through `values` at `keyTimes`; `reversed` runs it backwards
    /// (an autoreversed pass): values and times mirrored, and each segment's
    /// curve run backwards, `t ↦ 1 - f(1 - t)`.
    init(
        values: [V], keyTimes: [Double], timing: [TimingFunction], calculation: KeyframeCalculation,
        duration: Double, bezier: BezierMethod, reversed: Bool
    ) {
        let evaluators = timing.map { TimingEvaluator($0, bezier: bezier, duration: duration) }
        if reversed {
            self.values = values.reversed()
            self.keyTimes = keyTimes.reversed().map { 1 - $0 }
            self.timing = evaluators.reversed()
        } else {
            self.values = values
            self.keyTimes = keyTimes
            self.timing = evaluators
        }
        self.calculation = calculation
        isReversed = reversed
    }

    let isReversed: Bool

    /// The value at fraction `t` of the duration; `cursor` remembers the
    /// segment of the last call, so that a forward-moving time costs O(1).
    func value(at t: Double, cursor: inout Int) -> V {
        let last = values.count - 1
        if last == 0 { return values[0] }
        if cursor > last || keyTimes[cursor] > t { cursor = 0 }
        while cursor < last && keyTimes[cursor + 1] <= t { cursor += 1 }
        if cursor == last { return values[last] }
        if calculation == .discrete { return values[cursor] }
        let start = keyTimes[cursor]
        let span = keyTimes[cursor + 1] - start
        let local = span > 0 ? (t - start) / span : 1
        let eased = isReversed ? 1 - timing[cursor](1 - local) : timing[cursor](local)
        return values[cursor] + (values[cursor + 1] - values[cursor]) * eased
    }
}

/// The keyframe animations of one lane.
final class KeyframeBatch<V: AnimatableVector> {
    var state: [ElementState<V>] = []
    var start: [Double] = []
    var duration: [Double] = []
    var tracks: [KeyframeTrack<V>] = []
    var cursor: [Int] = []
    var progress: [Double] = []

    init() {}

    var count: Int { state.count }

    func append(_ element: ElementState<V>, start time: Double, track: KeyframeTrack<V>, duration length: Double) -> Int32 {
        state.append(element)
        start.append(time)
        duration.append(length)
        tracks.append(track)
        cursor.append(0)
        progress.append(0)
        return Int32(state.count - 1)
    }

    func remove(at index: Int) -> AnimationHandle? {
        let last = state.count - 1
        let moved: AnimationHandle? = index == last ? nil : state[last].owner
        state.swapAt(index, last)
        state.removeLast()
        start.swapAt(index, last)
        start.removeLast()
        duration.swapAt(index, last)
        duration.removeLast()
        tracks.swapAt(index, last)
        tracks.removeLast()
        cursor.swapAt(index, last)
        cursor.removeLast()
        progress.swapAt(index, last)
        progress.removeLast()
        return moved
    }

    func advance(_ context: FrameContext, values: UnsafeMutablePointer<V>, output: inout FrameOutput) {
        for index in 0 ..< state.count where !state[index].paused {
            advanceElement(index, context: context, values: values, output: &output)
        }
    }

    func advanceElement(_ index: Int, context: FrameContext, values: UnsafeMutablePointer<V>, output: inout FrameOutput) {
        let length = duration[index]
        let t = Swift.min(context.time - start[index], length) / length
        progress[index] = t
        let current = tracks[index].value(at: t, cursor: &cursor[index])
        let s = state[index]
        state[index].write(s.clamped(current), into: values)
        if t + timeProgressThreshold >= 1 {
            output.finished.append(s.owner)
        } else if s.wantsEvents {
            output.events.append(s.owner)
        }
    }
}

/// The custom animations of one lane: a closure per animation.
final class CustomBatch<V: AnimatableVector> {
    var state: [ElementState<V>] = []
    var start: [Double] = []
    var step: [(inout CustomFrame<V>) -> Bool] = []

    init() {}

    var count: Int { state.count }

    func append(_ element: ElementState<V>, start time: Double, step closure: @escaping (inout CustomFrame<V>) -> Bool) -> Int32 {
        state.append(element)
        start.append(time)
        step.append(closure)
        return Int32(state.count - 1)
    }

    func remove(at index: Int) -> AnimationHandle? {
        let last = state.count - 1
        let moved: AnimationHandle? = index == last ? nil : state[last].owner
        state.swapAt(index, last)
        state.removeLast()
        start.swapAt(index, last)
        start.removeLast()
        step.swapAt(index, last)
        step.removeLast()
        return moved
    }

    func advance(_ context: FrameContext, values: UnsafeMutablePointer<V>, output: inout FrameOutput) {
        for index in 0 ..< state.count where !state[index].paused {
            advanceElement(index, context: context, values: values, output: &output)
        }
    }

    func advanceElement(_ index: Int, context: FrameContext, values: UnsafeMutablePointer<V>, output: inout FrameOutput) {
        let slot = Int(state[index].slot)
        var frame = CustomFrame(
            time: context.time, frameLength: context.dt, elapsed: context.time - start[index], value: values[slot])
        let done = step[index](&frame)
        let value = frame.value.isFinite ? frame.value : values[slot]
        state[index].write(value, into: values)
        if done {
            output.finished.append(state[index].owner)
        } else if state[index].wantsEvents {
            output.events.append(state[index].owner)
        }
    }
}
