import Foundation
import Kinetics
import KineticsTestSupport
import Testing

/// Pop's life cycle through the animator: keys, start, repeat, stop, rounding,
/// clamping, additive writes, pause and the clock's faults.
@Suite("Animator: life cycle")
struct AnimatorLifeCycleTests {
    /// An animator with one scalar property and a tracer of every event.
    static func setUp(initial: Double = 0) -> (Animator, TargetID, PropertyHandle<Double>, AnimationTracer) {
        let (animator, tracer, target) = tracedAnimator()
        return (animator, target, animator.property("x", of: target, initial: initial), tracer)
    }

    static func run(_ animator: Animator, seconds: Double, fps: Double = 60) {
        let start = animator.time
        for frame in 1 ... Int(seconds * fps) { animator.tick(at: start + Double(frame) / fps) }
    }

    static func kinds(_ tracer: AnimationTracer) -> [String] {
        tracer.events.map { event in
            switch event.kind {
            case .start: "start"
            case .valueWritten: "value"
            case .reached: "reached"
            case .repeated: "repeat"
            case .marker(let p): "marker:\(p)"
            case .stop(let finished): finished ? "stop:finished" : "stop:cancelled"
            }
        }
    }

    @Test("a new animation writes its first value at once, before any tick")
    func firstValueAtOnce() throws {
        let (animator, _, x, tracer) = Self.setUp(initial: 5)
        try animator.add(.basic(duration: 1, from: 10, to: 20), to: x, forKey: "x")
        #expect(animator[x] == 10)
        #expect(Self.kinds(tracer) == ["start"])
    }

    @Test("autoreverse with repeat count 0 or 1 gives one reversal and ends at from")
    func autoreverseOnce() throws {
        for count in [0, 1] {
            let (animator, _, x, tracer) = Self.setUp()
            var animation = Animation<Double>.basic(duration: 0.25, from: 0, to: 10)
            animation.autoreverses = true
            animation.repeatCount = count
            try animator.add(animation, to: x, forKey: "x")
            Self.run(animator, seconds: 2)
            #expect(Self.kinds(tracer).filter { $0 == "repeat" }.count == 1)
            #expect(animator[x] == 0)
            #expect(Self.kinds(tracer).last == "stop:finished")
        }
    }

    @Test("repeat count 4 with autoreverse gives 7 repeats and ends at from; without, 3 repeats and ends at to")
    func repeats() throws {
        for (autoreverses, repeatEvents, end) in [(true, 7, 0.0), (false, 3, 10.0)] {
            let (animator, _, x, tracer) = Self.setUp()
            var animation = Animation<Double>.spring(.popDefault, method: .analytic, from: 0, to: 10)
            animation.autoreverses = autoreverses
            animation.repeatCount = 4
            try animator.add(animation, to: x, forKey: "x")
            Self.run(animator, seconds: 10)
            let kinds = Self.kinds(tracer)
            #expect(kinds.filter { $0 == "repeat" }.count == repeatEvents)
            #expect(kinds.filter { $0 == "start" }.count == 1 && kinds.filter { $0.hasPrefix("stop") }.count == 1)
            #expect(animator[x] == end)
        }
    }

    @Test("removing before the start fires start, then stop(cancelled)")
    func removeBeforeStart() throws {
        let (animator, target, x, tracer) = Self.setUp()
        var started = false
        var stopped: Bool?
        var animation = Animation<Double>.basic(duration: 1, from: 0, to: 1)
        animation.beginTime = 5
        animation.callbacks.onStart = { _, _ in started = true }
        animation.callbacks.onStop = { _, _, finished in stopped = finished }
        try animator.add(animation, to: x, forKey: "x")
        Self.run(animator, seconds: 1)
        #expect(!started && animator.phase(of: animator.animation(forKey: "x", on: target)!) == .waiting)
        animator.removeAnimation(forKey: "x", on: target)
        #expect(started && stopped == false)
        #expect(Self.kinds(tracer) == ["start", "stop:cancelled"])
        #expect(animator.keys(on: target).isEmpty)
    }

