import Foundation
import Kinetics
import KineticsTestSupport
import PropertyBased
import Testing

/// Random words for ``Churn``: a seeded stream, or a fixed list that the
/// property tests shrink (zeros after its end: word 0 is the mildest
/// operation, a 60 Hz tick).
struct Words: RandomNumberGenerator {
    private var list: [UInt64]
    private var position = 0
    private var seeded: SplitMix64?

    init(seed: UInt64) {
        list = []
        seeded = SplitMix64(seed: seed)
    }

    init(_ list: [UInt64]) { self.list = list }

    mutating func next() -> UInt64 {
        if seeded != nil { return seeded!.next() }
        defer { position += 1 }
        return position < list.count ? list[position] : 0
    }
}

/// Drives an animator with random operations, from outside and from inside
/// its callbacks, and records what each animation reported.
final class Churn: RandomOperations {
    let animator = Animator()
    private var words: Words
    private var scalars: [PropertyHandle<Double>] = []
    private var points: [PropertyHandle<SIMD2<Double>>] = []
    private var targets: [TargetID] = []
    private var handles: [AnimationHandle] = []
    /// Per animation (by serial): starts, stops, and whether it is a group child.
    private(set) var starts: [Int] = []
    private(set) var stops: [Int] = []
    private(set) var isChild: [Bool] = []
    /// Events that broke the life cycle (a stop before a start, an event after a stop).
    private(set) var lifeCycleErrors: [String] = []
    private(set) var operations = 0
    private var depth = 0
    private var clock = 0.0
    /// The last operations: number, callback depth, choice.
    private var recent = [(Int, Int, Int)](repeating: (0, 0, 0), count: 24)
    /// The last operations, oldest first, for failure messages.
    var recentOperations: String {
        recent.sorted { $0.0 < $1.0 }.map { "#\($0.0)@\($0.1):\($0.2)" }.joined(separator: " ")
    }
    /// Set while finishing: callbacks stop acting.
    private var finishing = false

    init(words: Words) {
        self.words = words
        targets = (0 ..< 4).map { _ in animator.makeTarget() }
        for target in targets {
            for name in ["x", "y", "alpha"] { scalars.append(animator.property(name, of: target, initial: 0.0)) }
            points.append(animator.property("position", of: target, initial: SIMD2<Double>(0, 0), kind: .point))
        }
    }

    private func word(_ bound: Int) -> Int { Int(words.next() % UInt64(bound)) }
    private func unit() -> Double { Double(words.next() >> 11) / Double(1 << 53) }

    /// Every property value is finite.
    var valuesAreFinite: Bool {
        scalars.allSatisfy { animator[$0].isFinite }
            && points.allSatisfy { animator[$0].x.isFinite && animator[$0].y.isFinite }
    }

    // MARK: Callbacks that record and sometimes act

    private func serial(child: Bool) -> Int {
        starts.append(0)
        stops.append(0)
        isChild.append(child)
        return starts.count - 1
    }

    private func started(_ serial: Int) {
        if starts[serial] > 0 || stops[serial] > 0 {
            lifeCycleErrors.append("animation \(serial) started twice or after its stop")
        }
        starts[serial] += 1
    }

    private func stopped(_ serial: Int) {
        if starts[serial] != 1 || stops[serial] != 0 {
            lifeCycleErrors.append(
                "animation \(serial) stopped with \(starts[serial]) starts and \(stops[serial]) stops")
        }
        stops[serial] += 1
        act(probability: 0.3)
    }

    private func applied(_ serial: Int) {
        if starts[serial] != 1 || stops[serial] != 0 {
            lifeCycleErrors.append("animation \(serial) applied outside its life")
        }
        act(probability: 0.002)
    }

    /// From a callback: one more random operation, now and then.
    private func act(probability: Double) {
        guard !finishing, depth < 3, unit() < probability else { return }
        depth += 1
        step(insideCallback: true)
        depth -= 1
    }

    private func tracked<Value>(_ animation: Animation<Value>, child: Bool) -> Animation<Value> {
        var animation = animation
        let serial = serial(child: child)
        animation.callbacks.onStart = { [unowned self] _, _ in started(serial) }
        animation.callbacks.onStop = { [unowned self] _, _, _ in stopped(serial) }
        animation.callbacks.onApply = { [unowned self] _, _, _ in applied(serial) }
        return animation
    }

