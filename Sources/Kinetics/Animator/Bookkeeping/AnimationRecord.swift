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
    let slot: PropertySlot
}

/// Pop's life-cycle settings of an animation or a group.
struct LifeCycle {
    var beginTime: Double
    /// Pop's internal count of runs left: `repeatCount`, doubled when autoreversing.
    var repeatRemaining: Int
    /// The four switches, a bit each: as four `Bool`s, each record's
    /// restart unpacked and stored them one by one, on every add and
    /// replacement; as one byte, one store.
    var switches: Switches

    /// Pop's four switches of a life cycle.
    struct Switches: OptionSet {
        let rawValue: UInt8
        static let repeatForever = Switches(rawValue: 1)
        static let autoreverses = Switches(rawValue: 2)
        static let removedOnCompletion = Switches(rawValue: 4)
        /// Traced (``Animation/isTraced``).
        static let traced = Switches(rawValue: 8)

        init(rawValue: UInt8) { self.rawValue = rawValue }

        @inline(__always)
        init(repeatForever: Bool, autoreverses: Bool, removedOnCompletion: Bool, traced: Bool) {
            rawValue =
                (repeatForever ? Self.repeatForever.rawValue : 0) | (autoreverses ? Self.autoreverses.rawValue : 0)
                | (removedOnCompletion ? Self.removedOnCompletion.rawValue : 0) | (traced ? Self.traced.rawValue : 0)
        }
    }

    /// One run from time 0, removed on completion: a free record's (made
    /// without an animation, whose creation and copy cost far more).
    static let once = LifeCycle(beginTime: 0, repeatRemaining: 0, switches: .removedOnCompletion)

    @inline(__always)
    init(beginTime: Double, repeatRemaining: Int, switches: Switches) {
        self.beginTime = beginTime
        self.repeatRemaining = repeatRemaining
        self.switches = switches
    }

    /// Whether the run under way is the last and the animation then goes
    /// (the life cycle's part of ``ElementFlag/quiet``).
    var endsWithThisRun: Bool {
        switches.contains(.removedOnCompletion) && !switches.contains(.repeatForever) && repeatRemaining <= 1
    }

    @inline(__always)
    init<Value>(_ animation: borrowing Animation<Value>) {
        let count = max(animation.repeatCount, animation.autoreverses ? 1 : 0)
        self.init(
            beginTime: animation.beginTime,
            repeatRemaining: animation.autoreverses ? min(count, Int.max / 2) * 2 : count,
            switches: Switches(
                repeatForever: animation.repeatForever, autoreverses: animation.autoreverses,
                removedOnCompletion: animation.removedOnCompletion, traced: animation.isTraced))
    }

    init(_ group: AnimationGroup) {
        self.init(
            beginTime: group.beginTime, repeatRemaining: group.repeatCount,
            switches: Switches(
                repeatForever: group.repeatForever, autoreverses: false,
                removedOnCompletion: group.removedOnCompletion, traced: group.isTraced))
    }
}

/// The box pools of an animator, one per box type: a handful (a type per
/// value type animated, and groups), so found by a scan rather than hashed.
struct BoxPools {
    /// Free boxes of one type.
    private struct Pool {
        let type: ObjectIdentifier
        var boxes: [AnimationBox] = []
        /// Boxes of this type made so far: the most the pool can ever hold.
        var made = 0
    }

    private var pools: [Pool] = []

    /// The index of the pool of boxes of `type`, if there is one.
    private func index(_ type: ObjectIdentifier) -> Int? {
        var index = 0
        while index < pools.count {
            if pools[index].type == type { return index }
            index += 1
        }
        return nil
    }

    /// Counts a new box of `type` and makes room for it in its pool, so
    /// that returning every box made never allocates; room grows by
    /// doubling.
    mutating func noteMade(_ type: ObjectIdentifier) {
        let index = pool(type)
        pools[index].made += 1
        if pools[index].boxes.capacity < pools[index].made {
            pools[index].boxes.reserveCapacity(Swift.max(pools[index].made, 2 * pools[index].boxes.capacity))
        }
    }

    /// A free box of `type`, if there is one.
    mutating func take(_ type: ObjectIdentifier) -> AnimationBox? {
        guard let index = index(type) else { return nil }
        return pools[index].boxes.popLast()
    }

    /// Returns `box` to its pool.
    mutating func put(_ box: AnimationBox) {
        pools[pool(ObjectIdentifier(type(of: box)))].boxes.append(box)
    }

    /// The index of the pool of boxes of `type`, made if there is none yet.
    private mutating func pool(_ type: ObjectIdentifier) -> Int {
        if let index = index(type) { return index }
        pools.append(Pool(type: type))
        return pools.count - 1
    }
}

