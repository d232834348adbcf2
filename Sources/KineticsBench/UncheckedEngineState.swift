/// The base of a bench engine, or of one of its animations, that keeps its
/// mutable state in one struct, ``state``, whose accesses skip Swift's
/// run-time exclusivity checks: what `UncheckedState` is to the library,
/// declared again here because the attribute holds only in the module that
/// declares the property. Without it the harness's own checks would count
/// against the engine measured; the animator's state skips them too (see
/// "How a frame runs"). A build with `KINETICS_CHECKED_EXCLUSIVITY` checks
/// every access again.
///
/// A subclass declares no mutable stored property of its own. The state is
/// the first stored field after the object's header, so a subclass reaches
/// it at a fixed offset, as it would a field of its own.
class UncheckedEngineState<State> {
    #if !KINETICS_CHECKED_EXCLUSIVITY
        @exclusivity(unchecked)
    #endif
    final var state: State

    init(_ state: State) {
        self.state = state
    }
}