    // MARK: Random animations

    private func randomSpring() -> SpringParameters {
        try! SpringParameters(tension: 10 + 2_000 * unit(), friction: 60 * unit(), mass: 0.2 + 3 * unit())
    }

    private func randomScalarAnimation() -> Animation<Double> {
        let to = 200 * unit() - 100
        var animation: Animation<Double>
        switch word(6) {
        case 0: animation = .spring(randomSpring(), method: SpringMethod.allCases[word(4)], to: to)
        case 1:
            animation = .decay(
                velocity: 4_000 * unit() - 2_000, method: DecayMethod.allCases[word(DecayMethod.allCases.count)])
        case 2: animation = .basic(duration: 0.01 + 0.5 * unit(), timing: .easeInEaseOut, from: 0, to: to)
        case 3:
            animation = .keyframes(
                try! Keyframes(
                    values: [0, to, -to, 1], calculation: word(2) == 0 ? .linear : .discrete, duration: 0.05 + unit()))
        case 4:
            let frames = 1 + word(30)
            var seen = 0
            animation = .custom { frame in
                frame.value += 1
                seen += 1
                return seen >= frames
            }
        default: animation = .spring(randomSpring(), method: .pop, from: 0, to: to, velocity: 100)
        }
        if word(10) == 1 { animation.removedOnCompletion = false }
        if word(10) == 2 { animation.repeatCount = 1 + word(3) }
        if word(20) == 3 { animation.repeatForever = true }
        if word(10) == 4 { animation.autoreverses = true }
        if word(10) == 5 { animation.beginTime = clock + 0.2 * unit() }
        if word(10) == 6 { animation.progressMarkers = [0.25, 0.5] }
        return animation
    }

    private func add() {
        let key: String? = word(4) == 0 ? nil : "k\(word(6))"
        do {
            switch word(10) {
            case 9:
                // A group of two or three children, sometimes nested.
                var children = (0 ..< 2 + word(2)).map { _ in
                    GroupChild.animation(
                        tracked(randomScalarAnimation(), child: true), on: scalars[word(scalars.count)])
                }
                if word(3) == 1 {
                    children.append(
                        .group(
                            AnimationGroup(
                                .concurrent,
                                [
                                    .animation(
                                        tracked(.basic(duration: 0.1, from: 0, to: 1), child: true),
                                        on: scalars[word(scalars.count)])
                                ])))
                }
                var group = AnimationGroup(word(2) == 0 ? .sequence : .concurrent, children)
                let serial = serial(child: false)
                group.onStart = { [unowned self] _, _ in started(serial) }
                group.onStop = { [unowned self] _, _, _ in stopped(serial) }
                handles.append(try animator.add(group, on: targets[word(targets.count)], forKey: key))
            case 7, 8:
                let animation = tracked(
                    Animation<SIMD2<Double>>.spring(
                        randomSpring(), method: SpringMethod.allCases[word(4)], to: SIMD2(unit(), -unit()) * 100),
                    child: false)
                handles.append(try animator.add(animation, to: points[word(points.count)], forKey: key))
            default:
                handles.append(
                    try animator.add(
                        tracked(randomScalarAnimation(), child: false), to: scalars[word(scalars.count)], forKey: key))
            }
        } catch {
            lifeCycleErrors.append("a valid animation was refused: \(error)")
        }
        if handles.count > 512 { handles.removeFirst(256) }
    }

    private var someHandle: AnimationHandle? { handles.isEmpty ? nil : handles[word(handles.count)] }

    private func tick() {
        switch word(40) {
        case 0: animator.tick(at: clock - 0.01)  // backwards: ignored
        case 1: animator.tick(at: .nan)  // ignored
        case 2: animator.tick(at: clock)  // the same time: nothing
        case 3:
            clock += 30.1  // Pop's shutdown: everything running finishes
            animator.tick(at: clock)
        case 4:
            clock += 1e-9
            animator.tick(at: clock)
        default:
            clock += [1.0 / 60, 1.0 / 120, 1.0 / 144, 0.05, 0.0005][word(5)] * (0.5 + unit())
            animator.tick(at: clock)
        }
    }

    /// One random operation from outside callbacks.
    func step() { step(insideCallback: false) }

