/// One event of a traced animation.
public struct TraceEvent: Equatable, Sendable, CustomStringConvertible {
    /// What happened.
    public enum Kind: Equatable, Sendable {
        /// The animation started.
        case start
        /// A value was written to the property (components in the first lanes).
        case valueWritten(SIMD4<Double>)
        /// The value reached or crossed the target in every component.
        case reached
        /// The animation began another run (a repeat, or a reversal).
        case repeated
        /// A progress marker was passed.
        case marker(Double)
        /// The animation stopped: finished or cancelled.
        case stop(finished: Bool)
    }

    /// The animator's time.
    public let time: Double
    /// The animation.
    public let handle: AnimationHandle
    /// Its registry key (a group's child reports its property's name).
    public let key: String
    /// What happened.
    public let kind: Kind

    /// `0.5 x stop:finished`.
    public var description: String {
        let what: String =
            switch kind {
            case .start: "start"
            case .valueWritten(let value): "value \(value)"
            case .reached: "reached"
            case .repeated: "repeat"
            case .marker(let progress): "marker:\(progress)"
            case .stop(let finished): finished ? "stop:finished" : "stop:cancelled"
            }
        return "\(time) \(key) \(what)"
    }
}

/// Records the events of the animations marked ``Animation/isTraced`` (or of
/// every animation with ``traceAll``). An animator without a tracer, or an
/// animation that is not traced, pays one branch per event and nothing else.
public final class AnimationTracer {
    /// The events so far, oldest first.
    public private(set) var events: [TraceEvent] = []
    /// Record every animation, traced or not.
    public var traceAll: Bool
    /// Record value writes too (one event per animation per frame).
    public var recordsValues: Bool

    /// A tracer.
    public init(traceAll: Bool = false, recordsValues: Bool = false) {
        self.traceAll = traceAll
        self.recordsValues = recordsValues
    }

    /// Forgets the events recorded so far.
    public func clear() { events.removeAll(keepingCapacity: true) }

    func record(_ event: TraceEvent) { events.append(event) }
}
