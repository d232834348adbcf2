import Kinetics

/// How far an engine's values are from the motion its workload asks for,
/// after a second of frames: the exact trajectory of each spring and decay,
/// from ``BenchRunner/motionReference`` (GSL's rk8pd in the `kinetics`
/// tool, the closed forms elsewhere). Pop's own stepping is a few percent
/// off (its time runs slow); an exact engine is within 1e-12; an engine
/// that computes the wrong thing shows it here however fast it is.
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
    /// What the values were compared with (``MotionReference/name``); nil
    /// in reports written before it was recorded, which used GSL's.
    public var reference: String?
}

/// The exact motion a value check compares an engine's springs and decays
/// with.
public struct MotionReference: Sendable {
    /// Names the reference where a check is printed: "GSL's motion".
    public var name: String
    /// A spring's displacement from its target at `time` seconds, from
    /// `displacement` and `velocity` at time 0.
    public var spring:
        @Sendable (_ parameters: SpringParameters, _ displacement: Double, _ velocity: Double, _ time: Double)
            throws -> Double
    /// A decay's position at `time` seconds, from `position` and `velocity`
    /// at time 0, slowing continuously (`DecayMethod.continuous`).
    public var decay:
        @Sendable (_ parameters: DecayParameters, _ position: Double, _ velocity: Double, _ time: Double)
            throws -> Double

    /// A reference of `name` computed by `spring` and `decay`.
    public init(
        name: String,
        spring: @escaping @Sendable (SpringParameters, Double, Double, Double) throws -> Double,
        decay: @escaping @Sendable (DecayParameters, Double, Double, Double) throws -> Double
    ) {
        self.name = name
        self.spring = spring
        self.decay = decay
    }

    /// Kinetics' own closed forms (`SpringPropagator.exact(_:time:)`, and
    /// the continuous decay in one step): exact to rounding, and needing no
    /// GSL. The tests hold them to GSL's trajectories within 1e-12.
    public static let closedForm = MotionReference(
        name: "the closed forms",
        spring: { parameters, displacement, velocity, time in
            SpringPropagator.exact(parameters, time: time).apply(displacement: displacement, velocity: velocity).0
        },
        decay: { parameters, position, velocity, time in
            var decay = DecayStepper(parameters: parameters, method: .continuous, value: position, velocity: velocity)
            decay.advance(by: time)
            return decay.value
        })
}

extension BenchRunner {
    /// The animations a value check looks at: the first of the workload.
    static let checkedAnimations = 64

    private static let reference = Locked(MotionReference.closedForm)

    /// What value checks compare engines with: ``MotionReference/closedForm``
    /// unless the program sets another (the `kinetics` tool sets GSL's, so
    /// that its checks rest on code nobody here wrote).
    public static var motionReference: MotionReference {
        get { reference.withLock { $0 } }
        set { reference.withLock { $0 = newValue } }
    }

    /// Runs the engine on the first `checkedAnimations` animations of the
    /// workload for a second of frames and compares its springs and decays
    /// with ``motionReference``. Nil for workloads whose motion changes under the engine's
    /// feet (churn, retarget storms, mass completion) or that have no spring
    /// or decay.
    ///
    /// - Throws: ``BenchError`` when the engine refuses the workload or the
    ///   reference fails.
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
        let reference = motionReference
        var check = ValueCheck(error: -1, animations: indices.count, time: time, worst: "", reference: reference.name)
        for index in indices {
            let item = workload.item(index)
            let exact: Double
            let scale: Double
            do {
                if item.kind == .spring {
                    exact =
                        item.to
                        + (try reference.spring(item.spring, workload.initial(index) - item.to, item.velocity, time))
                    scale = abs(workload.initial(index) - item.to)
                } else {
                    exact = try reference.decay(workload.deceleration, workload.initial(index), item.velocity, time)
                    scale = abs(workload.deceleration.totalThrow(velocity: item.velocity, method: .continuous))
                }
            } catch {
                throw BenchError(
                    description: "\(reference.name) failed checking \(configuration.engine)'s values: \(error)")
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