    /// One random operation; ticks only from outside callbacks.
    func step(insideCallback: Bool) {
        operations += 1
        // Word 0, where shrinking goes, is the mildest operation: a tick.
        let choice = 99 - word(100)
        recent[operations % recent.count] = (operations, depth, choice)
        switch choice {
        case 0 ..< 30: add()
        case 30 ..< 38: if let handle = someHandle { animator.remove(handle) }
        case 38 ..< 46: animator.removeAnimation(forKey: "k\(word(6))", on: targets[word(targets.count)])
        case 46 ..< 48: animator.removeAllAnimations(on: targets[word(targets.count)])
        case 48: if word(10) == 0 { animator.removeAllAnimations() }
        case 49 ..< 57: if let handle = someHandle { animator.retarget(handle, to: 200 * unit() - 100) }
        case 57 ..< 60: if let handle = someHandle { animator.setSpringParameters(handle, randomSpring()) }
        case 60 ..< 67: if let handle = someHandle { animator.pause(handle) }
        case 67 ..< 74: if let handle = someHandle { animator.resume(handle) }
        default: if !insideCallback { tick() } else { add() }
        }
    }

    /// Ends the run: removes everything and finishes pending events.
    func finish() {
        finishing = true
        animator.removeAllAnimations()
    }

    /// Every animation that started stopped exactly once; every top-level
    /// animation started (removing one before its begin time starts and
    /// stops it); nothing is left.
    var endProblems: [String] {
        var problems = lifeCycleErrors
        for serial in starts.indices {
            if stops[serial] != starts[serial] {
                problems.append("animation \(serial): \(starts[serial]) starts, \(stops[serial]) stops")
            }
            if !isChild[serial] && starts[serial] != 1 { problems.append("animation \(serial) never started") }
        }
        if animator.animationCount != 0 {
            problems.append("\(animator.animationCount) animations left after removing all")
        }
        return problems
    }
}

@Suite("Properties: the animator under random operations")
struct AnimatorPropertyTests {
    @Test(
        "random operation sequences keep the registry consistent and give every animation one stop (shrinking to a minimal case)"
    )
    func shortSequences() async {
        await Churn.checkRandomLists(count: 300, lengths: 1 ... 300, stepping: 3) { churn in
            churn.finish()
            #expect(churn.animator.invariantViolations().isEmpty)
            #expect(churn.endProblems.isEmpty, "\(churn.endProblems.prefix(3))")
        }
    }

    /// Operations of the long run: 1,000,000 when KINETICS_LONG_TESTS is set
    /// (CI sets it), else 10,000, so that the test command takes minutes.
    static let longRun = longTests ? 1_000_000 : 10_000

    /// The operations after each of which the animator checks itself
    /// (``Animator/checkInternally(after:)``): the first 25,000 of any run.
    /// Past them a million-operation run checks every 1,000 operations:
    /// the checks after each were three quarters of its time in the debug
    /// build (about 6.5 minutes in all), and what the long run adds is the
    /// states that only many operations reach.
    static let checkedAfterEach = 25_000

    @Test("10,000 seeded operations from inside and outside callbacks (1,000,000 in CI)", arguments: [UInt64(2_026)])
    func million(seed: UInt64) {
        let churn = Churn(words: Words(seed: seed))
        var checks = 0
        while churn.operations < Self.longRun {
            if churn.operations == Self.checkedAfterEach { churn.animator.checksInternally = false }
            churn.step()
            if churn.operations / 1_000 > checks {
                checks += 1
                let problems = churn.animator.invariantViolations()
                #expect(
                    problems.isEmpty,
                    "seed \(seed), after \(churn.operations) operations: \(problems.prefix(3)); last: \(churn.recentOperations)"
                )
                #expect(churn.valuesAreFinite, "seed \(seed), after \(churn.operations) operations")
                if !problems.isEmpty { return }
            }
        }
        churn.finish()
        #expect(churn.animator.invariantViolations().isEmpty)
        #expect(churn.endProblems.isEmpty, "seed \(seed): \(churn.endProblems.prefix(5))")
        // The run did what it says: many animations, most of them stopped by the churn.
        #expect(churn.starts.count > Self.longRun * 3 / 10, "\(churn.starts.count) animations")
    }
}
