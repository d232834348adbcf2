/// Which ends of an animation's range its value is kept inside (Pop's
/// `clampMode`).
public struct ClampMode: OptionSet, Hashable, Sendable {
    /// The raw bits.
    public let rawValue: UInt8

    /// Creates a mode from its bits.
    @inlinable
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// Never before `from`.
    public static let start = ClampMode(rawValue: 1)
    /// Never beyond `to`.
    public static let end = ClampMode(rawValue: 2)
    /// Both.
    public static let both: ClampMode = [.start, .end]
}

/// How a keyframe animation moves between its values.
public enum KeyframeCalculation: String, CaseIterable, Sendable, Codable {
    /// Interpolate each segment with its timing function.
    case linear
    /// Hold each value until the next key time.
    case discrete
}

/// A keyframe animation's values, key times and per-segment timing
/// functions, as in `CAKeyframeAnimation`.
public struct Keyframes<Value: AnimatableVector>: Sendable {
    /// The values, at least one.
    public let values: [Value]
    /// The key times in [0, 1], one per value, starting at 0, ending at 1,
    /// never decreasing.
    public let keyTimes: [Double]
    /// One timing function per segment (`values.count - 1`).
    public let timingFunctions: [TimingFunction]
    /// Linear or discrete.
    public let calculation: KeyframeCalculation
    /// The duration of one pass, in seconds.
    public let duration: Double

    /// Creates keyframes.
    ///
    /// - Parameters:
    ///   - values: the values to pass through, at least one, all finite.
    ///   - keyTimes: one per value; nil spaces them evenly. For `discrete`,
    ///     Core Animation's form with one more key time than values is also
    ///     accepted (the last value then holds from its key time to the end).
    ///   - timingFunctions: one per segment, one for all, or none (linear).
    ///   - calculation: linear (eased between values) or discrete (held).
    ///   - duration: one pass, in seconds, finite and > 0.
    /// - Throws: ``ParameterError`` naming `values`, `keyTimes`,
    ///   `timingFunctions` or `duration`.
    public init(
        values: [Value], keyTimes: [Double]? = nil, timingFunctions: [TimingFunction] = [],
        calculation: KeyframeCalculation = .linear, duration: Double
    ) throws(ParameterError) {
        guard !values.isEmpty, values.allSatisfy(\.isFinite) else {
            throw ParameterError(
                parameter: "values", value: Double(values.count), accepted: "at least one value, all finite")
        }
        try Check.positive(duration, "duration")
        let evenly: [Double] = values.indices.map { Double($0) / Double(Swift.max(values.count - 1, 1)) }
        let times = keyTimes ?? evenly
        let extra = calculation == .discrete && times.count == values.count + 1
        guard times.count == values.count || extra else {
            throw ParameterError(
                parameter: "keyTimes", value: Double(times.count),
                accepted: "one per value (\(values.count))\(calculation == .discrete ? " or one more" : "")")
        }
        for (index, time) in times.enumerated() {
            guard time.isFinite, time >= 0, time <= 1, index == 0 || time >= times[index - 1] else {
                throw ParameterError(
                    parameter: "keyTimes", value: time, accepted: "in [0, 1] and never decreasing")
            }
        }
        guard times.first == 0, times.last == 1 || values.count == 1 else {
            throw ParameterError(
                parameter: "keyTimes", value: times.first == 0 ? times.last! : times.first!,
                accepted: "starting at 0 and ending at 1")
        }
        let segments = max(values.count - 1, 0)
        let functions: [TimingFunction]
        switch timingFunctions.count {
        case 0: functions = Array(repeating: .linear, count: segments)
        case 1: functions = Array(repeating: timingFunctions[0], count: segments)
        case segments: functions = timingFunctions
        default:
            throw ParameterError(
                parameter: "timingFunctions", value: Double(timingFunctions.count),
                accepted: "one per segment (\(segments)), one for all, or none")
        }
        self.values = values
        self.keyTimes = extra ? Array(times.dropLast()) : times
        self.timingFunctions = functions
        self.calculation = calculation
        self.duration = duration
    }
}

