// A Swift engine benched through KineticsBench's protocol, in its own
// executable: the structure-of-arrays spring engine of soa_springs.c, in
// Swift. Run it as `swift run swift-springs-bench --animations 10000`: it
// takes every option of `kinetics bench` and measures this engine beside
// the built-in ones.
import Foundation
import Kinetics
import KineticsBench
import KineticsCommandLine

/// Scalar springs only, moved by the exact solution over each frame: one
/// 2×2 transition per distinct spring per frame, then two multiply-adds per
/// component per spring; a spring stops where Pop stops it.
final class SwiftSprings: BenchableEngine {
    static let name = "swift-springs"

    struct Refused: Error, CustomStringConvertible {
        let description: String
    }

    private var springs: [SpringParameters] = []
    private var kind: [Int] = []
    private var offset: [Double] = []
    private var velocity: [Double] = []
    private var target: [Double] = []
    private var threshold: [Double] = []
    private var active: [Bool] = []
    private var transitions: [SpringPropagator] = []
    private var lastTime = 0.0
    private(set) var running = 0

    init(workload: BenchWorkload) throws {
        for (index, animation) in workload.animations.enumerated() {
            guard animation.kind == .spring else {
                throw Refused(description: "animation \(index) is not a scalar spring; this engine runs springs only")
            }
            kind.append(kindIndex(animation.spring))
            target.append(animation.to)
            offset.append(workload.initial[index] - animation.to)
            velocity.append(0)
            threshold.append(animation.threshold)
            active.append(true)
        }
        running = workload.count
    }

    private func kindIndex(_ spring: SpringParameters) -> Int {
        if let index = springs.firstIndex(of: spring) { return index }
        springs.append(spring)
        transitions.append(.identity)
        return springs.count - 1
    }

    func replace(_ index: Int, with animation: BenchAnimation) {
        let value = offset[index] + target[index]
        if !active[index] { running += 1 }
        active[index] = true
        kind[index] = kindIndex(animation.spring)
        target[index] = animation.to
        offset[index] = value - animation.to
        velocity[index] = 0
        threshold[index] = animation.threshold
    }

    func retarget(_ index: Int, to newTarget: Double) {
        guard active[index] else { return }
        offset[index] += target[index] - newTarget
        target[index] = newTarget
    }

    func tick(to time: Double) {
        let h = time - lastTime
        lastTime = time
        guard h > 0 else { return }
        for (index, spring) in springs.enumerated() { transitions[index] = .exact(spring, time: h) }
        var finished = 0
        for index in offset.indices where active[index] {
            let m = transitions[kind[index]]
            let x = offset[index]
            let v = velocity[index]
            var nx = m.dd * x + m.dv * v
            var nv = m.vd * x + m.vv * v
            if abs(nx) < threshold[index] && abs(nv) < threshold[index] {
                (nx, nv) = (0, 0)
                active[index] = false
                finished += 1
            }
            offset[index] = nx
            velocity[index] = nv
        }
        running -= finished
    }

    func value(_ index: Int) -> Double { offset[index] + target[index] }
}

BenchSuite.main([SwiftSprings.self])
