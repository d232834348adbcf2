/// The springs of one method that move in lockstep: the same parameters,
/// rest threshold and clock (the time left over from Pop's last step, or the
/// time since the start and grid index of `fixed`). Springs started in the
/// same tick with the same settings share a group, so the work that depends
/// only on the clock (Pop's step count and blend, the grid's output blend)
/// is done once per group per tick and each spring's frame is a few
/// multiply-adds with no branches on its own state.
final class SpringGroups: UncheckedState<SpringGroups.State> {
    let method: SpringMethod

    /// The settings and clock of a group.
    struct Group {
        var parameters: SpringParameters
        var configuration: ConfigurationIndex
        var threshold: Double
        var clock = 0.0
        var grid = 0
    }

    /// What a spring's frame needs from its group, for the current tick:
    /// linear maps of the spring's state before the frame.
    struct Frame {
        /// To the state after the frame.
        var state = SpringPropagator.identity
        /// To the value and velocity written (differs from `state` for
        /// `fixed`, which writes a blend between grid points).
        var output = SpringPropagator.identity
        /// To the velocity slope of the rest test (`vd`, `vv` of a map); `keep`
        /// 1 where no step is taken, and Pop keeps the last step's slope.
        var slopeD = 0.0
        var slopeV = 0.0
        var keep = 0.0
        /// Pop's bounds for this threshold (``PopRestTest/Bounds``): `t/2`
        /// (displacement), `25·t` (squared velocity), `625·t²` (squared
        /// slope) and `t/5` (the animation's test).
        var positionBound = 0.0
        var velocityBound = 0.0
        var slopeBound = 0.0
        var restBound = 0.0
        /// The larger of `positionBound` and `restBound`: a spring farther
        /// from its target than this passes neither test.
        var nearBound = 0.0
        /// `state`'s entries and the slope's weights, each twice: the
        /// straight path steps two scalar springs of a group at once, their
        /// displacements in one SIMD register and their velocities in
        /// another (``SpringBatch`` `pairStep`).
        var pairDD = SIMD2<Double>(1, 1)
        var pairDV = SIMD2<Double>(0, 0)
        var pairVD = SIMD2<Double>(0, 0)
        var pairVV = SIMD2<Double>(1, 1)
        var pairSlopeD = SIMD2<Double>(0, 0)
        var pairSlopeV = SIMD2<Double>(0, 0)
        /// ``PairLaw/speedScale``, twice.
        var pairSpeedScale = SIMD2<Double>(0, 0)
        /// The rest threshold the bounds are for (NaN in a frame made
        /// without bounds).
        var threshold = Double.nan
        /// ``PairLaw/nearSquared``. It also brings the frame to a stride of
        /// 256 bytes (``stride``), a power of two, so that the straight paths
        /// find a group's frame with one shift.
        var nearSquared = Double.nan

        /// The stride the padding makes; checked when the group table is made.
        static let stride = 256

        /// Fills in the pair forms (``pairDD`` …).
        mutating func finish() {
            pairDD = SIMD2(repeating: state.dd)
            pairDV = SIMD2(repeating: state.dv)
            pairVD = SIMD2(repeating: state.vd)
            pairVV = SIMD2(repeating: state.vv)
            pairSlopeD = SIMD2(repeating: slopeD)
            pairSlopeV = SIMD2(repeating: slopeV)
        }
    }

    /// What the pair step (``SpringBatch`` `pairStep`) reads of a group's
    /// frame, read once for a run of pairs of the group: values, so that
    /// they stay in registers over the run (through the frame's pointer
    /// they were read again after each store of the springs' state).
    struct PairLaw {
        let dd: SIMD2<Double>
        let dv: SIMD2<Double>
        let vd: SIMD2<Double>
        let vv: SIMD2<Double>
        /// The near bound's square (``Frame/nearBound``), rounded up so
        /// that a distance whose square, rounded, reaches it is at the near
        /// bound or beyond: `2⁻⁵⁰` over the square covers the two roundings
        /// (each at most `2⁻⁵³`). NaN where the square is not a normal
        /// number with room for that (a near bound under `2⁻⁵⁰⁰` or over
        /// `2⁵⁰⁰`, or NaN): then no comparison with it passes, and the
        /// springs take the step one at a time.
        let nearSquared: Double
        /// `nearSquared` over the velocity bound (``Frame/velocityBound``),
        /// rounded down so that a squared speed under the velocity bound
        /// (the rest test's own), times this, rounded, is under
        /// `nearSquared`: the pair step tests both with one comparison. (A
        /// squared speed a little over the bound may pass as slow too: its
        /// slope's answer is then made where it is not read.)
        let speedScale: SIMD2<Double>

