import CKineticsEngine
import Kinetics

/// An engine behind the C interface of `kinetics_engine.h`: the bench hands
/// it the workload's animations, replaces and retargets them between frames
/// and ticks it, every call through the engine's function table.
final class CEngine: MeasuredEngine, ScenarioDriven {
    let workload: Workload
    private let handle: UnsafeMutableRawPointer
    private let replaceFunction:
        @convention(c) (UnsafeMutableRawPointer?, Int64, UnsafePointer<kinetics_animation>?) -> Void
    private let retargetFunction: @convention(c) (UnsafeMutableRawPointer?, Int64, Double) -> Void
    private let tick: @convention(c) (UnsafeMutableRawPointer?, Double) -> Void
    private let value: @convention(c) (UnsafeRawPointer?, Int64) -> Double
    private let runningCount: @convention(c) (UnsafeRawPointer?) -> Int64
    private let destroy: @convention(c) (UnsafeMutableRawPointer?) -> Void
    var churnCursor = 0

    /// Creates the engine of `table` for `workload`.
    init(_ table: kinetics_engine, workload: Workload) throws(BenchError) {
        self.workload = workload
        let name = table.name.map { String(cString: $0) } ?? "engine"
        if let problem = Self.problem(with: table) { throw BenchError(description: "\(name): \(problem)") }
        guard let create = table.create, let replace = table.replace, let retarget = table.retarget,
            let tick = table.tick, let value = table.value, let running = table.running, let destroy = table.destroy
        else { preconditionFailure("problem(with:) lets no NULL function through") }
        (replaceFunction, retargetFunction, self.tick, self.value, self.runningCount, self.destroy) =
            (replace, retarget, tick, value, running, destroy)
        let count = workload.count
        let animations = (0 ..< count).map { Self.animation(workload.item($0)) }
        let initial = (0 ..< count).map(workload.initial)
        let values = workload.keyframes.values
        let times = workload.keyframes.keyTimes
        let curves = workload.keyframes.timingFunctions.flatMap(Self.controlPoints)
        var reason = [CChar](repeating: 0, count: 512)
        let created: UnsafeMutableRawPointer? = animations.withUnsafeBufferPointer { animations in
            initial.withUnsafeBufferPointer { initial in
                values.withUnsafeBufferPointer { values in
                    times.withUnsafeBufferPointer { times in
                        curves.withUnsafeBufferPointer { curves in
                            var description = kinetics_workload()
                            description.count = Int64(count)
                            description.initial = initial.baseAddress
                            description.animations = animations.baseAddress
                            description.keyframes.count = Int32(values.count)
                            description.keyframes.values = values.baseAddress
                            description.keyframes.key_times = times.baseAddress
                            description.keyframes.curves = curves.baseAddress
                            description.keyframes.duration = workload.keyframes.duration
                            return create(&description, &reason, reason.count)
                        }
                    }
                }
            }
        }
        guard let created else {
            throw BenchError(
                description:
                    "\(name): create failed: \(String(decoding: reason.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))"
            )
        }
        handle = created
    }

    deinit { destroy(handle) }

    /// The interface versions this Kinetics takes, as the header names them.
    static let versions = UInt32(KINETICS_ENGINE_ABI_OLDEST_VERSION) ... UInt32(KINETICS_ENGINE_ABI_VERSION)

    /// The versions for a message: "versions 1 and 2".
    static var versionsSpoken: String {
        let earlier = (versions.lowerBound ..< versions.upperBound).map(String.init).joined(separator: ", ")
        return earlier.isEmpty ? "version \(versions.upperBound)" : "versions \(earlier) and \(versions.upperBound)"
    }

    /// What makes `table` unusable: an interface version outside
    /// ``versions``, or NULL functions (named); nil for a usable table.
    static func problem(with table: kinetics_engine) -> String? {
        guard versions.contains(table.abi_version) else {
            return
                "its table is for engine interface version \(table.abi_version); this kinetics speaks \(versionsSpoken)"
        }
        let missing = [
            table.create == nil ? "create" : nil, table.replace == nil ? "replace" : nil,
            table.retarget == nil ? "retarget" : nil, table.tick == nil ? "tick" : nil,
            table.value == nil ? "value" : nil, table.running == nil ? "running" : nil,
            table.destroy == nil ? "destroy" : nil,
        ].compactMap { $0 }
        return missing.isEmpty ? nil : "its table has no \(missing.joined(separator: ", ")) (NULL)"
    }

    /// A timing function's control points as the interface lists them: a
    /// NaN x1 for a linear segment.
    private static func controlPoints(_ timing: TimingFunction) -> [Double] {
        switch timing.shape {
        case .bezier(let curve): [curve.x1, curve.y1, curve.x2, curve.y2]
        case .linear: [.nan, 0, 1, 1]
        case .steps: preconditionFailure("the workload's keyframes have no steps")
        }
    }

    /// Workload item `item` in the interface's terms.
    static func animation(_ item: BenchAnimation) -> kinetics_animation {
        var animation = kinetics_animation()
        switch item.kind {
        case .spring, .pointSpring:
            animation.kind = Int32(
                item.kind == .spring ? KINETICS_KIND_SPRING.rawValue : KINETICS_KIND_POINT_SPRING.rawValue)
            animation.tension = item.spring.tension
            animation.friction = item.spring.friction
            animation.mass = item.spring.mass
            animation.to = item.to
            animation.velocity = item.velocity
            animation.threshold = item.threshold
        case .decay:
            animation.kind = Int32(KINETICS_KIND_DECAY.rawValue)
            animation.velocity = item.velocity
            animation.deceleration = item.deceleration.deceleration
            animation.threshold = item.threshold
        case .basic:
            animation.kind = Int32(KINETICS_KIND_BASIC.rawValue)
            animation.to = item.to
            animation.duration = item.duration
            let points = item.controlPoints
            animation.curve = (points[0], points[1], points[2], points[3])
        case .keyframes:
            animation.kind = Int32(KINETICS_KIND_KEYFRAMES.rawValue)
        }
        return animation
    }

    func replace(_ index: Int) {
        var animation = Self.animation(workload.item(index))
        replaceFunction(handle, Int64(index), &animation)
    }

    func retarget(_ index: Int, to target: Double) { retargetFunction(handle, Int64(index), target) }

    /// Never called: the interface has no add (``addsAnimations``).
    func add(_ index: Int) { preconditionFailure("an engine behind the C interface cannot add animations") }

    func advance(to time: Double) { tick(handle, time) }

    var addsAnimations: Bool { false }

    var running: Int { Int(runningCount(handle)) }

    func value(at index: Int) -> Double { value(handle, Int64(index)) }
}
