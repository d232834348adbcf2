/// The base of a class that keeps its mutable state in one struct,
/// ``state``, whose accesses skip Swift's run-time exclusivity checks: the
/// one declaration in the module that opts out of them (see "How a frame
/// runs").
///
/// A subclass declares no mutable stored property of its own (a new field
/// goes into its `State`), and works on two fields at once inside one
/// access to ``state``, so that the fields are disjoint to the compiler. A
/// build with `KINETICS_CHECKED_EXCLUSIVITY` checks every access again.
///
/// The state is the first stored field after the object's header, so a
/// specialised subclass reaches it at a fixed offset, as it would a field
/// of its own. Two classes that cannot inherit from this one declare the
/// attribute themselves: ``Animator``, which is public, and
/// `PropertyAnimationBox`, which inherits from `AnimationBox`. The attribute
/// holds in the module that declares the property only (an access from
/// another module is checked), so KineticsBench declares its own
/// (`UncheckedEngineState`).
package class UncheckedState<State> {
    #if !KINETICS_CHECKED_EXCLUSIVITY
        @exclusivity(unchecked)
    #endif
    final var state: State

    init(_ state: State) {
        self.state = state
    }
}
