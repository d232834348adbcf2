// Helpers the test targets share (as swift-collections shares
// _CollectionsTestSupport): spring trajectories from the stepper and from
// GSL, scratch folders and animator fixtures; SVGSeries.swift reads figures.

import Foundation
import Kinetics
import KineticsReference

/// The package's seeded generator (SplitMix64), so that every random test
/// is repeatable; the seed is printed in the failure context.
package typealias SeededGenerator = SplitMix64

/// This test process's scratch folder under the system's temporary folder,
/// removed with everything in it when the process exits, so that runs of
/// the suite leave nothing behind (a crashed run leaves its folder).
private let scratch: URL = {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
        "kinetics-tests-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString)")
    try! FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    atexit { removeScratch() }
    return folder
}()

private func removeScratch() { try? FileManager.default.removeItem(at: scratch) }

/// A path in this process's scratch folder that nothing holds yet: its name
/// is `prefix`, a unique part and `name`.
public func temporaryPath(_ prefix: String, _ name: String) -> URL {
    scratch.appendingPathComponent("\(prefix)-\(UUID().uuidString)-\(name)")
}

/// A new, empty folder in this process's scratch folder, its name starting
/// with `prefix`.
public func temporaryFolder(_ prefix: String) throws -> URL {
    let folder = scratch.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return folder
}

/// A spring from scalar state through the stepper at the given frame times:
/// the values and velocities at every time (the first is the start).
public func run(
    _ parameters: SpringParameters, _ method: SpringMethod, times: [Double],
    from: Double = 0, to: Double = 1, velocity: Double = 0
) -> (values: [Double], velocities: [Double]) {
    let states = SpringStepper(parameters: parameters, method: method, value: from, velocity: velocity, target: to)
        .trajectory(at: times)
    return (states.map(\.value), states.map(\.velocity))
}

/// GSL's rk8pd trajectory of the same spring, as absolute values.
public func reference(
    _ parameters: SpringParameters, times: [Double],
    from: Double = 0, to: Double = 1, velocity: Double = 0
) throws -> (values: [Double], velocities: [Double]) {
    let samples = try ReferenceODE.spring(
        tension: parameters.tension, friction: parameters.friction, mass: parameters.mass,
        displacement: from - to, velocity: velocity, times: times)
    return (samples.map { to + $0.position }, samples.map(\.velocity))
}

/// The largest |a - b| over two equally long arrays.
public func maxDifference(_ a: [Double], _ b: [Double]) -> Double {
    zip(a, b).map { abs($0 - $1) }.max() ?? 0
}

/// A spring with natural frequency ω and damping ratio ζ (mass 1).
public func spring(omega: Double, zeta: Double, mass: Double = 1) -> SpringParameters {
    try! SpringParameters(tension: omega * omega * mass, friction: 2 * zeta * omega * mass, mass: mass)
}

/// A new animator and the scalar property `x` of a new target, at 0.
public func animatorWithX() -> (Animator, PropertyHandle<Double>) {
    let animator = Animator()
    return (animator, animator.property("x", of: animator.makeTarget(), initial: 0.0))
}

/// A new animator with a tracer of every event, and one new target.
public func tracedAnimator() -> (Animator, AnimationTracer, TargetID) {
    let animator = Animator()
    let tracer = AnimationTracer(traceAll: true)
    animator.tracer = tracer
    return (animator, tracer, animator.makeTarget())
}

/// A new animator and the scalar properties `x` and `y` of one new target,
/// both at 0.
public func animatorWithXY() -> (Animator, PropertyHandle<Double>, PropertyHandle<Double>) {
    let animator = Animator()
    let target = animator.makeTarget()
    return (
        animator, animator.property("x", of: target, initial: 0.0), animator.property("y", of: target, initial: 0.0)
    )
}

/// Whether `KINETICS_LONG_TESTS` is set (`.ci/run` sets it): the tests then
/// run at full size (whole verification grids, a million operations), and
/// otherwise on parts of them sized so that `scripts/test.sh` takes minutes.
public let longTests = ProcessInfo.processInfo.environment["KINETICS_LONG_TESTS"] != nil

/// `full` with `KINETICS_LONG_TESTS`, `quick` otherwise: how many curves,
/// samples or operations a sweep covers.
public func sized(_ quick: Int, full: Int) -> Int { longTests ? full : quick }

/// Whether this build runs under AddressSanitizer (`scripts/sanitize.sh`
/// defines `KINETICS_ADDRESS_SANITIZER`). malloc-interposer compiles its
/// malloc out under a sanitizer, so nothing is counted: the allocation
/// tests then run their frames for the sanitizer's checks, at a smaller
/// size, and assert that the counter is off rather than that it counted.
#if KINETICS_ADDRESS_SANITIZER
    public let sanitized = true
#else
    public let sanitized = false
#endif
