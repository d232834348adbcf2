/// The animation an implicit change runs: how a value moves from its old
/// presentation value to its new model value (Core Animation's action).
public enum ImplicitAction: Sendable, Equatable {
    /// A basic animation over `duration` seconds along `timing`.
    case basic(duration: Double, timing: TimingFunction)
    /// A spring; a running spring on the same key is retargeted instead, so
    /// its velocity carries over.
    case spring(SpringParameters, method: SpringMethod)
}

/// What one step of the action lookup answers (Core Animation's
/// `actionForKey:` protocol: an action, `NSNull`, or nil).
public enum ActionAnswer: Sendable, Equatable {
    /// Animate with this action.
    case action(ImplicitAction)
    /// Stop searching: the value jumps.
    case noAction
    /// No opinion: ask the next step.
    case keepSearching
}

/// A set of animatable values with a model value (what was last set) and a
/// presentation value (what the animator shows this frame), which finds an
/// animation for every change in Core Animation's order: its delegate, its
/// own table of actions, the current transaction, the per-key defaults.
///
/// ```swift
/// let animator = Animator()
/// let layer = ImplicitLayer(animator: animator)
/// try layer.set("opacity", to: 1.0)            // outside a transaction: opacity's default, 0.25 s ease-in-out
/// try animator.transaction(duration: 0.5) {
///     try layer.set("x", to: 100.0)            // 0.5 s along the default curve
/// }
/// ```
///
/// A change that finds no action jumps: the key's running animations are
/// removed (their stop events say cancelled) and the value is written at
/// once. Transactions also set the ``FillMode`` of delayed and finished
/// animations and can make changes additive; ``add(_:forKey:fillMode:)``
/// runs an explicit animation that leaves the model value alone. A layer's
/// animation removed by other code (through the animator) gives way to the
/// model value, as a removed animation does in Core Animation.
public final class ImplicitLayer {
    /// The animator that runs the layer's animations.
    public let animator: Animator
    /// The layer's target in the animator; each key is a property of it.
    public let target: TargetID
    /// Asked first for every change, like a layer's delegate (a view answers
    /// for its layer): an action, no action, or keep searching.
    public var delegate: ((_ key: String) -> ActionAnswer)?
    /// The layer's own actions by key, asked second; `.keepSearching`
    /// entries are passed over.
    public var actions: [String: ActionAnswer] = [:]
    /// The per-key defaults, asked last: opacity fades over 0.25 s
    /// ease-in-out unless changed.
    public var defaultActions: [String: ImplicitAction] = [
        "opacity": .basic(duration: 0.25, timing: .easeInEaseOut)
    ]

    private var models: [String: SIMD4<Double>] = [:]
    /// Each key's non-additive animation (implicit or explicit) and the
    /// transactions it reports its stop to.
    private var links: [String: (handle: AnimationHandle, link: TransactionLinks)] = [:]
    /// Each key's running additive animations; while any runs, the key
    /// has no non-additive one.
    private var additions: [String: [AnimationHandle]] = [:]
    /// Numbers the additive animations' keys in the animator.
    private var additionCount = 0
    /// Writes each key's model value to its property.
    private var showModel: [String: () -> Void] = [:]

    /// A layer with a new target in `animator`.
    public init(animator: Animator) {
        self.animator = animator
        target = animator.makeTarget()
    }

    /// A layer on an existing target of `animator`: its keys are that
    /// target's properties.
    public init(animator: Animator, target: TargetID) {
        self.animator = animator
        self.target = target
    }

    /// The value last set for `key`, or nil if it was never set.
    public func modelValue<Value: AnimatableVector>(forKey key: String, as type: Value.Type = Value.self) -> Value? {
        models[key].map { Value(packed: $0) }
    }

    /// The value the animator shows for `key` now, or nil if it was never set.
    public func presentationValue<Value: AnimatableVector>(forKey key: String, as type: Value.Type = Value.self)
        -> Value?
    {
        guard models[key] != nil, let property = animator.existingProperty(key, of: target, as: Value.self) else {
            return nil
        }
        return animator[property]
    }

