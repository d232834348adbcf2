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
        let states = ColumnPointer(state)
        let p = ElementColumns.Pointers(common)
        for index in 0 ..< count where p.flags[index] & ElementFlag.paused == 0 {
            advanceElement(
                index, factors: factors[states[index].configuration.index], p, values: values, output: &output)
        }
    }

    /// One frame of one decay: Pop's `decay_position` (or the exact or
    /// continuous law), clamped at its end value, done when every component
    /// of the velocity is below `5·threshold`.
    @inline(__always)
    func advanceElement(
        _ index: Int, factors f: DecayFactors, _ p: ElementColumns<V>.Pointers, values: ColumnPointer<V>,
        output: inout FrameOutput
    ) {
        let states = ColumnPointer(state)
        var x = states[index].value
        var v = states[index].velocity
        f.advance(&x, &v, method: method)
        // Pop clamps a decay at its end value (and at its start when asked).
        let from = p.from[index]
        let end = p.to[index]
        let bits = p.flags[index]
        let clampsStart = bits & ElementFlag.clamps != 0 && common.clamp.pointer[index].contains(.start)
        for component in 0 ..< V.componentCount {
            let start = from[component: component]
            let stop = end[component: component]
            var c = x[component: component]
            if stop > start ? c > stop : c < stop { c = stop }
            if clampsStart && (stop > start ? c < start : c > start) { c = start }
            x[component: component] = c
        }
        states[index].value = x
        states[index].velocity = v
        let done = DecayParameters.isAtRest(velocity: v, threshold: common.threshold.pointer[index])
        // Clamped above, so written as it is (endFrame would clamp again).
        common.write(index, x, flags: bits, p, values: values)
        common.report(index, done: done, flags: bits, owner: p.owner, values: values, output: &output)
    }
}
