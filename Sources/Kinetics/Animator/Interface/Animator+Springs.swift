// Adding a spring from its numbers, without an `Animation`.

extension Animator {
    /// Adds a spring of `property` to `target` under `key`: what adding
    /// `Animation.spring(parameters, method: method, to: target, velocity:
    /// velocity)`, with `threshold`, does, without building the animation.
    ///
    /// The spring starts from the property's current value (with
    /// `velocity`, or none), now, and is removed when it comes to rest;
    /// nothing observes it (a tracer, set on the animator, still does).
    /// Under a key the target already uses it replaces what runs there, as
    /// ``add(_:to:forKey:)-(Animation<Value>,_,AnimationKey)`` does, and
    /// its handle and everything it leaves are what that add's would be.
    /// For a view's many springs added at once (a list's rows, a burst of
    /// particles), this add skips the animation's build, its settings'
    /// check and its destruction, which are most of what an add costs
    /// beyond the animator's own bookkeeping (docs/performance.md).
    ///
    /// - Throws: ``ParameterError`` naming `to`, `velocity`, `threshold`
    ///   or `method` when it is out of range.
    /// - Complexity: O(1) expected.
    @discardableResult
    @_specialize(exported:true,where Value == Double)
    @_specialize(exported:true,where Value == SIMD2<Double>)
    @_specialize(exported:true,where Value == SIMD3<Double>)
    @_specialize(exported:true,where Value == SIMD4<Double>)
    public func addSpring<Value: AnimatableVector>(
        to target: Value, of property: PropertyHandle<Value>, forKey key: AnimationKey,
        parameters: SpringParameters = .popDefault, method: SpringMethod = .rk4, velocity: Value? = nil,
        threshold: Double? = nil
    ) throws(ParameterError) -> AnimationHandle {
        let spring = DirectSpring<Value>(target: target.packed, velocity: velocity?.packed, threshold: threshold)
        return try addSpring(spring, (parameters, method), to: property, key: key.name, prefix: key.prefix)
    }

    /// The add of ``add(_:to:key:prefix:)`` for a spring of `settings`
    /// that nothing observes, starting now, with the animation's parts
    /// that such a spring leaves out left out.
    @inline(__always)
    private func addSpring<Value: AnimatableVector>(
        _ spring: DirectSpring<Value>, _ settings: (parameters: SpringParameters, method: SpringMethod),
        to property: PropertyHandle<Value>, key: String, prefix: KeyHash.Prefix?
    ) throws(ParameterError) -> AnimationHandle {
        defer { checkInternally(after: "add") }
        try spring.validate()
        try settings.method.checkStable(for: settings.parameters)
        // The animation's begin time, 0, has come unless the clock is
        // before it; a tracer observes it from its start, in a box; a value
        // type of the caller's own runs in a box. Then the animation's add.
        guard Self.isOwnValueType(Value.self), state.tracer == nil, time >= 0 else {
            return try add(spring.animation(settings), to: property, key: key, prefix: prefix)
        }
        let hint = keyedRecord(of: property)
        let lookup = KeyLookup(registry, property.target, key, hint: hint, prefix: prefix)
        let handle: AnimationHandle
        if let index = quietSpringToReplace(
            Value.self, id: spring.id, startsQuietNow: true, method: settings.method, slot: property.slot,
            running: lookup.existing)
        {
            handle = replaceInPlace(spring, index: index, parameters: settings.parameters, life: .once)
        } else {
            handle = addBare(spring, settings, to: property, id: spring.id, key: key, life: .once, lookup: lookup)
        }
        if handle.record != hint { setKeyedRecord(handle.record, of: property) }
        return handle
    }
}

/// What a quiet spring's start reads from what was added: an animation, or
/// a spring's numbers.
protocol QuietSpringSource {
    associatedtype Value: AnimatableVector
    var packedFrom: SIMD4<Double>? { get }
    var packedTo: SIMD4<Double>? { get }
    var packedVelocity: SIMD4<Double>? { get }
    var threshold: Double? { get }
    var clamp: ClampMode { get }
    /// The identity of the animation added.
    var id: AnimationID { get }
    /// The animation added, as a box needs it.
    consuming func animation(_ spring: (parameters: SpringParameters, method: SpringMethod)) -> Animation<Value>
}

extension Animation: QuietSpringSource {
    consuming func animation(_: (parameters: SpringParameters, method: SpringMethod)) -> Animation { self }
}

/// A spring's numbers, as the animator's `addSpring` takes them.
struct DirectSpring<Value: AnimatableVector>: QuietSpringSource {
    let target: SIMD4<Double>
    let packedVelocity: SIMD4<Double>?
    let threshold: Double?
    /// The identity its animation would have (a new one).
    let id: AnimationID

    init(target: SIMD4<Double>, velocity: SIMD4<Double>?, threshold: Double?) {
        self.target = target
        packedVelocity = velocity
        self.threshold = threshold
        id = AnimationID.next()
    }

    var packedFrom: SIMD4<Double>? { nil }
    var packedTo: SIMD4<Double>? { target }
    var clamp: ClampMode { ClampMode(rawValue: 0) }

    /// Checks the numbers: every component finite, the threshold positive.
    /// One vector test (a finite number less itself is 0, any other NaN),
    /// and the names only when it fails.
    @inline(__always)
    func validate() throws(ParameterError) {
        let velocity = packedVelocity ?? .zero
        let threshold = self.threshold ?? 1
        let zeros = (target - target) + (velocity - velocity) + SIMD4(threshold - threshold, 0, 0, 0)
        if !(zeros == .zero) || !(threshold > 0) { try name() }
    }

    /// Throws the error of the first setting out of range.
    @inline(never)
    private func name() throws(ParameterError) {
        for (packed, name) in [(target, "to"), (packedVelocity ?? .zero, "velocity")]
        where !(packed - packed == .zero) {
            throw ParameterError(parameter: name, value: packed.max(), accepted: "finite in every component")
        }
        if let threshold { try Check.positive(threshold, "threshold") }
    }

    consuming func animation(_ spring: (parameters: SpringParameters, method: SpringMethod)) -> Animation<Value> {
        var animation = Animation<Value>(
            .spring(spring.parameters, method: spring.method), from: nil, to: Value(packed: target),
            velocity: packedVelocity.map { Value(packed: $0) }, id: id)
        animation.threshold = threshold
        return animation
    }
}
