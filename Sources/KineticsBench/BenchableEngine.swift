import Kinetics

/// One animation of a bench workload, as an engine is given it: the fields
/// of `kinetics_animation` in `kinetics_engine.h`, in Swift's types.
public struct BenchAnimation: Sendable, Equatable {
    /// What the animation is.
    public enum Kind: Sendable, Equatable {
        /// A spring on a scalar property.
        case spring
        /// A spring on a two-component property; both components move alike.
        case pointSpring
        /// A decay: a throw slowing down by a factor per millisecond.
        case decay
        /// A basic animation along a timing curve.
        case basic
        /// The workload's keyframe track (``BenchWorkload/keyframes``).
        case keyframes
    }

    /// What the animation is.
    public var kind: Kind
    /// Springs: the spring.
    public var spring: SpringParameters
    /// Springs and basics: the target of every component.
    public var to: Double
    /// Decays: the initial velocity, units per second. Springs: 0 in every
    /// workload (they start at rest); the C interface hands it to springs
    /// from version 2.
    public var velocity: Double
    /// Decays: the deceleration.
    public var deceleration: DecayParameters
    /// Springs and decays: Pop's rest threshold.
    public var threshold: Double
    /// Basics: seconds.
    public var duration: Double
    /// Basics: the timing curve.
    public var curve: UnitBezier {
        get { try! UnitBezier(x1: controlPoints[0], y1: controlPoints[1], x2: controlPoints[2], y2: controlPoints[3]) }
        set { controlPoints = SIMD4(newValue.x1, newValue.y1, newValue.x2, newValue.y2) }
    }
    /// The curve's control points (x1, y1, x2, y2), stored in place of the
    /// curve, which carries its solver's tables: the bench makes an
    /// animation for every replacement in its measured frames.
    var controlPoints: SIMD4<Double>
}

/// What the bench asks an engine to run: one animation per property, all
/// added at time 0, each starting from its property's initial value.
public struct BenchWorkload: Sendable {
    /// The properties' initial values (a point starts at (v, v)).
    public var initial: [Double]
    /// Animation i runs on property i.
    public var animations: [BenchAnimation]
    /// The track every ``BenchAnimation/Kind/keyframes`` animation plays.
    public var keyframes: Keyframes<Double>

    /// How many properties, one animation each.
    public var count: Int { animations.count }
}

/// An engine written in Swift, benched in-process without C: the same calls
/// as the table of `kinetics_engine.h`. A package registers its engines with
/// ``BenchEngine/register(_:)`` (or hands them to `BenchSuite.main`, which
/// runs the `kinetics bench` command on them), and they are measured beside
/// the built-in engines with the same tables, value check, baselines and gate.
///
/// Kinetics calls an engine from one thread.
public protocol BenchableEngine: AnyObject {
    /// The engine's name in tables, baselines and `--engine`: 1 to 40
    /// letters, digits, `.`, `_` or `-`, not a built-in engine's.
    static var name: String { get }

    /// Adds the workload's animations at time 0, each rendered once.
    ///
    /// - Throws: anything: the bench stops with exit 65, the error as the reason.
    init(workload: BenchWorkload) throws

    /// Removes property `index`'s animation (when it is running) and adds
    /// `animation` in its place, at the time of the last tick (0 before the
    /// first), from the property's current value; rendered once.
    func replace(_ index: Int, with animation: BenchAnimation)

    /// Gives property `index`'s spring a new target; anything else ignores it.
    func retarget(_ index: Int, to target: Double)

    /// Advances every running animation to `time` (seconds, never
    /// decreasing), writes their values, and removes those that finished.
    func tick(to time: Double)

    /// Property `index`'s value (a point's first component).
    func value(_ index: Int) -> Double

    /// How many animations are running.
    var running: Int { get }
}

extension BenchEngine {
    /// Registers a Swift engine under its name, so that configurations name
    /// it like a built-in engine.
    ///
    /// - Throws: ``EngineLibraryError/unusable(path:reason:)`` (the path
    ///   being the type's name) for a name that is not 1 to 40 letters,
    ///   digits, `.`, `_` or `-`, or that is already taken.
    @discardableResult
    public static func register(_ type: any BenchableEngine.Type) throws(EngineLibraryError) -> BenchEngine {
        let engineType = EngineType(type: type)
        return try EngineRegistry.register(name: type.name, origin: "\(type)") { workload throws(BenchError) in
            try SwiftEngine(engineType.type, workload: workload)
        }
    }

