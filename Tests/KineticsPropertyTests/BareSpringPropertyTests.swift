import Kinetics
import KineticsTestSupport
import PropertyBased
import Testing

/// A scalar the animator does not know: its springs always have boxes.
struct BoxedScalar: AnimatableVector {
    var value: Double
    static var componentCount: Int { 1 }
    static var zero: BoxedScalar { BoxedScalar(repeating: 0) }
    init(repeating scalar: Double) { value = scalar }
    subscript(component index: Int) -> Double {
        get { value }
        set { value = newValue }
    }
    static func + (lhs: Self, rhs: Self) -> Self { Self(repeating: lhs.value + rhs.value) }
    static func - (lhs: Self, rhs: Self) -> Self { Self(repeating: lhs.value - rhs.value) }
    static func * (lhs: Self, rhs: Double) -> Self { Self(repeating: lhs.value * rhs) }
}

/// Two or three components the animator does not know (`Components` of
/// them, 2 or 3): their springs always have boxes.
struct BoxedVector<Components: ComponentCount>: AnimatableVector {
    var values: SIMD4<Double>
    static var componentCount: Int { Components.count }
    static var zero: Self { Self(repeating: 0) }
    init(repeating scalar: Double) {
        values = .zero
        for index in 0 ..< Self.componentCount { values[index] = scalar }
    }
    subscript(component index: Int) -> Double {
        get { values[index] }
        set { values[index] = newValue }
    }
    static func + (lhs: Self, rhs: Self) -> Self { Self(values: lhs.values + rhs.values) }
    static func - (lhs: Self, rhs: Self) -> Self { Self(values: lhs.values - rhs.values) }
    static func * (lhs: Self, rhs: Double) -> Self { Self(values: lhs.values * rhs) }
    private init(values: SIMD4<Double>) { self.values = values }
}

protocol ComponentCount: Sendable { static var count: Int { get } }
enum Two: ComponentCount { static var count: Int { 2 } }
enum Three: ComponentCount { static var count: Int { 3 } }

/// The same quiet springs, and the same operations on them, in two
/// animators: one with `Double`, `SIMD2` and `SIMD3` properties, whose
/// springs run bare (without boxes, ``Animator`` makes one when an
/// operation needs it), and one whose look-alike value types the animator
/// does not know, so that every spring has its box from its start. Both
/// must agree on everything observable: handles, values to the bit,
/// phases, velocities, keys, counts and traced events. At times the first
/// is given a spring as its numbers (`addSpring`), the second the
/// animation that add stands for: the two adds must agree too.
final class BareAndBoxed: RandomOperations {
    let animator = Animator()
    let boxed = Animator()
    private var words: Words
    private(set) var operations = 0
    private var clock = 0.0
    private var targets: [TargetID] = []
    private var scalars: [(PropertyHandle<Double>, PropertyHandle<BoxedScalar>)] = []
    private var pairs: [(PropertyHandle<SIMD2<Double>>, PropertyHandle<BoxedVector<Two>>)] = []
    private var triples: [(PropertyHandle<SIMD3<Double>>, PropertyHandle<BoxedVector<Three>>)] = []
    private var handles: [AnimationHandle] = []
    /// The most springs that ran bare at once, seen after a tick.
    private(set) var mostBare = 0
    /// The springs the first animator was given as numbers (`addSpring`).
    private(set) var fromNumbers = 0
    /// Where the two disagreed, as sentences.
    private(set) var differences: [String] = []
    /// What the last add gave each animator, to add again under its key (a
    /// no-op when it still runs there).
    private var last: (add: () -> AnimationHandle?, addBoxed: () -> AnimationHandle?)?

    init(words: Words) {
        self.words = words
        for _ in 0 ..< 3 {
            let target = animator.makeTarget()
            precondition(boxed.makeTarget() == target, "the two animators make the same targets")
            targets.append(target)
            for name in ["x", "y"] {
                scalars.append(
                    (
                        animator.property(name, of: target, initial: 0.0, kind: .point),
                        boxed.property(name, of: target, initial: BoxedScalar(repeating: 0), kind: .point)
                    ))
            }
            pairs.append(
                (
                    animator.property("position", of: target, initial: SIMD2<Double>.zero, kind: .point),
                    boxed.property("position", of: target, initial: BoxedVector<Two>.zero, kind: .point)
                ))
            triples.append(
                (
                    animator.property("colour", of: target, initial: SIMD3<Double>.zero),
                    boxed.property("colour", of: target, initial: BoxedVector<Three>.zero)
                ))
        }
    }

    private func word(_ bound: Int) -> Int { Int(words.next() % UInt64(bound)) }
    private func unit() -> Double { Double(words.next() >> 11) / Double(1 << 53) }

    var valuesAreFinite: Bool {
        scalars.allSatisfy { animator[$0.0].isFinite } && pairs.allSatisfy { animator[$0.0].isFinite }
            && triples.allSatisfy { animator[$0.0].isFinite }
    }

