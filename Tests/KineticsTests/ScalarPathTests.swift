import Kinetics
import KineticsTestSupport
import Testing

/// A scalar spring's straight path (`SpringBatch.scalarStep`) is the one
/// second copy of the spring's law, kept for speed; a 2-vector lane takes
/// the generic step. A point whose second component stays at 0 moves as the
/// scalar does and its rest test sees what the scalar's sees, so every
/// value and every end must be identical.
@Suite("Spring law: the scalar path held to the generic step")
struct ScalarPathTests {
    @Test(
        "200 springs a method: the scalar path's values and ends equal the generic step's exactly, every frame",
        arguments: SpringMethod.allCases)
    func scalarEqualsGeneric(method: SpringMethod) throws {
        var random = SplitMix64(seed: 2_026)
        func uniform(_ low: Double, _ high: Double) -> Double {
            low + (high - low) * Double(random.next() % 1_000_001) / 1_000_000
        }
        let animator = Animator()
        var pairs: [(scalar: PropertyHandle<Double>, point: PropertyHandle<SIMD2<Double>>)] = []
        var handles: [(scalar: AnimationHandle, point: AnimationHandle)] = []
        for index in 0 ..< 200 {
            let target = animator.makeTarget()
            let start = uniform(-500, 500)
            let pair = (
                animator.property("x", of: target, initial: start),
                animator.property("p", of: target, initial: SIMD2(start, 0))
            )
            let parameters = try SpringParameters(
                tension: uniform(20, 2_000), friction: uniform(2, 60), mass: uniform(0.5, 3))
            let to = uniform(-500, 500)
            let velocity = uniform(-2_000, 2_000)
            // Some springs share a group (same settings, same tick).
            let threshold = [0.01, 0.5, 1.0][index % 3]
            var scalar = Animation<Double>.spring(parameters, method: method, to: to, velocity: velocity)
            var point = Animation<SIMD2<Double>>.spring(
                parameters, method: method, to: SIMD2(to, 0), velocity: SIMD2(velocity, 0))
            scalar.threshold = threshold
            point.threshold = threshold
            pairs.append(pair)
            handles.append(
                (try animator.add(scalar, to: pair.0, forKey: "x"), try animator.add(point, to: pair.1, forKey: "p")))
        }
        // 60 Hz with dropped frames, then frames shorter than Pop's step
        // (most take no step: its stored slope is read), then 120 Hz.
        var times: [Double] = []
        var clock = ManualFrameClock.jittered(fps: 60, seed: 38, dropRate: 0.1, jitter: 0.3, duration: 1)
        while let time = clock.nextFrame() { times.append(time) }
        for frame in 1 ... 300 { times.append(1 + Double(frame) / 1_500) }
        for frame in 1 ... 240 { times.append(1.2 + Double(frame) / 120) }
        var running = 0
        var ended = 0
        for (frame, time) in times.enumerated() {
            animator.tick(at: time)
            if frame == 30 {
                // A retarget moves the state with the target, on both paths alike.
                for (index, handle) in handles.enumerated() where index % 4 == 0 {
                    let to = uniform(-500, 500)
                    _ = animator.retarget(handle.scalar, to: to)
                    _ = animator.retarget(handle.point, to: SIMD2(to, 0))
                }
            }
            for (index, pair) in pairs.enumerated() {
                let scalar = animator[pair.scalar]
                let point = animator[pair.point]
                guard scalar.bitPattern == point.x.bitPattern, point.y == 0 else {
                    Issue.record("\(method), spring \(index), frame \(frame): \(scalar) against \(point)")
                    return
                }
                let phases = (animator.phase(of: handles[index].scalar), animator.phase(of: handles[index].point))
                guard phases.0 == phases.1 else {
                    Issue.record(
                        "\(method), spring \(index), frame \(frame): \(phases.0.map(String.init(describing:)) ?? "removed") against \(phases.1.map(String.init(describing:)) ?? "removed")"
                    )
                    return
                }
                if phases.0 == nil { ended += 1 } else { running += 1 }
            }
        }
        // Both kinds of frame were compared: springs moving and springs that ended.
        #expect(running > 10_000)
        #expect(ended > 10_000)
    }
}