    @Test("a begin time delays the start to the first tick at or after it")
    func beginTime() throws {
        let (animator, _, x, tracer) = Self.setUp()
        var animation = Animation<Double>.basic(duration: 0.5, from: 1, to: 2)
        animation.beginTime = 0.25
        try animator.add(animation, to: x, forKey: "x")
        #expect(animator[x] == 0 && tracer.events.isEmpty)
        for frame in 1 ... 15 { animator.tick(at: Double(frame) / 60) }
        #expect(animator[x] == 1 && tracer.events.count == 1 && tracer.events[0].time == 0.25)
    }

    @Test("rounding 0.5 writes only multiples of 0.5")
    func rounding() throws {
        let (animator, _, x, _) = Self.setUp()
        var animation = Animation<Double>.spring(.popDefault, method: .pop, to: 37.3)
        animation.roundingFactor = 0.5
        var written: [Double] = []
        animation.callbacks.onApply = { _, _, value in written.append(value) }
        try animator.add(animation, to: x, forKey: "x")
        Self.run(animator, seconds: 3)
        #expect(written.count > 10)
        #expect(written.allSatisfy { ($0 * 2).rounded() == $0 * 2 })
        #expect(animator[x] == 37.5)
    }

    @Test("clamping never passes the bounds, for a bouncy spring")
    func clamp() throws {
        for (mode, low, high) in [(ClampMode.end, -Double.infinity, 10.0), (.both, 0.0, 10.0)] {
            let (animator, _, x, _) = Self.setUp()
            var animation = Animation<Double>.spring(
                try SpringParameters(bounciness: 20, speed: 12), method: .rk4, from: 0, to: 10)
            animation.clamp = mode
            var written: [Double] = []
            animation.callbacks.onApply = { _, _, value in written.append(value) }
            try animator.add(animation, to: x, forKey: "x")
            Self.run(animator, seconds: 3)
            #expect(written.allSatisfy { $0 >= low && $0 <= high }, "\(mode)")
            #expect(written.contains(10))
        }
        // Without clamping the same spring overshoots.
        let (animator, _, x, _) = Self.setUp()
        var peak = 0.0
        var animation = Animation<Double>.spring(
            try SpringParameters(bounciness: 20, speed: 12), method: .rk4, from: 0, to: 10)
        animation.callbacks.onApply = { _, _, value in peak = max(peak, value) }
        try animator.add(animation, to: x, forKey: "x")
        Self.run(animator, seconds: 3)
        #expect(peak > 10.5)
    }

    @Test("additive animations compose: their changes add up on the property")
    func additive() throws {
        let (animator, _, x, _) = Self.setUp(initial: 100)
        for (key, to) in [("a", 10.0), ("b", -4.0)] {
            var animation = Animation<Double>.basic(duration: 0.5, timing: .linear, from: 0, to: to)
            animation.additive = true
            try animator.add(animation, to: x, forKey: key)
        }
        animator.tick(at: 0.25)
        #expect(abs(animator[x] - (100 + 5 - 2)) < 1e-12)
        Self.run(animator, seconds: 1)
        #expect(abs(animator[x] - 106) < 1e-12)
    }

    @Test("keys: replacing stops the old one; the same animation twice is a no-op; lookups")
    func registry() throws {
        let (animator, target, x, tracer) = Self.setUp()
        let first = Animation<Double>.basic(duration: 1, from: 0, to: 1)
        let handle = try animator.add(first, to: x, forKey: "move")
        #expect(try animator.add(first, to: x, forKey: "move") == handle)
        #expect(Self.kinds(tracer) == ["start"])
        let replacement = try animator.add(.spring(to: 5), to: x, forKey: "move")
        #expect(replacement != handle && !animator.contains(handle))
        #expect(Self.kinds(tracer) == ["start", "stop:cancelled", "start"])
        try animator.add(.spring(to: 5), to: x, forKey: "other")
        let anonymous = try animator.add(.spring(to: 5), to: x)
        #expect(animator.keys(on: target).count == 3 && animator.keys(on: target).prefix(2) == ["move", "other"])
        #expect(animator.animation(forKey: "move", on: target) == replacement)
        #expect(animator.animation(forKey: "nothing", on: target) == nil)
        animator.remove(anonymous)
        animator.removeAllAnimations(on: target)
        #expect(animator.keys(on: target).isEmpty && animator.animationCount == 0)
        #expect(Self.kinds(tracer).filter { $0 == "stop:cancelled" }.count == 4)
    }

