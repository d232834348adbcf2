/// Which phase a tick is in.
enum TickPhase {
    case idle
    case advancing
    case events
}

struct PropertyKey: Hashable {
    let target: TargetID
    let name: String
}

/// A property's description.
struct PropertyInfo {
    let name: String
    let target: TargetID
    let kind: PropertyKind
    /// The lane: 1, 2 or 4.
    let width: Int
    /// The value type's component count (3-vectors live in the 4 lane).
    let components: Int
    let slot: Int32
}

/// Pop's life-cycle settings of an animation or a group.
struct LifeCycle {
    var beginTime: Double
    /// Pop's internal count of runs left: `repeatCount`, doubled when autoreversing.
    var repeatRemaining: Int
    var repeatForever: Bool
    var autoreverses: Bool
    var removedOnCompletion: Bool
    var traced: Bool

    init<Value>(_ animation: Animation<Value>) {
        beginTime = animation.beginTime
        autoreverses = animation.autoreverses
        let count = max(animation.repeatCount, animation.autoreverses ? 1 : 0)
        repeatRemaining = animation.autoreverses ? min(count, Int.max / 2) * 2 : count
        repeatForever = animation.repeatForever
        removedOnCompletion = animation.removedOnCompletion
        traced = animation.isTraced
    }

    init(_ group: AnimationGroup) {
        beginTime = group.beginTime
        autoreverses = false
        repeatRemaining = group.repeatCount
        repeatForever = group.repeatForever
        removedOnCompletion = group.removedOnCompletion
        traced = group.isTraced
    }
}

/// Free boxes of one type.
final class BoxPool {
    @exclusivity(unchecked)
    var boxes: [AnimationBox] = []
    /// Boxes of this type made so far: the most the pool can ever hold.
    @exclusivity(unchecked)
    var made = 0
}

/// The fields of a record that handle checks, completions and retargets
/// touch, kept apart from the rest (12 bytes instead of a record's 120), so
/// that a frame in which many animations finish or change target touches
/// little memory.
struct RecordStatus {
    var generation: UInt32 = 0
    var live = false
    var phase = Animator.Phase.waiting
    /// Where the animation's spring element is, while it has one.
    var spring = SpringElement.none
    /// The element's index in its batch, or -1.
    var element: Int32 = -1
}

/// The batch of a spring's element, in one byte of ``RecordStatus``, so that
/// a retarget goes from the handle to the element's columns without the
/// animation's box: the lane's width (bits 2–4: 1, 2 or 4), the method's
/// index (bits 0–1) and whether a retarget makes the element report frame
/// events again (bit 7: it has a reached-to-value callback, which a new
/// target arms again). Zero: no spring element.
struct SpringElement: Equatable {
    let bits: UInt8

    static let none = SpringElement(bits: 0)

    init(bits: UInt8) { self.bits = bits }

    init(width: Int, method: SpringMethod, observesReach: Bool) {
        precondition(width == 1 || width == 2 || width == 4, "a lane is 1, 2 or 4 wide")
        bits = UInt8(width) << 2 | UInt8(method.index) | (observesReach ? 0x80 : 0)
    }

    /// The lane's width: 1, 2 or 4; 0 for none.
    var width: Int { Int(bits >> 2 & 7) }
    /// The index of the method's batch in the lane.
    var method: Int { Int(bits & 3) }
    /// Whether a retarget arms a reached-to-value callback again.
    var observesReach: Bool { bits & 0x80 != 0 }
}

/// The cold, per-animation part of the animator's state.
struct AnimationRecord {
    var id = AnimationID(rawValue: 0)
    var key = ""
    var target = TargetID(0)
    var life = LifeCycle(Animation<Double>.custom { _ in true })
    var startTime = 0.0
    var pausedAt = 0.0
    var box: AnimationBox?
    var parent: AnimationHandle?
    var nextMarker = 0
    var reached = false

    init() {}

    init(
        id: AnimationID, key: String, target: TargetID, life: LifeCycle,
        box: AnimationBox, parent: AnimationHandle?
    ) {
        self.id = id
        self.key = key
        self.target = target
        self.life = life
        self.box = box
        self.parent = parent
    }

    /// The key events report: the registry key, or a child's property name.
    func eventKey(_ animator: Animator) -> String {
        key.isEmpty ? (box?.propertyName(animator) ?? "") : key
    }
}