    /// The action a change of `key` finds now, or nil when the value jumps:
    /// disabled actions, the delegate, the layer's table, the current
    /// transaction, the per-key defaults, in that order.
    public func action(forKey key: String) -> ImplicitAction? {
        let transaction = animator.currentTransaction
        if transaction?.disableActions == true { return nil }
        for answer in [delegate?(key) ?? .keepSearching, actions[key] ?? .keepSearching] {
            switch answer {
            case .action(let action): return action
            case .noAction: return nil
            case .keepSearching: continue
            }
        }
        if let transaction { return transaction.action }
        return defaultActions[key]
    }

    /// Sets the model value of `key` and animates the presentation value to
    /// it with the action the lookup finds (see ``action(forKey:)``). The
    /// first set of a key creates it, at that value, without animating.
    ///
    /// The animation starts after the current transaction's delay, showing
    /// what its ``FillMode`` says meanwhile, and replaces the key's running
    /// animation: it runs from the current presentation value, and a spring
    /// running on the key is retargeted instead, keeping its velocity.
    ///
    /// In an `additive` transaction a basic or spring change replaces
    /// nothing: it animates the change of the model value, from 0 to the
    /// difference (or, delayed without a backwards fill, from minus the
    /// difference to 0, the new value showing during the delay), and adds
    /// that to the value each frame on top of the key's other additive
    /// animations, so neither the value nor its velocity jumps. A
    /// non-additive animation still running on the key is removed first,
    /// and the change is then measured from the presentation value. When
    /// the last additive animation of a key finishes, the value is set to
    /// the model value exactly. Keyframe blocks are never additive.
    ///
    /// - Throws: ``ParameterError`` for a value that is not finite, or an
    ///   action the animator refuses.
    public func set<Value: AnimatableVector>(_ key: String, to value: Value) throws(ParameterError) {
        try animator.implicitOperation { () throws(ParameterError) in try change(key, to: value) }
    }

    private func change<Value: AnimatableVector>(_ key: String, to value: Value) throws(ParameterError) {
        guard value.isFinite else {
            throw ParameterError(parameter: key, value: value.packed.max(), accepted: "finite in every component")
        }
        let property = animator.property(key, of: target, initial: value)
        let oldModel = models[key]
        models[key] = value.packed
        guard let oldModel else {
            remember(key, property)
            // The property may exist already (made by other code): it takes the value.
            animator[property] = value
            return
        }
        if let block = animator.currentKeyframeBlock,
            block.record(
                layer: self, key: key, value: value.packed, start: animator[property].packed,
                make: { values, keyTimes, timings throws(ParameterError) in
                    try self.runKeyframes(
                        key, property: property, values: values.map { Value(packed: $0) }, keyTimes: keyTimes,
                        timings: timings)
                })
        {
            return
        }
        guard let action = action(forKey: key) else {
            removeAnimations(forKey: key)
            animator[property] = value
            return
        }
        let transaction = animator.currentTransaction
        if transaction?.additive == true {
            try startAdditive(
                action, key: key, property: property,
                change: value - settledValue(key, property: property, oldModel: Value(packed: oldModel)))
            return
        }
        removeAdditions(forKey: key)
        let delay = transaction?.delay ?? 0
        if case .spring(let parameters, _) = action, delay == 0,
            let running = animator.animation(forKey: key, on: target), let entry = links[key], entry.handle == running,
            animator.retarget(running, to: value)
        {
            // Retargeted: the velocity carries over, and the transactions
            // open now wait for this spring too.
            _ = animator.setSpringParameters(running, parameters)
            entry.link.join(animator.state.implicit.transactions)
            return
        }
        var animation: Animation<Value>
        switch action {
        case .basic(let duration, let timing):
            animation = .basic(duration: duration, timing: timing, from: animator[property], to: value)
        case .spring(let parameters, let method):
            let velocity = animator.animation(forKey: key, on: target).flatMap {
                animator.velocity(of: $0, as: Value.self)
            }
            animation = .spring(parameters, method: method, from: animator[property], to: value, velocity: velocity)
        }
        animation.beginTime = animator.time + delay
        try start(animation, key: key, property: property, fillMode: transaction?.fillMode ?? Animator.defaultFillMode)
    }

