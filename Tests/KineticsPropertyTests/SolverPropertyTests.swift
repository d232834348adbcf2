import Foundation
import Kinetics
import KineticsTestSupport
import PropertyBased
import Testing

/// Invariants of the solvers over random inputs, with shrinking to a
/// minimal failing case.
@Suite("Properties: solvers")
struct SolverPropertyTests {
    /// Springs from soft to stiff, undamped to strongly overdamped, light to heavy.
    static let springs = zip(
        Gen.double(in: -2 ... 9),  // log10 tension
        Gen.double(in: -3 ... 4),  // log10 (friction + 1e-3)
        Gen.double(in: -3 ... 3)  // log10 mass
    ).map { (tension: pow(10, $0), friction: pow(10, $1) - 1e-3, mass: pow(10, $2)) }

    static func spring(_ p: (tension: Double, friction: Double, mass: Double)) -> SpringParameters {
        try! SpringParameters(tension: p.tension, friction: max(p.friction, 0), mass: p.mass)
    }

    @Test("the exact propagator never gains energy: ½kd² + ½mv² does not grow over time")
    func energy() async {
        await propertyCheck(count: 300, input: Self.springs, Gen.double(in: -1 ... 1), Gen.double(in: -1 ... 1)) {
            p, d, v in
            let spring = Self.spring(p)
            func energy(_ d: Double, _ v: Double) -> Double { 0.5 * spring.tension * d * d + 0.5 * spring.mass * v * v }
            // Velocities scaled to the spring, so both terms matter.
            var state = (displacement: d, velocity: v * spring.naturalFrequency)
            var last = energy(state.displacement, state.velocity)
            let step = SpringPropagator.exact(spring, time: 0.37 / spring.naturalFrequency)
            for _ in 0 ..< 40 {
                state = step.apply(displacement: state.displacement, velocity: state.velocity)
                let now = energy(state.displacement, state.velocity)
                // Rounding: a few ulps of the starting energy per step.
                #expect(
                    now <= last + 1e-12 * energy(d, v * spring.naturalFrequency) + 1e-300, "\(spring) d=\(d) v=\(v)")
                #expect(now.isFinite)
                last = now
            }
        }
    }

    @Test("the exact solution satisfies the ODE: m·a + c·v + k·d = 0, with a from the velocity's central difference")
    func ode() async {
        await propertyCheck(count: 300, input: Self.springs, Gen.double(in: 0.01 ... 5)) { p, periods in
            let spring = Self.spring(p)
            let t = periods / spring.naturalFrequency
            let h = 1e-4 / max(spring.naturalFrequency, spring.frictionPerMass)
            func state(_ time: Double) -> (d: Double, v: Double) {
                let map = SpringPropagator.exact(spring, time: time)
                let next = map.apply(displacement: 1.0, velocity: 0.0)
                return (next.displacement, next.velocity)
            }
            let now = state(t)
            let acceleration = (state(t + h).v - state(t - h).v) / (2 * h)
            let residual = spring.mass * acceleration + spring.friction * now.v + spring.tension * now.d
            // Scale: the largest term; the central difference is second order in h.
            let scale = max(spring.tension * 1, spring.friction * abs(now.v), spring.mass * abs(acceleration), 1e-300)
            #expect(abs(residual) <= 1e-5 * scale, "\(spring) at t=\(t): residual \(residual) of \(scale)")
        }
    }

    @Test("RK4 converges to the exact answer with order 4 as the step shrinks")
    func rk4Converges() async {
        await propertyCheck(count: 200, input: Self.springs.filter { $0.tension / $0.mass < 1e6 }) { p in
            let spring = Self.spring(p)
            // Steps well inside RK4's stability region and above rounding.
            let rate = max(spring.naturalFrequency, spring.frictionPerMass)
            let h = 0.05 / rate
            let time = 64 * h
            let exact = SpringPropagator.exact(spring, time: time).apply(displacement: 1.0, velocity: 0.0)
            // The error of the whole state in the energy norm: an
            // oscillator's RK4 error is mostly phase, which a displacement
            // alone hides near its extremes.
            let scale = max(spring.naturalFrequency, spring.frictionPerMass)
            func error(_ steps: Int) -> Double {
                let map = SpringPropagator.rk4Step(spring, step: time / Double(steps)).power(steps)
                let state = map.apply(displacement: 1.0, velocity: 0.0)
                return hypot(state.displacement - exact.displacement, (state.velocity - exact.velocity) / scale)
            }
            let coarse = error(64)
            let fine = error(128)
            // Halving the step divides the error by 2⁴: the observed order
            // log₂(coarse/fine) is 4 within 0.1 (at h·rate = 0.05 and 0.025
            // the h⁵ term moves it by a few hundredths), wherever the error
            // is far above the rounding of 128 matrix products (~1e-14):
            // above 1e-9. (Heavily damped springs whose fast mode has died
            // out err less; there the finer step must not be worse.)
            if coarse > 1e-9 {
                let order = log2(coarse / fine)
                #expect(abs(order - 4) <= 0.1, "\(spring): order \(order) (\(coarse) then \(fine))")
            } else {
                #expect(fine <= coarse + 1e-13, "\(spring): \(coarse) then \(fine)")
            }
        }
    }

    @Test("Pop's loop, inside its stability range, equals Pop's scheme written with step matrices")
    func popBounded() async {
        await propertyCheck(count: 300, input: Self.springs, Gen.double(in: 30 ... 240)) { p, fps in
            let spring = Self.spring(p)
            // Outside the range, RK4 with Pop's 1 ms step diverges (as Pop's
            // does); the animator refuses such springs.
            guard SpringMethod.pop.isStable(for: spring) else { return }
            var stepper = SpringStepper(parameters: spring, method: .pop, value: 0.0, target: 1.0)
            // Pop's frame written plainly with the step as a matrix M: n
            // whole steps, the state blended between Mⁿ⁻¹s and Mⁿs by the
            // leftover fraction, the blend fed back as the next start.
            let h = SpringMethod.popStep
            let step = SpringPropagator.rk4Step(spring, step: h)
            var state = (displacement: -1.0, velocity: 0.0)
            var leftover = 0.0
            var bound = 1.0
            for _ in 0 ..< Int(fps) {
                stepper.advance(by: 1 / fps)
                leftover += 1 / fps
                var steps = 0
                while leftover >= h {
                    leftover -= h
                    steps += 1
                }
                let alpha = leftover / h
                let before =
                    steps > 0
                    ? step.power(steps - 1).apply(displacement: state.displacement, velocity: state.velocity) : state
                let after = steps > 0 ? step.apply(displacement: before.displacement, velocity: before.velocity) : state
                state = (
                    before.displacement * (1 - alpha) + after.displacement * alpha,
                    before.velocity * (1 - alpha) + after.velocity * alpha
                )
                bound = max(bound, abs(state.displacement))
                // Matrix products against stage-by-stage steps: rounding of
                // a few ulps per step, over up to 1,000 steps.
                #expect(abs(stepper.value - (1 + state.displacement)) <= 1e-9 * bound, "\(spring) at \(fps) Hz")
            }
        }
    }

    @Test("a decay never passes the limit of its law (the throw at infinite time), in any mode, at any frame rate")
    func decayLimit() async {
        await propertyCheck(
            count: 300, input: Gen.double(in: 0.9 ..< 1), Gen.double(in: -1e5 ... 1e5), Gen.double(in: 20 ... 500)
        ) {
            deceleration, velocity, fps in
            let parameters = try! DecayParameters(deceleration: deceleration)
            for method in DecayMethod.allCases {
                // The discrete law throws v·d/(1000(1 - d)); the continuous one v/λ.
                let limit =
                    method == .continuous
                    ? velocity / parameters.rate : velocity / 1000 * deceleration / (1 - deceleration)
                // pop computes in single precision: its throw may differ by
                // float rounding (a few 1e-7 relative).
                let slack = (method == .pop ? 1e-6 : 1e-12) * abs(limit)
                var stepper = DecayStepper(parameters: parameters, method: method, value: 0.0, velocity: velocity)
                for _ in 0 ..< 600 {
                    stepper.advance(by: 1 / fps)
                    #expect(
                        abs(stepper.value) <= abs(limit) + slack,
                        "\(method) d=\(deceleration) v=\(velocity) at \(fps) Hz")
                    #expect(stepper.value == 0 || stepper.value.sign == limit.sign)
                }
                #expect(parameters.endValue(from: 0.0, velocity: velocity, threshold: 0.01, method: method).isFinite)
            }
        }
    }

    @Test("bezier y lies within the curve's own y range, for every method and x")
    func bezierRange() async {
        let curves = zip(
            Gen.double(in: 0 ... 1), Gen.double(in: -3 ... 3), Gen.double(in: 0 ... 1), Gen.double(in: -3 ... 3))
        // 100 curves (300 with KINETICS_LONG_TESTS): each builds a table.
        await propertyCheck(count: sized(100, full: 300), input: curves, Gen.double(in: -0.5 ... 1.5)) { c, x in
            let curve = try! UnitBezier(x1: c.0, y1: c.1, x2: c.2, y2: c.3)
            // y(t) for t in [0, 1] lies in the hull of 0, y1, y2 and 1.
            let low = min(0, c.1, c.3)
            let high = max(1, c.1, c.3)
            for method in BezierMethod.allCases {
                // WebKit's Newton phase may find the cubic's extension
                // beyond [0, 1] for x outside [0, 1]; webkit keeps that.
                if method == .webkit && !(0 ... 1).contains(x) { continue }
                let y = curve.solve(x, method: method, epsilon: 1.0 / 400)
                #expect(y >= low - 1e-12 && y <= high + 1e-12, "\(curve) at \(x), \(method): \(y)")
            }
            let table = BezierTable(curve, segments: 32)
            let y = table.solve(x)
            #expect(y >= low - 1e-7 && y <= high + 1e-7, "table \(curve) at \(x): \(y)")
        }
    }

    @Test("parameter conversions round-trip")
    func conversions() async {
        await propertyCheck(count: 300, input: Gen.double(in: 0 ... 20), Gen.double(in: 0.5 ... 40)) {
            bounciness, speed in
            let spring = try! SpringParameters(bounciness: bounciness, speed: speed)
            if let back = spring.popBouncinessAndSpeed {
                #expect(
                    abs(back.bounciness - bounciness) <= 1e-8 * max(1, bounciness), "\(bounciness), \(speed) → \(back)")
                #expect(abs(back.speed - speed) <= 1e-8 * max(1, speed), "\(bounciness), \(speed) → \(back)")
            }
            let swiftUI = try! SpringParameters(duration: spring.duration, bounce: spring.bounce, mass: spring.mass)
            #expect(abs(swiftUI.tension - spring.tension) <= 1e-10 * spring.tension)
            #expect(abs(swiftUI.friction - spring.friction) <= 1e-10 * max(spring.friction, 1e-12 * spring.tension))
            let response = try! SpringParameters(
                response: spring.response, dampingFraction: spring.dampingFraction, mass: spring.mass)
            #expect(abs(response.tension - spring.tension) <= 1e-10 * spring.tension)
        }
    }
}
