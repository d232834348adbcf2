import CKineticsSupport

/// An object whose properties an ``Animator`` animates: Pop's "object".
///
/// Animations are keyed per target: adding an animation under a key that the
/// target already uses replaces the old one. A target is only a number; make
/// one per object with ``Animator/makeTarget()`` or use your own numbering.
public struct TargetID: Hashable, Sendable, ExpressibleByIntegerLiteral, CustomStringConvertible {
    /// The number.
    public let rawValue: UInt64

    /// A target with the given number.
    public init(_ rawValue: UInt64) { self.rawValue = rawValue }

    /// A target from an integer literal.
    public init(integerLiteral value: UInt64) { rawValue = value }

    /// `target 3`.
    public var description: String { "target \(rawValue)" }
}

/// A typed reference to a property value held by an ``Animator``: reading a
/// value through its handle is one array read.
public struct PropertyHandle<Value: AnimatableVector>: Hashable, Sendable {
    /// The target that owns the property.
    public let target: TargetID
    @usableFromInline let slot: PropertySlot

    @usableFromInline
    init(target: TargetID, slot: PropertySlot) {
        self.target = target
        self.slot = slot
    }
}

/// A running animation in an ``Animator``. It stays valid until the animation
/// is removed (or finishes and is removed on completion); after that every
/// call with it is a no-op that returns nil or false.
public struct AnimationHandle: Hashable, Sendable, CustomStringConvertible {
    @usableFromInline let record: RecordIndex
    @usableFromInline let generation: UInt32

    @usableFromInline
    init(record: RecordIndex, generation: UInt32) {
        self.record = record
        self.generation = generation
    }

    /// `animation 12.3` (slot and generation).
    public var description: String { "animation \(record).\(generation)" }
}

/// The identity of an animation description. Copies of an ``Animation`` share
/// it, which is how the animator's `add(_:to:forKey:)` recognises "the same
/// animation added twice" (a no-op, as in Pop).
public struct AnimationID: Hashable, Sendable {
    /// The number, unique in the process.
    public let rawValue: UInt64

    @usableFromInline
    init(rawValue: UInt64) { self.rawValue = rawValue }

    /// A new identity: the next number of a process-wide counter, taken
    /// with an atomic addition inlined from C (the standard library's
    /// `Atomic` needs macOS 15 and iOS 18; a Swift global would be
    /// initialised lazily, checked on every add).
    @inlinable
    public static func next() -> AnimationID {
        AnimationID(rawValue: UInt64(bitPattern: kinetics_next_animation_identity()))
    }
}

/// What a property is, which sets Pop's default rest threshold for it.
public enum PropertyKind: String, CaseIterable, Sendable, Codable {
    /// Positions, sizes, rectangles: threshold 1.0 (a point).
    case point
    /// Opacity: 0.01.
    case opacity
    /// Scale: 0.005.
    case scale
    /// Rotation in radians: 0.01.
    case rotation
    /// Colour components: 0.01.
    case color
    /// Corner radius: 0.01.
    case radius
    /// Anything else: 0.01 (Kinetics' choice; Pop has no default for custom
    /// properties).
    case generic

    /// Pop's default threshold for this kind of property.
    public var defaultThreshold: Double {
        switch self {
        case .point: PopRestTest.Threshold.point
        case .opacity: PopRestTest.Threshold.opacity
        case .scale: PopRestTest.Threshold.scale
        case .rotation: PopRestTest.Threshold.rotation
        case .color: PopRestTest.Threshold.color
        case .radius: PopRestTest.Threshold.radius
        case .generic: 0.01
        }
    }
}