    /// Runs `animation` on `key` explicitly, as Core Animation's
    /// `add(_:forKey:)` does: the model value stays, the presentation value
    /// follows the animation from its ``Animation/beginTime`` (on the
    /// animator's clock; an earlier time starts it at the next frame), and
    /// outside its active time the key shows what `fillMode` says: the
    /// animation's from value (or first key frame) before it with a
    /// backwards fill, its last value after it with a forwards fill (until
    /// the key next changes), the model value otherwise. The animation
    /// replaces the key's running animations and reports its stop to the
    /// open transactions; its own callbacks still run.
    ///
    /// A key never set before takes the animation's from value (or first
    /// key frame) as its model value, or zero when it has none.
    ///
    /// - Returns: the animation's handle in the animator.
    /// - Throws: ``ParameterError`` for an animation the animator refuses.
    @discardableResult
    public func add<Value: AnimatableVector>(
        _ animation: Animation<Value>, forKey key: String, fillMode: FillMode = .removed
    ) throws(ParameterError) -> AnimationHandle {
        try animator.implicitOperation { () throws(ParameterError) in
            try addNow(animation, forKey: key, fillMode: fillMode)
        }
    }

    private func addNow<Value: AnimatableVector>(
        _ animation: Animation<Value>, forKey key: String, fillMode: FillMode
    ) throws(ParameterError) -> AnimationHandle {
        let first = Self.startValue(of: animation) ?? .zero
        let property = animator.property(key, of: target, initial: first)
        if models[key] == nil {
            models[key] = first.packed
            remember(key, property)
            animator[property] = first
        }
        removeAdditions(forKey: key)
        return try start(animation, key: key, property: property, fillMode: fillMode)
    }

    /// Removes every animation of `key` this layer runs (their stop events
    /// say cancelled); the key shows its model value again, as after Core
    /// Animation's `removeAnimation(forKey:)`.
    public func removeAnimation(forKey key: String) {
        guard models[key] != nil else { return }
        animator.implicitOperation {
            removeAnimations(forKey: key)
            showModel[key]?()
        }
    }

    /// Keeps how to show `key`'s model value, for a key's first set.
    private func remember<Value: AnimatableVector>(_ key: String, _ property: PropertyHandle<Value>) {
        showModel[key] = { [unowned self] in
            if let model = self.models[key] { self.animator[property] = Value(packed: model) }
        }
    }

    /// Adds `animation` under `key` as the key's one non-additive animation,
    /// reporting its stop to every open transaction, and shows what
    /// `fillMode` says before and after it.
    @discardableResult
    private func start<Value: AnimatableVector>(
        _ animation: Animation<Value>, key: String, property: PropertyHandle<Value>, fillMode: FillMode
    ) throws(ParameterError) -> AnimationHandle {
        var animation = animation
        let link = TransactionLinks()
        link.join(animator.state.implicit.transactions)
        let own = animation.callbacks.onStop
        animation.callbacks.onStop = { [weak self] animator, handle, finished in
            link.stopped(finished: finished)
            // The layer forgets an animation before it replaces or removes
            // it; one still listed stopped by itself or was removed by
            // other code.
            if let self, self.links[key]?.handle == handle {
                self.links[key] = nil
                // Without a forwards fill a finished animation gives way to
                // the model value; so does a removed one, as in Core Animation.
                if !(finished && fillMode.fillsForwards), let model = self.models[key] {
                    animator[property] = Value(packed: model)
                }
            }
            if let own { animator.runOrDefer { own(animator, handle, finished) } }
        }
        links[key] = nil
        let handle = try animator.add(animation, to: property, forKey: key)
        links[key] = (handle, link)
        if animation.beginTime > animator.time {
            // Delayed: the from value with a backwards fill, else the model value.
            if !fillMode.fillsBackwards {
                animator[property] = Value(packed: models[key]!)
            } else if let from = Self.startValue(of: animation) {
                animator[property] = from
            }
        }
        return handle
    }

