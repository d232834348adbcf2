import CKineticsSupport

// The ways other engines give a spring, each converted to tension, friction
// and mass by the engine's own formula (the sources named in each comment;
// docs/compare.md has the table of engines and options).

extension SpringParameters {
    /// Creates a spring from Origami's tension and friction, the numbers that
    /// Rebound's `SpringConfig.fromOrigamiTensionAndFriction` and React
    /// Native's `Animated.spring({tension, friction})` take:
    /// `tension = (origamiTension − 30)·3.62 + 194`,
    /// `friction = (origamiFriction − 8)·3 + 25`, mass 1. Rebound's default,
    /// Origami (40, 7), is tension 230.2 and friction 22.
    ///
    /// Rebound's Java converter maps an Origami value of exactly 0 to 0;
    /// Rebound-JS and React Native apply the formula there too (friction 0
    /// gives 1), as this does.
    ///
    /// - Throws: ``ParameterError`` naming `origamiTension` unless the tension
    ///   it gives is > 0 (the value above 30 − 194/3.62 ≈ −23.59), or naming
    ///   `origamiFriction` unless the friction is >= 0 (the value at least
    ///   8 − 25/3 ≈ −0.33); both finite.
    public init(origamiTension: Double, origamiFriction: Double) throws(ParameterError) {
        try Check.finite(origamiTension, "origamiTension")
        try Check.finite(origamiFriction, "origamiFriction")
        let tension = (origamiTension - 30) * 3.62 + 194
        let friction = (origamiFriction - 8) * 3 + 25
        guard tension > 0, tension < .infinity else {
            throw ParameterError(
                parameter: "origamiTension", value: origamiTension,
                accepted: "a finite number > 30 - 194/3.62 (tension (value - 30)·3.62 + 194 > 0)")
        }
        guard friction >= 0, friction < .infinity else {
            throw ParameterError(
                parameter: "origamiFriction", value: origamiFriction,
                accepted: "a finite number >= 8 - 25/3 (friction (value - 8)·3 + 25 >= 0)")
        }
        try self.init(checking: tension, friction, 1, names: ("origamiTension", "origamiFriction"))
    }

    /// Origami's tension and friction for this spring, scaled to mass 1
    /// first (`k/m`, `c/m`): the inverse of ``init(origamiTension:origamiFriction:)``.
    public var origamiTensionAndFriction: (tension: Double, friction: Double) {
        ((stiffnessPerMass - 194) / 3.62 + 30, (frictionPerMass - 25) / 3 + 8)
    }

    /// Creates a spring from its stiffness and damping ratio ζ, as Android's
    /// `SpringForce` (`setStiffness`, `setDampingRatio`; mass 1) and Jetpack
    /// Compose's `spring(dampingRatio, stiffness)` give it:
    /// `damping = 2ζ·√(stiffness·mass)`.
    ///
    /// - Throws: ``ParameterError`` unless `stiffness` and `mass` are > 0 and
    ///   `dampingRatio` >= 0, all finite.
    public init(stiffness: Double, dampingRatio: Double, mass: Double = 1) throws(ParameterError) {
        try Check.positive(stiffness, "stiffness")
        try Check.nonNegative(dampingRatio, "dampingRatio")
        try Check.positive(mass, "mass")
        try self.init(
            checking: stiffness, 2 * dampingRatio * (stiffness * mass).squareRoot(), mass,
            names: ("stiffness", "dampingRatio"))
    }

    /// Motion's damping ratio for a bounce: `clamp(1 − bounce, 0.05, 1)`
    /// (`minDamping` and `maxDamping` of its spring defaults).
    static func motionDampingRatio(bounce: Double) -> Double {
        min(max(1 - bounce, 0.05), 1)
    }

    /// Creates a spring from Motion's `visualDuration` and `bounce` (the
    /// motion.dev and Framer Motion `spring` with a visual duration):
    /// `ω₀ = 2π/(1.2·visualDuration)`, stiffness `ω₀²`, damping ratio
    /// `clamp(1 − bounce, 0.05, 1)`, mass 1. Motion clamps the bounce the
    /// same way and so does this: any finite bounce is accepted.
    ///
    /// Motion starts a spring given by a duration at velocity 0, whatever
    /// velocity the animation was given.
    ///
    /// - Throws: ``ParameterError`` unless `motionVisualDuration` is > 0 and
    ///   `bounce` finite.
    public init(motionVisualDuration: Double, bounce: Double) throws(ParameterError) {
        try Check.positive(motionVisualDuration, "motionVisualDuration")
        try Check.finite(bounce, "bounce")
        let root = 2 * Double.pi / (motionVisualDuration * 1.2)
        let stiffness = root * root
        let ratio = Self.motionDampingRatio(bounce: bounce)
        try self.init(
            checking: stiffness, 2 * ratio * stiffness.squareRoot(), 1, names: ("motionVisualDuration", "bounce"))
    }