/// What a custom animation sees and changes each frame.
public struct CustomFrame<Value: AnimatableVector> {
    /// The current time.
    public let time: Double
    /// The frame length (0 on the first frame).
    public let frameLength: Double
    /// Time since the animation started.
    public let elapsed: Double
    /// The property's value; set it to write a new one.
    public var value: Value
}

/// The callbacks of an animation. Each receives the animator, so that it can
/// add, remove or retarget animations (its own included) without capturing
/// the animator.
public struct AnimationCallbacks<Value: AnimatableVector> {
    /// The animation started (its begin time came).
    public var onStart: ((Animator, AnimationHandle) -> Void)?
    /// A value was written (every frame).
    public var onApply: ((Animator, AnimationHandle, Value) -> Void)?
    /// The value reached or crossed `to` in every component (once).
    public var onReachToValue: ((Animator, AnimationHandle) -> Void)?
    /// A progress marker was passed.
    public var onProgressMarker: ((Animator, AnimationHandle, Double) -> Void)?
    /// The animation stopped: finished (true) or cancelled (false). Fires
    /// exactly once for every animation that started.
    public var onStop: ((Animator, AnimationHandle, Bool) -> Void)?

    /// No callbacks.
    public init() {}

    /// Whether any callback is set.
    var hasAny: Bool {
        onStart != nil || onApply != nil || onReachToValue != nil || onProgressMarker != nil || onStop != nil
    }
}

/// An animation's callbacks and progress markers, shared by its copies and
/// never changed: setting either makes a new one (``Animation/callbacks``).
@usableFromInline
final class AnimationObservers<Value: AnimatableVector> {
    let callbacks: AnimationCallbacks<Value>
    let progressMarkers: [Double]

    private init(callbacks: AnimationCallbacks<Value>, progressMarkers: [Double]) {
        self.callbacks = callbacks
        self.progressMarkers = progressMarkers
    }

    /// The observers of `callbacks` and `progressMarkers`; nil when there
    /// are none.
    static func make(callbacks: AnimationCallbacks<Value>, progressMarkers: [Double]) -> AnimationObservers? {
        callbacks.hasAny || !progressMarkers.isEmpty
            ? AnimationObservers(callbacks: callbacks, progressMarkers: progressMarkers) : nil
    }
}

/// A description of one animation of a property: what moves it (spring,
/// decay, basic, keyframes or custom) and Pop's life-cycle settings.
///
/// Animations are values: configure one, then add it to an ``Animator``.
/// Copies share ``id``, so adding a copy of a running animation under its
/// key again is a no-op (Pop's "same animation" rule).
public struct Animation<Value: AnimatableVector> {
    /// What drives the value.
    public enum Kind {
        /// A spring towards `to`, with its velocity carried over.
        case spring(SpringParameters, method: SpringMethod)
        /// A decay from `from` with `velocity`; `to` is computed (the end value).
        case decay(DecayParameters, method: DecayMethod)
        /// From `from` to `to` over `duration` along a timing function.
        case basic(duration: Double, timing: TimingFunction, bezier: BezierMethod)
        /// Through a list of values.
        case keyframes(Keyframes<Value>)
        /// A closure that writes the value and returns true when done.
        case custom((inout CustomFrame<Value>) -> Bool)
    }

