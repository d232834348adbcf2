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
