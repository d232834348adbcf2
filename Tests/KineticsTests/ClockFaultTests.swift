import Foundation
import Kinetics
import KineticsReference
import KineticsTestSupport
import Testing

/// Every clock fault the README's "Guarantees" lists, on a mix of every kind
/// and method: each has its documented result, nothing becomes NaN, no
/// animation that does not overshoot passes its target, and nothing is lost
/// from the registry.
@Suite("Animator: clock faults")
struct ClockFaultTests {
    /// A fault: how the clock moves after 0.1 s of normal frames.
    enum Fault: String, CaseIterable, CustomTestStringConvertible {
        case backwards, sameTime, oneNanosecond, gap29_9, gap30_1, gap1e9, nan, infinity, jitterStorm
        var testDescription: String { rawValue }
    }

    /// One animation of the mix, with what it promises.
    struct Member {
        let name: String
        let property: PropertyHandle<Double>
        let handle: AnimationHandle
        /// The value it ends on (nil: unknown in advance, e.g. a bouncy spring).
        let end: Double?
        /// Whether its value stays between its start and `end`.
        let monotone: Bool
    }

    /// Springs of every method (overdamped, so they never overshoot, and a
    /// bouncy one), decays of every method, basic, keyframes, a group.
    static func mix(_ animator: Animator) throws -> [Member] {
        let target = animator.makeTarget()
        var members: [Member] = []
        func add(_ name: String, _ animation: Animation<Double>, end: Double?, monotone: Bool) throws {
            let property = animator.property(name, of: target, initial: 0.0)
            let handle = try animator.add(animation, to: property, forKey: name)
            members.append(Member(name: name, property: property, handle: handle, end: end, monotone: monotone))
        }
        let overdamped = try SpringParameters(tension: 200, friction: 40, mass: 1)
        for method in SpringMethod.allCases {
            try add("spring-\(method)", .spring(overdamped, method: method, from: 0, to: 100), end: 100, monotone: true)
        }
        try add("bouncy", .spring(.popDefault, method: .pop, from: 0, to: 100), end: 100, monotone: false)
        let decay = try DecayParameters(deceleration: 0.998)
        for method in DecayMethod.allCases {
            let end = decay.endValue(from: 0.0, velocity: 500.0, threshold: 0.01, method: method)
            try add(
                "decay-\(method)", .decay(velocity: 500, parameters: decay, method: method, from: 0), end: end,
                monotone: true)
        }
        try add("basic", .basic(duration: 0.4, timing: .easeInEaseOut, from: 0, to: 100), end: 100, monotone: true)
        try add(
            "keyframes", .keyframes(try Keyframes(values: [0, 30, 60, 100], duration: 0.5)), end: 100, monotone: true)
        return members
    }

    static func apply(_ fault: Fault, to animator: Animator, check: () -> Void) {
        let now = animator.time
        switch fault {
        case .backwards: animator.tick(at: now - 0.05)
        case .sameTime: animator.tick(at: now)
        case .oneNanosecond: animator.tick(at: now + 1e-9)
        case .gap29_9: animator.tick(at: now + 29.9)
        case .gap30_1: animator.tick(at: now + 30.1)
        case .gap1e9: animator.tick(at: now + 1e9)
        case .nan: animator.tick(at: .nan)
        case .infinity: animator.tick(at: .infinity)
        case .jitterStorm:
            // 5,000 frames 0 to 40 ms apart, one in ten going backwards.
            var random = SeededGenerator(seed: 77)
            var time = now
            for _ in 0 ..< 5_000 {
                if Double.random(in: 0 ..< 1, using: &random) < 0.1 {
                    animator.tick(at: time - Double.random(in: 0 ... 0.01, using: &random))
                } else {
                    time += Double.random(in: 0 ... 0.04, using: &random)
                    animator.tick(at: time)
                }
                check()
            }
        }
        check()
    }

