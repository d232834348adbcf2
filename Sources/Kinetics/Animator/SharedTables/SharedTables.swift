/// The tables every lane shares: spring and decay configurations with their
/// per-tick factors, and the timing functions in use.
final class SharedTables {
    let springs = SpringConfigurations()
    /// The spring groups of each method, in the order of `SpringMethod.allCases`.
    let springGroups: [SpringGroups] = SpringMethod.allCases.map { SpringGroups(method: $0) }
    let decays = DecayConfigurations()
    let timings = TimingTable()

    /// Runs `body` on the tables of `animator`, borrowed without a retain
    /// (the animator holds them for its whole life).
    @inline(__always)
    static func with<Result>(_ animator: Animator, _ body: (SharedTables) -> Result) -> Result {
        Unmanaged.passUnretained(animator.shared)._withUnsafeGuaranteedRef(body)
    }

    /// Runs `body` on the spring groups of method index `method`, borrowed
    /// without a retain, as ``Lane/withSprings(_:_:)`` does.
    @inline(__always)
    func withSpringGroups<Result>(_ method: Int, _ body: (SpringGroups) -> Result) -> Result {
        Unmanaged.passUnretained(springGroups[method])._withUnsafeGuaranteedRef(body)
    }

    // The spring groups' three calls a start, a restart and a removal make,
    // on the groups of method index `method`. Out of line and not generic:
    // borrowed through closures in the generic code that calls them, the
    // groups cost closure contexts on every call (their arguments copied
    // in, a thunk, a partial application), and read from the array
    // directly, a retain and a release.

    /// ``SpringGroups/acquire(_:threshold:clock:grid:configurations:)`` (a
    /// group starting now).
    @inline(never)
    func acquireSpringGroup(method: Int, _ parameters: SpringParameters, threshold: Double) -> GroupIndex {
        withSpringGroups(method) { $0.acquire(parameters, threshold: threshold, configurations: springs) }
    }

    /// ``SpringGroups/rejoin(_:_:threshold:configurations:)``.
    @inline(never)
    func rejoinSpringGroup(
        method: Int, _ index: GroupIndex, _ parameters: SpringParameters, threshold: Double
    ) -> GroupIndex {
        withSpringGroups(method) { $0.rejoin(index, parameters, threshold: threshold, configurations: springs) }
    }

    /// ``SpringGroups/release(_:count:configurations:)`` of one user.
    @inline(never)
    func releaseSpringGroup(method: Int, _ index: GroupIndex) {
        withSpringGroups(method) { $0.release(index, configurations: springs) }
    }

    /// Computes this tick's matrices and factors for a frame of `dt`.
    func prepare(dt: Double) {
        springs.prepare(dt: dt)
        var index = 0
        while index < springGroups.count {
            springGroups[index].prepare(dt: dt, configurations: springs)
            index += 1
        }
        decays.prepare(dt: dt)
    }
}
