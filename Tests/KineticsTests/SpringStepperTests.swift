import Foundation
import Kinetics
import KineticsReference
import KineticsTestSupport
import Testing

@Suite("Spring: steppers")
struct SpringStepperTests {
    // MARK: pop

    @Test("pop equals a plainly written Pop loop bit for bit", arguments: [30.0, 60.0, 120.0, 144.0])
    func popMatchesPlainPop(fps: Double) {
        for (parameters, from, to, velocity) in [
            (SpringParameters.popDefault, 0.0, 1.0, 0.0),
            (try! SpringParameters(tension: 40, friction: 7), 100.0, -250.0, 2500.0),
            (try! SpringParameters(bounciness: 20, speed: 3), 0.3, 0.7, -1.5),
        ] {
            var plain = PlainPopSpring(
                k: parameters.tension, b: parameters.friction, m: parameters.mass,
                to: to, value: from, velocity: velocity)
            var stepper = SpringStepper(
                parameters: parameters, method: .pop, value: from, velocity: velocity, target: to)
            let times = frameTimes(fps: fps, seconds: 10)
            for k in times.indices.dropFirst() {
                let dt = times[k] - times[k - 1]
                plain.frame(dt)
                stepper.advance(by: dt)
                #expect(stepper.value.bitPattern == plain.value.bitPattern, "frame \(k)")
                #expect(stepper.velocity.bitPattern == plain.velocity.bitPattern, "frame \(k)")
            }
        }
    }

    @Test("pop equals the plain loop on a jittered clock and per component of a vector")
    func popJitteredAndVector() {
        var generator = SeededGenerator(seed: 7)
        let parameters = try! SpringParameters(tension: 300, friction: 12, mass: 1.5)
        var plainX = PlainPopSpring(k: 300, b: 12, m: 1.5, to: 50, value: -20, velocity: 300)
        var plainY = PlainPopSpring(k: 300, b: 12, m: 1.5, to: 5, value: 80, velocity: -60)
        var stepper = SpringStepper(
            parameters: parameters, method: .pop, value: SIMD2(-20.0, 80.0), velocity: SIMD2(300.0, -60.0),
            target: SIMD2(50.0, 5.0))
        for _ in 0 ..< 2_000 {
            // Frames of 4 to 40 ms, with now and then a dropped frame or two.
            let dt = Double.random(in: 0.004 ... 0.040, using: &generator)
            plainX.frame(dt)
            plainY.frame(dt)
            stepper.advance(by: dt)
            #expect(stepper.value.x == plainX.value && stepper.value.y == plainY.value)
            #expect(stepper.velocity.x == plainX.velocity && stepper.velocity.y == plainY.velocity)
        }
    }

    @Test("pop uses Pop's step, the float 0.001f widened to double")
    func popStep() {
        #expect(SpringMethod.popStep == 0.0010000000474974513 && SpringMethod.popStep == Double(Float(0.001)))
    }

    @Test("pop loses part of a step every frame: it depends on the frame rate")
    func popIsFrameRateDependent() {
        let times120 = frameTimes(fps: 120, seconds: 1)
        let at60 = run(.popDefault, .pop, times: frameTimes(fps: 60, seconds: 1)).values
        let at120 = run(.popDefault, .pop, times: times120).values
        // Common times: every second frame at 120 Hz.
        let common = stride(from: 0, to: times120.count, by: 2).map { at120[$0] }
        #expect(maxDifference(at60, common) > 1e-3)
    }

    @Test("a frame over 30 s shuts the pop solver down and leaves the state")
    func popShutDown() {
        var stepper = SpringStepper(parameters: .popDefault, method: .pop, value: 0.0, velocity: 3.0, target: 1.0)
        stepper.advance(by: 1.0 / 60)
        let before = (stepper.value, stepper.velocity)
        #expect(!stepper.solverIsAtRest(threshold: 0.01))
        stepper.advance(by: 30.1)
        #expect(stepper.isShutDown)
        #expect(stepper.value == before.0 && stepper.velocity == before.1)
        #expect(stepper.solverIsAtRest(threshold: 0.01))
    }

    // MARK: rk4 and fixed against GSL

    /// RK4's error per step is the first dropped Taylor term, (ω·h)⁵/120 of
    /// the state; over n steps it adds up to at most n·(ω·h)⁵/120 of the
    /// amplitude (damping only shrinks it). Here ω·h = 18.5 × 1e-3.
    static func rk4Bound(_ parameters: SpringParameters, seconds: Double, step: Double) -> Double {
        let omegaH = parameters.fastestRate * step
        return seconds / step * pow(omegaH, 5) / 120
    }

