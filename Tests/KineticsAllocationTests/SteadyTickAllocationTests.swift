import Kinetics
import KineticsAllocations
import KineticsTestSupport
import Testing

/// Steady ticks allocate nothing: counted exactly with the malloc interposer.
@Suite("Animator: allocations")
struct SteadyTickAllocationTests {
    @Test("the counter counts a known allocation, and nothing else of this thread (off under AddressSanitizer)")
    func counterWorks() {
        #expect(AllocationCounter.isActive == !sanitized)
        guard !sanitized else { return }
        var total = 0
        let count = AllocationCounter.count {
            let array = [Int](repeating: 7, count: 1_000)
            total = array.count
        }
        #expect(count == 1 && total == 1_000)
    }

    /// 10,000 animations of one kind, running, warmed up.
    /// Animations of a steady tick: fewer under AddressSanitizer (nothing
    /// is counted there; the frames are checked).
    static let count = sanitized ? 1_000 : 10_000

    static func animator(kind: String, count: Int = Self.count) throws -> Animator {
        let animator = Animator()
        animator.checksInternally = false  // they allocate
        let target = animator.makeTarget()
        let keyframes = try Keyframes<Double>(
            values: [0, 5, 2, 9], timingFunctions: [.easeIn, .linear, .easeOut], duration: 100)
        for index in 0 ..< count {
            let value = Double(index)
            switch kind {
            case "spring-pop", "spring-fixed", "spring-rk4", "spring-analytic":
                let method = SpringMethod(rawValue: String(kind.dropFirst(7)))!
                let x = animator.property("p\(index)", of: target, initial: value)
                var animation = Animation<Double>.spring(.popDefault, method: method, to: value + 1_000)
                animation.threshold = 1e-30
                try animator.add(animation, to: x, forKey: "a\(index)")
            case "spring-point":
                let p = animator.property("p\(index)", of: target, initial: SIMD2(value, 0))
                var animation = Animation<SIMD2<Double>>.spring(.popDefault, method: .pop, to: SIMD2(value + 500, 500))
                animation.threshold = 1e-30
                try animator.add(animation, to: p, forKey: "a\(index)")
            case "decay":
                let x = animator.property("p\(index)", of: target, initial: value)
                var animation = Animation<Double>.decay(
                    velocity: 2_000 + value, parameters: try DecayParameters(deceleration: 0.9999))
                animation.threshold = 1e-6
                try animator.add(animation, to: x, forKey: "a\(index)")
            case "basic":
                let x = animator.property("p\(index)", of: target, initial: value)
                try animator.add(
                    .basic(duration: 100, timing: .easeInEaseOut, to: value + 1), to: x, forKey: "a\(index)")
            case "keyframe":
                let x = animator.property("p\(index)", of: target, initial: value)
                try animator.add(.keyframes(keyframes), to: x, forKey: "a\(index)")
            case "custom":
                let x = animator.property("p\(index)", of: target, initial: value)
                try animator.add(
                    .custom { frame in
                        frame.value += frame.frameLength
                        return false
                    }, to: x, forKey: "a\(index)")
            case "rect":
                let r = animator.property("p\(index)", of: target, initial: SIMD4(value, 0, 10, 10))
                try animator.add(
                    .basic(duration: 100, timing: .linear, to: SIMD4(value, 5, 20, 20)), to: r, forKey: "a\(index)")
            default:
                Issue.record("unknown kind \(kind)")
            }
        }
        for frame in 1 ... 5 { animator.tick(at: Double(frame) / 60) }
        return animator
    }

    @Test(
        "a steady tick with 10,000 animations allocates nothing",
        arguments: [
            "spring-pop", "spring-fixed", "spring-rk4", "spring-analytic", "spring-point", "decay", "basic", "keyframe",
            "custom", "rect",
        ])
    func steadyTick(kind: String) throws {
        let animator = try Self.animator(kind: kind)
        #expect(animator.animationCount == Self.count)
        var frame = 6
        let allocations = AllocationCounter.count {
            for _ in 0 ..< 10 {
                animator.tick(at: Double(frame) / 60)
                frame += 1
            }
        }
        #expect(allocations == 0, "\(kind): \(allocations) allocations in 10 ticks")
        #expect(animator.animationCount == Self.count, "\(kind): nothing finished during the measurement")
    }
}
