/// The custom animations of one lane: a closure per animation.
final class CustomBatch<V: AnimatableVector>: ElementBatch {
    let common = ElementColumns<V>()
    let start = Column<Double>()
    let step = Column<(inout CustomFrame<V>) -> Bool>()

    func appendState(start time: Double, step closure: @escaping (inout CustomFrame<V>) -> Bool) {
        start.append(time)
        step.append(closure)
    }

    func forEachColumn<Operation: ColumnOperation>(_ operation: Operation) {
        operation.apply(to: start)
        operation.apply(to: step)
    }

    func advance(_ context: FrameContext, values: ColumnPointer<V>, output: inout FrameOutput) {
        let flags = common.flags.pointer
        for index in 0 ..< count where flags[index] & ElementFlag.paused == 0 {
            advanceElement(index, context: context, values: values, output: &output)
        }
    }

    func advanceElement(_ index: Int, context: FrameContext, values: ColumnPointer<V>, output: inout FrameOutput) {
        let slot = common.slot[index].index
        var frame = CustomFrame(
            time: context.time, frameLength: context.dt, elapsed: context.time - start[index], value: values[slot])
        let done = step[index](&frame)
        let value = frame.value.isFinite ? frame.value : values[slot]
        let bits = common.flags[index]
        // Not clamped: a custom animation has no ends (Pop's POPCustomAnimation).
        common.write(index, value, flags: bits, ElementColumns.Pointers(common), values: values)
        if done {
            output.finished.append(common.owner[index])
        } else if bits & ElementFlag.wantsEvents != 0 {
            output.events.append(common.owner[index])
        }
    }
}