    /// Adding to a property again under a key starts from the record last
    /// added to it under a key, a hint that these cases make stale: the
    /// record ended and now runs another key, another target's key, or the
    /// key itself on another property or as a group.
    @Test(
        "adding to a property again under a key replaces what runs under the key now, whatever ran on it before",
        arguments: [false, true])
    func keyedAgain(traced: Bool) throws {
        let animator = Animator()
        if traced { animator.tracer = AnimationTracer(traceAll: true) }
        let (one, two) = (animator.makeTarget(), animator.makeTarget())
        let x = animator.property("x", of: one, initial: 0.0)
        let y = animator.property("y", of: one, initial: 0.0)
        let z = animator.property("z", of: two, initial: 0.0)

        // x's record ends, then runs "b" on y: x under "a" replaces nothing.
        animator.remove(try animator.add(.spring(to: 1), to: x, forKey: "a"))
        let onY = try animator.add(.spring(to: 2), to: y, forKey: "b")
        let onX = try animator.add(.spring(to: 3), to: x, forKey: "a")
        #expect(animator.contains(onY) && animator.keys(on: one) == ["b", "a"])

        // y under "a" replaces x's animation; x under "a" again replaces y's.
        animator.remove(onY)
        let yUnderA = try animator.add(.spring(to: 4), to: y, forKey: "a")
        #expect(!animator.contains(onX) && animator.animation(forKey: "a", on: one) == yUnderA)
        let xAgain = try animator.add(.spring(to: 5), to: x, forKey: "a")
        #expect(!animator.contains(yUnderA) && animator.animation(forKey: "a", on: one) == xAgain)

        // x's record ends and runs "a" on another target: x under "a" leaves it.
        animator.remove(xAgain)
        let onZ = try animator.add(.spring(to: 6), to: z, forKey: "a")
        let xOnce = try animator.add(.spring(to: 7), to: x, forKey: "a")
        #expect(animator.contains(onZ) && animator.animation(forKey: "a", on: two) == onZ)
        #expect(animator.animation(forKey: "a", on: one) == xOnce)

        // A group under "a" replaces x's animation; x under "a" replaces the group.
        let group = try animator.add(
            AnimationGroup(.concurrent, [.animation(.spring(to: 8), on: y)]), on: one, forKey: "a")
        #expect(!animator.contains(xOnce) && animator.animation(forKey: "a", on: one) == group)
        let last = try animator.add(.spring(to: 9), to: x, forKey: "a")
        #expect(!animator.contains(group) && animator.animation(forKey: "a", on: one) == last)
        #expect(animator.keys(on: one) == ["a"] && animator.animationCount == 2)

        Self.run(animator, seconds: 3)
        #expect(animator[x] == 9 && animator[z] == 6 && animator.animationCount == 0)
    }

    @Test("removedOnCompletion false keeps a finished animation under its key, stopped once")
    func keptAfterCompletion() throws {
        let (animator, target, x, tracer) = Self.setUp()
        var animation = Animation<Double>.basic(duration: 0.1, from: 0, to: 3)
        animation.removedOnCompletion = false
        let handle = try animator.add(animation, to: x, forKey: "x")
        Self.run(animator, seconds: 0.5)
        #expect(animator.phase(of: handle) == .finished && animator.keys(on: target) == ["x"] && animator[x] == 3)
        animator.remove(handle)
        #expect(Self.kinds(tracer).filter { $0.hasPrefix("stop") } == ["stop:finished"])
    }

