#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The per-frame factors of one deceleration, shared by every decay that uses
/// it: they depend only on the deceleration, the method and the frame length.
struct DecayFactors {
    /// `pop`: Pop's single-precision velocity and distance factors.
    var kvFloat: Float = 1
    var kxFloat: Float = 0
    /// `exact` and `continuous`: velocity factor and distance per unit of velocity.
    var kv = 1.0
    var distance = 0.0

    init(_ parameters: DecayParameters, method: DecayMethod, dt: Double) {
        let d = parameters.deceleration
        switch method {
        case .pop:
            kvFloat = powf(Float(d), Float(dt * 1000))
            kxFloat = Float(d * Double(1 - kvFloat) / (1 - d))
        case .exact:
            let exponent = dt * 1000 * log(d)
            kv = exp(exponent)
            distance = d * -expm1(exponent) / (1 - d) / 1000
        case .continuous:
            let rate = parameters.rate
            kv = exp(-rate * dt)
            distance = -expm1(-rate * dt) / rate
        }
    }
}

/// The decays of one lane that share a method, in structure-of-arrays form.
final class DecayBatch<V: AnimatableVector> {
    let method: DecayMethod
    var state: [ElementState<V>] = []
    var value: [V] = []
    var velocity: [V] = []
    var deceleration: [Double] = []

    /// Factors of the current tick, for the last few decelerations seen.
    var cacheSerial: UInt64 = .max
    var cacheDT = -1.0
    var cachedDeceleration = -1.0
    var cachedFactors = DecayFactors(.popDefault, method: .exact, dt: 0)

    init(method: DecayMethod) { self.method = method }

    var count: Int { state.count }

    func append(_ element: ElementState<V>, value start: V, velocity initial: V, deceleration d: Double) -> Int32 {
        state.append(element)
        value.append(start)
        velocity.append(initial)
        deceleration.append(d)
        return Int32(state.count - 1)
    }

    func remove(at index: Int) -> AnimationHandle? {
        let last = state.count - 1
        let moved: AnimationHandle? = index == last ? nil : state[last].owner
        state.swapAt(index, last)
        state.removeLast()
        value.swapAt(index, last)
        value.removeLast()
        velocity.swapAt(index, last)
        velocity.removeLast()
        deceleration.swapAt(index, last)
        deceleration.removeLast()
        return moved
    }

    func factors(_ d: Double, _ context: FrameContext) -> DecayFactors {
        if cacheSerial == context.serial && cacheDT == context.dt && cachedDeceleration == d { return cachedFactors }
        cachedFactors = DecayFactors(try! DecayParameters(deceleration: d), method: method, dt: context.dt)
        cacheSerial = context.serial
        cacheDT = context.dt
        cachedDeceleration = d
        return cachedFactors
    }

    func advance(_ context: FrameContext, values: UnsafeMutablePointer<V>, output: inout FrameOutput) {
        for index in 0 ..< state.count where !state[index].paused {
            advanceElement(index, context: context, values: values, output: &output)
        }
    }

    /// One frame of one decay: Pop's `decay_position` (or the exact or
    /// continuous law), clamped at its end value, done when every component
    /// of the velocity is below `5·threshold`.
    func advanceElement(_ index: Int, context: FrameContext, values: UnsafeMutablePointer<V>, output: inout FrameOutput) {
        let f = factors(deceleration[index], context)
        var x = value[index]
        var v = velocity[index]
        switch method {
        case .pop:
            for component in 0 ..< V.componentCount {
                let v0 = Float(v[component: component] / 1000.0)
                v[component: component] = Double(v0 * f.kvFloat) * 1000.0
                x[component: component] = x[component: component] + Double(v0 * f.kxFloat)
            }
        case .exact, .continuous:
            x = x + v * f.distance
            v = v * f.kv
        }
        // Pop clamps a decay at its end value (and at its start when asked).
        var clampState = state[index]
        clampState.clamp.insert(.end)
        x = clampState.clamped(x)
        value[index] = x
        velocity[index] = v
        state[index].write(x, into: values)
        let bound = state[index].threshold * DecayParameters.restVelocityFactor
        var done = true
        for component in 0 ..< V.componentCount where !(abs(v[component: component]) < bound) {
            done = false
        }
        if done {
            output.finished.append(state[index].owner)
        } else if state[index].wantsEvents {
            output.events.append(state[index].owner)
        }
    }
}
