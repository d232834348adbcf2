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
final class SpringConfigurations {
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

    struct Entry {
        var key: Key
        var users = 0
        /// One step of Pop's or the grid's size.
        var step = SpringPropagator.identity
    }

    private(set) var entries: [Entry] = []
    /// The current tick's matrices, by configuration.
    let frameMaps = Column<FrameMaps>()
    private var free: [Int32] = []
    private var lookup: [Key: Int32] = [:]

    /// The index of the configuration for `parameters` and `method`, counting one more user.
    func acquire(_ parameters: SpringParameters, _ method: SpringMethod) -> Int32 {
        let key = Key(parameters: parameters, method: method)
        if let index = lookup[key] {
            entries[Int(index)].users += 1
            return index
        }
        var entry = Entry(key: key, users: 1)
        switch method {
        case .pop: entry.step = .rk4Step(parameters, step: SpringMethod.popStep)
        case .fixed: entry.step = .rk4Step(parameters, step: SpringMethod.gridStep)
        case .rk4, .analytic: break
        }
        let index: Int32
        if let reused = free.popLast() {
            index = reused
            entries[Int(index)] = entry
        } else {
            index = Int32(entries.count)
            entries.append(entry)
            frameMaps.append(FrameMaps())
        }
        lookup[key] = index
        // Usable at once, for an immediate first frame or a tick in progress.
        frameMaps[Int(index)] = Self.identityMaps(entry)
        return index
    }

    /// Counts one user fewer; the configuration is recycled at zero.
    func release(_ index: Int32) {
        entries[Int(index)].users -= 1
        if entries[Int(index)].users == 0 {
            lookup[entries[Int(index)].key] = nil
            free.append(index)
        }
    }

    /// The parameters of a configuration.
    func parameters(_ index: Int32) -> SpringParameters { entries[Int(index)].key.parameters }

    /// One step of a configuration (Pop's or the grid's).
    func step(_ index: Int32) -> SpringPropagator { entries[Int(index)].step }

    /// Computes every configuration's matrices for a frame of `dt`.
    func prepare(dt: Double) {
        for index in entries.indices where entries[index].users > 0 {
            frameMaps[index] = Self.computeMaps(entries[index], dt: dt)
        }
    }

    /// The matrices of configuration `index` for a frame of length 0, the
    /// immediate first frame of a new animation.
    func immediateMaps(_ index: Int32) -> FrameMaps { Self.identityMaps(entries[Int(index)]) }

    /// The matrices of a frame of length 0: nothing moves.
    static func identityMaps(_ entry: Entry) -> FrameMaps {
        var maps = FrameMaps()
        maps.stiffness = entry.key.parameters.stiffnessPerMass
        maps.friction = entry.key.parameters.frictionPerMass
        maps.single = entry.step
        return maps
    }

    static func computeMaps(_ entry: Entry, dt: Double) -> FrameMaps {
        let parameters = entry.key.parameters
        var maps = identityMaps(entry)
        switch entry.key.method {
        case .analytic:
            maps.main = .exact(parameters, time: dt)
        case .rk4:
            let count = Swift.max(1, (dt / parameters.rk4MaximumStep).rounded(.up))
            maps.main = SpringPropagator.rk4Step(parameters, step: dt / count).power(Int(count))
        case .pop:
            let base = Int((dt / SpringMethod.popStep).rounded(.down))
            maps.base = base
            maps.main = base >= 1 ? entry.step.power(base - 1) : .identity
            maps.second = base >= 1 ? maps.main.then(entry.step) : .identity
        case .fixed:
            let base = Int((dt / SpringMethod.gridStep).rounded(.down))
            maps.base = base
            maps.main = entry.step.power(base)
            maps.second = maps.main.then(entry.step)
        }
        return maps
    }
}
