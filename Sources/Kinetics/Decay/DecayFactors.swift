import CKineticsSupport

/// The law of a decay's frame, written once: the per-frame factors of one
/// deceleration (they depend only on the deceleration, the method and the
/// frame length) and their application to a value and its velocity.
/// ``DecayStepper`` computes them for each frame; the animator's decay
/// batches compute them once per tick for every decay of a deceleration.
struct DecayFactors {
    /// `pop`: Pop's single-precision velocity and distance factors.
    var kvFloat: Float = 1
    var kxFloat: Float = 0
    /// `exact` and `continuous`: velocity factor and distance per unit of velocity.
    var kv = 1.0
    var distance = 0.0

    init() {}

    init(deceleration d: Double, method: DecayMethod, dt: Double) {
        switch method {
        case .pop:
            kvFloat = powf(Float(d), Float(dt * 1000))
            kxFloat = Float(d * Double(1 - kvFloat) / (1 - d))
        case .exact:
            let exponent = dt * 1000 * log(d)
            kv = exp(exponent)
            distance = d * -expm1(exponent) / (1 - d) / 1000
        case .continuous:
            let rate = -1000 * log(d)
            kv = exp(-rate * dt)
            distance = -expm1(-rate * dt) / rate
        }
    }

    /// Advances `value` and `velocity` by the frame these factors are for.
    /// `pop`: Pop's `decay_position`, its float and double operations in
    /// order; `exact` and `continuous`: the distance, then the velocity.
    @inline(__always)
    func advance<V: AnimatableVector>(_ value: inout V, _ velocity: inout V, method: DecayMethod) {
        switch method {
        case .pop:
            for component in 0 ..< V.componentCount {
                let v0 = Float(velocity[component: component] / 1000.0)
                velocity[component: component] = Double(v0 * kvFloat) * 1000.0
                value[component: component] = value[component: component] + Double(v0 * kxFloat)
            }
        case .exact, .continuous:
            value = value + velocity * distance
            velocity = velocity * kv
        }
    }
}
