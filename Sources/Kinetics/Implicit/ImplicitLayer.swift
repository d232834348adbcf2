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
/// A change that finds no action jumps: a running animation of the key is
/// removed (its stop event says cancelled) and the value is written at once.
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
        "opacity": .basic(duration: 0.25, timing: .easeInEaseOut),
    ]

    private var models: [String: SIMD4<Double>] = [:]
    /// Each key's last implicit animation and the transactions it reports
    /// its stop to.
    private var links: [String: (handle: AnimationHandle, link: TransactionLinks)] = [:]

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
    public func presentationValue<Value: AnimatableVector>(forKey key: String, as type: Value.Type = Value.self) -> Value? {
        guard models[key] != nil, let property = animator.existingProperty(key, of: target, as: Value.self) else { return nil }
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
    /// it with the action the lookup finds (see ``action(forKey:)``), from the
    /// current presentation value. The first set of a key creates it, at that
    /// value, without animating.
    ///
    /// - Throws: ``ParameterError`` for a value that is not finite, or an
    ///   action the animator refuses.
    public func set<Value: AnimatableVector>(_ key: String, to value: Value) throws(ParameterError) {
        guard value.isFinite else {
            throw ParameterError(parameter: key, value: value.packed.max(), accepted: "finite in every component")
        }
        let property = animator.property(key, of: target, initial: value)
        let isNew = models[key] == nil
        models[key] = value.packed
        if isNew {
            // The property may exist already (made by other code): it takes the value.
            animator[property] = value
            return
        }
        if let block = animator.currentKeyframeBlock,
            block.record(layer: self, key: key, value: value.packed, start: animator[property].packed, make: { values, keyTimes, timings throws(ParameterError) in
                try self.runKeyframes(key, property: property, values: values.map { Value(packed: $0) }, keyTimes: keyTimes, timings: timings)
            })
        {
            return
        }
        guard let action = action(forKey: key) else {
            animator.removeAnimation(forKey: key, on: target)
            animator[property] = value
            return
        }
        let transactions = animator.openTransactions
        let delay = animator.currentTransaction?.delay ?? 0
        if case .spring(let parameters, _) = action, delay == 0,
            let running = animator.animation(forKey: key, on: target), let entry = links[key], entry.handle == running,
            animator.retarget(running, to: value)
        {
            // Retargeted: the velocity carries over, and the transactions
            // open now wait for this spring too.
            _ = animator.setSpringParameters(running, parameters)
            entry.link.join(transactions)
            return
        }
        var animation: Animation<Value>
        switch action {
        case .basic(let duration, let timing):
            animation = .basic(duration: duration, timing: timing, from: animator[property], to: value)
        case .spring(let parameters, let method):
            let velocity = animator.animation(forKey: key, on: target).flatMap { animator.velocity(of: $0, as: Value.self) }
            animation = .spring(parameters, method: method, from: animator[property], to: value, velocity: velocity)
        }
        try start(animation, key: key, property: property)
    }

    /// Adds `animation` under `key`, delayed by the current transaction and
    /// reporting its stop to every open transaction.
    private func start<Value: AnimatableVector>(
        _ animation: Animation<Value>, key: String, property: PropertyHandle<Value>
    ) throws(ParameterError) {
        var animation = animation
        animation.beginTime = animator.time + (animator.currentTransaction?.delay ?? 0)
        let link = TransactionLinks()
        link.join(animator.openTransactions)
        animation.callbacks.onStop = { _, _, finished in link.stopped(finished: finished) }
        let handle = try animator.add(animation, to: property, forKey: key)
        links[key] = (handle, link)
    }

    /// The keyframe animation a keyframe block captured for `key`, over the
    /// block's duration.
    private func runKeyframes<Value: AnimatableVector>(
        _ key: String, property: PropertyHandle<Value>, values: [Value], keyTimes: [Double], timings: [TimingFunction]
    ) throws(ParameterError) {
        let duration = animator.currentTransaction?.duration ?? Animator.defaultTransactionDuration
        let keyframes = try Keyframes(values: values, keyTimes: keyTimes, timingFunctions: timings, duration: duration)
        try start(Animation<Value>.keyframes(keyframes), key: key, property: property)
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