    private func note(_ difference: @autoclosure () -> String) {
        if differences.count < 10 { differences.append("operation \(operations): \(difference())") }
    }

    // MARK: Operations

    /// Parameters that springs share (and so their groups), or at times
    /// random ones.
    private func parameters() -> SpringParameters {
        switch word(4) {
        case 0: .popDefault
        case 1: try! SpringParameters(tension: 300, friction: 20, mass: 1)
        case 2: try! SpringParameters(tension: 1_200, friction: 8, mass: 0.5)
        default: try! SpringParameters(tension: 10 + 2_000 * unit(), friction: 2 + 60 * unit(), mass: 0.2 + 3 * unit())
        }
    }

    /// A quiet spring of random settings to `to`, the same for both value
    /// types; at times from the current value to itself (at rest at once).
    private func spring<A: AnimatableVector, B: AnimatableVector>(
        _ to: SIMD4<Double>, current: SIMD4<Double>, _: A.Type, _: B.Type
    ) -> (Animation<A>, Animation<B>) {
        let parameters = parameters()
        // Often pop's: a replacement in place needs the running spring's method.
        let method = word(2) == 0 ? .pop : SpringMethod.allCases[word(4)]
        let end = word(8) == 0 ? current : to
        var a = Animation<A>.spring(parameters, method: method, to: A(packed: end))
        var b = Animation<B>.spring(parameters, method: method, to: B(packed: end))
        if word(4) == 0 {
            let from = SIMD4(repeating: 100 * unit() - 50)
            a.from = A(packed: from)
            b.from = B(packed: from)
        }
        if word(4) == 0 {
            let velocity = SIMD4(repeating: 400 * unit() - 200)
            a.velocity = A(packed: velocity)
            b.velocity = B(packed: velocity)
        }
        if word(4) == 0 {
            let threshold = [0.01, 0.5][word(2)]
            a.threshold = threshold
            b.threshold = threshold
        }
        if word(6) == 0 {
            let clamp: ClampMode = [.start, .end, .both][word(3)]
            a.clamp = clamp
            b.clamp = clamp
        }
        if word(10) == 0 { (a.isTraced, b.isTraced) = (true, true) }
        return (a, b)
    }

    /// Adds a spring to a random property: mostly under a key of its own
    /// (as a replacement in place needs), else under a key another property
    /// of its target may use, or none.
    private func add() {
        let target = SIMD4(repeating: 200 * unit() - 100)
        let kind = word(4)
        let index = word(kind < 2 ? pairs.count : scalars.count)
        let key: String? =
            switch word(5) {
            case 0: nil
            case 1: "k\(word(3))"
            default: "p\(kind)-\(index)"
            }
        switch kind {
        case 0: add(pairs[index], to: target, key: key)
        case 1: add(triples[index], to: target, key: key)
        default: add(scalars[index], to: target, key: key)
        }
    }

    private func add<A: AnimatableVector, B: AnimatableVector>(
        _ property: (PropertyHandle<A>, PropertyHandle<B>), to target: SIMD4<Double>, key: String?
    ) {
        let (a, b) = spring(target, current: animator[property.0].packed, A.self, B.self)
        let addBoxed = { [boxed] in try? boxed.add(b, to: property.1, forKey: key) }
        // At times the first animator is given the spring's numbers
        // (addSpring) where the animation would be what that add builds:
        // under a key, from the current value, unclamped and untraced.
        if let key, a.from == nil, a.clamp == ClampMode(rawValue: 0), !a.isTraced, word(2) == 0,
            case .spring(let parameters, let method) = a.kind, let to = a.to
        {
            // (A new animation each time: adding it again is not a no-op.)
            last = nil
            let handle = try? animator.addSpring(
                to: to, of: property.0, forKey: AnimationKey(key), parameters: parameters, method: method,
                velocity: a.velocity, threshold: a.threshold)
            fromNumbers += 1
            record(handle, addBoxed())
            return
        }
        let addBare = { [animator] in try? animator.add(a, to: property.0, forKey: key) }
        last = key == nil ? nil : (addBare, addBoxed)
        record(addBare(), addBoxed())
    }

    private func record(_ handle: AnimationHandle?, _ boxedHandle: AnimationHandle?) {
        guard let handle, handle == boxedHandle else {
            note("an add gave \(String(describing: handle)) and \(String(describing: boxedHandle))")
            return
        }
        handles.append(handle)
        if handles.count > 64 { handles.removeFirst(32) }
    }

    private func both<Result: Equatable>(_ name: String, _ body: (Animator) -> Result) {
        let result = body(animator)
        let boxedResult = body(boxed)
        if result != boxedResult { note("\(name): \(result) and \(boxedResult)") }
    }

    private var someHandle: AnimationHandle? { handles.isEmpty ? nil : handles[word(handles.count)] }

