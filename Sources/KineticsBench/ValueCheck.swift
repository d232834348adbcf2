import Kinetics
import KineticsReference

/// How far an engine's values are from the motion its workload asks for:
/// GSL's trajectory of each spring and decay (rk8pd), after a second of
/// frames. Pop's own stepping is a few percent off (its time runs slow); an
/// exact engine is within 1e-12; an engine that computes the wrong thing
/// shows it here however fast it is.
public struct ValueCheck: Codable, Sendable, Equatable {
    /// The largest error: a spring's over its distance to travel, a decay's
    /// over its total throw.
    public var error: Double
    /// The springs and decays checked (the first of the workload).
    public var animations: Int
    /// The time of the frame checked, in seconds.
    public var time: Double
    /// Which animation has the largest error: `spring 3`, `decay 12`.
    public var worst: String
}

extension BenchRunner {
    /// The animations a value check looks at: the first of the workload.
    static let checkedAnimations = 64

    /// Runs the engine on the first ``checkedAnimations`` animations of the
    /// workload for a second of frames and compares its springs and decays
    /// with GSL. Nil for workloads whose motion changes under the engine's
    /// feet (churn, retarget storms, mass completion) or that have no spring
    /// or decay.
    ///
    /// - Throws: ``BenchError`` when the engine refuses the workload or GSL
    ///   fails.
    public static func checkValues(_ configuration: BenchConfiguration) throws(BenchError) -> ValueCheck? {
        guard configuration.scenario == .steady || configuration.scenario == .jitter,
            configuration.engine != .abiNull
        else { return nil }
        var small = configuration
        small.animations = min(configuration.animations, checkedAnimations)
        let workload = Workload(small)
        let indices = (0 ..< workload.count).filter {
            let kind = workload.item($0).kind
            return kind == .spring || kind == .decay
        }
        guard !indices.isEmpty else { return nil }
        let engine = try makeEngine(small)
        let times = workload.frameTimes(Int(configuration.fps.rounded(.up)) + 1)
        for (frame, time) in times.enumerated() { engine.markedFrame(frame, at: time) }
        let time = times[times.count - 1]
        let values = engine.sampleValues(workload.count)
        var check = ValueCheck(error: -1, animations: indices.count, time: time, worst: "")
        for index in indices {
            let item = workload.item(index)
            let exact: Double
            let scale: Double
            do {
                if item.kind == .spring {
                    let p = item.parameters
                    exact =
                        item.to
                        + (try ReferenceODE.spring(
                            tension: p.tension, friction: p.friction, mass: p.mass, displacement: item.from - item.to,
                            velocity: item.velocity, times: [time]))[0].position
                    scale = abs(item.from - item.to)
                } else {
                    exact =
                        (try ReferenceODE.decay(
                            deceleration: workload.deceleration.deceleration, position: item.from,
                            velocity: item.velocity, times: [time]))[0].position
                    scale = abs(workload.deceleration.totalThrow(velocity: item.velocity, method: .continuous))
                }
            } catch {
                throw BenchError(description: "GSL failed checking \(configuration.engine)'s values: \(error)")
            }
            let error = abs(values[index] - exact) / scale
            // NaN is the worst error, and stays the worst once found.
            if check.error < 0 || (!check.error.isNaN && (error.isNaN || error > check.error)) {
                check.error = error
                check.worst = "\(item.kind == .spring ? "spring" : "decay") \(index)"
            }
        }
        return check
    }
}
