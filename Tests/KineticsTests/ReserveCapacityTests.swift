import Kinetics
import Testing

/// `Animator.reserveCapacity`: room made ahead changes nothing an animator
/// does, and bad counts are refused by name. (That it removes the
/// allocations of a burst is counted in the allocation suite.)
@Suite("Animator: reserving room ahead")
struct ReserveCapacityTests {
    @Test("a count or settings out of range is refused, naming the value and the range")
    func badInput() throws {
        let animator = Animator()
        for count in [-1, Animator.maximumCapacity + 1, Int.min] {
            let error = #expect(throws: ParameterError.self) {
                try animator.reserveCapacity(count, springsOf: Double.self)
            }
            #expect(error?.parameter == "count" && error?.value == Double(count))
            #expect(error?.description.contains("0 ... \(Animator.maximumCapacity)") == true)
        }
        let error = #expect(throws: ParameterError.self) {
            try animator.reserveCapacity(10, springsOf: SIMD2<Double>.self, settings: -1)
        }
        #expect(error?.parameter == "settings" && error?.accepted == "an integer >= 0")
        // In range, at or below what the animator holds: nothing to do.
        try animator.reserveCapacity(0, springsOf: Double.self, settings: 0)
        #expect(animator.animationCount == 0)
    }

    /// Every value, key and end of a run that adds springs in bursts under
    /// keys, replaces some and lets others finish, with or without room
    /// reserved (in the middle of the run: the key table is rebuilt larger
    /// while keys are registered).
    static func run(reserving: Bool, method: SpringMethod) throws -> [String] {
        let animator = Animator()
        let target = animator.makeTarget()
        let properties = (0 ..< 300).map { animator.property("p\($0)", of: target, initial: Double($0)) }
        var log: [String] = []
        for frame in 1 ... 90 {
            if frame == 10 && reserving {
                try animator.reserveCapacity(600, springsOf: Double.self, method: method, settings: 3)
            }
            if frame % 15 == 1 {
                // A burst: a hundred springs in four settings, some on
                // properties that run one already (replaced under its key).
                for number in 0 ..< 100 {
                    let index = (frame * 7 + number * 3) % properties.count
                    let parameters = try SpringParameters(tension: 150 + 40 * Double(number % 4), friction: 18, mass: 1)
                    var animation = Animation<Double>.spring(parameters, method: method, to: Double(index % 50) * 3)
                    animation.threshold = 0.01
                    try animator.add(animation, to: properties[index], forKey: AnimationKey("k\(index)"))
                }
            }
            animator.tick(at: Double(frame) / 60)
            log.append(
                "\(frame) \(animator.animationCount) \(animator.keys(on: target).sorted().joined(separator: ","))")
            log.append(properties.map { "\(animator[$0].bitPattern)" }.joined(separator: " "))
        }
        return log
    }

    @Test("room reserved mid-run changes no value, key or count", arguments: SpringMethod.allCases)
    func unchanged(method: SpringMethod) throws {
        let plain = try Self.run(reserving: false, method: method)
        let reserved = try Self.run(reserving: true, method: method)
        #expect(plain.count == reserved.count)
        let first = plain.indices.first { $0 < reserved.count && plain[$0] != reserved[$0] }
        #expect(first == nil, "\(method): the runs differ from line \(first ?? -1)")
    }
}
