/// One spring's frame, as ``SpringGroups/Frame/step(displacement:velocity:blendsOutput:)``
/// computes it.
struct SpringStep<V: AnimatableVector> {
    /// The displacement and velocity after the frame.
    var state: SpringState<V>
    /// The displacement written (the value minus the target): the state's,
    /// or for `fixed` the blend between grid states.
    var displacement: V
    /// The velocity written, as ``displacement``.
    var velocity: V
    /// The velocity slope of the frame's last step, for Pop's rest test
    /// (zero in a frame that takes no step: see ``SpringGroups/Frame/slopeSettled(_:kept:keeps:)``).
    var slope: V
}

extension SpringGroups.Frame {
    /// The law of a spring's frame, written once for every path of
    /// ``SpringBatch`` (the straight runs and the general path; the scalar
    /// springs' pairs are the one copy, see `SpringBatch.pairStep`): the
    /// state after the frame is ``state`` applied to the state before; what
    /// is written is ``output`` applied to it when `blendsOutput` (`fixed`),
    /// else the new state; the slope of the last step is `slopeD·d + slopeV·v`.
    ///
    /// The paths pass a constant for the flag, so each specialises it.
    @inline(__always)
    func step<V: AnimatableVector>(displacement d0: V, velocity v0: V, blendsOutput: Bool) -> SpringStep<V> {
        let (d, v) = state.apply(displacement: d0, velocity: v0)
        let (outD, outV) = blendsOutput ? output.apply(displacement: d0, velocity: v0) : (d, v)
        return SpringStep(
            state: SpringState(displacement: d, velocity: v), displacement: outD, velocity: outV,
            slope: d0 * slopeD + v0 * slopeV)
    }

    /// The slope's part of Pop's solver test, `|slope|² < 625·t²`, which is
    /// all of the slope a spring keeps (``SpringBatch/slopeSettled``): for
    /// `slope`, the last step's, or in a frame that takes no step
    /// (``keep``, when `keeps`) the answer `kept` from the frame that took
    /// the spring's last step. The threshold, and so the bound, is the
    /// spring's for its whole run, so a kept answer is the one Pop's test
    /// gives on the kept slope.
    @inline(__always)
    func slopeSettled<V: AnimatableVector>(_ slope: V, kept: @autoclosure () -> Bool, keeps: Bool) -> Bool {
        keeps && keep != 0 ? kept() : slope.squaredNorm < slopeBound
    }
}
