import Kinetics
import KineticsAllocations
import KineticsTestSupport
import Testing

@testable import KineticsBench

/// A frame that adds many springs allocates nothing when their room was
/// reserved ahead (``Animator/reserveCapacity(_:springsOf:method:settings:)``),
/// and does allocate when it was not: the count can fail.
@Suite("Animator: allocations of a burst of adds, with room reserved ahead")
struct BurstAllocationTests {
    /// Springs running before the burst, and springs the burst adds: past
    /// 2,048 registered keys, where the key table would be rebuilt larger.
    static let running = sanitized ? 100 : 1_500
    static let added = sanitized ? 100 : 1_000

    /// How the burst's springs are keyed.
    enum Keys: CaseIterable {
        /// ``AnimationKey``s made before the burst.
        case madeOnce
        /// Strings.
        case strings
        /// None: the animator names each (`animation-N`); the adds before
        /// the burst take N past 100,000, where such a name outgrows a
        /// string's inline room.
        case none
    }

    /// An animator running `running` springs of `Value` and `method` in
    /// four settings, with `running + added` properties, after a few ticks;
    /// room for them all reserved when `reserving`; with `numbering`, after
    /// 100,000 adds and removals.
    static func animator<Value: AnimatableVector>(
        _ type: Value.Type, method: SpringMethod, reserving: Bool, numbering: Bool = false
    ) throws -> (Animator, [PropertyHandle<Value>]) {
        let animator = Animator()
        animator.checksInternally = false  // they allocate
        let target = animator.makeTarget()
        let properties = (0 ..< running + added).map {
            animator.property("p\($0)", of: target, initial: Value(repeating: Double($0)))
        }
        for index in 0 ..< running {
            try animator.add(spring(index, method: method), to: properties[index], forKey: "a\(index)")
        }
        if numbering {
            for _ in 0 ..< 100_000 {
                animator.remove(try animator.add(spring(0, method: method), to: properties[running]))
            }
        }
        for frame in 1 ... 3 { animator.tick(at: Double(frame) / 60) }
        if reserving { try animator.reserveCapacity(running + added, springsOf: Value.self, method: method) }
        return (animator, properties)
    }

    /// Spring `index` of the workload: one of four settings, interleaved.
    static func spring<Value: AnimatableVector>(_ index: Int, method: SpringMethod) throws -> Animation<Value> {
        let parameters = try SpringParameters(tension: 200 + 50 * Double(index % 4), friction: 20, mass: 1)
        var animation = Animation<Value>.spring(
            parameters, method: method, to: Value(repeating: Double(index) + 500))
        animation.threshold = 1e-3
        return animation
    }

    /// The allocations of the frame that adds the burst (under `keys`) and
    /// ticks, after a run that warms the runtime's lazy state on another
    /// animator.
    static func burstAllocations<Value: AnimatableVector>(
        _ type: Value.Type, method: SpringMethod, reserving: Bool, keys keying: Keys
    ) throws -> Int {
        let keys = (running ..< running + added).map { AnimationKey("a\($0)") }
        func burst(_ animator: Animator, _ properties: [PropertyHandle<Value>]) throws {
            for index in running ..< running + added {
                let animation: Animation<Value> = try spring(index, method: method)
                switch keying {
                case .madeOnce: try animator.add(animation, to: properties[index], forKey: keys[index - running])
                case .strings: try animator.add(animation, to: properties[index], forKey: "a\(index)")
                case .none: try animator.add(animation, to: properties[index])
                }
            }
            animator.tick(at: 4.0 / 60)
        }
        let (warm, warmProperties) = try animator(Value.self, method: method, reserving: true)
        try burst(warm, warmProperties)
        let (animator, properties) = try animator(
            Value.self, method: method, reserving: reserving, numbering: keying == .none)
        var thrown: (any Error)?
        let allocations = AllocationCounter.count {
            do { try burst(animator, properties) } catch { thrown = error }
        }
        if let thrown { throw thrown }
        #expect(animator.animationCount == running + added, "every spring runs after the burst")
        return allocations
    }

    @Test(
        "with room reserved, a frame that adds springs (keys made once, strings or none) allocates nothing",
        arguments: SpringMethod.allCases, Keys.allCases)
    func reserved(method: SpringMethod, keys: Keys) throws {
        guard !sanitized else { return }
        let scalars = try Self.burstAllocations(Double.self, method: method, reserving: true, keys: keys)
        #expect(scalars == 0, "\(method), \(keys), scalar springs: \(scalars) allocations")
        let points = try Self.burstAllocations(SIMD2<Double>.self, method: method, reserving: true, keys: keys)
        #expect(points == 0, "\(method), \(keys), point springs: \(points) allocations")
    }

    @Test("without room reserved, the same frame allocates (the count above can fail)")
    func unreserved() throws {
        guard !sanitized else { return }
        let allocations = try Self.burstAllocations(Double.self, method: .pop, reserving: false, keys: .madeOnce)
        #expect(allocations > 0)
    }

    @Test(
        "the bench's burst frame allocates nothing in the engines that reserve room",
        arguments: [BenchEngine.animator, .animatorKeys, .animatorUnkeyed, .animatorSprings, .batch])
    func benchBurst(engine: BenchEngine) {
        guard !sanitized else { return }
        func burstFrame(counting: Bool) -> Int {
            let configuration = BenchConfiguration(
                engine: engine, animations: Self.running, mix: .spring, scenario: .burst)
            let workload = Workload(configuration)
            let times = workload.frameTimes(workload.burstFrame + 1)
            let running = makeBuiltInEngine(configuration)
            for frame in 0 ..< workload.burstFrame { running.frame(frame, at: times[frame]) }
            let burst = workload.burstFrame
            guard counting else {
                running.frame(burst, at: times[burst])
                return 0
            }
            let allocations = AllocationCounter.count { running.frame(burst, at: times[burst]) }
            #expect(running.running == workload.allCount, "\(engine): the burst's springs run")
            return allocations
        }
        _ = burstFrame(counting: false)
        let allocations = burstFrame(counting: true)
        #expect(allocations == 0, "\(engine): \(allocations) allocations in the burst frame")
    }
}