    /// What drives the value.
    public var kind: Kind
    /// The start value; nil reads the property when the animation starts.
    public var from: Value? {
        get { packedFrom.map { Value(packed: $0) } }
        set { packedFrom = newValue?.packed }
    }
    /// The end value; nil reads the property (a decay computes it).
    public var to: Value? {
        get { packedTo.map { Value(packed: $0) } }
        set { packedTo = newValue?.packed }
    }
    /// The initial velocity of a spring or decay, units per second.
    public var velocity: Value? {
        get { packedVelocity.map { Value(packed: $0) } }
        set { packedVelocity = newValue?.packed }
    }
    // Stored packed, so that no stored property's size depends on `Value`:
    // the animation's layout is then the same for every value type, and
    // copying one is a fixed sequence of moves and retains rather than a
    // walk of its generic layout (which looked up the metadata of each
    // field's type, every copy).
    @usableFromInline var packedFrom: SIMD4<Double>?
    @usableFromInline var packedTo: SIMD4<Double>?
    @usableFromInline var packedVelocity: SIMD4<Double>?
    /// The rest threshold; nil uses the property kind's default.
    public var threshold: Double?
    /// Keep the value inside [from, to] at the start, end or both.
    public var clamp: ClampMode
    /// Write multiples of this (0: off), e.g. 0.5 for half points.
    public var roundingFactor: Double = 0
    /// Add each frame's change to the property instead of setting it.
    public var additive = false
    /// The time the animation starts, on the animator's clock.
    public var beginTime: Double = 0
    /// How many times to run (0 or 1: once). With ``autoreverses``, each
    /// repeat is a run there and back.
    public var repeatCount = 0
    /// Run for ever.
    public var repeatForever = false
    /// Run backwards after each forward run.
    public var autoreverses = false
    /// Remove the animation when it finishes (else it stays, inactive, under its key).
    public var removedOnCompletion = true
    /// Progress values in [0, 1] that fire ``AnimationCallbacks/onProgressMarker``.
    public var progressMarkers: [Double] {
        get { observers?.progressMarkers ?? [] }
        set { observers = AnimationObservers.make(callbacks: callbacks, progressMarkers: newValue) }
    }
    /// The callbacks.
    public var callbacks: AnimationCallbacks<Value> {
        get { observers?.callbacks ?? AnimationCallbacks() }
        set { observers = AnimationObservers.make(callbacks: newValue, progressMarkers: progressMarkers) }
    }
    /// The callbacks and progress markers behind one reference, nil when
    /// there are none: an animation that nothing observes (most) then
    /// carries one null reference where five optional closures and an array
    /// were, and is that much quicker to build, move and destroy.
    @usableFromInline var observers: AnimationObservers<Value>?
    /// Record this animation's events in the animator's ``Animator/tracer``.
    public var isTraced = false
    /// The identity shared by copies.
    public let id: AnimationID

    /// An animation of the given kind.
    @inlinable
    public init(_ kind: Kind, from: Value? = nil, to: Value? = nil, velocity: Value? = nil) {
        self.init(kind, from: from, to: to, velocity: velocity, id: AnimationID.next())
    }

    /// An animation of the given kind with identity `id` (a spring added
    /// from its numbers, made into an animation, keeps the identity it had).
    @inlinable
    init(_ kind: Kind, from: Value?, to: Value?, velocity: Value?, id: AnimationID) {
        self.kind = kind
        // Set here, not as the properties' initial values: those are
        // functions of the module, called from an inlined init.
        clamp = ClampMode(rawValue: 0)
        self.id = id
        packedFrom = from?.packed
        packedTo = to?.packed
        packedVelocity = velocity?.packed
    }

    /// A spring to `to` (method `rk4` unless given).
    @inlinable
    public static func spring(
        _ parameters: SpringParameters = .popDefault, method: SpringMethod = .rk4,
        from: Value? = nil, to: Value? = nil, velocity: Value? = nil
    ) -> Animation {
        Animation(.spring(parameters, method: method), from: from, to: to, velocity: velocity)
    }

    /// A decay thrown with `velocity` (Pop's method and deceleration unless given).
    @inlinable
    public static func decay(
        velocity: Value, parameters: DecayParameters = .popDefault, method: DecayMethod = .pop, from: Value? = nil
    ) -> Animation {
        Animation(.decay(parameters, method: method), from: from, velocity: velocity)
    }

