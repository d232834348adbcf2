import Kinetics

/// Pop's per-frame structure, modelled plainly in Swift for comparison.
///
/// As POPAnimator does: each frame copies its list of animations into a new
/// array; each animation is an object advanced through a protocol call and
/// holds its value in a 4-vector (Pop's `Vector4d`) whatever its width;
/// springs take Pop's RK4 steps one at a time with the fraction blend; an
/// animation that finishes is found in the list by linear search and removed.
/// It computes the same values as the animator's `pop` method.
final class ReferenceEngine: MeasuredEngine, ScenarioDriven {
    let workload: Workload
    private let object: PopObject
    private var list: [PopModelAnimation] = []
    private var byIndex: [PopModelAnimation] = []
    var churnCursor = 0
    private var time = 0.0

    init(_ workload: Workload) {
        self.workload = workload
        object = PopObject(count: workload.allCount)
        for index in 0 ..< workload.allCount {
            let item = workload.item(index)
            object.values[index] = SIMD4(
                workload.initial(index), item.kind == .pointSpring ? workload.initial(index) : 0, 0, 0)
        }
        // At time 0, before the first frame.
        for index in 0 ..< workload.count { add(index) }
    }

    var addsAnimations: Bool { true }

    private func make(_ index: Int) -> PopModelAnimation {
        let item = workload.item(index)
        let width = item.kind == .pointSpring ? 2 : 1
        let property = PopProperty(object: object, slot: index)
        let start = property.value
        var target = SIMD4<Double>.zero
        for component in 0 ..< width { target[component] = item.to }
        switch item.kind {
        case .spring, .pointSpring:
            return PopSpringModel(
                property, width: width, parameters: item.spring, from: start, to: target,
                threshold: item.threshold, time: time)
        case .decay:
            return PopDecayModel(
                property, deceleration: workload.deceleration, velocity: item.velocity,
                threshold: item.threshold, time: time)
        case .basic:
            return PopBasicModel(
                property, from: start[0], to: item.to, duration: item.duration,
                curve: .easeInEaseOut,
                time: time)
        case .keyframes:
            return PopKeyframeModel(property, keyframes: workload.keyframes, time: time)
        }
    }

    // Replacements and additions happen between frames, at the last
    // frame's time (as in the other engines, whose animations start at the
    // animator's last tick), and are rendered at once, as Pop's
    // addAnimation does; they advance again in the next frame.
    func replace(_ index: Int) {
        remove(byIndex[index])
        byIndex[index] = start(index)
    }

    func retarget(_ index: Int, to target: Double) { (byIndex[index] as? PopSpringModel)?.retarget(target) }

    func add(_ index: Int) { byIndex.append(start(index)) }

    /// Animation `index`, added to the list and rendered once.
    private func start(_ index: Int) -> PopModelAnimation {
        let animation = make(index)
        list.append(animation)
        _ = animation.render(time: time)
        return animation
    }

    func advance(to time: Double) {
        self.time = time
        // POPAnimator copies its list into a vector every frame.
        var snapshot: [PopModelAnimation] = []
        snapshot.reserveCapacity(list.count)
        snapshot.append(contentsOf: list)
        for animation in snapshot where animation.render(time: time) {
            remove(animation)
        }
    }

    /// Removal by linear search, as Pop's list does.
    private func remove(_ animation: PopModelAnimation) {
        if let position = list.firstIndex(where: { $0 === animation }) { list.remove(at: position) }
    }

    var running: Int { list.count }

    func value(at index: Int) -> Double { object.values[index][0] }
}

/// The animated object: its property values.
final class PopObject {
    /// Fixed storage, written as Pop writes an object's property: through
    /// memory, without Swift's exclusivity checks (indices are checked in
    /// debug builds).
    let values: UnsafeMutableBufferPointer<SIMD4<Double>>

    init(count: Int) {
        values = .allocate(capacity: count)
        values.initialize(repeating: .zero)
    }

    deinit { values.deallocate() }
}

/// Where a model writes: property `slot` of its object.
struct PopProperty {
    unowned(unsafe) let object: PopObject
    let slot: Int

    /// The property's value.
    var value: SIMD4<Double> {
        get { object.values[slot] }
        nonmutating set { object.values[slot] = newValue }
    }

    /// Writes `end` to the first component when `done`; returns `done`
    /// (a render's answer).
    func finish(_ done: Bool, at end: Double) -> Bool {
        if done { object.values[slot][0] = end }
        return done
    }
}

/// One of Pop's animations: advanced through a protocol call.
protocol PopModelAnimation: AnyObject {
    /// Advances to `time` and writes the value; true when done (the final
    /// value is then written).
    func render(time: Double) -> Bool
}

