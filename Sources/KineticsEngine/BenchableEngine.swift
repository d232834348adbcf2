import Kinetics

/// One animation of a workload, as an engine is given it: the fields of
/// `kinetics_animation` in `kinetics_engine.h`, in Swift's types. The bench
/// makes them for its workloads, `Verifier.run(engine:named:on:…)`
/// for verify's cases.
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
    /// Decays: the initial velocity, units per second. Springs: the initial
    /// velocity too: 0 in every bench workload (they start at rest), and
    /// the case's in verify's (they start moving); the C interface hands it
    /// to springs from version 2.
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
    @usableFromInline package var controlPoints: SIMD4<Double>

    /// An animation of `kind`; the fields a kind does not use are ignored.
    public init(
        kind: Kind, spring: SpringParameters = .popDefault, to: Double = 0, velocity: Double = 0,
        deceleration: DecayParameters = .popDefault, threshold: Double = 0, duration: Double = 1,
        curve: UnitBezier = .linear
    ) {
        self.init(
            kind: kind, spring: spring, to: to, velocity: velocity, deceleration: deceleration, threshold: threshold,
            duration: duration, controlPoints: SIMD4(curve.x1, curve.y1, curve.x2, curve.y2))
    }

    /// An animation whose curve is given by its control points. Inlinable:
    /// the bench makes one for every replacement and add in its measured
    /// frames, and a call across modules there costs instructions the
    /// instruction gate counts.
    @inlinable
    package init(
        kind: Kind, spring: SpringParameters, to: Double, velocity: Double, deceleration: DecayParameters,
        threshold: Double, duration: Double, controlPoints: SIMD4<Double>
    ) {
        self.kind = kind
        self.spring = spring
        self.to = to
        self.velocity = velocity
        self.deceleration = deceleration
        self.threshold = threshold
        self.duration = duration
        self.controlPoints = controlPoints
    }
}

/// What an engine is asked to run: one animation per property, all added at
/// time 0, each starting from its property's initial value.
public struct BenchWorkload: Sendable {
    /// The properties' initial values (a point starts at (v, v)).
    public var initial: [Double]
    /// Animation i runs on property i.
    public var animations: [BenchAnimation]
    /// The track every ``BenchAnimation/Kind/keyframes`` animation plays.
    public var keyframes: Keyframes<Double>

    /// How many properties, one animation each.
    public var count: Int { animations.count }

    /// A workload of `animations` on properties starting at `initial`
    /// (one each), whose keyframe animations play `keyframes`.
    public init(initial: [Double], animations: [BenchAnimation], keyframes: Keyframes<Double>) {
        precondition(initial.count == animations.count, "one initial value per animation")
        self.initial = initial
        self.animations = animations
        self.keyframes = keyframes
    }
}

/// An engine written in Swift, benched and verified in-process without C:
/// the same calls as the table of `kinetics_engine.h`, and like that table
/// the one adapter every route uses. `kinetics bench` and `kinetics gate`
/// measure it (through `BenchSuite`), and `Verifier.run(engine:named:on:
/// tolerances:namingSchemes:jobs:progress:)` in `KineticsVerify` verifies
/// the same code over the grids, as `verify --engine-library` does a C
/// engine. A package registers its engines with `BenchEngine.register(_:)`
/// in `KineticsBench` (or hands them to `BenchSuite.main`, which runs the
/// `kinetics bench` command on them), and they are measured beside the
/// built-in engines with the same tables, value check, baselines and gate.
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
