/// A transaction's settings and its bookkeeping: the animations started
/// inside it that have not stopped yet, and its completion.
final class Transaction {
    let duration: Double
    let timing: TimingFunction
    let spring: SpringParameters?
    let delay: Double
    let disableActions: Bool
    var pending = 0
    var cancelled = false
    private var bodyDone = false
    private var completion: ((Bool) -> Void)?

    init(duration: Double, timing: TimingFunction, spring: SpringParameters?, delay: Double, disableActions: Bool, completion: ((Bool) -> Void)?) {
        self.duration = duration
        self.timing = timing
        self.spring = spring
        self.delay = delay
        self.disableActions = disableActions
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
        completion(!cancelled)
    }
}

extension Animator {
    /// Core Animation's default transaction duration, 0.25 s.
    public static let defaultTransactionDuration = 0.25

    /// Runs `body` in a transaction: every implicit change inside it (see
    /// ``ImplicitLayer``) that finds no action of its own animates with the
    /// transaction's spring, or its duration and timing, after its delay.
    ///
    /// Transactions nest; an inner one inherits what it does not set, as
    /// UIView animation blocks do (outermost defaults: 0.25 s along the
    /// default curve, no delay, actions enabled). `completion` runs once
    /// every animation started inside the transaction (inner ones included)
    /// has stopped, with `false` if any was cancelled; at once when the body
    /// ends if none was started.
    ///
    /// - Throws: ``ParameterError`` for a duration or delay that is not
    ///   finite or out of range, or whatever `body` throws.
    public func transaction(
        duration: Double? = nil, timing: TimingFunction? = nil, spring: SpringParameters? = nil, delay: Double? = nil,
        disableActions: Bool? = nil, completion: ((_ finished: Bool) -> Void)? = nil,
        _ body: () throws -> Void
    ) throws {
        if let duration { try Check.positive(duration, "duration") }
        if let delay {
            guard delay.isFinite, delay >= 0 else {
                throw ParameterError(parameter: "delay", value: delay, accepted: "a finite number >= 0")
            }
        }
        let outer = transactionStack.last
        let transaction = Transaction(
            duration: duration ?? outer?.duration ?? Self.defaultTransactionDuration,
            timing: timing ?? outer?.timing ?? .default,
            // A duration or timing given here overrides an outer spring.
            spring: spring ?? (duration == nil && timing == nil ? outer?.spring : nil),
            delay: delay ?? outer?.delay ?? 0,
            disableActions: disableActions ?? outer?.disableActions ?? false,
            completion: completion)
        transactionStack.append(transaction)
        defer {
            transactionStack.removeLast()
            transaction.bodyEnded()
        }
        try body()
    }

    /// The innermost open transaction.
    var currentTransaction: Transaction? { transactionStack.last }
    /// Every open transaction, outermost first.
    var openTransactions: [Transaction] { transactionStack }
}
