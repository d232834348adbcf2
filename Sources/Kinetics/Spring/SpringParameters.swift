import CKineticsSupport

/// A damped harmonic oscillator: tension (stiffness) k, friction (damping) c
/// and mass m, moving by `m·x'' = -k·x - c·x'` towards its target.
///
/// Every other way of describing a spring converts to this one and back:
/// Pop's bounciness and speed (``init(bounciness:speed:)``), stiffness and
/// damping (``init(stiffness:damping:mass:)``), response and damping fraction
/// (``init(response:dampingFraction:mass:)``), SwiftUI's or Flutter's
/// duration and bounce (``init(duration:bounce:mass:)``), and the forms of
/// other engines: Origami's tension and friction (Rebound, React Native),
/// stiffness with a damping ratio (Android, Jetpack Compose) and Motion's
/// two durations with a bounce (``init(origamiTension:origamiFriction:)``,
/// ``init(stiffness:dampingRatio:mass:)``,
/// ``init(motionVisualDuration:bounce:)``, ``init(motionDuration:bounce:)``).
///
/// **Accepted values**: tension and mass finite and > 0, friction finite and
/// >= 0, and `tension/mass`, `(friction/mass)²` finite. Anything else throws a
/// ``ParameterError`` naming the parameter.
public struct SpringParameters: Hashable, Sendable, CustomStringConvertible {
    /// Tension (stiffness) k, in force per unit of displacement.
    public let tension: Double
    /// Friction (damping) c, in force per unit of velocity.
    public let friction: Double
    /// Mass m.
    public let mass: Double

    /// Creates a spring from tension, friction and mass (Pop's dynamics
    /// parameters).
    ///
    /// - Throws: ``ParameterError`` for a non-finite value, tension or mass
    ///   <= 0, friction < 0, or a ratio to the mass that overflows.
    public init(tension: Double, friction: Double, mass: Double = 1) throws(ParameterError) {
        try self.init(checking: tension, friction, mass, names: ("tension", "friction"))
    }

    /// Creates a spring from stiffness, damping and mass: the same quantities
    /// as tension and friction under the names physics and Core Animation use.
    ///
    /// - Throws: ``ParameterError`` naming `stiffness`, `damping` or `mass`.
    public init(stiffness: Double, damping: Double, mass: Double = 1) throws(ParameterError) {
        try self.init(checking: stiffness, damping, mass, names: ("stiffness", "damping"))
    }

    /// The checks of every initialiser, with the names of the two values
    /// the caller was given (the mass is `mass`).
    init(
        checking k: Double, _ c: Double, _ m: Double, names: (String, String)
    ) throws(ParameterError) {
        try Check.positive(k, names.0)
        try Check.nonNegative(c, names.1)
        try Check.positive(m, "mass")
        guard (k / m).isFinite else {
            throw ParameterError(
                parameter: names.0, value: k, accepted: "small enough that \(names.0)/mass is finite (mass \(m))")
        }
        guard ((c / m) * (c / m)).isFinite else {
            throw ParameterError(
                parameter: names.1, value: c, accepted: "small enough that (\(names.1)/mass)² is finite (mass \(m))")
        }
        tension = k
        friction = c
        mass = m
    }

    /// Pop's default spring: bounciness 4, speed 12 (tension ≈ 342.1,
    /// friction ≈ 30.49, mass 1, damping ratio ≈ 0.824).
    public static let popDefault = try! SpringParameters(bounciness: 4, speed: 12)

    /// The natural (undamped) angular frequency ω₀ = √(k/m), in radians per second.
    @inlinable
    public var naturalFrequency: Double { (tension / mass).squareRoot() }

    /// The damping ratio ζ = c / (2√(k·m)): below 1 the spring overshoots,
    /// 1 is critical damping, above 1 it creeps to the target.
    @inlinable
    public var dampingRatio: Double { friction / (2 * (tension * mass).squareRoot()) }

    /// `k/m`, the square of the natural frequency.
    @inlinable
    public var stiffnessPerMass: Double { tension / mass }

    /// `c/m`, twice the decay rate of the envelope.
    @inlinable
    public var frictionPerMass: Double { friction / mass }

    /// `"tension 174.5…, friction 22.4…, mass 1.0"`.
    public var description: String {
        "tension \(tension), friction \(friction), mass \(mass)"
    }
}

// MARK: - Response, damping fraction, duration and bounce

extension SpringParameters {
    /// Creates a spring from its response (the period of the undamped
    /// oscillation, in seconds) and damping fraction (the damping ratio ζ), as
    /// SwiftUI's `Spring(response:dampingRatio:)` does:
    /// `k = (2π/response)²·m`, `c = 4π·ζ·m/response`.
    ///
    /// - Throws: ``ParameterError`` unless `response` > 0, `dampingFraction`
    ///   >= 0 and `mass` > 0, all finite.
    public init(response: Double, dampingFraction: Double, mass: Double = 1) throws(ParameterError) {
        try Check.positive(response, "response")
        try Check.nonNegative(dampingFraction, "dampingFraction")
        try Check.positive(mass, "mass")
        let angular = 2 * Double.pi / response
        try self.init(
            checking: angular * angular * mass, 2 * dampingFraction * angular * mass, mass,
            names: ("response", "dampingFraction"))
    }

    /// Creates a spring from a perceptual duration and bounce, the mapping of
    /// SwiftUI's `Spring(duration:bounce:)` and Flutter's
    /// `SpringDescription.withDurationAndBounce`:
    /// `k = 4π²·m/duration²`, damping ratio `1 - bounce` for bounce >= 0 and
    /// `1/(1 + bounce)` for bounce < 0.
    ///
    /// - Throws: ``ParameterError`` unless `duration` > 0 and `bounce` is in
    ///   (-1, 1] (bounce 1 is undamped; -1 would need infinite friction).
    public init(duration: Double, bounce: Double, mass: Double = 1) throws(ParameterError) {
        try Check.positive(duration, "duration")
        guard bounce.isFinite, bounce > -1, bounce <= 1 else {
            throw ParameterError(parameter: "bounce", value: bounce, accepted: "in (-1, 1]")
        }
        let ratio = bounce >= 0 ? 1 - bounce : 1 / (1 + bounce)
        try self.init(response: duration, dampingFraction: ratio, mass: mass)
    }

    /// The period of the undamped oscillation, `2π/ω₀`, in seconds.
    public var response: Double { 2 * Double.pi / naturalFrequency }

    /// The damping ratio under SwiftUI's name.
    public var dampingFraction: Double { dampingRatio }

    /// SwiftUI's perceptual duration: the same number as ``response``.
    public var duration: Double { response }

    /// SwiftUI's bounce: `1 - ζ` when ζ <= 1, `1/ζ - 1` (negative) when ζ > 1.
    public var bounce: Double {
        let ratio = dampingRatio
        return ratio <= 1 ? 1 - ratio : 1 / ratio - 1
    }
}