    @Test("each fault has its documented result, on every kind and method", arguments: Fault.allCases)
    func fault(_ fault: Fault) throws {
        let animator = Animator()
        let members = try Self.mix(animator)
        for frame in 1 ... 6 { animator.tick(at: Double(frame) / 60) }
        let before = members.map { animator[$0.property] }
        let ignoredBefore = animator.ignoredTicks
        let timeBefore = animator.time
        let countBefore = animator.animationCount
        #expect(countBefore == members.count)

        Self.apply(fault, to: animator) {
            for member in members {
                let value = animator[member.property]
                #expect(value.isFinite, "\(member.name) after \(fault)")
                if member.monotone, let end = member.end {
                    // Never past the end: rounding of the end's own size allowed.
                    #expect(value <= end + 1e-9 * abs(end) && value >= -1e-9, "\(member.name): \(value) past \(end)")
                }
            }
            #expect(animator.invariantViolations().isEmpty)
        }
        let after = members.map { animator[$0.property] }

        switch fault {
        case .backwards, .nan, .infinity:
            // Ignored and counted: nothing moves, nothing is removed.
            #expect(after == before && animator.ignoredTicks == ignoredBefore + 1 && animator.time == timeBefore)
            #expect(animator.animationCount == countBefore)
        case .sameTime:
            #expect(after == before && animator.ignoredTicks == ignoredBefore && animator.animationCount == countBefore)
        case .oneNanosecond:
            // A 1 ns frame: everything moves by at most its speed times 1 ns.
            for (index, member) in members.enumerated() {
                #expect(abs(after[index] - before[index]) < 1e-5, "\(member.name)")
            }
            #expect(animator.animationCount == countBefore)
        case .gap29_9:
            // One long frame, still advanced: every animation here is done
            // by then and finished at its end (decays at their own end value).
            for (index, member) in members.enumerated() {
                if let end = member.end {
                    #expect(abs(after[index] - end) <= 0.01 + 1e-9 * abs(end), "\(member.name): \(after[index])")
                }
            }
            #expect(animator.animationCount == 0)
        case .gap30_1, .gap1e9:
            // Pop's shutdown: everything running finishes at its target.
            for (index, member) in members.enumerated() {
                if let end = member.end {
                    #expect(abs(after[index] - end) <= 1e-9 * abs(end), "\(member.name): \(after[index])")
                }
            }
            #expect(animator.animationCount == 0)
        case .jitterStorm:
            // 500 ignored backwards ticks give or take, and everything done.
            #expect(animator.ignoredTicks - ignoredBefore > 400)
            #expect(animator.animationCount == 0)
        }
        // The clock still works: a new animation runs after the fault.
        let target = animator.makeTarget()
        let y = animator.property("y", of: target, initial: 0.0)
        try animator.add(.basic(duration: 0.1, timing: .linear, from: 0, to: 1), to: y)
        let start = animator.time
        for frame in 1 ... 12 { animator.tick(at: start + Double(frame) / 60) }
        #expect(animator[y] == 1)
    }