    @Test("rk4 is within its error bound of GSL", arguments: [30.0, 60.0, 120.0, 144.0, 240.0])
    func rk4MatchesGSL(fps: Double) throws {
        for parameters in [SpringParameters.popDefault, spring(omega: 30, zeta: 0.1), spring(omega: 10, zeta: 20)] {
            let times = frameTimes(fps: fps, seconds: 2)
            let computed = run(parameters, .rk4, times: times, velocity: 5)
            let exact = try reference(parameters, times: times, velocity: 5)
            let amplitude = exact.values.map { abs($0 - 1) }.max()!
            let bound = Self.rk4Bound(parameters, seconds: 2, step: 0.001)
            let error = maxDifference(computed.values, exact.values) / amplitude
            #expect(error <= bound, "\(parameters) at \(fps) Hz: \(error) > \(bound)")
            #expect(error > 0)
        }
    }

    @Test("rk4 converges with order 4: halving the step divides the error by 16")
    func rk4Order() {
        // One frame of 0.5 s with a spring of ω = 20, stepped at 2^-k s.
        let parameters = spring(omega: 20, zeta: 0.2)
        let exact = SpringPropagator.exact(parameters, time: 0.5).apply(displacement: 1.0, velocity: 0.0).displacement
        func error(steps: Int) -> Double {
            let map = SpringPropagator.rk4Step(parameters, step: 0.5 / Double(steps)).power(steps)
            return abs(map.apply(displacement: 1.0, velocity: 0.0).displacement - exact)
        }
        let ratio = error(steps: 256) / error(steps: 512)
        #expect(abs(log2(ratio) - 4) < 0.05, "observed order \(log2(ratio))")
    }

    @Test("fixed is within RK4's bound plus the linear blend's h²ω²/8 of GSL", arguments: [30.0, 60.0, 120.0, 144.0])
    func fixedMatchesGSL(fps: Double) throws {
        let parameters = SpringParameters.popDefault
        let times = frameTimes(fps: fps, seconds: 2)
        let computed = run(parameters, .fixed, times: times)
        let exact = try reference(parameters, times: times)
        // Linear interpolation between grid states misses the curve by at most
        // h²/8·max|x''| <= h²/8·ω²·(amplitude + 2ζ·|v|/ω), bounded by h²ω²/8·(1 + 2ζ).
        let h = SpringMethod.gridStep
        let omega2 = parameters.stiffnessPerMass
        let bound =
            h * h * omega2 / 8 * (1 + 2 * parameters.dampingRatio)
            + Self.rk4Bound(parameters, seconds: 2, step: h)
        let error = maxDifference(computed.values, exact.values)
        #expect(error <= bound, "\(error) > \(bound)")
    }

    @Test("a frame spanning over 10,000 steps takes the matrix-power path and agrees with stepping")
    func longFrames() {
        let parameters = spring(omega: 2, zeta: 0.05)
        for method in [SpringMethod.rk4, .fixed] {
            var long = SpringStepper(parameters: parameters, method: method, value: 0.0, velocity: 1.0, target: 1.0)
            long.advance(by: 25)
            var short = SpringStepper(parameters: parameters, method: method, value: 0.0, velocity: 1.0, target: 1.0)
            for _ in 0 ..< 25 { short.advance(by: 1) }
            // 25,000 steps of rounding either way: 1e-12 of the amplitude.
            #expect(abs(long.value - short.value) < 1e-12, "\(method)")
            #expect(abs(long.velocity - short.velocity) < 1e-11, "\(method)")
        }
    }

    @Test("rk4's step keeps stiff and lightly damped springs within 1e-7 of GSL; Pop's default keeps 1 ms")
    func rk4AccuracyStep() throws {
        #expect(SpringParameters.popDefault.rk4MaximumStep == 0.001)
        for parameters in [
            spring(omega: 316, zeta: 0.01), spring(omega: 100, zeta: 0.2, mass: 0.1),
            spring(omega: 50, zeta: 30), spring(omega: 316, zeta: 1),
        ] {
            #expect(parameters.rk4MaximumStep < 0.001)
            let times = frameTimes(fps: 60, seconds: 3)
            let computed = run(parameters, .rk4, times: times, velocity: 40)
            let exact = try reference(parameters, times: times, velocity: 40)
            let amplitude = exact.values.map { abs($0 - 1) }.max()!
            // The step is chosen for 1e-9 of the amplitude per mode; 1e-7
            // leaves room for the constant of the estimate.
            let error = maxDifference(computed.values, exact.values) / amplitude
            #expect(error <= 1e-7, "\(parameters): \(error)")
        }
    }

    @Test("rk4 shortens its step for stiff springs and follows the exact motion")
    func rk4Stiff() {
        // ω₀ = 3.2e7 rad/s, ζ = 0.16: a period of 0.2 µs, so a 60 Hz frame
        // takes about 2.7e7 steps (matrix powers). Frames of 10 ns see the
        // motion itself; 60 Hz frames see it settled.
        let stiff = try! SpringParameters(tension: 1e9, friction: 10, mass: 1e-6)
        #expect(stiff.rk4MaximumStep < 1e-9)
        for times in [(0 ... 100).map { Double($0) * 1e-8 }, frameTimes(fps: 60, seconds: 0.5)] {
            let values = run(stiff, .rk4, times: times, velocity: 0).values
            for (time, value) in zip(times, values) {
                let exact =
                    1 + SpringPropagator.exact(stiff, time: time).apply(displacement: -1.0, velocity: 0.0).displacement
                // The step is chosen for 1e-9 of the amplitude; 1e-7 as in
                // rk4Accuracy above.
                #expect(abs(value - exact) <= 1e-7, "t = \(time): \(value) vs \(exact)")
            }
        }
    }

