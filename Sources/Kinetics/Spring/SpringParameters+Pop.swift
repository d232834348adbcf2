import CKineticsSupport

// Pop's bounciness/speed mapping (the "Origami" or Quartz Composer mapping,
// also used by Rebound and React Native). The arithmetic below performs the
// same double operations in the same order as Pop's POPAnimationExtras.mm and
// POPMath.mm, so a spring made from bounciness and speed has bit-for-bit the
// tension and friction that Pop computes.

extension SpringParameters {
    /// The bounciness range in which Pop's inverse mapping is one-to-one.
    public static let popBouncinessRange: ClosedRange<Double> = 0 ... 34

    /// Creates a spring from Pop's bounciness and speed (mass 1).
    ///
    /// `b = 0.8·(bounciness/1.7)/20`, `s = (speed/1.7)/20`,
    /// `qcTension = 0.5 + 199.5·s`,
    /// `qcFriction = u·0.01 + (1 - u)·noBounce(qcTension)` with `u = 2b - b²`,
    /// then `tension = 194 + (qcTension - 30)/50·181` and
    /// `friction = 25 + (qcFriction - 8)/2·6`.
    ///
    /// Pop's defaults are bounciness 4 and speed 12 (``popDefault``).
    ///
    /// - Throws: ``ParameterError`` unless `bounciness` is in [0, 34] (the
    ///   range where the mapping can be inverted; Pop documents 0…20) and
    ///   `speed` is finite and >= 0.
    public init(bounciness: Double, speed: Double) throws(ParameterError) {
        try Check.within(bounciness, Self.popBouncinessRange, "bounciness")
        try Check.nonNegative(speed, "speed")
        let qc = Self.popQCValues(bounciness: bounciness, speed: speed)
        let tension = 194.0 + (((qc.tension - 30.0) / 50.0) * (375.0 - 194.0))
        let friction = 25.0 + (((qc.friction - 8.0) / 2.0) * (25.0 - 19.0))
        try self.init(tension: tension, friction: friction, mass: 1)
    }

    /// Pop's bounciness and speed for this spring, or `nil` where the mapping
    /// has no answer (the friction lies outside what any bounciness gives at
    /// this speed).
    ///
    /// Pop's mapping assumes mass 1; a spring of another mass is first scaled
    /// to the equivalent spring of mass 1 (`k/m`, `c/m`), which moves the same.
    /// The inverse solves Pop's quadratic in the normalised bounciness and
    /// takes the root below 0.8, as `+convertTension:friction:toBounciness:speed:`
    /// does, with the same arithmetic; the one difference is at bounciness
    /// 34 itself, where Pop's strict comparison can pick the other root.
    public var popBouncinessAndSpeed: (bounciness: Double, speed: Double)? {
        // k/1 and c/1 are exact, so a spring of mass 1 takes Pop's path unchanged.
        let tension = stiffnessPerMass
        let friction = frictionPerMass
        let qcFriction = 8.0 + 2.0 * ((friction - 25.0) / (25.0 - 19.0))
        let qcTension = 30.0 + 50.0 * ((tension - 194.0) / (375.0 - 194.0))
        let noBounce = Self.popNoBounceFriction(qcTension)
        let roots = Self.popQuadraticRoots(
            a: noBounce - 0.01, b: 2 * (0.01 - noBounce), c: noBounce - qcFriction)
        // Pop takes x2 when it is below 0.8; at bounciness 34 (exactly 0.8)
        // rounding can put x2 a hair above and make Pop answer 51. Allowing
        // rounding-sized excess keeps the mapping one-to-one on [0, 34].
        let normalized = roots.x2 < 0.8 * (1 + 1e-12) ? roots.x2 : roots.x1
        let bounciness = ((20.0 * 1.7) / (0.8 - 0.0)) * (normalized - 0.0)
        let speed = ((20.0 * 1.7) / (200.0 - 0.5)) * (qcTension - 0.5)
        guard bounciness.isFinite, speed.isFinite else { return nil }
        return (bounciness, speed)
    }

    /// The intermediate Quartz Composer tension and friction of Pop's mapping.
    static func popQCValues(bounciness: Double, speed: Double) -> (tension: Double, friction: Double) {
        var b = popNormalize(bounciness / 1.7, 0, 20.0)
        b = popProject(b, 0.0, 0.8)
        let s = popNormalize(speed / 1.7, 0, 20.0)
        let qcTension = popProject(s, 0.5, 200)
        let t = 2 * b - b * b
        // Pop's linear_interpolation(t, start, end) = t·end + (1.f - t)·start.
        let qcFriction = t * 0.01 + (1.0 - t) * popNoBounceFriction(qcTension)
        return (qcTension, qcFriction)
    }

    /// The friction (in QC units) that gives no bounce at a QC tension: three
    /// cubic pieces joined at 18 and 44 (Pop's `b3_nobounce`).
    static func popNoBounceFriction(_ x: Double) -> Double {
        if x <= 18 {
            return (0.0007 * pow(x, 3)) - (0.031 * pow(x, 2)) + 0.64 * x + 1.28
        } else if x <= 44 {
            return (0.000044 * pow(x, 3)) - (0.006 * pow(x, 2)) + 0.36 * x + 2.0
        } else {
            return (0.00000045 * pow(x, 3)) - (0.000332 * pow(x, 2)) + 0.1078 * x + 5.84
        }
    }

    /// Both roots of `a·x² + b·x + c = 0` by the textbook formula, as Pop
    /// computes them (NaN when the discriminant is negative).
    static func popQuadraticRoots(a: Double, b: Double, c: Double) -> (x1: Double, x2: Double) {
        let discriminant = (b * b - 4 * a * c).squareRoot()
        return ((-b + discriminant) / (2 * a), (-b - discriminant) / (2 * a))
    }

    private static func popNormalize(_ value: Double, _ start: Double, _ end: Double) -> Double {
        (value - start) / (end - start)
    }

    private static func popProject(_ n: Double, _ start: Double, _ end: Double) -> Double {
        start + (n * (end - start))
    }
}