    func step() {
        operations += 1
        let choice = 99 - word(100)
        switch choice {
        case 0 ..< 30: add()
        case 30 ..< 34:
            if let last { record(last.add(), last.addBoxed()) }
        case 34 ..< 40:
            if let handle = someHandle {
                animator.remove(handle)
                boxed.remove(handle)
            }
        case 40 ..< 44:
            let key = "k\(word(3))"
            let target = targets[word(targets.count)]
            animator.removeAnimation(forKey: key, on: target)
            boxed.removeAnimation(forKey: key, on: target)
        case 44:
            // Target by target: removeAllAnimations() takes the targets in
            // an order of its own, which two animators need not share.
            for target in targets {
                animator.removeAllAnimations(on: target)
                boxed.removeAllAnimations(on: target)
            }
        case 45 ..< 53:
            if let handle = someHandle {
                let to = SIMD4(repeating: 200 * unit() - 100)
                both("retarget") { $0.retarget(handle, to: to) }
            }
        case 53 ..< 57:
            if let handle = someHandle {
                let parameters = parameters()
                both("setSpringParameters") { $0.setSpringParameters(handle, parameters) }
            }
        case 57 ..< 61: if let handle = someHandle { both("pause") { $0.pause(handle) } }
        case 61 ..< 65: if let handle = someHandle { both("resume") { $0.resume(handle) } }
        case 65 ..< 68:
            if let handle = someHandle {
                both("velocity") { $0.velocity(of: handle, as: SIMD4<Double>.self) }
            }
        case 68:
            // A tracer observes every animation from now on; both record the
            // same events (compared after each tick).
            let tracer = word(2) == 0 ? nil : AnimationTracer(traceAll: word(2) == 0, recordsValues: word(2) == 0)
            animator.tracer = tracer
            boxed.tracer = tracer.map { AnimationTracer(traceAll: $0.traceAll, recordsValues: $0.recordsValues) }
        default: tick()
        }
    }

    private func tick() {
        switch word(30) {
        case 0: clock += 30.1  // Pop's shutdown: every running spring finishes at its target
        case 1: clock += 1e-9
        default: clock += [1.0 / 60, 1.0 / 120, 0.05, 0.0005][word(4)] * (0.5 + unit())
        }
        animator.tick(at: clock)
        boxed.tick(at: clock)
        compare()
    }

    /// Everything observable, compared.
    func compare() {
        for (a, b) in scalars where animator[a].bitPattern != boxed[b].value.bitPattern {
            note("a scalar is \(animator[a]) and \(boxed[b].value)")
        }
        for (a, b) in pairs where animator[a].packed != boxed[b].packed {
            note("a pair is \(animator[a]) and \(boxed[b].values)")
        }
        for (a, b) in triples where animator[a].packed != boxed[b].packed {
            note("a triple is \(animator[a]) and \(boxed[b].values)")
        }
        both("animationCount") { $0.animationCount }
        mostBare = max(mostBare, animator.bareSpringCount)
        if boxed.bareSpringCount != 0 { note("\(boxed.bareSpringCount) springs of unknown types run bare") }
        for handle in handles {
            both("phase") { $0.phase(of: handle) }
            both("velocity") { $0.velocity(of: handle, as: SIMD4<Double>.self) }
        }
        for target in targets { both("keys") { $0.keys(on: target) } }
        if animator.tracer?.events != boxed.tracer?.events {
            note(
                "the traces differ: \(animator.tracer?.events.suffix(3) ?? []) and \(boxed.tracer?.events.suffix(3) ?? [])"
            )
        }
        animator.tracer?.clear()
        boxed.tracer?.clear()
    }
}

@Suite("Properties: springs without boxes behave as springs with boxes")
struct BareSpringPropertyTests {
    @Test("random operations on bare and boxed springs agree on everything observable (shrinking to a minimal case)")
    func shortSequences() async {
        await BareAndBoxed.checkRandomLists(count: 200, lengths: 1 ... 300, stepping: 3) { pair in
            pair.compare()
            #expect(pair.differences.isEmpty, "\(pair.differences)")
        }
    }

    /// Operations of the long run: 100,000 when KINETICS_LONG_TESTS is set
    /// (CI sets it), else 10,000.
    static let longRun = longTests ? 100_000 : 10_000

    @Test("10,000 seeded operations on bare and boxed springs agree (100,000 in CI)", arguments: [UInt64(2_026)])
    func long(seed: UInt64) {
        let pair = BareAndBoxed(words: Words(seed: seed))
        while pair.operations < Self.longRun && pair.differences.isEmpty {
            pair.step()
            if pair.operations % 1_000 == 0 {
                let problems = pair.animator.invariantViolations() + pair.boxed.invariantViolations()
                #expect(problems.isEmpty, "seed \(seed), after \(pair.operations) operations: \(problems.prefix(3))")
                if !problems.isEmpty { return }
            }
        }
        pair.compare()
        #expect(pair.differences.isEmpty, "seed \(seed): \(pair.differences)")
        // The run compared what it says: many springs ran bare.
        #expect(pair.mostBare >= 10, "at most \(pair.mostBare) springs ran bare at once")
        #expect(pair.fromNumbers >= 100, "\(pair.fromNumbers) springs added from their numbers")
    }
}
