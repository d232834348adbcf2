/// One spring's frame, as ``SpringGroups/Frame/step(displacement:velocity:blendsOutput:keepsSlope:storedSlope:)``
/// computes it.
struct SpringStep<V: AnimatableVector> {
    /// The displacement and velocity after the frame.
    var state: SpringState<V>
    /// The displacement written (the value minus the target): the state's,
    /// or for `fixed` the blend between grid states.
    var displacement: V
    /// The velocity written, as ``displacement``.
    var velocity: V
    /// The velocity slope of Pop's rest test.
    var slope: V
}

extension SpringGroups.Frame {
    /// The law of a spring's frame, written once for every path of
    /// ``SpringBatch`` (the straight runs and the general path; the scalar
    /// springs' pairs are the one copy, see `SpringBatch.pairStep`): the
    /// state after the frame is ``state`` applied to the state before; what
    /// is written is ``output`` applied to it when `blendsOutput` (`fixed`),
    /// else the new state; the rest test's slope is `slopeD·d + slopeV·v`,
    /// plus ``keep`` times `storedSlope` when `keepsSlope` (Pop, in a frame
    /// where its group takes no step).
    ///
    /// The paths pass constants for the two flags, so each specialises it.
    @inline(__always)
    func step<V: AnimatableVector>(
        displacement d0: V, velocity v0: V, blendsOutput: Bool, keepsSlope: Bool, storedSlope: @autoclosure () -> V
    ) -> SpringStep<V> {
        let (d, v) = state.apply(displacement: d0, velocity: v0)
        let (outD, outV) = blendsOutput ? output.apply(displacement: d0, velocity: v0) : (d, v)
        var slope = d0 * slopeD + v0 * slopeV
        if keepsSlope && keep != 0 {
            slope = slope + storedSlope() * keep
        }
        return SpringStep(
            state: SpringState(displacement: d, velocity: v), displacement: outD, velocity: outV, slope: slope)
    }
}
