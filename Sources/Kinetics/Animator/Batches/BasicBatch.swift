/// Pop's threshold for calling a basic animation done.
let timeProgressThreshold = 1e-6

/// When a timed animation (basic or keyframes) started and how long it runs.
struct TimedSpan {
    var start: Double
    var duration: Double

    /// The fraction elapsed at `time`: Pop's `min(elapsed, duration)/duration`.
    @inline(__always)
    func fraction(at time: Double) -> Double { Swift.min(time - start, duration) / duration }
}

/// A basic animation's own state: its span and its timing function.
struct BasicState {
    var span: TimedSpan
    var timing: TimingIndex
}

/// The basic animations of one lane: from `from` to `to` along a timing
/// function over a duration (Pop's `POPBasicAnimation`).
final class BasicBatch<V: AnimatableVector>: ElementBatch {
    let common = ElementColumns<V>()
    let state = Column<BasicState>()

    func forEachColumn<Operation: ColumnOperation>(_ operation: Operation) { operation.apply(to: state) }

    /// Completes the quiet animations that finished in this advance
    /// (``ElementColumns/finishQuietly``), giving back their timing functions.
    func finishQuietly(_ timings: TimingTable, output: inout FrameOutput) {
        finishQuietly(
            output: &output, entry: { state.pointer[$0].timing },
            release: { entry, users in timings.release(entry, count: users) })
    }

    /// The eased progress at `time` (Pop's progress of a basic animation).
    func progress(_ index: Int, at time: Double, timings: TimingTable) -> Double {
        let own = state[index]
        return timings.evaluators[own.timing.index].evaluate(own.span.fraction(at: time), timings)
    }

    /// The (clamped, unrounded) value at `time`.
    func value(_ index: Int, at time: Double, timings: TimingTable) -> V {
        let p = progress(index, at: time, timings: timings)
        return common.clamped(index, common.from[index] + (common.to[index] - common.from[index]) * p)
    }

    /// The columns as raw pointers, read once per frame.
    struct Pointers {
        let evaluators: ColumnPointer<TimingEvaluator>
        let state: ColumnPointer<BasicState>
        let common: ElementColumns<V>.Pointers

        init(_ batch: BasicBatch, _ timings: TimingTable) {
            evaluators = ColumnPointer(timings.evaluators)
            state = ColumnPointer(batch.state)
            common = ElementColumns.Pointers(batch.common)
        }
    }

    /// Advances every unpaused animation in straight runs
    /// (``ElementBatch/advanceInStraightRuns``): ``straightStep`` for one
    /// that nothing observes, clamps, rounds or adds, ``advanceElement`` for
    /// the others.
    func advance(
        _ context: FrameContext, timings: TimingTable, values: ColumnPointer<V>, output: inout FrameOutput
    ) {
        let p = Pointers(self, timings)
        advanceInStraightRuns(
            p.common.flags, values: values, output: &output,
            run: { start in
                straightRun(from: start, p.common.flags) {
                    straightStep($0, p, time: context.time, timings: timings, values: values)
                }
            },
            general: { index, output in
                advanceElement(index, p, context: context, timings: timings, values: values, output: &output)
            })
    }

    /// A straight animation's frame: ``advanceElement``'s for one that is
    /// written as it is and reports nothing but its end; whether it ended
    /// (written, not yet reported).
    @inline(__always)
    private func straightStep(
        _ index: Int, _ p: Pointers, time: Double, timings: TimingTable, values: ColumnPointer<V>
    ) -> Bool {
        let own = p.state[index]
        let t = own.span.fraction(at: time)
        let eased = p.evaluators[own.timing.index].evaluate(t, timings)
        let from = p.common.from[index]
        let value = from + (p.common.to[index] - from) * eased
        values[p.common.slot[index].index] = value
        p.common.previous[index] = value
        return t + timeProgressThreshold >= 1
    }

    /// One element's frame (also the immediate first frame of a new animation).
    func advanceOne(
        _ index: Int, context: FrameContext, timings: TimingTable, values: ColumnPointer<V>,
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
        values: ColumnPointer<V>, output: inout FrameOutput
    ) {
        let own = p.state[index]
        let t = own.span.fraction(at: context.time)
        let eased = p.evaluators[own.timing.index].evaluate(t, timings)
        let from = p.common.from[index]
        let value = from + (p.common.to[index] - from) * eased
        common.endFrame(
            index, value, done: t + timeProgressThreshold >= 1, flags: p.common.flags[index], p.common, values: values,
            output: &output)
    }
}