        @inline(__always)
        init(_ frame: UnsafeMutablePointer<Frame>) {
            dd = frame.pointee.pairDD
            dv = frame.pointee.pairDV
            vd = frame.pointee.pairVD
            vv = frame.pointee.pairVV
            nearSquared = frame.pointee.nearSquared
            speedScale = frame.pointee.pairSpeedScale
        }
    }

    struct Key: Hashable {
        let parameters: SpringParameters
        let threshold: Double
        let clock: UInt64
        let grid: Int

        /// A cheap mix of the fields, for ``SharedSlots/retain(_:quickHash:)``.
        var quickHash: Int {
            let bits =
                parameters.tension.bitPattern ^ parameters.friction.bitPattern &* 3 ^ parameters.mass.bitPattern &* 5
                ^ threshold.bitPattern &* 7 ^ clock ^ UInt64(bitPattern: Int64(grid))
            return Int(truncatingIfNeeded: (bits &* 0x9E37_79B9_7F4A_7C15) >> 58)
        }
    }

    struct State {
        /// Groups a new spring can join now: for clocked methods, those made
        /// since the last tick (older ones have moved on).
        var slots = SharedSlots<Key, GroupSlot>()
        var groups: [Group] = []
        var keepsAnySlope = true
    }

    /// The groups' settings and clocks, by group.
    var groups: [Group] { state.groups }
    /// Whether any group's current frame keeps the stored slope (Pop took
    /// no step): when none does, the batches need not read it.
    var keepsAnySlope: Bool { state.keepsAnySlope }
    /// The current tick's frames, by group.
    let frames = Column<Frame>()

    init(method: SpringMethod) {
        precondition(
            MemoryLayout<Frame>.stride == Frame.stride,
            "a spring group's frame is \(MemoryLayout<Frame>.stride) bytes, not \(Frame.stride)")
        self.method = method
        clocked = method == .pop || method == .fixed
        super.init(State())
    }

    /// Whether groups move on with their clocks (`pop`, `fixed`). Stored:
    /// computed, it was a call in every acquire.
    private let clocked: Bool

    /// The group for the given settings and clock, counting one more user.
    func acquire(
        _ parameters: SpringParameters, threshold: Double, clock: Double = 0, grid: Int = 0,
        configurations: SpringConfigurations
    ) -> GroupIndex {
        let key = Key(
            parameters: parameters, threshold: threshold, clock: clocked ? clock.bitPattern : 0,
            grid: clocked ? grid : 0)
        if let index = state.slots.retain(key, quickHash: key.quickHash) { return index }
        return insert(key, parameters, threshold: threshold, clock: clock, grid: grid, configurations: configurations)
    }

    /// A new group for `key`, with one user. Out of line: it builds a group
    /// and a frame (over 300 bytes on the stack), which would make every
    /// acquisition set up that frame.
    @inline(never)
    private func insert(
        _ key: Key, _ parameters: SpringParameters, threshold: Double, clock: Double, grid: Int,
        configurations: SpringConfigurations
    ) -> GroupIndex {
        let group = Group(
            parameters: parameters, configuration: configurations.acquire(parameters, method), threshold: threshold,
            clock: clock, grid: grid)
        let index = state.slots.insert(key)
        state.groups.store(group, at: index)
        frames.store(immediateFrame(index, configurations: configurations), at: index)
        state.keepsAnySlope = state.keepsAnySlope || frames[index.index].keep != 0
        return index
    }

    /// Makes room for `additional` new groups (and their configurations in
    /// `configurations`), so that acquiring them allocates nothing; returns
    /// the group count that room reaches.
    func reserve(additional: Int, configurations: SpringConfigurations) -> Int {
        let capacity = state.slots.reserve(additional: additional)
        state.groups.reserveCapacity(capacity)
        frames.reserve(capacity)
        configurations.reserve(additional: additional)
        return capacity
    }

