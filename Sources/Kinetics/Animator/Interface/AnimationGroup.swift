/// A group of animations that run one after another (a sequence) or together
/// (a concurrent group, which ends when its last child ends). Groups nest.
///
/// A child animation's ``Animation/beginTime`` is an offset from the moment
/// the group starts that child. Groups repeat (``repeatCount``,
/// ``repeatForever``) by starting all their children again; they do not
/// autoreverse. Removing a group cancels its running children; its children
/// are not in the animator's registry and have no keys of their own (their
/// events report their property's name).
public struct AnimationGroup {
    /// How the children are scheduled.
    public enum Mode: String, Sendable, CaseIterable {
        /// Each child starts when the previous one ends.
        case sequence
        /// All children start together; the group ends with the last.
        case concurrent
    }

    /// How the children are scheduled.
    public var mode: Mode
    /// The children, in order.
    public var children: [GroupChild]
    /// When the group starts, on the animator's clock.
    public var beginTime: Double = 0
    /// How many times to run (0 or 1: once).
    public var repeatCount = 0
    /// Run for ever.
    public var repeatForever = false
    /// Remove the group when it finishes.
    public var removedOnCompletion = true
    /// Record the group's start and stop in the animator's tracer.
    public var isTraced = false
    /// The name a nested group's events report (a group added to the animator
    /// reports its key); defaults to the mode.
    public var name: String?
    /// Called when the group starts.
    public var onStart: ((Animator, AnimationHandle) -> Void)?
    /// Called once when the group stops: finished (true) or cancelled.
    public var onStop: ((Animator, AnimationHandle, Bool) -> Void)?
    /// The identity shared by copies.
    public let id = AnimationID.next()

    /// A group of `children`.
    public init(_ mode: Mode, _ children: [GroupChild]) {
        self.mode = mode
        self.children = children
    }

    func validate() throws(ParameterError) {
        try Check.finite(beginTime, "beginTime")
        guard repeatCount >= 0 else {
            throw ParameterError(parameter: "repeatCount", value: Double(repeatCount), accepted: "a whole number >= 0")
        }
        for child in children { try child.validate() }
    }
}

/// One child of an ``AnimationGroup``: an animation of a property, or a group.
public struct GroupChild {
    let id: AnimationID
    let life: LifeCycle
    let makeBox: (Animator) -> AnimationBox
    let check: () throws(ParameterError) -> Void

    /// `animation` of `property`.
    public static func animation<Value: AnimatableVector>(
        _ animation: Animation<Value>, on property: PropertyHandle<Value>
    ) -> GroupChild {
        GroupChild(
            id: animation.id, life: LifeCycle(animation),
            makeBox: { $0.makePropertyBox(animation, property: property) },
            check: { () throws(ParameterError) in try animation.validate() })
    }

    /// A nested group.
    public static func group(_ group: AnimationGroup) -> GroupChild {
        GroupChild(
            id: group.id, life: LifeCycle(group), makeBox: { _ in GroupBox(group) },
            check: { () throws(ParameterError) in try group.validate() })
    }

    func validate() throws(ParameterError) { try check() }
}

/// A running group: it starts its children and follows them.
final class GroupBox: AnimationBox {
    private let group: AnimationGroup
    private var nextChild = 0
    private var running: [AnimationHandle] = []

    init(_ group: AnimationGroup) { self.group = group }

    override func propertyName(_ animator: Animator) -> String { group.name ?? group.mode.rawValue }

    override func fireStart(_ animator: Animator, _ handle: AnimationHandle) {
        animator.trace(handle, .start)
        group.onStart?(animator, handle)
    }

    override func fireStop(_ animator: Animator, _ handle: AnimationHandle, finished: Bool) {
        animator.trace(handle, .stop(finished: finished))
        group.onStop?(animator, handle, finished)
    }

    override func start(_ animator: Animator, _ handle: AnimationHandle, time: Double) {
        nextChild = 0
        running.removeAll()
        if group.children.isEmpty {
            animator.complete(handle, at: time)
            return
        }
        switch group.mode {
        case .sequence:
            startNextChild(animator, handle, time: time)
        case .concurrent:
            for _ in group.children { startNextChild(animator, handle, time: time) }
        }
    }

    private func startNextChild(_ animator: Animator, _ handle: AnimationHandle, time: Double) {
        guard nextChild < group.children.count, let index = animator.liveIndex(handle) else { return }
        let child = group.children[nextChild]
        nextChild += 1
        var life = child.life
        life.beginTime = time + life.beginTime
        life.switches.insert(.removedOnCompletion)
        let childHandle = animator.makeRecord(
            box: child.makeBox(animator), id: child.id, target: animator.places[index].target, life: life,
            parent: handle, time: time)
        running.append(childHandle)
        animator.startIfDue(childHandle, at: time)
    }

    /// A child finished: start the next one, or finish the group.
    func childFinished(_ animator: Animator, _ handle: AnimationHandle, time: Double) {
        running.removeAll { animator.liveIndex($0) == nil }
        if group.mode == .sequence && nextChild < group.children.count {
            startNextChild(animator, handle, time: time)
        } else if running.isEmpty, let index = animator.liveIndex(handle),
            animator.status[index].phase == .running
        {
            animator.complete(handle, at: time)
        }
    }

    override func cancelChildren(_ animator: Animator, _ handle: AnimationHandle) {
        let children = running
        running.removeAll()
        nextChild = group.children.count
        for child in children { animator.cancel(child) }
    }

    override func repeatRun(_ animator: Animator, _ handle: AnimationHandle, time: Double) {
        start(animator, handle, time: time)
    }
}

/// When something the animator runs starts, how often it repeats and whether
/// it goes when it finishes: what an ``Animation`` and an ``AnimationGroup``
/// share (Core Animation's media timing, without speed and offset).
public protocol AnimationTiming {
    /// When it starts, on the animator's clock (for a group's child: after
    /// the group starts it).
    var beginTime: Double { get set }
    /// How many times to run (0 or 1: once).
    var repeatCount: Int { get set }
    /// Run for ever.
    var repeatForever: Bool { get set }
    /// Remove it when it finishes.
    var removedOnCompletion: Bool { get set }
}

extension Animation: AnimationTiming {}
extension AnimationGroup: AnimationTiming {}