/// The fields of a record that handle checks, completions and retargets
/// touch, kept apart from the rest (12 bytes instead of a record's 64), so
/// that a frame in which many animations finish or change target touches
/// little memory.
struct RecordStatus {
    var generation: UInt32 = 0
    var live = false
    var phase = Animator.Phase.waiting
    /// ``spring``'s byte (bits 0–7) and ``reached`` (bit 8) in one field,
    /// so that a retarget tests in one instruction whether it has more to
    /// do than write the target (``retargetIsObserved``). (Before
    /// `element`, in what was padding: the status stays 12 bytes.)
    var springAndReached: UInt16 = 0
    /// The element's index in its batch, or -1.
    var element = ElementIndex.none

    /// Where the animation's spring element is, while it has one.
    var spring: SpringElement {
        get { SpringElement(bits: UInt8(truncatingIfNeeded: springAndReached)) }
        set { springAndReached = springAndReached & 0xFF00 | UInt16(newValue.bits) }
    }

    /// Whether this run has reached its to-value (reported once; a retarget
    /// arms it again). Here rather than in the record: every retarget reads
    /// it, and the status is the record's part retargets touch.
    var reached: Bool {
        get { springAndReached & 0x100 != 0 }
        set { springAndReached = springAndReached & 0xFF | (newValue ? 0x100 : 0) }
    }

    /// Whether a retarget must do more than write the target: the run has
    /// reached its to-value (a new target arms it again), or its spring has
    /// a reached-to-value callback (``SpringElement/observesReach``).
    var retargetIsObserved: Bool { springAndReached & 0x180 != 0 }
}

/// The batch of a spring's element, in one byte of ``RecordStatus``, so that
/// a retarget goes from the handle to the element's columns without the
/// animation's box: the lane's width (bits 2–4: 1, 2 or 4), the method's
/// index (bits 0–1), whether the value type has three components (bit 5:
/// in the 4-wide lane, `SIMD3` rather than `SIMD4`, which tells a bare
/// spring's value type, ``Animator/box(_:)``) and whether a retarget makes
/// the element report frame events again (bit 7: it has a
/// reached-to-value callback, which a new target arms again). Zero: no
/// spring element.
struct SpringElement: Equatable {
    let bits: UInt8

    static let none = SpringElement(bits: 0)

    init(bits: UInt8) { self.bits = bits }

    /// The element of a spring whose method has index `methodIndex`
    /// (``SpringMethod/index``), of a value type with `components`.
    init(width: Int, methodIndex: Int, components: Int, observesReach: Bool) {
        precondition(width == 1 || width == 2 || width == 4, "a lane is 1, 2 or 4 wide")
        precondition(methodIndex >= 0 && methodIndex < 4, "a spring method's index is in 0..<4")
        bits =
            UInt8(width) << 2 | UInt8(methodIndex) | (components == 3 ? 0x20 : 0) | (observesReach ? 0x80 : 0)
    }

    /// The lane's width: 1, 2 or 4; 0 for none.
    var width: Int { Int(bits >> 2 & 7) }
    /// The index of the method's batch in the lane.
    var method: Int { Int(bits & 3) }
    /// Whether the value type has three components.
    var hasThreeComponents: Bool { bits & 0x20 != 0 }
    /// Whether a retarget arms a reached-to-value callback again.
    var observesReach: Bool { bits & 0x80 != 0 }
}

/// The per-animation part of the animator's state that starting and
/// restarting an animation use: 64 bytes, the fields that an in-place
/// replacement reads and writes and no others. Its key, target and parent,
/// which no replacement reads, are a ``RecordPlace`` in an array of their
/// own, so that a replacement's cache lines hold nothing it does not use
/// (docs/performance.md, "Record layout", has the measurement).
struct AnimationRecord {
    var id = AnimationID(rawValue: 0)
    /// The animation's box; nil for a bare spring (``Animator/box(_:)``).
    var box: AnimationBox?
    var life = LifeCycle.once
    var startTime = 0.0
    var pausedAt = 0.0
    var nextMarker = 0

    init() {}

    /// Makes this record that of a new animation `id` with `box`, waiting to
    /// start; in place, since building a record and assigning it copied it
    /// once more (a retain and a release of its box).
    mutating func reuse(id: AnimationID, life: LifeCycle, box: AnimationBox?) {
        self.id = id
        // Written only when either is a box: a bare spring's add, over a
        // record that has none, then makes no call to release nil.
        if self.box != nil || box != nil { self.box = box }
        self.life = life
        startTime = 0
        pausedAt = 0
        nextMarker = 0
    }

    /// The record of a new run of an animation `id` with `life` that starts
    /// at `time`, its box kept (one access to the records array, where each
    /// write checks the array's uniqueness).
    mutating func restart(id: AnimationID, life: LifeCycle, at time: Double) {
        self.id = id
        self.life = life
        startTime = time
        pausedAt = 0
        nextMarker = 0
    }
}

/// Where an animation runs: its target and the group it is a child of (its
/// key is the registry's). By record index, beside the records.
struct RecordPlace {
    var target = TargetID(0)
    var parent: AnimationHandle?
}
