/// Work done on the lane of one width, written once for the three widths.
///
/// The animator keeps a lane per width (``Animator/lane1``, `lane2`,
/// `lane4`), each of its own vector type, so that a frame of scalars
/// touches only scalars. Code that reaches a lane from a width known only
/// at run time (a spring element's) or from a value type is an operation,
/// and ``Animator/onLane(width:_:_:)`` is the one place where a width picks
/// its lane. It is inlined, and the operation specialised for each lane, so
/// the dispatch costs what a switch written out at the call would.
///
/// The exception is the code that starts a spring from an ``Animation``,
/// which moves the animation into its box or borrows it
/// (`makePropertyBox`, `addBare`, `replaceInPlace`): an operation would
/// have to hold the animation or take it through its context, and either
/// copies the whole animation (a few hundred bytes) on every add and
/// replacement. Those three switch on the width where they are, by the
/// value type, which the compiler knows there.
protocol LaneOperation {
    /// What the operation returns.
    associatedtype Result
    /// What the operation changes besides the lane: the frame output a
    /// first frame writes, or an animation it takes; `Void` if nothing.
    associatedtype Context = Void

    /// Does the operation on `lane`, whose vector type is `V`.
    func callAsFunction<V: AnimatableVector>(_ lane: Lane<V>, _ context: inout Context) -> Result
}

extension Animator {
    /// Runs `operation` on the lane `width` wide (1, 2 or 4), with `context`.
    @inline(__always)
    func onLane<Operation: LaneOperation>(
        width: Int, _ operation: Operation, _ context: inout Operation.Context
    ) -> Operation.Result {
        switch width {
        case 1: operation(lane1, &context)
        case 2: operation(lane2, &context)
        default: operation(lane4, &context)
        }
    }

    /// Runs `operation`, which needs no context, on the lane `width` wide.
    @inline(__always)
    func onLane<Operation: LaneOperation>(width: Int, _ operation: Operation) -> Operation.Result
    where Operation.Context == Void {
        var none: Void = ()
        return onLane(width: width, operation, &none)
    }
}
