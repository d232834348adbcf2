/// What a layer's animation shows outside its active time, with Core
/// Animation's meaning: before it starts (during a delay) and after it
/// finishes. Outside the filled side the layer shows its model value.
public enum FillMode: String, Sendable, CaseIterable {
    /// Neither side: the model value shows during the delay and after the end.
    case removed
    /// After the end, the animation's last value holds (until the key next
    /// changes, as Core Animation's `removedOnCompletion = false` keeps it).
    case forwards
    /// During the delay, the animation's from value shows.
    case backwards
    /// Both sides.
    case both

    /// Whether the from value shows during the delay.
    public var fillsBackwards: Bool { self == .backwards || self == .both }
    /// Whether the last value holds after the end.
    public var fillsForwards: Bool { self == .forwards || self == .both }
}

/// A transaction's settings and its bookkeeping: the animations started
/// inside it that have not stopped yet, and its completion.
final class Transaction {
    unowned let animator: Animator
    let duration: Double
    let timing: TimingFunction
    let spring: SpringParameters?
    let delay: Double
    let disableActions: Bool
    let fillMode: FillMode
    let additive: Bool
    var pending = 0
    var cancelled = false
    private var bodyDone = false
    private var completion: ((Bool) -> Void)?

    init(
        animator: Animator, duration: Double, timing: TimingFunction, spring: SpringParameters?, delay: Double,
        disableActions: Bool,
        fillMode: FillMode, additive: Bool, completion: ((Bool) -> Void)?
    ) {
        self.animator = animator
        self.duration = duration
        self.timing = timing
        self.spring = spring
        self.delay = delay
        self.disableActions = disableActions
        self.fillMode = fillMode
        self.additive = additive
        self.completion = completion
    }

    /// The action the transaction gives a change: its spring, or a basic
    /// animation of its duration and timing.
    var action: ImplicitAction {
        spring.map { .spring($0, method: .rk4) } ?? .basic(duration: duration, timing: timing)
    }

    func animationStopped(finished: Bool) {
        pending -= 1
        if !finished { cancelled = true }
        finishIfDone()
    }

    func bodyEnded() {
        bodyDone = true
        finishIfDone()
    }

    private func finishIfDone() {
        guard bodyDone, pending == 0, let completion else { return }
        self.completion = nil
        let finished = !cancelled
        animator.runOrDefer { completion(finished) }
    }
}

extension Animator {
    /// Core Animation's default transaction duration, 0.25 s.
    public static let defaultTransactionDuration = 0.25
    /// The fill mode of a change made outside every transaction, and of the
    /// outermost transaction unless it sets one: `.backwards`, so a delayed
    /// change keeps showing its old value until it starts. (With
    /// `.removed`, Core Animation's default for an explicit animation, the
    /// new value shows during the delay and the animation then jumps back to
    /// its from value.)
    public static let defaultFillMode = FillMode.backwards

    /// Runs `body` in a transaction: every implicit change inside it (see
    /// ``ImplicitLayer``) that finds no action of its own animates with the
    /// transaction's spring, or its duration and timing, after its delay.
    ///
    /// Transactions nest; an inner one inherits what it does not set, as
    /// UIView animation blocks do (outermost defaults: 0.25 s along the
    /// default curve, no delay, actions enabled, fill ``defaultFillMode``,
    /// not additive). `fillMode` says what a delayed or finished animation
    /// shows outside its active time (see ``FillMode``). With `additive`, a
    /// basic or spring change is layered on top of the key's running
    /// additive animations instead of replacing them, as UIKit does for
    /// interrupted animations: it animates the change of the model value
    /// from 0 to the difference and adds it to the value, so neither value
    /// nor velocity jumps (see ``ImplicitLayer/set(_:to:)``). `completion` runs once
    /// every animation started inside the transaction (inner ones included)
    /// has stopped, with `false` if any was cancelled; at once when the body
    /// ends if none was started.
    ///
    /// - Throws: ``ParameterError`` for a duration or delay that is not
    ///   finite or out of range, or whatever `body` throws.
    public func transaction(
        duration: Double? = nil, timing: TimingFunction? = nil, spring: SpringParameters? = nil, delay: Double? = nil,
        disableActions: Bool? = nil, fillMode: FillMode? = nil, additive: Bool? = nil,
        completion: ((_ finished: Bool) -> Void)? = nil, _ body: () throws -> Void
    ) throws {
        if let duration { try Check.positive(duration, "duration") }
        if let delay {
            guard delay.isFinite, delay >= 0 else {
                throw ParameterError(parameter: "delay", value: delay, accepted: "a finite number >= 0")
            }
        }
        let outer = state.implicit.transactions.last
        let transaction = Transaction(
            animator: self, duration: duration ?? outer?.duration ?? Self.defaultTransactionDuration,
            timing: timing ?? outer?.timing ?? .default,
            // A duration or timing given here overrides an outer spring.
            spring: spring ?? (duration == nil && timing == nil ? outer?.spring : nil),
            delay: delay ?? outer?.delay ?? 0,
            disableActions: disableActions ?? outer?.disableActions ?? false,
            fillMode: fillMode ?? outer?.fillMode ?? Self.defaultFillMode,
            additive: additive ?? outer?.additive ?? false,
            completion: completion)
        state.implicit.transactions.append(transaction)
        defer {
            state.implicit.transactions.removeLast()
            transaction.bodyEnded()
            checkInternally(after: "transaction")
        }
        try body()
    }

    /// Runs `body`, an implicit-layer operation: completions that its
    /// removals and replacements bring about run after the outermost such
    /// operation returns, not in the middle of it (where a completion that
    /// sets a value would be overtaken by the operation it interrupted).
    /// Core Animation, too, calls completions after the change that caused
    /// them.
    func implicitOperation<Result, Failure: Error>(_ body: () throws(Failure) -> Result) throws(Failure) -> Result {
        state.implicit.depth += 1
        defer {
            state.implicit.depth -= 1
            if state.implicit.depth == 0 {
                while !state.implicit.deferredCallbacks.isEmpty { state.implicit.deferredCallbacks.removeFirst()() }
                checkInternally(after: "an implicit-layer operation")
            }
        }
        return try body()
    }

    /// Runs `work` now, or after the current implicit-layer operation.
    func runOrDefer(_ work: @escaping () -> Void) {
        if state.implicit.depth > 0 { state.implicit.deferredCallbacks.append(work) } else { work() }
    }

    /// The innermost open transaction.
    var currentTransaction: Transaction? { state.implicit.transactions.last }
}