    @Test("progress markers fire in order, reached-to-value fires once")
    func markersAndReached() throws {
        let (animator, _, x, tracer) = Self.setUp()
        var animation = Animation<Double>.spring(
            try SpringParameters(bounciness: 15, speed: 10), method: .pop, from: 0, to: 1)
        animation.progressMarkers = [0.25, 0.5, 0.9]
        var reached = 0
        animation.callbacks.onReachToValue = { _, _ in reached += 1 }
        try animator.add(animation, to: x, forKey: "x")
        Self.run(animator, seconds: 3)
        let kinds = Self.kinds(tracer).filter { $0 != "value" }
        #expect(kinds.filter { $0.hasPrefix("marker") } == ["marker:0.25", "marker:0.5", "marker:0.9"])
        #expect(reached == 1 && kinds.filter { $0 == "reached" }.count == 1)
        #expect(kinds.firstIndex(of: "marker:0.9")! < kinds.firstIndex(of: "reached")!)
    }

    @Test("pause holds the value; resume continues where it was")
    func pauseResume() throws {
        let (animator, _, x, _) = Self.setUp()
        let handle = try animator.add(.basic(duration: 1, timing: .linear, from: 0, to: 10), to: x, forKey: "x")
        animator.tick(at: 0.5)
        #expect(animator.pause(handle))
        animator.tick(at: 0.75)
        animator.tick(at: 2.0)
        #expect(animator[x] == 5 && animator.phase(of: handle) == .paused)
        #expect(animator.resume(handle))
        animator.tick(at: 2.25)
        #expect(abs(animator[x] - 7.5) < 1e-12)
        animator.tick(at: 2.5)
        #expect(animator[x] == 10 && !animator.contains(handle))
    }

    @Test("the clock's faults: backwards and NaN are ignored and counted, a repeat changes nothing, over 30 s finishes")
    func clockFaults() throws {
        let (animator, _, x, tracer) = Self.setUp()
        let handle = try animator.add(.spring(.popDefault, method: .pop, from: 0, to: 100), to: x, forKey: "x")
        animator.tick(at: 0.1)
        let value = animator[x]
        animator.tick(at: 0.1)
        animator.tick(at: 0.05)
        animator.tick(at: .nan)
        animator.tick(at: .infinity)
        #expect(animator[x] == value && animator.ignoredTicks == 3 && animator.time == 0.1)
        animator.tick(at: 30.2)
        #expect(animator[x] == 100 && !animator.contains(handle))
        #expect(Self.kinds(tracer).last == "stop:finished")
    }

    @Test("a gap of exactly 30 s is still advanced, not shut down")
    func thirtySeconds() throws {
        let (animator, _, x, _) = Self.setUp()
        var animation = Animation<Double>.spring(.popDefault, method: .analytic, from: 0, to: 100)
        animation.threshold = 1e-30
        let handle = try animator.add(animation, to: x, forKey: "x")
        animator.tick(at: 30)
        #expect(animator.contains(handle) || animator[x] == 100)
    }

    @Test("a spring retargeted mid-flight keeps value and velocity continuous")
    func retarget() throws {
        for method in SpringMethod.allCases {
            let (animator, _, x, _) = Self.setUp()
            var animation = Animation<Double>.spring(.popDefault, method: method, from: 0, to: 100)
            animation.threshold = 1e-30
            let handle = try animator.add(animation, to: x, forKey: "x")
            for frame in 1 ... 10 { animator.tick(at: Double(frame) / 60) }
            let value = animator[x]
            let velocity = try #require(animator.velocity(of: handle, as: Double.self))
            #expect(animator.retarget(handle, to: 40.0))
            #expect(animator[x] == value && animator.velocity(of: handle, as: Double.self) == velocity)
            animator.tick(at: 11.0 / 60)
            // One frame later: the closed form from (value, velocity) towards 40.
            let exact = SpringPropagator.exact(.popDefault, time: 1.0 / 60).apply(
                displacement: value - 40, velocity: velocity)
            let tolerance = method == .analytic ? 1e-12 : method == .rk4 ? 1e-7 : 0.05
            #expect(abs(animator[x] - (40 + exact.displacement)) <= tolerance * 100, "\(method)")
        }
    }

