/// The state every property animation element keeps for writing its value:
/// Pop's from/to, the last two written values (for the rest test and for
/// additive writes) and the writing options.
struct ElementState<V: AnimatableVector> {
    /// The record that owns the element.
    var owner: AnimationHandle
    /// The property's slot in the lane.
    var slot: Int32
    var from: V
    var to: V
    /// The last two written values and how many there are (0, 1 or 2).
    var previous: V = .zero
    var previous2: V = .zero
    var writes: UInt8 = 0
    var clamp: ClampMode
    /// `1/roundingFactor`, or 0 for no rounding.
    var roundingScale: Double
    var additive: Bool
    var threshold: Double
    /// Whether the element's record wants to hear about every frame
    /// (callbacks, progress markers, a pending reached-to-value, tracing).
    var wantsEvents: Bool
    var paused = false

    init(
        owner: AnimationHandle, slot: Int32, from: V, to: V, clamp: ClampMode, roundingFactor: Double,
        additive: Bool, threshold: Double, wantsEvents: Bool
    ) {
        self.owner = owner
        self.slot = slot
        self.from = from
        self.to = to
        self.clamp = clamp
        roundingScale = roundingFactor == 0 ? 0 : 1 / roundingFactor
        self.additive = additive
        self.threshold = threshold
        self.wantsEvents = wantsEvents
    }

    /// Pop's clamp of a value into [from, to] at the chosen ends, per component.
    func clamped(_ value: V) -> V {
        guard !clamp.isEmpty else { return value }
        var result = value
        for index in 0 ..< V.componentCount {
            let low = from[component: index]
            let high = to[component: index]
            let increasing = high > low
            var component = result[component: index]
            if clamp.contains(.start) && (increasing ? component < low : component > low) { component = low }
            if clamp.contains(.end) && (increasing ? component > high : component < high) { component = high }
            result[component: index] = component
        }
        return result
    }

    /// The value as written: rounded to multiples of the rounding factor.
    func rounded(_ value: V) -> V {
        guard roundingScale != 0 else { return value }
        let scale = roundingScale
        return value.map { ($0 * scale).rounded() / scale }
    }

    /// Writes `value` (rounded) to the property, directly or as the change
    /// since the last write when additive, and remembers it.
    mutating func write(_ value: V, into values: UnsafeMutablePointer<V>) {
        let out = rounded(value)
        let slot = Int(self.slot)
        if additive {
            values[slot] = values[slot] + (writes > 0 ? out - previous : out)
        } else {
            values[slot] = out
        }
        previous2 = previous
        previous = out
        if writes < 2 { writes += 1 }
    }

    /// Pop's animation-level rest test on the last two written values.
    var animationConverged: Bool {
        writes >= 2
            && PopRestTest.animationHasConverged(
                previous2: previous2, previous: previous, target: rounded(to), threshold: threshold,
                roundingFactor: roundingScale == 0 ? 0 : 1 / roundingScale)
    }
}

/// Where a batch reports what happened to its elements during a frame.
struct FrameOutput {
    /// Elements whose records want per-frame events.
    var events: [AnimationHandle] = []
    /// Elements that finished this frame.
    var finished: [AnimationHandle] = []

    init() {}

    mutating func reset() {
        events.removeAll(keepingCapacity: true)
        finished.removeAll(keepingCapacity: true)
    }
}

/// What a batch needs to know about the frame.
struct FrameContext {
    /// The frame's time.
    let time: Double
    /// The frame length (0 for an element's first, immediate frame).
    let dt: Double
    /// Counts ticks, so shared per-tick caches know when they are stale.
    let serial: UInt64
}