    /// Starts an additive animation of `change` on `key` with `action`'s
    /// duration and curve or spring.
    private func startAdditive<Value: AnimatableVector>(
        _ action: ImplicitAction, key: String, property: PropertyHandle<Value>, change: Value
    ) throws(ParameterError) {
        let transaction = animator.currentTransaction
        let delay = transaction?.delay ?? 0
        // Delayed without a backwards fill, the new value shows during the
        // delay: the change is added now and the animation runs from its
        // negative to 0; otherwise from 0 to the change.
        let showsNewValue = delay > 0 && !(transaction?.fillMode ?? Animator.defaultFillMode).fillsBackwards
        let (from, to) = showsNewValue ? (Value.zero - change, Value.zero) : (Value.zero, change)
        var animation: Animation<Value>
        switch action {
        case .basic(let duration, let timing):
            animation = .basic(duration: duration, timing: timing, from: from, to: to)
        case .spring(let parameters, let method):
            animation = .spring(parameters, method: method, from: from, to: to, velocity: .zero)
        }
        animation.additive = true
        animation.beginTime = animator.time + delay
        let link = TransactionLinks()
        link.join(animator.state.implicit.transactions)
        animation.callbacks.onStop = { [weak self] animator, handle, finished in
            link.stopped(finished: finished)
            guard let self, var running = self.additions[key], let index = running.firstIndex(of: handle) else {
                return
            }
            running.remove(at: index)
            self.additions[key] = running.isEmpty ? nil : running
            // The sum of the changes is the model value, up to rounding: make
            // it exact. (If other code removed one of them, the sum falls
            // short until this snap.)
            if running.isEmpty, let model = self.models[key] { animator[property] = Value(packed: model) }
        }
        additionCount += 1
        let handle = try animator.add(animation, to: property, forKey: "\(key) (additive \(additionCount))")
        additions[key, default: []].append(handle)
        if showsNewValue { animator[property] = animator[property] + change }
    }

    /// Where `key` would come to rest with no further change: the model
    /// value while additive animations run (each adds its change), else the
    /// presentation value, after removing a non-additive animation still
    /// running (it stops; an additive change continues from where it was).
    private func settledValue<Value: AnimatableVector>(_ key: String, property: PropertyHandle<Value>, oldModel: Value)
        -> Value
    {
        if additions[key] != nil { return oldModel }
        if let entry = links[key] {
            links[key] = nil
            animator.remove(entry.handle)
        }
        return animator[property]
    }

    /// Removes the key's non-additive animation and its additive ones.
    private func removeAnimations(forKey key: String) {
        if let entry = links[key] {
            links[key] = nil
            animator.remove(entry.handle)
        }
        // A plain animation of the key added by other code goes too.
        animator.removeAnimation(forKey: key, on: target)
        removeAdditions(forKey: key)
    }

    /// Removes the key's additive animations, leaving the value where they put it.
    private func removeAdditions(forKey key: String) {
        guard let running = additions.removeValue(forKey: key) else { return }
        for handle in running { animator.remove(handle) }
    }

    /// The value an animation starts from, when it says.
    private static func startValue<Value: AnimatableVector>(of animation: Animation<Value>) -> Value? {
        if let from = animation.from { return from }
        if case .keyframes(let keyframes) = animation.kind { return keyframes.values.first }
        return nil
    }

    /// The keyframe animation a keyframe block captured for `key`, over the
    /// block's duration.
    private func runKeyframes<Value: AnimatableVector>(
        _ key: String, property: PropertyHandle<Value>, values: [Value], keyTimes: [Double], timings: [TimingFunction]
    ) throws(ParameterError) {
        let transaction = animator.currentTransaction
        let keyframes = try Keyframes(
            values: values, keyTimes: keyTimes, timingFunctions: timings,
            duration: transaction?.duration ?? Animator.defaultTransactionDuration)
        removeAdditions(forKey: key)
        var animation = Animation<Value>.keyframes(keyframes)
        animation.beginTime = animator.time + (transaction?.delay ?? 0)
        try start(animation, key: key, property: property, fillMode: transaction?.fillMode ?? Animator.defaultFillMode)
    }
}

/// The transactions an implicit animation reports its stop to.
final class TransactionLinks {
    private var transactions: [Transaction] = []
    private var done = false

    func join(_ more: [Transaction]) {
        guard !done else { return }
        for transaction in more where !transactions.contains(where: { $0 === transaction }) {
            transaction.pending += 1
            transactions.append(transaction)
        }
    }

    func stopped(finished: Bool) {
        guard !done else { return }
        done = true
        for transaction in transactions { transaction.animationStopped(finished: finished) }
        transactions.removeAll()
    }
}