    /// Whether a spring starting now with `parameters` and `threshold` would
    /// join group `index` (``acquire``'s key): never for clocked methods,
    /// whose groups move on with their clocks.
    func admits(_ index: GroupIndex, _ parameters: SpringParameters, threshold: Double) -> Bool {
        !clocked && state.groups[index.index].parameters == parameters
            && state.groups[index.index].threshold == threshold
    }

    /// The group a spring of group `index` that starts again now with
    /// `parameters` and `threshold` belongs to: `index` if it admits it,
    /// else a group acquired after `index` is released (in the order
    /// removing and adding would: a slot given back can be taken again at
    /// once, so the tables grow alike).
    func rejoin(
        _ index: GroupIndex, _ parameters: SpringParameters, threshold: Double, configurations: SpringConfigurations
    ) -> GroupIndex {
        if admits(index, parameters, threshold: threshold) { return index }
        if state.slots.release(index) { recycle(index, configurations: configurations) }
        return acquire(parameters, threshold: threshold, configurations: configurations)
    }

    /// Counts `users` fewer; the group is recycled at zero.
    ///
    /// Out of line: the batches call it once per run of finished elements,
    /// and inlined it would crowd their loops.
    @inline(never)
    func release(_ index: GroupIndex, count users: Int = 1, configurations: SpringConfigurations) {
        guard state.slots.release(index, count: users) else { return }
        recycle(index, configurations: configurations)
    }

    /// Recycles group `index`, which has no users left.
    @inline(never)
    private func recycle(_ index: GroupIndex, configurations: SpringConfigurations) {
        configurations.release(state.groups[index.index].configuration)
        state.slots.recycle(index)
    }

    /// Every way the groups disagree with the users counted from the
    /// animations; counts in `configurations` the groups' own users.
    func violations(expected: [Int], configurations: inout [Int]) -> [String] {
        for index in state.groups.indices where state.slots.users(index) > 0 {
            TableUsage.count(state.groups[index].configuration, in: &configurations)
        }
        return state.slots.violations(expected: expected, name: "\(method) spring group")
    }

    /// Advances every group's clock by `dt` and computes its frame, after
    /// ``SpringConfigurations/prepare(dt:)``.
    func prepare(dt: Double, configurations: SpringConfigurations) {
        if clocked { state.slots.forgetKeys() }
        let maps = configurations.frameMaps.pointer
        state.keepsAnySlope = false
        for index in state.groups.indices where state.slots.users(index) > 0 {
            frames[index] = frame(
                index, dt: dt, maps: maps[state.groups[index].configuration.index], configurations: configurations)
            frames[index].finish()
            state.keepsAnySlope = state.keepsAnySlope || frames[index].keep != 0
        }
    }

    /// The frame of length 0 that renders a new spring where it is.
    func immediateFrame(_ index: GroupIndex, configurations: SpringConfigurations) -> Frame {
        let group = state.groups[index.index]
        guard method != .pop else { return Self.immediatePopFrame(threshold: group.threshold) }
        var frame = Self.bounds(group.threshold)
        if method == .fixed {
            let h = SpringMethod.gridStep
            let alpha = (group.clock - Double(group.grid) * h) / h
            frame.output = Self.blend(.identity, configurations.step(group.configuration), alpha)
        }
        setRestSlope(&frame, configurations.parameters(group.configuration))
        frame.finish()
        return frame
    }

    /// The clock of a group, to carry over to another (after a pause or a
    /// change of parameters).
    func clock(_ index: GroupIndex) -> (clock: Double, grid: Int) {
        (state.groups[index.index].clock, state.groups[index.index].grid)
    }

    /// The parameters of a group.
    func parameters(_ index: GroupIndex) -> SpringParameters { state.groups[index.index].parameters }

    /// The rest threshold of a group.
    func threshold(_ index: GroupIndex) -> Double { state.groups[index.index].threshold }

