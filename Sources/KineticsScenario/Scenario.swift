import Kinetics

/// A scenario file: a frame clock, animations added at time 0, and timed
/// actions. The format is documented by `data/schema/scenario.schema.json`.
public struct Scenario: Sendable {
    /// Where the frames come from.
    public enum Clock: Equatable, Sendable {
        /// Frames at `k/fps` for k = 1 … ⌊seconds·fps⌋.
        case rate(fps: Double, seconds: Double)
        /// Frames at these times.
        case times([Double])
        /// Frames near `k/fps`, jittered and dropped (seeded).
        case jittered(fps: Double, seconds: Double, seed: UInt64, dropRate: Double, jitter: Double)
    }

    /// The frame clock.
    public var clock: Clock
    /// Initial property values by name (components).
    public var initialValues: [String: [Double]]
    /// The animations added at time 0, in order.
    public var animations: [AnimationSpec]
    /// The timed actions, in order.
    public var actions: [ActionSpec]
}

/// One animation of a scenario.
public struct AnimationSpec: Sendable {
    /// What drives it.
    public enum Kind: Sendable {
        case spring(SpringParameters, SpringMethod)
        case decay(DecayParameters, DecayMethod)
        case basic(duration: Double, timing: TimingFunction, bezier: BezierMethod)
        case keyframe(
            values: [[Double]], keyTimes: [Double]?, timing: [TimingFunction], calculation: KeyframeCalculation,
            duration: Double)
        case sequence([AnimationSpec])
        case group([AnimationSpec])
    }

    /// Where it is in the file, for messages.
    public var path: String
    /// The registry key (for a group's child: the property it animates).
    public var key: String
    /// The property it animates (default: the key).
    public var property: String
    /// What drives it.
    public var kind: Kind
    /// The number of components of its values (1 … 4).
    public var width: Int
    public var from: [Double]?
    public var to: [Double]?
    public var velocity: [Double]?
    public var threshold: Double?
    public var clamp: ClampMode = []
    public var roundingFactor = 0.0
    public var additive = false
    public var beginTime = 0.0
    public var repeatCount = 0
    public var repeatForever = false
    public var autoreverses = false
    public var removedOnCompletion = true
    public var progressMarkers: [Double] = []

    /// Whether this is a sequence or a concurrent group.
    public var isGroup: Bool {
        switch kind {
        case .sequence, .group: true
        default: false
        }
    }
}

/// One timed action of a scenario.
public struct ActionSpec: Sendable {
    /// What to do.
    public enum Verb: Sendable {
        /// Give the spring under `key` a new target.
        case retarget(key: String, to: [Double])
        /// Remove the animation under `key`.
        case remove(key: String)
        /// Pause the animation under `key`.
        case pause(key: String)
        /// Resume the animation under `key`.
        case resume(key: String)
        /// Add an animation (replacing one under the same key).
        case add(AnimationSpec)
        /// Implicit changes: set each key's model value; the change animates
        /// with whatever the action lookup finds (outside a transaction:
        /// opacity's default, else it jumps).
        case set([ImplicitSetSpec])
        /// A transaction around implicit changes, or a keyframe block.
        case transaction(TransactionSpec)
    }

    /// When, on the scenario's clock.
    public var at: Double
    /// What.
    public var verb: Verb
    /// Where it is in the file.
    public var path: String
}

/// One implicit change: a key and its new value.
public struct ImplicitSetSpec: Sendable {
    public var key: String
    public var value: [Double]
}

/// A transaction of a scenario: its settings, its changes, or its keyframes.
public struct TransactionSpec: Sendable {
    /// One keyframe of a keyframe block.
    public struct Keyframe: Sendable {
        public var relativeStart: Double
        public var relativeDuration: Double
        public var timing: TimingFunction
        public var sets: [ImplicitSetSpec]
    }

    public var duration: Double?
    public var timing: TimingFunction?
    public var spring: SpringParameters?
    public var delay: Double?
    public var disableActions: Bool?
    public var fillMode: FillMode?
    public var additive: Bool?
    public var sets: [ImplicitSetSpec]
    public var keyframes: [Keyframe]
    /// The transaction's index among the file's transactions (the key of its
    /// `transaction-complete` event).
    public var index: Int
}