/// Pop's spring animation: its solver on a 4-vector, the state rebuilt from
/// the written value every frame, both rest tests.
/// The mutable state of ``PopSpringModel``: it skips Swift's run-time
/// exclusivity checks (``UncheckedEngineState``), as Pop's instance
/// variables do.
struct PopSpringState {
    fileprivate var solver: SpringStepper<SIMD4<Double>>
    fileprivate var lastTime: Double
    fileprivate var previous: SIMD4<Double>?
    fileprivate var previous2: SIMD4<Double>?
}

final class PopSpringModel: UncheckedEngineState<PopSpringState>, PopModelAnimation {
    private let property: PopProperty
    private let threshold: Double
    private let width: Int

    init(
        _ property: PopProperty, width: Int, parameters: SpringParameters, from: SIMD4<Double>,
        to: SIMD4<Double>, threshold: Double, time: Double
    ) {
        self.property = property
        self.width = width
        self.threshold = threshold
        super.init(
            PopSpringState(
                solver: SpringStepper(parameters: parameters, method: .pop, value: from, target: to), lastTime: time))
    }

    func retarget(_ target: Double) {
        var to = SIMD4<Double>.zero
        for component in 0 ..< width { to[component] = target }
        state.solver.target = to
    }

    func render(time: Double) -> Bool {
        state.solver.advance(by: time - state.lastTime)
        state.lastTime = time
        let value = state.solver.value
        property.value = value
        state.previous2 = state.previous
        state.previous = value
        var converged = false
        if let previous = state.previous, let previous2 = state.previous2 {
            converged = PopRestTest.animationHasConverged(
                previous2: previous2, previous: previous, target: state.solver.target, threshold: threshold)
        }
        if converged || state.solver.solverIsAtRest(threshold: threshold) {
            property.value = state.solver.target
            return true
        }
        return false
    }
}

/// Pop's decay animation, clamped at its computed end.
final class PopDecayModel: PopModelAnimation {
    private let property: PopProperty
    private var solver: DecayStepper<SIMD4<Double>>
    private let end: Double
    private let threshold: Double
    private var lastTime: Double

    init(_ property: PopProperty, deceleration: DecayParameters, velocity: Double, threshold: Double, time: Double) {
        self.property = property
        let start = property.value
        solver = DecayStepper(parameters: deceleration, method: .pop, value: start, velocity: SIMD4(velocity, 0, 0, 0))
        end = deceleration.endValue(from: start[0], velocity: velocity, threshold: threshold, method: .pop)
        self.threshold = threshold
        lastTime = time
    }

    func render(time: Double) -> Bool {
        solver.advance(by: time - lastTime)
        lastTime = time
        var value = solver.value
        value[0] = solver.velocity[0] > 0 ? min(value[0], end) : max(value[0], end)
        property.value = value
        return property.finish(solver.isAtRest(threshold: threshold), at: end)
    }
}

/// Pop's basic animation: WebKit's bezier at Pop's tolerance every frame.
final class PopBasicModel: PopModelAnimation {
    private let property: PopProperty
    private let from: Double
    private let to: Double
    private let duration: Double
    private let curve: UnitBezier
    private let start: Double

    init(_ property: PopProperty, from: Double, to: Double, duration: Double, curve: UnitBezier, time: Double) {
        self.property = property
        self.from = from
        self.to = to
        self.duration = duration
        self.curve = curve
        start = time
    }

    func render(time: Double) -> Bool {
        let t = min(time - start, duration) / duration
        let p = curve.solveWebKit(t, epsilon: 1 / (1000 * duration))
        property.value[0] = from + p * (to - from)
        return property.finish(t + 1e-6 >= 1, at: to)
    }
}

/// A keyframe animation in Pop's style (Pop has none): the segment found by
/// search every frame and eased with WebKit's bezier.
final class PopKeyframeModel: PopModelAnimation {
    private let property: PopProperty
    private let keyframes: Keyframes<Double>
    private let start: Double

    init(_ property: PopProperty, keyframes: Keyframes<Double>, time: Double) {
        self.property = property
        self.keyframes = keyframes
        start = time
    }

    func render(time: Double) -> Bool {
        let t = min(time - start, keyframes.duration) / keyframes.duration
        let times = keyframes.keyTimes
        var segment = 0
        while segment < times.count - 2 && times[segment + 1] <= t { segment += 1 }
        let span = times[segment + 1] - times[segment]
        let local = span > 0 ? (t - times[segment]) / span : 1
        let eased = keyframes.timingFunctions[segment].transform(
            min(local, 1), method: .webkit, epsilon: 1 / (1000 * keyframes.duration))
        let values = keyframes.values
        property.value[0] = values[segment] + eased * (values[segment + 1] - values[segment])
        return property.finish(t + 1e-6 >= 1, at: values.last!)
    }
}