    /// The engines registered by libraries and Swift packages, in the order
    /// they were registered.
    public static var registered: [BenchEngine] { EngineRegistry.names }
}

/// A Swift engine's type, kept by the registry: the type is only ever used
/// to create engines, on the bench's one thread.
private struct EngineType: @unchecked Sendable {
    let type: any BenchableEngine.Type
}

/// The engines made elsewhere than in Kinetics: loaded libraries and
/// registered Swift types, each a factory for a workload.
enum EngineRegistry {
    typealias Factory = @Sendable (Workload) throws(BenchError) -> MeasuredEngine

    private struct Entry {
        var origin: String
        var make: Factory
    }

    private static let entries = Locked<[(engine: BenchEngine, entry: Entry)]>([])

    static func register(name: String, origin: String, _ make: @escaping Factory) throws(EngineLibraryError)
        -> BenchEngine
    {
        guard let engine = BenchEngine(rawValue: name), isValidName(name) else {
            throw .unusable(
                path: origin,
                reason: "its engine is named '\(name)'; a name is 1 to 40 letters, digits, '.', '_' or '-'")
        }
        guard !engine.isBuiltIn else {
            throw .unusable(path: origin, reason: "its engine is named '\(name)', which is a built-in engine's name")
        }
        try entries.withLock { (list: inout [(engine: BenchEngine, entry: Entry)]) throws(EngineLibraryError) in
            if let index = list.firstIndex(where: { $0.engine == engine }) {
                guard list[index].entry.origin == origin else {
                    throw .unusable(
                        path: origin, reason: "its engine '\(name)' has the name of \(list[index].entry.origin)'s")
                }
                list[index].entry.make = make
            } else {
                list.append((engine, Entry(origin: origin, make: make)))
            }
        }
        return engine
    }

    static var names: [BenchEngine] { entries.withLock { $0.map(\.engine) } }

    static func make(_ engine: BenchEngine, _ workload: Workload) throws(BenchError) -> MeasuredEngine? {
        guard let make = entries.withLock({ list in list.first { $0.engine == engine }?.entry.make }) else {
            return nil
        }
        return try make(workload)
    }

    private static func isValidName(_ name: String) -> Bool {
        (1 ... 40).contains(name.count)
            && name.unicodeScalars.allSatisfy {
                ("a" ... "z").contains($0) || ("A" ... "Z").contains($0) || ("0" ... "9").contains($0)
                    || $0 == "." || $0 == "_" || $0 == "-"
            }
    }
}

/// A Swift engine driven as the C ones are: the scenario's changes, then one
/// call to tick, each through the protocol (one dynamic call, as the C
/// interface makes one indirect call).
final class SwiftEngine: MeasuredEngine, ScenarioDriven {
    let engine: any BenchableEngine
    let workload: Workload
    private var churnCursor = 0

    init(_ type: any BenchableEngine.Type, workload: Workload) throws(BenchError) {
        self.workload = workload
        let description = workload.description
        do {
            engine = try type.init(workload: description)
        } catch {
            throw BenchError(description: "\(type.name): create failed: \(error)")
        }
    }

    func replace(_ index: Int) {
        engine.replace(index, with: workload.item(index))
    }

    func retarget(_ index: Int, to target: Double) { engine.retarget(index, to: target) }

    /// Never called: the protocol has no add (``addsAnimations``).
    func add(_ index: Int) { preconditionFailure("a BenchableEngine cannot add animations") }

    func frame(_ frame: Int, at time: Double) {
        interact(before: frame, cursor: &churnCursor)
        engine.tick(to: time)
    }

    var addsAnimations: Bool { false }

    var running: Int { engine.running }

    func sampleValues(_ count: Int) -> [Double] {
        (0 ..< min(count, workload.count)).map { engine.value($0) }
    }
}