    @Test("a retarget arms reached-to-value again and the spring ends exactly on the new target, in every lane")
    func retargetArmsReach() throws {
        for method in SpringMethod.allCases {
            let animator = Animator()
            let target = animator.makeTarget()
            let scalar = animator.property("s", of: target, initial: 0.0)
            let point = animator.property("p", of: target, initial: SIMD2(0.0, 0.0))
            let color = animator.property("c", of: target, initial: SIMD3(0.0, 0.0, 0.0))
            var reached: [String: Int] = [:]
            func spring<V: AnimatableVector>(_ property: PropertyHandle<V>, _ key: String, to end: V) throws
                -> AnimationHandle
            {
                var animation = Animation<V>.spring(.popDefault, method: method, to: end)
                animation.callbacks.onReachToValue = { _, _ in reached[key, default: 0] += 1 }
                animation.removedOnCompletion = false
                return try animator.add(animation, to: property, forKey: key)
            }
            let handles = [
                try spring(scalar, "s", to: 10.0), try spring(point, "p", to: SIMD2(10, 10)),
                try spring(color, "c", to: SIMD3(10, 10, 10)),
            ]
            var time = 0.0
            func run(until count: Int) {
                for _ in 0 ..< 600 where reached.values.count(where: { $0 >= count }) < 3 {
                    time += 1.0 / 60
                    animator.tick(at: time)
                }
            }
            run(until: 1)
            #expect(reached == ["s": 1, "p": 1, "c": 1], "\(method)")
            #expect(animator.retarget(handles[0], to: 20.0))
            #expect(animator.retarget(handles[1], to: SIMD2(20.0, -20.0)))
            #expect(animator.retarget(handles[2], to: SIMD3(20.0, -20.0, 5.0)))
            run(until: 2)
            #expect(reached == ["s": 2, "p": 2, "c": 2], "\(method)")
            // Reached on crossing the new target, not only by the final frame.
            #expect(handles.allSatisfy { animator.phase(of: $0) == .running }, "\(method)")
            for _ in 0 ..< 600 where handles.contains(where: { animator.phase(of: $0) == .running }) {
                time += 1.0 / 60
                animator.tick(at: time)
            }
            // Pop's final frame writes the target exactly: the new one.
            #expect(animator[scalar] == 20 && animator[point] == SIMD2(20, -20), "\(method)")
            #expect(animator[color] == SIMD3(20, -20, 5), "\(method)")
            // Finished and kept: no element to retarget.
            #expect(!animator.retarget(handles[0], to: 1.0))
        }
    }