    // MARK: Frame-rate independence

    @Test("analytic, fixed and rk4 agree across 60, 120 and 144 Hz at common times")
    func frameRateIndependence() {
        // Common times of 60, 120 and 144 Hz: multiples of 1/12 s.
        let parameters = SpringParameters.popDefault
        let tolerance: [SpringMethod: Double] = [
            .analytic: 1e-14,  // a few roundings per frame
            .fixed: 1e-12,  // the same grid; only the blend weight is rounded differently
            .rk4: SpringStepperTests.rk4Bound(parameters, seconds: 2, step: 0.001) * 2,
        ]
        for (method, bound) in tolerance {
            let series = [60.0, 120.0, 144.0].map { fps -> [Double] in
                let times = frameTimes(fps: fps, seconds: 2)
                let values = run(parameters, method, times: times, velocity: -3).values
                let stride = Int(fps / 12)
                return Swift.stride(from: 0, to: values.count, by: stride).map { values[$0] }
            }
            #expect(maxDifference(series[0], series[1]) <= bound, "\(method) 60/120")
            #expect(maxDifference(series[0], series[2]) <= bound, "\(method) 60/144")
        }
    }

    // MARK: Edge cases

    @Test("negative and non-finite frames are ignored and counted; a zero frame changes nothing")
    func badFrames() {
        for method in SpringMethod.allCases {
            var stepper = SpringStepper(
                parameters: .popDefault, method: method, value: 0.25, velocity: 1.0, target: 1.0)
            stepper.advance(by: 1.0 / 60)
            let state = (stepper.value, stepper.velocity)
            for dt in [-0.01, .nan, .infinity, -.infinity] { stepper.advance(by: dt) }
            #expect(stepper.ignoredFrames == 4)
            #expect(stepper.value == state.0 && stepper.velocity == state.1, "\(method)")
            if method != .pop {
                stepper.advance(by: 0)
                #expect(stepper.value == state.0 && stepper.velocity == state.1, "\(method) zero frame")
            }
        }
    }

    @Test("a new target applies from the next frame, from the current value and velocity")
    func retarget() {
        for method in SpringMethod.allCases {
            var stepper = SpringStepper(parameters: .popDefault, method: method, value: 0.0, target: 1.0)
            for _ in 0 ..< 10 { stepper.advance(by: 1.0 / 60) }
            let before = (stepper.value, stepper.velocity)
            stepper.target = 3
            #expect(stepper.value == before.0 && stepper.velocity == before.1)
            for _ in 0 ..< 300 { stepper.advance(by: 1.0 / 60) }
            #expect(abs(stepper.value - 3) < 1e-3, "\(method) reaches the new target")
        }
    }

    @Test("the solver rest test follows Pop's thresholds")
    func restTest() {
        let threshold = 1.0
        #expect(PopRestTest.solverHasConverged(displacement: 0.49, velocity: 4.9, slope: 24.9, threshold: threshold))
        #expect(!PopRestTest.solverHasConverged(displacement: 0.5, velocity: 0.0, slope: 0.0, threshold: threshold))
        #expect(!PopRestTest.solverHasConverged(displacement: 0.0, velocity: 5.0, slope: 0.0, threshold: threshold))
        #expect(!PopRestTest.solverHasConverged(displacement: 0.0, velocity: 0.0, slope: 25.0, threshold: threshold))
        // Squared norms over the components of a vector.
        #expect(
            !PopRestTest.solverHasConverged(
                displacement: SIMD2(0.1, 0.1), velocity: SIMD2(3.6, 3.6), slope: SIMD2(0.0, 0.0), threshold: threshold))
        var stepper = SpringStepper(parameters: .popDefault, method: .pop, value: 0.0, target: 100.0)
        #expect(!stepper.solverIsAtRest(threshold: threshold))
        var frames = 0
        while !stepper.solverIsAtRest(threshold: threshold) && frames < 600 {
            stepper.advance(by: 1.0 / 60)
            frames += 1
        }
        #expect(frames > 10 && frames < 120)
    }

    @Test("the animation rest test: last two values within t/5, or equal to the target with rounding")
    func animationRestTest() {
        #expect(PopRestTest.animationHasConverged(previous2: 99.9, previous: 99.95, target: 100.0, threshold: 1))
        #expect(!PopRestTest.animationHasConverged(previous2: 99.7, previous: 99.95, target: 100.0, threshold: 1))
        #expect(
            !PopRestTest.animationHasConverged(
                previous2: 99.9, previous: 99.95, target: 100.0, threshold: 1, roundingFactor: 0.5))
        #expect(
            PopRestTest.animationHasConverged(
                previous2: 100.0, previous: 100.0, target: 100.0, threshold: 1, roundingFactor: 0.5))
    }
}
