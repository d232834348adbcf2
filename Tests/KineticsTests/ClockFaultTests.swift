import Foundation
import Kinetics
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
            try add("decay-\(method)", .decay(velocity: 500, parameters: decay, method: method, from: 0), end: end, monotone: true)
        }
        try add("basic", .basic(duration: 0.4, timing: .easeInEaseOut, from: 0, to: 100), end: 100, monotone: true)
        try add("keyframes", .keyframes(try Keyframes(values: [0, 30, 60, 100], duration: 0.5)), end: 100, monotone: true)
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
                if let end = member.end { #expect(abs(after[index] - end) <= 0.01 + 1e-9 * abs(end), "\(member.name): \(after[index])") }
            }
            #expect(animator.animationCount == 0)
        case .gap30_1, .gap1e9:
            // Pop's shutdown: everything running finishes at its target.
            for (index, member) in members.enumerated() {
                if let end = member.end { #expect(abs(after[index] - end) <= 1e-9 * abs(end), "\(member.name): \(after[index])") }
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

    @Test("a jitter storm moves analytic and rk4 springs as smooth frames would (frame-rate independence)")
    func jitterIndependence() throws {
        let spring = try SpringParameters(tension: 300, friction: 8, mass: 1)
        func finalValue(_ method: SpringMethod, times: [Double]) throws -> Double {
            let animator = Animator()
            let target = animator.makeTarget()
            let x = animator.property("x", of: target, initial: 0.0)
            var animation = Animation<Double>.spring(spring, method: method, from: 0, to: 1, velocity: 3)
            animation.threshold = 1e-30  // keep running to the end
            try animator.add(animation, to: x)
            for time in times { animator.tick(at: time) }
            return animator[x]
        }
        var random = SeededGenerator(seed: 5)
        var jittered: [Double] = []
        var time = 0.0
        while time < 0.9 {
            time += Double.random(in: 0.0001 ... 0.04, using: &random)
            jittered.append(time)
        }
        jittered.append(1.0)
        let smooth = (1 ... 60).map { Double($0) / 60 }
        // Exact: rounding only. rk4: its own error, about 1e-9 of the
        // amplitude at steps of 1 ms or less, differs between step patterns.
        #expect(abs(try finalValue(.analytic, times: jittered) - finalValue(.analytic, times: smooth)) < 1e-12)
        #expect(abs(try finalValue(.rk4, times: jittered) - finalValue(.rk4, times: smooth)) < 1e-8)
        #expect(abs(try finalValue(.fixed, times: jittered) - finalValue(.fixed, times: smooth)) < 1e-12)
    }
}