    /// Creates a spring from Motion's `duration` and `bounce` (its
    /// `findSpring`): the undamped angular frequency ω₀ at which the
    /// envelope of the motion from 1 to 0 at rest falls to 0.001 at
    /// `duration`, found as Motion finds it, by 11 Newton steps from
    /// `5/duration`, with `duration` clamped to [0.01, 10] s and the damping
    /// ratio `ζ = clamp(1 − bounce, 0.05, 1)`:
    ///
    /// - ζ < 1: `0.001 − ζ/√(1−ζ²)·e^(−ω₀ζT) = 0`, whose root is
    ///   `ω₀ = ln(ζ/(0.001·√(1−ζ²)))/(ζT)`. The steps start below the root
    ///   and close about one unit of `ω₀ζT` each while far from it, then
    ///   converge quadratically: they end within rounding of the root unless
    ///   ζ is within about 1e-6 of 1 (a bounce that small), where Motion's
    ///   eleven steps stop short of it, and so do these;
    /// - ζ = 1 (a bounce of 0 or less): `e^(−ω₀T)(ω₀T + 1) = 0.001`.
    ///
    /// Then stiffness `ω₀²` and damping `2ζω₀` (mass 1). Where Newton's steps
    /// give no number, Motion uses its defaults, stiffness 100 and damping
    /// 10, and so does this.
    ///
    /// - Throws: ``ParameterError`` unless `motionDuration` is > 0 and
    ///   `bounce` finite.
    public init(motionDuration: Double, bounce: Double) throws(ParameterError) {
        try Check.positive(motionDuration, "motionDuration")
        try Check.finite(bounce, "bounce")
        let ratio = Self.motionDampingRatio(bounce: bounce)
        let duration = min(max(motionDuration, 0.01), 10)
        let frequency = Self.motionUndampedFrequency(ratio: ratio, duration: duration)
        guard !frequency.isNaN else {
            try self.init(checking: 100, 10, 1, names: ("motionDuration", "bounce"))
            return
        }
        let stiffness = frequency * frequency
        try self.init(
            checking: stiffness, ratio * 2 * stiffness.squareRoot(), 1, names: ("motionDuration", "bounce"))
    }

    /// Motion's Newton iteration for the undamped angular frequency of a
    /// spring of damping ratio `ratio` that settles (to 0.001 of its
    /// distance) in `duration` seconds, started at rest.
    static func motionUndampedFrequency(ratio: Double, duration: Double) -> Double {
        let settled = 0.001
        let envelope: (Double) -> Double
        let derivative: (Double) -> Double
        if ratio < 1 {
            let spread = (1 - ratio * ratio).squareRoot()
            envelope = { frequency in
                let decay = frequency * ratio
                return settled - decay / (frequency * spread) * exp(-decay * duration)
            }
            derivative = { frequency in
                let exponent = frequency * ratio * duration
                let slope = -(ratio * ratio) * (frequency * frequency) * duration * exp(-exponent)
                let sign: Double = -envelope(frequency) + settled > 0 ? -1 : 1
                return sign * slope / (frequency * frequency * spread)
            }
        } else {
            envelope = { frequency in -settled + exp(-frequency * duration) * (frequency * duration + 1) }
            derivative = { frequency in exp(-frequency * duration) * (-frequency * (duration * duration)) }
        }
        var frequency = 5 / duration
        for _ in 1 ..< 12 { frequency -= envelope(frequency) / derivative(frequency) }
        return frequency
    }
}

// MARK: - Decays

extension DecayParameters {
    /// Creates a decay from the continuous rate λ of its velocity, per
    /// second (`v(t) = v₀·e^(−λt)`): `deceleration = e^(−λ/1000)`.
    ///
    /// - Throws: ``ParameterError`` naming `rate` unless it is > 0 and small
    ///   enough that the deceleration per millisecond is above 0 (λ below
    ///   about 745,000).
    public init(rate: Double) throws(ParameterError) {
        try Check.positive(rate, "rate")
        let deceleration = exp(-rate / 1000)
        guard deceleration > 0, deceleration < 1 else {
            throw ParameterError(
                parameter: "rate", value: rate,
                accepted: "a finite number > 0 whose e^(-rate/1000) is a deceleration in (0, 1)")
        }
        try self.init(deceleration: deceleration)
    }

    /// Creates a decay from the time constant τ of its velocity, in seconds
    /// (`v(t) = v₀·e^(−t/τ)`; Motion's `inertia` gives τ in milliseconds as
    /// `timeConstant`, 325 by default: τ = 0.325).
    ///
    /// - Throws: ``ParameterError`` naming `timeConstant` unless it is > 0 and
    ///   the rate 1/τ is one ``init(rate:)`` accepts.
    public init(timeConstant: Double) throws(ParameterError) {
        try Check.positive(timeConstant, "timeConstant")
        do {
            try self.init(rate: 1 / timeConstant)
        } catch {
            throw ParameterError(
                parameter: "timeConstant", value: timeConstant,
                accepted: "a finite number > 0 whose rate 1/timeConstant is \(error.accepted)")
        }
    }

    /// Creates a decay from Android's fling friction
    /// (`FlingAnimation.setFriction`, default 1): the velocity falls at
    /// the rate `4.2·friction` per second.
    ///
    /// - Throws: ``ParameterError`` naming `flingFriction` unless it is > 0
    ///   and the rate it gives is one ``init(rate:)`` accepts.
    public init(flingFriction: Double) throws(ParameterError) {
        try Check.positive(flingFriction, "flingFriction")
        do {
            try self.init(rate: 4.2 * flingFriction)
        } catch {
            throw ParameterError(
                parameter: "flingFriction", value: flingFriction,
                accepted: "a finite number > 0 whose rate 4.2·flingFriction is \(error.accepted)")
        }
    }

    /// `τ = 1/λ`, the time constant of the velocity, in seconds.
    public var timeConstant: Double { 1 / rate }
}
