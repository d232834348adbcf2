/// The spring parameter sets in use, shared by every animation with the same
/// parameters and method, with each one's frame matrices computed once per
/// tick.
///
/// A frame of any spring method is a linear map of (displacement, velocity):
/// `analytic` is the exact propagator over the frame, `rk4` the n-th power
/// of one RK4 step, `pop` and `fixed` powers of Pop's or the grid's step
/// around the step count of the frame. The matrices depend only on the
/// parameters, the method and the frame length, so one computation per tick
/// serves every animation that shares them.
final class SpringConfigurations: UncheckedState<SpringConfigurations.State> {
    struct Key: Hashable {
        let parameters: SpringParameters
        let method: SpringMethod
    }

    /// A frame's matrices. For `analytic` and `rk4`, `main` is the frame. For
    /// `pop`, `main` is `M^(base-1)` and `second` `M^base`; for `fixed`,
    /// `main` is `M^base` and `second` `M^(base+1)`; `single` is one step.
    /// `stiffness` and `friction` are `k/m` and `c/m`, for the rest test.
    struct FrameMaps {
        var main = SpringPropagator.identity
        var second = SpringPropagator.identity
        var single = SpringPropagator.identity
        var base = 0
        var stiffness = 0.0
        var friction = 0.0
    }

    struct State {
        var slots = SharedSlots<Key, ConfigurationSlot>()
        /// One step of Pop's or the grid's size, by configuration.
        var steps: [SpringPropagator] = []
    }

    init() { super.init(State()) }
    /// The current tick's matrices, by configuration.
    let frameMaps = Column<FrameMaps>()

    /// The index of the configuration for `parameters` and `method`, counting one more user.
    func acquire(_ parameters: SpringParameters, _ method: SpringMethod) -> ConfigurationIndex {
        let key = Key(parameters: parameters, method: method)
        if let index = state.slots.retain(key) { return index }
        let step: SpringPropagator =
            switch method {
            case .pop: .rk4Step(parameters, step: SpringMethod.popStep)
            case .fixed: .rk4Step(parameters, step: SpringMethod.gridStep)
            case .rk4, .analytic: .identity
            }
        let index = state.slots.insert(key)
        state.steps.store(step, at: index)
        // Usable at once, for an immediate first frame or a tick in progress.
        frameMaps.store(Self.identityMaps(key, step: step), at: index)
        return index
    }

    /// Makes room for `additional` new configurations.
    func reserve(additional: Int) {
        let capacity = state.slots.reserve(additional: additional)
        state.steps.reserveCapacity(capacity)
        frameMaps.reserve(capacity)
    }

    /// Counts one user fewer; the configuration is recycled at zero.
    func release(_ index: ConfigurationIndex) {
        if state.slots.release(index) { state.slots.recycle(index) }
    }

    /// The parameters of a configuration.
    func parameters(_ index: ConfigurationIndex) -> SpringParameters { state.slots.keys[index.index].parameters }

    /// One step of a configuration (Pop's or the grid's).
    func step(_ index: ConfigurationIndex) -> SpringPropagator { state.steps[index.index] }

    /// Every way the table disagrees with the users counted from the groups.
    func violations(expected: [Int]) -> [String] {
        state.slots.violations(expected: expected, name: "spring configuration")
    }

    /// Computes every configuration's matrices for a frame of `dt`.
    func prepare(dt: Double) {
        for index in 0 ..< state.slots.count where state.slots.users(index) > 0 {
            frameMaps[index] = Self.computeMaps(state.slots.keys[index], step: state.steps[index], dt: dt)
        }
    }

    /// The matrices of a frame of length 0: nothing moves.
    static func identityMaps(_ key: Key, step: SpringPropagator) -> FrameMaps {
        var maps = FrameMaps()
        maps.stiffness = key.parameters.stiffnessPerMass
        maps.friction = key.parameters.frictionPerMass
        maps.single = step
        return maps
    }

    static func computeMaps(_ key: Key, step: SpringPropagator, dt: Double) -> FrameMaps {
        let parameters = key.parameters
        var maps = identityMaps(key, step: step)
        switch key.method {
        case .analytic:
            maps.main = .exact(parameters, time: dt)
        case .rk4:
            let count = Swift.max(1, (dt / parameters.rk4MaximumStep).rounded(.up))
            maps.main = SpringPropagator.rk4Step(parameters, step: dt / count).power(count)
        case .pop:
            let base = Int((dt / SpringMethod.popStep).rounded(.down))
            maps.base = base
            maps.main = base >= 1 ? step.power(base - 1) : .identity
            maps.second = base >= 1 ? maps.main.then(step) : .identity
        case .fixed:
            let base = Int((dt / SpringMethod.gridStep).rounded(.down))
            maps.base = base
            maps.main = step.power(base)
            maps.second = maps.main.then(step)
        }
        return maps
    }
}
