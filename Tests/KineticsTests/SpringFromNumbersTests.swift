import Testing

@testable import Kinetics

/// `addSpring`: a spring added from its numbers is the animation it stands
/// for, added. Random sequences of both adds are BareSpringPropertyTests'
/// part; these are its errors and the cases it leaves to the animation's add.
@Suite("Animator: springs added from their numbers")
struct SpringFromNumbersTests {
    /// An animator at `time` with one target and a scalar property `x`.
    private static func scalar(time: Double = 0) -> (Animator, TargetID, PropertyHandle<Double>) {
        let animator = Animator(time: time)
        let target = animator.makeTarget()
        return (animator, target, animator.property("x", of: target, initial: 0.0))
    }

    /// The error of `body`, or nil.
    private func error(_ body: () throws(ParameterError) -> AnimationHandle) -> ParameterError? {
        do {
            _ = try body()
            return nil
        } catch {
            return error
        }
    }

    @Test("a setting out of range is refused as the animation's add refuses it, and nothing is added")
    func errors() throws {
        let (animator, _, x) = Self.scalar()
        let stiff = try SpringParameters(tension: 1e7, friction: 10, mass: 1)
        let cases: [(to: Double, velocity: Double?, threshold: Double?, parameters: SpringParameters, name: String)] = [
            (.nan, nil, nil, .popDefault, "to"),
            (.infinity, nil, nil, .popDefault, "to"),
            (1, -.infinity, nil, .popDefault, "velocity"),
            (1, .nan, nil, .popDefault, "velocity"),
            (1, nil, 0, .popDefault, "threshold"),
            (1, nil, -1, .popDefault, "threshold"),
            (1, nil, .infinity, .popDefault, "threshold"),
            (1, nil, .nan, .popDefault, "threshold"),
            (1, nil, nil, stiff, "method"),
        ]
        for item in cases {
            let fromNumbers = error {
                () throws(ParameterError) in
                try animator.addSpring(
                    to: item.to, of: x, forKey: AnimationKey("x"), parameters: item.parameters, method: .pop,
                    velocity: item.velocity, threshold: item.threshold)
            }
            var animation = Animation<Double>.spring(
                item.parameters, method: .pop, to: item.to, velocity: item.velocity)
            animation.threshold = item.threshold
            let added = error { () throws(ParameterError) in try animator.add(animation, to: x, forKey: "x") }
            #expect(fromNumbers?.parameter == item.name, "\(item)")
            #expect(fromNumbers?.parameter == added?.parameter && fromNumbers?.accepted == added?.accepted)
            #expect(fromNumbers?.value.bitPattern == added?.value.bitPattern, "\(item)")
        }
        #expect(animator.animationCount == 0)
    }

    @Test("under a tracer the spring gets a box and its events are traced, as the animation's would be")
    func traced() throws {
        let events = try [true, false].map { fromNumbers in
            let (animator, _, x) = Self.scalar()
            animator.tracer = AnimationTracer(traceAll: true)
            if fromNumbers {
                try animator.addSpring(to: 10, of: x, forKey: AnimationKey("x"), method: .pop)
            } else {
                try animator.add(.spring(method: .pop, to: 10.0), to: x, forKey: "x")
            }
            #expect(animator.bareSpringCount == 0)
            for frame in 1 ... 240 { animator.tick(at: Double(frame) / 60) }
            #expect(animator[x] == 10)
            return animator.tracer!.events.map { "\($0)" }
        }
        #expect(!events[0].isEmpty)
        #expect(events[0] == events[1])
    }

    @Test("before time 0 the spring waits for it, as an animation's begin time of 0 makes it wait")
    func waitsForTimeZero() throws {
        let (animator, _, x) = Self.scalar(time: -0.5)
        let handle = try animator.addSpring(to: 10, of: x, forKey: AnimationKey("x"))
        #expect(animator.phase(of: handle) == .waiting)
        animator.tick(at: 0.25)
        #expect(animator.phase(of: handle) == .running)
        animator.tick(at: 0.25 + 1.0 / 60)
        #expect(animator[x] > 0)
    }

    @Test("a spring from numbers replaces a running one in place, keeping its record and key")
    func replacesInPlace() throws {
        let (animator, target, x) = Self.scalar()
        let key = AnimationKey("x")
        let first = try animator.addSpring(to: 10, of: x, forKey: key, method: .pop)
        animator.tick(at: 1.0 / 60)
        let second = try animator.addSpring(to: 20, of: x, forKey: key, method: .pop)
        #expect(second.record == first.record && second.generation == first.generation &+ 1)
        #expect(!animator.contains(first) && animator.contains(second))
        #expect(animator.keys(on: target) == ["x"] && animator.animationCount == 1)
        #expect(animator.bareSpringCount == 1)
        #expect(animator.invariantViolations().isEmpty)
    }
}
