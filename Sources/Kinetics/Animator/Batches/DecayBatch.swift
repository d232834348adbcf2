import CKineticsSupport

/// The decelerations in use with their factors for the current tick.
final class DecayConfigurations: UncheckedState<SharedSlots<DecayConfigurations.Key, DecaySlot>> {
    struct Key: Hashable {
        let deceleration: Double
        let method: DecayMethod
    }

    let factors = Column<DecayFactors>()
    /// The configurations' keys and users.
    private var slots: SharedSlots<Key, DecaySlot> {
        _read { yield state }
        _modify { yield &state }
    }

    init() { super.init(SharedSlots()) }

    /// The configuration for `deceleration` and `method`, counting one more user.
    func acquire(_ deceleration: Double, _ method: DecayMethod) -> DecayIndex {
        let key = Key(deceleration: deceleration, method: method)
        if let index = slots.retain(key) { return index }
        let index = slots.insert(key)
        factors.store(DecayFactors(), at: index)
        return index
    }

    /// Counts `released` users fewer; the configuration is recycled at zero.
    ///
    /// Out of line: the batches call it once per run of finished elements,
    /// and inlined it would crowd their loops.
    @inline(never)
    func release(_ index: DecayIndex, count released: Int = 1) {
        if slots.release(index, count: released) { slots.recycle(index) }
    }

    /// Every way the table disagrees with the users counted from the animations.
    func violations(expected: [Int]) -> [String] { slots.violations(expected: expected, name: "decay configuration") }

    /// Computes every deceleration's factors for a frame of `dt`.
    func prepare(dt: Double) {
        for index in 0 ..< slots.count where slots.users(index) > 0 {
            let key = slots.keys[index]
            factors[index] = DecayFactors(deceleration: key.deceleration, method: key.method, dt: dt)
        }
    }
}

/// A decay's own state: its value and velocity (unclamped, as the law
/// moves them) and its deceleration's entry in ``DecayConfigurations``.
struct DecayState<V: AnimatableVector> {
    var value: V
    var velocity: V
    var configuration: DecayIndex
}

/// The decays of one lane that share a method, in structure-of-arrays form.
final class DecayBatch<V: AnimatableVector>: ElementBatch {
    let method: DecayMethod
    let common = ElementColumns<V>()
    let state = Column<DecayState<V>>()

    init(method: DecayMethod) { self.method = method }

    func forEachColumn<Operation: ColumnOperation>(_ operation: Operation) { operation.apply(to: state) }

    /// Completes the quiet decays that finished in this advance
    /// (``ElementColumns/finishQuietly``), giving back their configurations.
    func finishQuietly(_ configurations: DecayConfigurations, output: inout FrameOutput) {
        finishQuietly(
            output: &output, entry: { state.pointer[$0].configuration },
            release: { entry, users in configurations.release(entry, count: users) })
    }

    func advance(
        _ context: FrameContext, configurations: DecayConfigurations, values: ColumnPointer<V>,
        output: inout FrameOutput
    ) {
        let factors = ColumnPointer(configurations.factors)
        let p = Pointers(self)
        // A loop per method, so that the law's choice is made once.
        switch method {
        case .pop: advance(p, factors, .pop, values: values, output: &output)
        case .exact: advance(p, factors, .exact, values: values, output: &output)
        case .continuous: advance(p, factors, .continuous, values: values, output: &output)
        }
    }

    /// Advances every unpaused decay in straight runs
    /// (``ElementBatch/advanceInStraightRuns``): ``straightStep`` for one
    /// that nothing observes, clamps at its start, rounds or adds,
    /// ``advanceElement`` for the others.
    @inline(__always)
    private func advance(
        _ p: Pointers, _ factors: ColumnPointer<DecayFactors>, _ method: DecayMethod, values: ColumnPointer<V>,
        output: inout FrameOutput
    ) {
        advanceInStraightRuns(
            p.common.flags, values: values, output: &output,
            run: { start in
                straightRun(from: start, p.common.flags) { straightStep($0, p, factors, method, values: values) }
            },
            general: { index, output in
                advanceElement(
                    index, factors: factors[p.state[index].configuration.index], p, method, values: values,
                    output: &output)
            })
    }

    /// A straight decay's frame: ``advanceElement``'s for a decay that is
    /// clamped at its end value alone and written as it is; whether it came
    /// to rest (written, not yet reported).
    @inline(__always)
    private func straightStep(
        _ index: Int, _ p: Pointers, _ factors: ColumnPointer<DecayFactors>, _ method: DecayMethod,
        values: ColumnPointer<V>
    ) -> Bool {
        var x = p.state[index].value
        var v = p.state[index].velocity
        factors[p.state[index].configuration.index].advance(&x, &v, method: method)
        x = Self.clamped(x, from: p.common.from[index], end: p.common.to[index], atStart: false)
        p.state[index].value = x
        p.state[index].velocity = v
        values[p.common.slot[index].index] = x
        p.common.previous[index] = x
        return DecayParameters.isAtRest(velocity: v, threshold: p.threshold[index])
    }

    /// `x` clamped at `end`, as Pop clamps a decay, and with `atStart` at
    /// `from` too, per component. Each bound is a comparison and a select
    /// (`stop < c ? stop : c`, SSE2's minimum), which keep `c` where it is
    /// NaN or equal to the bound.
    @inline(__always)
    static func clamped(_ x: V, from: V, end: V, atStart: Bool) -> V {
        var x = x
        for component in 0 ..< V.componentCount {
            let start = from[component: component]
            let stop = end[component: component]
            var c = x[component: component]
            if stop > start {
                c = stop < c ? stop : c
                if atStart { c = c < start ? start : c }
            } else {
                c = c < stop ? stop : c
                if atStart { c = start < c ? start : c }
            }
            x[component: component] = c
        }
        return x
    }

    /// The columns a frame reads and writes, read once per frame.
    struct Pointers {
        let state: ColumnPointer<DecayState<V>>
        let threshold: ColumnPointer<Double>
        let common: ElementColumns<V>.Pointers

        @inline(__always)
        init(_ batch: DecayBatch) {
            state = ColumnPointer(batch.state)
            threshold = ColumnPointer(batch.common.threshold)
            common = ElementColumns.Pointers(batch.common)
        }
    }

    /// One frame of one decay: Pop's `decay_position` (or the exact or
    /// continuous law), clamped at its end value, done when every component
    /// of the velocity is below `5·threshold`.
    @inline(__always)
    func advanceElement(
        _ index: Int, factors f: DecayFactors, _ p: Pointers, _ method: DecayMethod, values: ColumnPointer<V>,
        output: inout FrameOutput
    ) {
        let states = p.state
        var x = states[index].value
        var v = states[index].velocity
        f.advance(&x, &v, method: method)
        // Pop clamps a decay at its end value (and at its start when asked).
        let bits = p.common.flags[index]
        let clampsStart = bits & ElementFlag.clamps != 0 && common.clamp.pointer[index].contains(.start)
        x = Self.clamped(x, from: p.common.from[index], end: p.common.to[index], atStart: clampsStart)
        states[index].value = x
        states[index].velocity = v
        let done = DecayParameters.isAtRest(velocity: v, threshold: p.threshold[index])
        // Clamped above, so written as it is (endFrame would clamp again).
        common.write(index, x, flags: bits, p.common, values: values)
        common.report(index, done: done, flags: bits, owner: p.common.owner, values: values, output: &output)
    }
}
