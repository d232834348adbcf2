/// The keyframe animations of one lane.
final class KeyframeBatch<V: AnimatableVector>: ElementBatch {
    let common = ElementColumns<V>()
    let start = Column<Double>()
    let duration = Column<Double>()
    let track = Column<Int32>()
    let cursor = Column<Int32>()

    func appendState(start time: Double, track index: Int32, duration length: Double) {
        start.append(time)
        duration.append(length)
        track.append(index)
        cursor.append(0)
    }

    func forEachColumn<Operation: ColumnOperation>(_ operation: Operation) {
        operation.apply(to: start)
        operation.apply(to: duration)
        operation.apply(to: track)
        operation.apply(to: cursor)
    }

    /// Completes the quiet animations that finished in this advance
    /// (``ElementColumns/finishQuietly``), giving back their tracks.
    func finishQuietly(_ tracks: KeyframeTracks<V>, timings: TimingTable, output: inout FrameOutput) {
        finishQuietly(
            output: &output, entry: { track.base[$0] },
            release: { entry, users in tracks.release(entry, count: users, timings: timings) })
    }

    /// The time fraction at `time`.
    func progress(_ index: Int, at time: Double) -> Double {
        timeFraction(at: time, start: start[index], duration: duration[index])
    }

    /// The columns as raw pointers, read once per frame.
    struct Pointers {
        let evaluators: UnsafeMutablePointer<TimingEvaluator>
        let tracks: UnsafeMutablePointer<KeyframeTrack<V>>
        let start: UnsafeMutablePointer<Double>
        let duration: UnsafeMutablePointer<Double>
        let track: UnsafeMutablePointer<Int32>
        let cursor: UnsafeMutablePointer<Int32>
        let common: ElementColumns<V>.Pointers

        init(_ batch: KeyframeBatch, _ timings: TimingTable, _ tracks: KeyframeTracks<V>) {
            evaluators = timings.evaluators.base
            self.tracks = tracks.tracks.base
            start = batch.start.base
            duration = batch.duration.base
            track = batch.track.base
            cursor = batch.cursor.base
            common = ElementColumns.Pointers(batch.common)
        }
    }

    func advance(
        _ context: FrameContext, timings: TimingTable, tracks: KeyframeTracks<V>,
        values: UnsafeMutablePointer<V>, output: inout FrameOutput
    ) {
        let p = Pointers(self, timings, tracks)
        for index in 0 ..< count where p.common.flags[index] & ElementFlag.paused == 0 {
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
        let t = timeFraction(at: context.time, start: p.start[index], duration: p.duration[index])
        let value = p.tracks[Int(p.track[index])].value(
            at: t, cursor: &p.cursor[index], evaluators: p.evaluators, timings: timings)
        common.endFrame(
            index, value, done: t + timeProgressThreshold >= 1, flags: p.common.flags[index], p.common, values: values,
            output: &output)
    }
}
