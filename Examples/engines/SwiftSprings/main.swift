// A Swift engine benched through KineticsBench's protocol, in its own
// executable: the structure-of-arrays spring engine of soa_springs.c, in
// Swift. Run it as `swift run -c release swift-springs-bench --animations
// 10000`: it takes every option of `kinetics bench` and measures this engine
// beside the built-in ones.
//
// Written for speed: each column is a buffer the engine allocates once and
// owns, and the frame's loop reads and writes them through those buffers.
// The same loop over arrays stored in the class runs about fourteen times the
// instructions (docs/bench.md, "Swift engines, without C"): every access to
// a class's array property goes through the class (an exclusivity check, a
// retain, the array's bounds and uniqueness), none of which the compiler can
// lift out of the loop.
import Foundation
import Kinetics
import KineticsCommandLine

/// Scalar springs only, moved by the exact solution over each frame: one
/// 2×2 transition per distinct spring per frame length, then two
/// multiply-adds per component per spring; a spring stops where Pop stops
/// it (both offset and velocity under its rest threshold).
final class SwiftSprings: BenchableEngine {
    static let name = "swift-springs"

    struct Refused: Error, CustomStringConvertible {
        let description: String
    }

    /// The distinct springs, and each one's transition over the last frame length.
    private var springs: [SpringParameters] = []
    private var transitions: UnsafeMutableBufferPointer<SpringPropagator>
    /// Per property: its spring's index in `springs`.
    private let kind: UnsafeMutableBufferPointer<Int32>
    /// Per property: the offset from its target, its velocity, its target.
    private let offset: UnsafeMutableBufferPointer<Double>
    private let velocity: UnsafeMutableBufferPointer<Double>
    private let target: UnsafeMutableBufferPointer<Double>
    /// Per property: the rest threshold while it runs, -1 once it has
    /// finished, so that the loop needs no flag: a finished spring's offset
    /// and velocity are 0, its step leaves them 0, and no magnitude is
    /// under -1.
    private let live: UnsafeMutableBufferPointer<Double>
    private var lastTime = 0.0
    private var lastStep = Double.nan
    private(set) var running = 0

    init(workload: BenchWorkload) throws {
        let count = workload.count
        kind = .allocate(capacity: count)
        offset = .allocate(capacity: count)
        velocity = .allocate(capacity: count)
        target = .allocate(capacity: count)
        live = .allocate(capacity: count)
        transitions = .allocate(capacity: 0)
        for (index, animation) in workload.animations.enumerated() {
            // Thrown with every column allocated: deinit frees them.
            guard animation.kind == .spring else {
                throw Refused(description: "animation \(index) is not a scalar spring; this engine runs springs only")
            }
            start(index, animation, from: workload.initial[index])
        }
        running = count
    }

    deinit { deallocate() }

    private func deallocate() {
        for column in [offset, velocity, target, live] { column.deallocate() }
        kind.deallocate()
        transitions.deallocate()
    }

    /// Property `index` starts `animation` from `value`, with its velocity
    /// (0 in the bench's workloads; verify's cases start springs moving).
    private func start(_ index: Int, _ animation: BenchAnimation, from value: Double) {
        kind[index] = Int32(kindIndex(animation.spring))
        target[index] = animation.to
        offset[index] = value - animation.to
        velocity[index] = animation.velocity
        live[index] = animation.threshold
    }

    private func kindIndex(_ spring: SpringParameters) -> Int {
        if let index = springs.firstIndex(of: spring) { return index }
        springs.append(spring)
        // A new spring: the transitions are made again at the next tick.
        let grown = UnsafeMutableBufferPointer<SpringPropagator>.allocate(capacity: springs.count)
        _ = grown.initialize(from: transitions)
        grown[springs.count - 1] = .identity
        transitions.deallocate()
        transitions = grown
        lastStep = .nan
        return springs.count - 1
    }

    func replace(_ index: Int, with animation: BenchAnimation) {
        if live[index] < 0 { running += 1 }
        start(index, animation, from: offset[index] + target[index])
    }

    func retarget(_ index: Int, to newTarget: Double) {
        guard live[index] >= 0 else { return }
        offset[index] += target[index] - newTarget
        target[index] = newTarget
    }

    func tick(to time: Double) {
        let step = time - lastTime
        lastTime = time
        guard step > 0 else { return }
        // The transitions depend on the frame's length alone: a steady
        // frame rate makes them once.
        if step != lastStep {
            for (index, spring) in springs.enumerated() { transitions[index] = .exact(spring, time: step) }
            lastStep = step
        }
        // Locals: the loop reads the buffers' addresses once, not through
        // the class at every spring.
        let (kind, offset, velocity, live, transitions) = (kind, offset, velocity, live, transitions)
        var finished = 0
        for index in 0 ..< offset.count {
            let m = transitions[Int(kind[index])]
            let x = offset[index]
            let v = velocity[index]
            let nextOffset = m.dd * x + m.dv * v
            let nextVelocity = m.vd * x + m.vv * v
            let threshold = live[index]
            if abs(nextOffset) < threshold && abs(nextVelocity) < threshold {
                offset[index] = 0
                velocity[index] = 0
                live[index] = -1
                finished += 1
            } else {
                offset[index] = nextOffset
                velocity[index] = nextVelocity
            }
        }
        running -= finished
    }

    func value(_ index: Int) -> Double { offset[index] + target[index] }
}

BenchSuite.main([SwiftSprings.self])
