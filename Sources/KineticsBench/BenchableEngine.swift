@_exported import KineticsEngine

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
    var churnCursor = 0

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

    func advance(to time: Double) { engine.tick(to: time) }

    var addsAnimations: Bool { false }

    var running: Int { engine.running }

    func value(at index: Int) -> Double { engine.value(index) }
}
