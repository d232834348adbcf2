import KineticsTestSupport
import Testing

@testable import Kinetics

/// Scalar springs' straight path steps two neighbours of one group at once
/// (`SpringBatch.pairStep`), and points' with the same pair forms
/// (`SpringBatch.pointStep`): the two other copies of the spring's law,
/// kept for speed; the 4-vector lane (3-vectors too) takes the generic
/// step. A point or a 3-vector whose other components stay at 0 moves as
/// the scalar does and its rest test sees what the scalar's sees, so every
/// value and every end must be identical on all three.
@Suite("Spring law: the scalar and point paths held to the generic step")
struct ScalarPathTests {
    /// Parameter sets shared by springs of one group.
    static let shared = [
        try! SpringParameters(tension: 300, friction: 3.5), try! SpringParameters(tension: 170, friction: 26),
        try! SpringParameters(tension: 1_200, friction: 12, mass: 2),
    ]

    @Test(
        "200 springs a method: the scalar and point paths' values and ends equal the generic step's exactly, every frame",
        arguments: SpringMethod.allCases, [false, true])
    func scalarEqualsGeneric(method: SpringMethod, sharedGroups: Bool) throws {
        var random = SplitMix64(seed: 2_026)
        func uniform(_ low: Double, _ high: Double) -> Double {
            low + (high - low) * Double(random.next() % 1_000_001) / 1_000_000
        }
        let animator = Animator()
        var pairs:
            [(
                scalar: PropertyHandle<Double>, point: PropertyHandle<SIMD2<Double>>,
                space: PropertyHandle<SIMD3<Double>>
            )] =
                []
        var handles: [(scalar: AnimationHandle, point: AnimationHandle, space: AnimationHandle)] = []
        // Starts spring `index` on the three properties of entry `index`.
        func start(_ index: Int) throws -> (scalar: AnimationHandle, point: AnimationHandle, space: AnimationHandle) {
            // With shared groups, six groups a tick, interleaved as they are
            // added (settings by index % 3, thresholds by index % 2); else
            // some springs share a group (same settings, same tick).
            let parameters =
                sharedGroups
                ? Self.shared[index % 3]
                : try SpringParameters(tension: uniform(20, 2_000), friction: uniform(2, 60), mass: uniform(0.5, 3))
            // Thresholds past the pair step's range (a near bound under
            // 2⁻⁵⁰⁰ or over 2⁵⁰⁰) leave their springs to the step one at a
            // time (``SpringGroups/PairLaw/nearSquared``).
            let threshold =
                sharedGroups ? [0.01, 0.5][index % 2] : [0.01, 0.5, 1.0, 1e-160, 1e160][index % 5]
            let to = uniform(-500, 500)
            let velocity = uniform(-2_000, 2_000)
            var scalar = Animation<Double>.spring(parameters, method: method, to: to, velocity: velocity)
            var point = Animation<SIMD2<Double>>.spring(
                parameters, method: method, to: SIMD2(to, 0), velocity: SIMD2(velocity, 0))
            var space = Animation<SIMD3<Double>>.spring(
                parameters, method: method, to: SIMD3(to, 0, 0), velocity: SIMD3(velocity, 0, 0))
            scalar.threshold = threshold
            point.threshold = threshold
            space.threshold = threshold
            return (
                try animator.add(scalar, to: pairs[index].scalar, forKey: "x"),
                try animator.add(point, to: pairs[index].point, forKey: "p"),
                try animator.add(space, to: pairs[index].space, forKey: "s")
            )
        }
        func addSprings(_ count: Int) throws {
            for _ in 0 ..< count {
                let target = animator.makeTarget()
                let start = uniform(-500, 500)
                pairs.append(
                    (
                        animator.property("x", of: target, initial: start),
                        animator.property("p", of: target, initial: SIMD2(start, 0)),
                        animator.property("s", of: target, initial: SIMD3(start, 0, 0))
                    ))
            }
            for index in pairs.count - count ..< pairs.count { handles.append(try start(index)) }
        }
        try addSprings(200)
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
            if sharedGroups && frame == 1 {
                // The springs added together are grouped: six runs (pairs
                // start in each, odd or even).
                #expect(groupRuns(animator, method) == 6, "\(method)")
            }
            if sharedGroups && frame == 10 {
                // More springs, in new groups (an odd number); some removed
                // (the batch's last spring moves into each hole), some
                // replaced in place (a new group amid an old run).
                try addSprings(41)
                for index in stride(from: 3, to: 200, by: 7) {
                    animator.remove(handles[index].scalar)
                    animator.remove(handles[index].point)
                    animator.remove(handles[index].space)
                }
                for index in stride(from: 5, to: 200, by: 9) where index % 7 != 3 {
                    handles[index] = try start(index)
                }
            }
            if sharedGroups && frame == 20 {
                // Springs moved to other groups in place: paused (a paused
                // spring gives its group back and joins one when resumed)
                // and given new settings. Pairs in a row find a group's
                // frame only where a group starts, so each of these must
                // start one, and the spring after it too.
                for index in stride(from: 1, to: 200, by: 11) {
                    _ = animator.pause(handles[index].scalar)
                    _ = animator.pause(handles[index].point)
                    _ = animator.pause(handles[index].space)
                }
                for index in stride(from: 2, to: 200, by: 13) {
                    let parameters = Self.shared[(index + 1) % 3]
                    _ = animator.setSpringParameters(handles[index].scalar, parameters)
                    _ = animator.setSpringParameters(handles[index].point, parameters)
                    _ = animator.setSpringParameters(handles[index].space, parameters)
                }
            }
            if sharedGroups && frame == 25 {
                for index in stride(from: 1, to: 200, by: 11) {
                    _ = animator.resume(handles[index].scalar)
                    _ = animator.resume(handles[index].point)
                    _ = animator.resume(handles[index].space)
                }
            }
            if frame == 30 {
                // A retarget moves the state with the target, on both paths alike.
                for (index, handle) in handles.enumerated() where index % 4 == 0 {
                    let to = uniform(-500, 500)
                    _ = animator.retarget(handle.scalar, to: to)
                    _ = animator.retarget(handle.point, to: SIMD2(to, 0))
                    _ = animator.retarget(handle.space, to: SIMD3(to, 0, 0))
                }
            }
            for (index, pair) in pairs.enumerated() {
                let scalar = animator[pair.scalar]
                let point = animator[pair.point]
                let space = animator[pair.space]
                guard scalar.bitPattern == point.x.bitPattern, point.y == 0, scalar.bitPattern == space.x.bitPattern,
                    space.y == 0, space.z == 0
                else {
                    Issue.record("\(method), spring \(index), frame \(frame): \(scalar) against \(point) and \(space)")
                    return
                }
                let phases = (animator.phase(of: handles[index].scalar), animator.phase(of: handles[index].point))
                guard phases.0 == phases.1, animator.phase(of: handles[index].space) == phases.0 else {
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

    @Test(
        "in frames that take no step, springs end on the slope test's answer kept from their last step, on every path")
    func keptSlopeAnswer() throws {
        // Stiff springs (ω = 50 rad/s, hardly damped), whose slope, -k/m·d
        // - c/m·v, fails Pop's 625·t² wherever the displacement is above
        // t/100 (t = 0.25). Their amplitude (6 to 10) keeps them running:
        // near the target a frame of 0.25 ms moves them more than t/5, so
        // Pop's animation test never ends them there.
        // The animator keeps only that test's answer, stored by the pair
        // step for scalar springs of one group (both far from their targets),
        // by the point step for points and by the general path for springs
        // that are observed. In a frame of 0.25 ms that takes no step, the
        // state and the slope are the last frame's.
        let parameters = try SpringParameters(tension: 2_500, friction: 0.1)
        let threshold = 0.25
        let animator = Animator()
        var springs:
            [(scalar: PropertyHandle<Double>, point: PropertyHandle<SIMD2<Double>>, observed: PropertyHandle<Double>)] =
                []
        var handles: [(scalar: AnimationHandle, point: AnimationHandle, observed: AnimationHandle)] = []
        for index in 0 ..< 128 {
            let start = 10 + 6 + Double(index % 16) * 0.25
            let target = animator.makeTarget()
            springs.append(
                (
                    animator.property("x", of: target, initial: start),
                    animator.property("p", of: target, initial: SIMD2(start, 0)),
                    animator.property("o", of: target, initial: start)
                ))
            // Phases spread by the initial velocity.
            let velocity = Double(index % 32 - 16) * 20
            var scalar = Animation<Double>.spring(parameters, method: .pop, to: 10, velocity: velocity)
            var point = Animation<SIMD2<Double>>.spring(
                parameters, method: .pop, to: SIMD2(10, 0), velocity: SIMD2(velocity, 0))
            scalar.threshold = threshold
            point.threshold = threshold
            // Observed every frame: the general path, which reads the kept answer through
            // `SpringGroups.Frame.slopeSettled`.
            var observed = scalar
            observed.callbacks.onApply = { _, _, _ in }
            handles.append(
                (
                    try animator.add(scalar, to: springs[index].scalar),
                    try animator.add(point, to: springs[index].point),
                    try animator.add(observed, to: springs[index].observed)
                ))
        }
        func expectPathsAgree(_ index: Int, _ context: String) -> Bool {
            let ended = (
                animator.phase(of: handles[index].scalar) == nil, animator.phase(of: handles[index].point) == nil,
                animator.phase(of: handles[index].observed) == nil
            )
            let value = animator[springs[index].scalar].bitPattern
            let agree =
                value == animator[springs[index].point].x.bitPattern
                && value == animator[springs[index].observed].bitPattern && ended.0 == ended.1 && ended.0 == ended.2
            if !agree { Issue.record("spring \(index), \(context): the paths differ") }
            return agree && !ended.0
        }
        var retargeted = 0
        var time = 0.0
        for block in 0 ..< 240 {
            // A 60 Hz frame, in which springs far from their targets step in pairs.
            time += 1.0 / 60
            animator.tick(at: time)
            // Springs near a turning point (slow, yet far: the pair step
            // took them and stored the answer) get a target 0.09 away, so
            // that the displacement and the velocity pass the solver's
            // test and the animation's test fails: the kept slope answer,
            // computed where the displacement was above t/2, must say no.
            var moved: [Int] = []
            for index in springs.indices.dropFirst() where expectPathsAgree(index, "block \(block)") {
                let value = animator[springs[index].scalar]
                guard abs(value - 10) >= threshold / 2,
                    let velocity = animator.velocity(of: handles[index].scalar, as: Double.self),
                    velocity * velocity < 25 * threshold
                else { continue }
                _ = animator.retarget(handles[index].scalar, to: value - 0.09)
                _ = animator.retarget(handles[index].point, to: SIMD2(value - 0.09, 0))
                _ = animator.retarget(handles[index].observed, to: value - 0.09)
                moved.append(index)
            }
            // Frames of 0.25 ms up to the next whole step: those that take
            // none must keep every moved spring running.
            // (All springs share a group and its clock: the first, never
            // moved, tells by its value whether the frame took a step.)
            let witness = 0
            for _ in 0 ..< 4 {
                let before = animator[springs[witness].scalar]
                time += 0.000_25
                animator.tick(at: time)
                guard animator[springs[witness].scalar] == before else { break }
                for index in moved {
                    let running = expectPathsAgree(index, "block \(block), kept frame")
                    #expect(running, "spring \(index), block \(block): ended on a kept slope that fails")
                    retargeted += 1
                }
            }
            for index in springs.indices where animator.phase(of: handles[index].scalar) != nil {
                _ = animator.retarget(handles[index].scalar, to: 10.0)
                _ = animator.retarget(handles[index].point, to: SIMD2(10.0, 0))
                _ = animator.retarget(handles[index].observed, to: 10.0)
            }
        }
        // Springs were moved and then kept in frames with no step.
        #expect(retargeted >= 10, "\(retargeted)")
    }

    /// The runs of one group among the scalar springs of `method`.
    private func groupRuns(_ animator: Animator, _ method: SpringMethod) -> Int {
        let batch = animator.lane1.springs[method.index]
        return (0 ..< batch.count).count { $0 == 0 || batch.group($0) != batch.group($0 - 1) }
    }

    @Test("two springs on one property added in one tick in other groups: the one added last writes last")
    func lastAddedWritesLast() throws {
        let animator = Animator()
        let target = animator.makeTarget()
        let x = animator.property("x", of: target, initial: 0.0)
        var others: [PropertyHandle<Double>] = []
        for index in 0 ..< 6 {
            // Interleaved groups on properties of their own around the two,
            // so that the tick's grouping has something to sort.
            let property = animator.property("o\(index)", of: animator.makeTarget(), initial: 0.0)
            others.append(property)
            _ = try animator.add(.spring(Self.shared[index % 2], to: 10), to: property, forKey: "o")
            // The first in the group found second, the second in the group
            // found first: grouped, the first would write last.
            if index == 2 { _ = try animator.add(.spring(Self.shared[1], to: 100), to: x, forKey: "a") }
            if index == 3 { _ = try animator.add(.spring(Self.shared[0], to: -100), to: x, forKey: "b") }
        }
        // Alone on a property, the second spring writes the value it reads
        // after every frame; the first's value is different.
        let alone = Animator()
        let y = alone.property("y", of: alone.makeTarget(), initial: 0.0)
        _ = try alone.add(.spring(Self.shared[0], to: -100), to: y, forKey: "b")
        for frame in 1 ... 30 {
            animator.tick(at: Double(frame) / 60)
            alone.tick(at: Double(frame) / 60)
            #expect(animator[x].bitPattern == alone[y].bitPattern, "frame \(frame)")
        }
    }
}