    /// Pop's 30 s rule, at both sides of it: animations still moving when a
    /// long frame comes (a lightly damped spring, ζ = 0.01, of every method;
    /// slow decays of every method; a 60 s basic animation).
    @Test("a 29.9 s frame advances each animation to its motion at 29.9 s; a 30.1 s frame finishes each at its end")
    func thirtySecondRule() throws {
        let spring = try SpringParameters(tension: 100, friction: 0.2, mass: 1)  // α = 0.1: 5% left at 29.9 s
        let slow = try DecayParameters(deceleration: 0.99999)  // 74% of the velocity left at 29.9 s
        func run(_ gap: Double) throws -> [String: Double] {
            let animator = Animator()
            let target = animator.makeTarget()
            var properties: [String: PropertyHandle<Double>] = [:]
            func add(_ name: String, _ animation: Animation<Double>) throws {
                var animation = animation
                animation.threshold = 1e-12
                properties[name] = animator.property(name, of: target, initial: 0.0)
                try animator.add(animation, to: properties[name]!, forKey: name)
            }
            for method in SpringMethod.allCases {
                try add("spring-\(method)", .spring(spring, method: method, from: 0, to: 100))
            }
            for method in DecayMethod.allCases {
                try add("decay-\(method)", .decay(velocity: 100, parameters: slow, method: method, from: 0))
            }
            try add("basic", .basic(duration: 60, timing: .linear, from: 0, to: 100))
            animator.tick(at: 0)
            animator.tick(at: gap)
            #expect(animator.animationCount == (gap < 30 ? properties.count : 0), "after a \(gap) s frame")
            return properties.mapValues { animator[$0] }
        }
        let t = 29.9
        let advanced = try run(t)
        // The exact motion: GSL for the spring (1e-9 of the amplitude of 100
        // covers rk8pd at 1e-13 over 48 periods and rk4's own error, ~1e-9
        // at its chosen steps); the discrete and continuous decay laws in
        // closed form; a linear basic at 29.9/60 of the way.
        let exact =
            100
            + (try ReferenceODE.spring(
                tension: 100, friction: 0.2, mass: 1, displacement: -100, velocity: 0, times: [0, t]))[1].position
        #expect(abs(exact - 100) > 1, "still moving: \(exact)")
        #expect(abs(advanced["spring-analytic"]! - exact) <= 1e-9 * 100, "\(advanced["spring-analytic"]!) vs \(exact)")
        #expect(abs(advanced["spring-rk4"]! - exact) <= 1e-7 * 100, "\(advanced["spring-rk4"]!) vs \(exact)")
        // pop and fixed step as their own steppers do (Pop's loop through
        // 29,900 steps; the 1 ms grid): equal to them to 1e-12 of the amplitude.
        for method in [SpringMethod.pop, .fixed] {
            var stepper = SpringStepper(parameters: spring, method: method, value: 0.0, target: 100.0)
            stepper.advance(by: 0)
            stepper.advance(by: t)
            #expect(abs(advanced["spring-\(method)"]! - stepper.value) <= 1e-12 * 100, "\(method)")
        }
        let d = slow.deceleration
        let discrete = 100 / 1_000 * d * (1 - pow(d, 1_000 * t)) / (1 - d)
        #expect(abs(advanced["decay-exact"]! - discrete) <= 1e-12 * discrete)
        // Pop's single-precision factors for one 29,900 ms frame are off the
        // law by about 0.1% (powf of 0.99999 rounded to a float): equal to
        // its own stepper instead.
        var pop = DecayStepper(parameters: slow, method: .pop, value: 0.0, velocity: 100.0)
        pop.advance(by: t)
        #expect(abs(advanced["decay-pop"]! - pop.value) <= 1e-12 * discrete)
        let continuous = 100 * -expm1(-slow.rate * t) / slow.rate
        #expect(abs(advanced["decay-continuous"]! - continuous) <= 1e-12 * continuous)
        #expect(abs(advanced["basic"]! - 100 * t / 60) <= 1e-12 * 100)

        // 30.1 s: Pop's shutdown. Springs and the basic at their targets,
        // decays at their own computed ends.
        let finished = try run(30.1)
        for method in SpringMethod.allCases { #expect(finished["spring-\(method)"] == 100, "\(method)") }
        for method in DecayMethod.allCases {
            let end = slow.endValue(from: 0.0, velocity: 100.0, threshold: 1e-12, method: method)
            #expect(finished["decay-\(method)"] == end, "\(method)")
            #expect(abs(end - advanced["decay-\(method)"]!) > 1, "\(method): the end is not where 29.9 s got to")
        }
        #expect(finished["basic"] == 100)
    }

    @Test("on a jitter storm every frame of an analytic, rk4 or fixed spring is where its motion is at that time")
    func jitterIndependence() throws {
        let spring = try SpringParameters(tension: 300, friction: 8, mass: 1)
        var random = SeededGenerator(seed: 5)
        var jittered: [Double] = []
        var time = 0.0
        while time < 0.9 {
            time += Double.random(in: 0.0001 ... 0.04, using: &random)
            jittered.append(time)
        }
        jittered.append(1.0)
        for method in [SpringMethod.analytic, .rk4, .fixed] {
            let (animator, x) = animatorWithX()
            var animation = Animation<Double>.spring(spring, method: method, from: 0, to: 1, velocity: 3)
            animation.threshold = 1e-30  // keep running to the end
            try animator.add(animation, to: x)
            for time in jittered {
                animator.tick(at: time)
                // Frame-rate independence: the value at t whatever frames
                // led there. analytic and rk4: the closed form (rounding;
                // rk4's error, 1e-9 of the amplitude at its steps, with
                // room); fixed: its absolute grid at t, reached in one frame.
                let expected: Double
                let tolerance: Double
                switch method {
                case .fixed:
                    var stepper = SpringStepper(
                        parameters: spring, method: .fixed, value: 0.0, velocity: 3.0, target: 1.0)
                    stepper.advance(by: time)
                    (expected, tolerance) = (stepper.value, 1e-12)
                default:
                    let exact = SpringPropagator.exact(spring, time: time).apply(displacement: -1.0, velocity: 3.0)
                    (expected, tolerance) = (1 + exact.displacement, method == .analytic ? 1e-12 : 1e-8)
                }
                #expect(
                    abs(animator[x] - expected) <= tolerance, "\(method) at t = \(time): \(animator[x]) vs \(expected)")
            }
        }
    }
}