    /// The frame of length 0 of a `pop` spring whose rest threshold is
    /// `threshold`: it needs nothing else of the spring's group (it keeps
    /// the state and the stored slope), so that a new spring's first frame
    /// can be rendered without reading the group table.
    @inline(__always)
    static func immediatePopFrame(threshold: Double) -> Frame {
        var frame = bounds(threshold)
        frame.keep = 1
        frame.finish()
        return frame
    }

    @inline(__always)
    private static func bounds(_ threshold: Double) -> Frame {
        var frame = Frame()
        frame.threshold = threshold
        let bounds = PopRestTest.Bounds(threshold)
        frame.positionBound = bounds.position
        frame.velocityBound = bounds.velocitySquared
        frame.slopeBound = bounds.slopeSquared
        frame.restBound = bounds.animation
        frame.nearBound = max(frame.positionBound, frame.restBound)
        // The margins (``PairLaw``): three roundings of at most 2⁻⁵³ each
        // are covered by 2⁻⁵⁰.
        let near = frame.nearBound
        if near >= 0x1p-500 && near <= 0x1p500 {
            frame.nearSquared = near * near * (1 + 0x1p-50)
            frame.pairSpeedScale = SIMD2(repeating: frame.nearSquared / frame.velocityBound * (1 - 0x1p-50))
        }
        return frame
    }

    /// The rest test's slope, `-k/m·d - c/m·v`, of the output.
    private func setRestSlope(_ frame: inout Frame, _ parameters: SpringParameters) {
        let k = -parameters.stiffnessPerMass
        let c = -parameters.frictionPerMass
        frame.slopeD = k * frame.output.dd + c * frame.output.vd
        frame.slopeV = k * frame.output.dv + c * frame.output.vv
    }

    /// `a·(1 - alpha) + b·alpha`, entry by entry.
    private static func blend(_ a: SpringPropagator, _ b: SpringPropagator, _ alpha: Double) -> SpringPropagator {
        SpringPropagator(
            dd: b.dd * alpha + a.dd * (1 - alpha), dv: b.dv * alpha + a.dv * (1 - alpha),
            vd: b.vd * alpha + a.vd * (1 - alpha), vv: b.vv * alpha + a.vv * (1 - alpha))
    }

    private func frame(
        _ index: Int, dt: Double, maps: SpringConfigurations.FrameMaps, configurations: SpringConfigurations
    ) -> Frame {
        var frame = Self.bounds(state.groups[index].threshold)
        let configuration = state.groups[index].configuration
        switch method {
        case .analytic, .rk4:
            frame.state = maps.main
            frame.output = maps.main
            setRestSlope(&frame, configurations.parameters(configuration))
        case .pop:
            // Pop's steps: the state one step short of the end, one step
            // more, and a blend of the two by the time left over; the slope
            // of the last step is kept for the rest test.
            let h = SpringMethod.popStep
            let (steps, left) = SpringMethod.popSteps(state.groups[index].clock + dt)
            state.groups[index].clock = left
            guard steps > 0 else {
                frame.keep = 1
                return frame
            }
            let previous: SpringPropagator =
                steps == maps.base
                ? maps.main
                : steps == maps.base + 1 ? maps.second : configurations.step(configuration).power(steps - 1)
            let next = previous.then(maps.single)
            frame.state = Self.blend(previous, next, left / h)
            frame.output = frame.state
            frame.slopeD = (next.vd - previous.vd) * (1 / h)
            frame.slopeV = (next.vv - previous.vv) * (1 / h)
        case .fixed:
            // Whole grid steps up to the current time, then the output
            // blended with one step more by the fraction past the grid point.
            let h = SpringMethod.gridStep
            let time = state.groups[index].clock + dt
            state.groups[index].clock = time
            var target = Int((time / h).rounded(.down))
            if Double(target + 1) * h <= time { target += 1 }
            let steps = target - state.groups[index].grid
            if steps > 0 {
                frame.state =
                    steps == maps.base
                    ? maps.main
                    : steps == maps.base + 1 ? maps.second : configurations.step(configuration).power(steps)
                state.groups[index].grid = target
            }
            let alpha = (time - Double(state.groups[index].grid) * h) / h
            frame.output = frame.state.then(Self.blend(.identity, maps.single, alpha))
            setRestSlope(&frame, configurations.parameters(configuration))
        }
        return frame
    }
}
