/// A keyframe animation's own state: its span, its track and the segment
/// it was in at its last frame.
struct KeyframeState {
    var span: TimedSpan
    var track: TrackIndex
    /// A segment number within the track (a search hint, always valid),
    /// not an index into a table.
    var cursor: Int32 = 0
}

/// The keyframe animations of one lane.
final class KeyframeBatch<V: AnimatableVector>: ElementBatch {
    let common = ElementColumns<V>()
    let state = Column<KeyframeState>()

    func forEachColumn<Operation: ColumnOperation>(_ operation: Operation) { operation.apply(to: state) }

    /// Completes the quiet animations that finished in this advance
    /// (``ElementColumns/finishQuietly``), giving back their tracks.
    func finishQuietly(_ tracks: KeyframeTracks<V>, timings: TimingTable, output: inout FrameOutput) {
        finishQuietly(
            output: &output, entry: { state.pointer[$0].track },
            release: { entry, users in tracks.release(entry, count: users, timings: timings) })
    }

    /// The time fraction at `time`.
    func progress(_ index: Int, at time: Double) -> Double { state[index].span.fraction(at: time) }

    /// The columns as raw pointers, read once per frame.
    struct Pointers {
        let evaluators: ColumnPointer<TimingEvaluator>
        let tracks: ColumnPointer<KeyframeTrack<V>>
        let state: ColumnPointer<KeyframeState>
        let common: ElementColumns<V>.Pointers

        init(_ batch: KeyframeBatch, _ timings: TimingTable, _ tracks: KeyframeTracks<V>) {
            evaluators = ColumnPointer(timings.evaluators)
            self.tracks = ColumnPointer(tracks.tracks)
            state = ColumnPointer(batch.state)
            common = ElementColumns.Pointers(batch.common)
        }
    }

    /// Advances every unpaused animation in straight runs, as
    /// ``ElementBatch/advanceInStraightRuns`` does for the other batches:
    /// written out here because the optimiser does not inline this step,
    /// larger than theirs, when it is passed as a closure (1,150 more
    /// instructions a mixed frame of 10,000).
    func advance(
        _ context: FrameContext, timings: TimingTable, tracks: KeyframeTracks<V>,
        values: ColumnPointer<V>, output: inout FrameOutput
    ) {
        let p = Pointers(self, timings, tracks)
        let end = count
        common.markEnd()
        var index = 0
        while true {
            var finished = false
            while p.common.flags[index] & ~ElementFlag.straight == 0 {
                if straightStep(index, p, time: context.time, timings: timings, values: values) {
                    finished = true
                    break
                }
                index &+= 1
            }
            guard index < end else { return }
            let bits = p.common.flags[index]
            if finished {
                common.reportFinished(index, bits: bits, values: values, output: &output)
            } else if bits & ElementFlag.paused == 0 {
                advanceElement(index, p, context: context, timings: timings, values: values, output: &output)
            }
            index &+= 1
        }
    }

    /// A straight animation's frame: ``advanceElement``'s for one that is
    /// written as it is and reports nothing but its end; whether it ended
    /// (written, not yet reported).
    @inline(__always)
    private func straightStep(
        _ index: Int, _ p: Pointers, time: Double, timings: TimingTable, values: ColumnPointer<V>
    ) -> Bool {
        let t = p.state[index].span.fraction(at: time)
        let value = p.tracks[p.state[index].track.index].value(
            at: t, cursor: &p.state[index].cursor, evaluators: p.evaluators, timings: timings)
        values[p.common.slot[index].index] = value
        p.common.previous[index] = value
        return t + timeProgressThreshold >= 1
    }

    /// One element's frame (also the immediate first frame of a new animation).
    func advanceOne(
        _ index: Int, context: FrameContext, timings: TimingTable, tracks: KeyframeTracks<V>,
        values: ColumnPointer<V>, output: inout FrameOutput
    ) {
        advanceElement(
            index, Pointers(self, timings, tracks), context: context, timings: timings, values: values,
            output: &output)
    }

    @inline(__always)
    private func advanceElement(
        _ index: Int, _ p: Pointers, context: FrameContext, timings: TimingTable,
        values: ColumnPointer<V>, output: inout FrameOutput
    ) {
        let t = p.state[index].span.fraction(at: context.time)
        let value = p.tracks[p.state[index].track.index].value(
            at: t, cursor: &p.state[index].cursor, evaluators: p.evaluators, timings: timings)
        common.endFrame(
            index, value, done: t + timeProgressThreshold >= 1, flags: p.common.flags[index], p.common, values: values,
            output: &output)
    }
}
