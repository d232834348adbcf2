import CKineticsEngine
import Kinetics

/// One animation that Kinetics gives a loaded engine outside a bench
/// workload (`kinetics verify --engine-library`), on a property of its own
/// that starts at `from`. Every one has rest threshold 0, so that an engine
/// with Pop's rest test runs it to the last time asked.
package enum LibraryAnimation: Sendable, Equatable {
    /// A scalar spring from `from` to `to`, starting with `velocity`
    /// (interface version 2).
    case spring(SpringParameters, from: Double, to: Double, velocity: Double)
    /// A decay thrown from `from` with `velocity`.
    case decay(DecayParameters, from: Double, velocity: Double)
    /// A basic animation from `from` to `to` over `duration` seconds along `curve`.
    case basic(UnitBezier, from: Double, to: Double, duration: Double)

    /// The property's value at time 0.
    var from: Double {
        switch self {
        case .spring(_, let from, _, _), .decay(_, let from, _), .basic(_, let from, _, _): from
        }
    }

    /// The animation in the interface's terms.
    var described: kinetics_animation {
        var animation = kinetics_animation()
        switch self {
        case .spring(let parameters, _, let to, let velocity):
            animation.kind = Int32(KINETICS_KIND_SPRING.rawValue)
            animation.tension = parameters.tension
            animation.friction = parameters.friction
            animation.mass = parameters.mass
            animation.to = to
            animation.velocity = velocity
        case .decay(let parameters, _, let velocity):
            animation.kind = Int32(KINETICS_KIND_DECAY.rawValue)
            animation.velocity = velocity
            animation.deceleration = parameters.deceleration
        case .basic(let curve, _, let to, let duration):
            animation.kind = Int32(KINETICS_KIND_BASIC.rawValue)
            animation.to = to
            animation.duration = duration
            animation.curve = (curve.x1, curve.y1, curve.x2, curve.y2)
        }
        return animation
    }
}

/// A loaded library's engine running animations that Kinetics gives it
/// directly: created with them at time 0, then ticked and read. Not
/// thread-safe; the engine is called from the thread that uses this.
package final class EngineInstance {
    private let handle: UnsafeMutableRawPointer
    private let tickFunction: @convention(c) (UnsafeMutableRawPointer?, Double) -> Void
    private let valueFunction: @convention(c) (UnsafeRawPointer?, Int64) -> Double
    private let destroy: @convention(c) (UnsafeMutableRawPointer?) -> Void
    /// How many animations (and properties) it holds.
    package let count: Int

    /// Creates the engine of `table` with `animations`, animation `i` on
    /// property `i`.
    ///
    /// - Throws: the reason create gave for returning NULL (empty when it gave none).
    init(_ table: kinetics_engine, animations: [LibraryAnimation]) throws(EngineCreateError) {
        guard let create = table.create, let tick = table.tick, let value = table.value, let destroy = table.destroy
        else { preconditionFailure("a loaded table has no NULL function") }
        (tickFunction, valueFunction, self.destroy) = (tick, value, destroy)
        count = animations.count
        let described = animations.map(\.described)
        let initial = animations.map(\.from)
        var reason = [CChar](repeating: 0, count: 512)
        let created: UnsafeMutableRawPointer? = described.withUnsafeBufferPointer { described in
            initial.withUnsafeBufferPointer { initial in
                var workload = kinetics_workload()
                workload.count = Int64(described.count)
                workload.initial = initial.baseAddress
                workload.animations = described.baseAddress
                return create(&workload, &reason, reason.count)
            }
        }
        guard let created else {
            throw EngineCreateError(
                reason: String(decoding: reason.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        handle = created
    }

    deinit { destroy(handle) }

    /// Advances every animation to `time` (seconds, non-decreasing).
    package func tick(_ time: Double) { tickFunction(handle, time) }

    /// Property `index`'s value.
    package func value(_ index: Int) -> Double { valueFunction(handle, Int64(index)) }
}

/// An engine's create returned NULL: the reason it wrote.
package struct EngineCreateError: Error, Sendable {
    /// What create wrote into its error buffer (empty if nothing).
    package let reason: String
}

extension EngineLibrary {
    /// A new instance of the library's engine running `animations`.
    ///
    /// - Throws: ``EngineCreateError`` when the engine's create refuses them.
    package func instance(_ animations: [LibraryAnimation]) throws(EngineCreateError) -> EngineInstance {
        try EngineInstance(loaded.table, animations: animations)
    }
}