    @Test("new spring parameters given while paused apply when the spring resumes")
    func newParametersWhilePaused() throws {
        // `a` gets the parameters while paused, `b` just before pausing; a
        // paused spring holds its value, so both must then move alike.
        let soft = try SpringParameters(tension: 60, friction: 4)
        var values: [[Double]] = []
        for changeFirst in [false, true] {
            let (animator, _, x, _) = Self.setUp()
            let handle = try animator.add(.spring(.popDefault, method: .analytic, from: 0, to: 10), to: x)
            animator.tick(at: 0.05)
            if changeFirst { #expect(animator.setSpringParameters(handle, soft)) }
            #expect(animator.pause(handle))
            animator.tick(at: 0.1)
            if !changeFirst { #expect(animator.setSpringParameters(handle, soft)) }
            animator.tick(at: 0.15)
            #expect(animator.resume(handle))
            var trace: [Double] = []
            for frame in 1 ... 30 {
                animator.tick(at: 0.15 + Double(frame) / 60)
                trace.append(animator[x])
            }
            values.append(trace)
        }
        #expect(values[0] == values[1])
    }

    @Test("new spring parameters apply from the next frame, keeping value and velocity")
    func newParameters() throws {
        let (animator, _, x, _) = Self.setUp()
        let handle = try animator.add(.spring(.popDefault, method: .analytic, from: 0, to: 10), to: x, forKey: "x")
        animator.tick(at: 0.05)
        let (value, velocity) = (animator[x], animator.velocity(of: handle, as: Double.self)!)
        let stiff = try SpringParameters(tension: 900, friction: 40)
        #expect(animator.setSpringParameters(handle, stiff))
        animator.tick(at: 0.1)
        let exact = SpringPropagator.exact(stiff, time: 0.05).apply(displacement: value - 10, velocity: velocity)
        #expect(abs(animator[x] - (10 + exact.displacement)) < 1e-12)
        #expect(!animator.retarget(try animator.add(.basic(to: 3.0), to: x, forKey: "b"), to: 1.0))
        // A pop spring refuses parameters its 1 ms step cannot run, and keeps going.
        let y = animator.property("y", of: animator.makeTarget(), initial: 0.0)
        let pop = try animator.add(.spring(.popDefault, method: .pop, to: 10), to: y)
        #expect(!animator.setSpringParameters(pop, try SpringParameters(tension: 1e9, friction: 10, mass: 1e-6)))
        animator.tick(at: 0.2)
        var stepper = SpringStepper(parameters: .popDefault, method: .pop, value: 0.0, target: 10.0)
        stepper.advance(by: 0)
        stepper.advance(by: 0.1)
        #expect(abs(animator[y] - stepper.value) <= 1e-12 * 10, "\(animator[y]) vs Pop's loop \(stepper.value)")
    }

    @Test("vectors: points and rectangles animate per component")
    func vectors() throws {
        let animator = Animator()
        let target = animator.makeTarget()
        let point = animator.property("position", of: target, initial: SIMD2(0.0, 0.0), kind: .point)
        let rect = animator.property("frame", of: target, initial: SIMD4(0.0, 0, 10, 10), kind: .point)
        let color = animator.property("color", of: target, initial: SIMD3(1.0, 0, 0), kind: .color)
        try animator.add(.spring(.popDefault, method: .analytic, to: SIMD2(100, -50)), to: point, forKey: "p")
        try animator.add(.basic(duration: 0.5, timing: .linear, to: SIMD4(10, 10, 20, 20)), to: rect, forKey: "r")
        try animator.add(.basic(duration: 0.5, timing: .linear, to: SIMD3(0, 0, 1)), to: color, forKey: "c")
        animator.tick(at: 0.25)
        #expect(animator[rect] == SIMD4(5, 5, 15, 15))
        #expect(animator[color] == SIMD3(0.5, 0, 0.5))
        let exact = SpringPropagator.exact(.popDefault, time: 0.25)
        #expect(abs(animator[point].x - (100 + exact.dd * -100)) < 1e-9)
        #expect(abs(animator[point].y - (-50 + exact.dd * 50)) < 1e-9)
        for frame in 1 ... 180 { animator.tick(at: 0.25 + Double(frame) / 60) }
        #expect(animator[point] == SIMD2(100, -50) && animator[color] == SIMD3(0, 0, 1))
    }

    @Test("a decay landing on a given target, by velocity or by deceleration")
    func decayLanding() throws {
        let (animator, _, x, _) = Self.setUp(initial: 10)
        let decay = DecayParameters.popDefault
        let velocity = decay.velocity(toTravel: 250, threshold: 0.01, method: .exact)
        #expect(abs(decay.endValue(from: 10.0, velocity: velocity, threshold: 0.01, method: .exact) - 260) < 1e-9)
        try animator.add(.decay(velocity: velocity, method: .exact), to: x, forKey: "x")
        Self.run(animator, seconds: 8)
        #expect(abs(animator[x] - 260) < 1e-9)
        let slower = try DecayParameters.deceleration(
            toTravel: -120, velocity: -1_000, threshold: 0.01, method: .continuous)
        #expect(abs(slower.endValue(from: 0.0, velocity: -1_000.0, threshold: 0.01, method: .continuous) + 120) < 1e-9)
        #expect(throws: ParameterError.self) {
            try DecayParameters.deceleration(toTravel: 120, velocity: -1_000, threshold: 0.01, method: .exact)
        }
    }
}