    /// A basic animation: Pop's default 0.4 s along Core Animation's default
    /// curve unless given; beziers solved with `fast` unless given (`webkit`
    /// with `1/(1000·duration)` reproduces Pop).
    @inlinable
    public static func basic(
        duration: Double = 0.4, timing: TimingFunction = .default, bezier: BezierMethod = .fast,
        from: Value? = nil, to: Value? = nil
    ) -> Animation {
        Animation(.basic(duration: duration, timing: timing, bezier: bezier), from: from, to: to)
    }

    /// A keyframe animation.
    @inlinable
    public static func keyframes(_ keyframes: Keyframes<Value>) -> Animation {
        Animation(.keyframes(keyframes))
    }

    /// A custom animation: `step` is called every frame and returns true when done.
    ///
    /// `step` runs inside the frame (its first, when the animation is
    /// added, and each tick's): it must not change the animator (add,
    /// remove, retarget, or make a new property), which stops the process;
    /// the animation's callbacks, called after the frame, may.
    @inlinable
    public static func custom(_ step: @escaping (inout CustomFrame<Value>) -> Bool) -> Animation {
        Animation(.custom(step))
    }

    @inline(__always)
    private static func checkFinite(_ packed: SIMD4<Double>?, _ name: String) throws(ParameterError) {
        // A packed value's unused components are 0.
        if let packed, !(packed - packed == .zero) {
            throw ParameterError(parameter: name, value: packed.max(), accepted: "finite in every component")
        }
    }

    /// Whether nothing observes the animation's frames or end and it writes
    /// plainly: no callbacks, no progress markers, not additive or rounded
    /// (the animation's part of ``ElementFlag/quiet``, with its kind: a
    /// custom step is never quiet).
    var isUnobserved: Bool { observers == nil && !additive && roundingFactor == 0 }

    /// Checks every setting, and returns a spring's parameters and method
    /// (nil for other kinds): matching the kind copies it, over 200 bytes,
    /// so an add matches it once.
    ///
    /// - Throws: ``ParameterError`` naming the setting.
    @discardableResult
    @inline(__always)
    func validate() throws(ParameterError) -> (parameters: SpringParameters, method: SpringMethod)? {
        // One by one: an array of them would allocate on every add.
        try Self.checkFinite(packedFrom, "from")
        try Self.checkFinite(packedTo, "to")
        try Self.checkFinite(packedVelocity, "velocity")
        // The three numbers at once (finite: one vector test; the bounds:
        // one comparison each); one by one, to name the setting, only when
        // that fails. (Written as separate checks, the compiler turns each
        // into a longer test of the number's bits; docs/performance.md
        // has the count.)
        let numbers = SIMD4(threshold ?? 1, roundingFactor, beginTime, 0)
        if !(numbers - numbers == .zero) || !(numbers[0] > 0) || !(numbers[1] >= 0) {
            if let threshold { try Check.positive(threshold, "threshold") }
            try Check.nonNegative(roundingFactor, "roundingFactor")
            try Check.finite(beginTime, "beginTime")
        }
        guard repeatCount >= 0 else {
            throw ParameterError(parameter: "repeatCount", value: Double(repeatCount), accepted: "a whole number >= 0")
        }
        if let observers {
            for marker in observers.progressMarkers { try Check.within(marker, 0 ... 1, "progressMarkers") }
        }
        switch kind {
        case .basic(let duration, _, _):
            try Check.positive(duration, "duration")
        case .decay:
            if packedVelocity == nil {
                throw ParameterError(parameter: "velocity", value: .nan, accepted: "given for a decay")
            }
        case .spring(let parameters, let method):
            try method.checkStable(for: parameters)
            return (parameters, method)
        case .keyframes, .custom:
            break
        }
        return nil
    }
}
