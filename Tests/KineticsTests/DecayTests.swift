import Foundation
import Kinetics
import KineticsReference
import KineticsTestSupport
import Testing

@Suite("Decay")
struct DecayTests {
    static let decelerations = [0.99, 0.995, 0.998, 0.999, 0.9999]

    /// Runs a decay through the frame times; returns (values, velocities).
    func run(_ method: DecayMethod, _ d: Double, times: [Double], from: Double = 0, velocity: Double)
        -> (values: [Double], velocities: [Double])
    {
        let states = DecayStepper(
            parameters: try! DecayParameters(deceleration: d), method: method, value: from, velocity: velocity
        ).trajectory(at: times)
        return (states.map(\.value), states.map(\.velocity))
    }

    @Test("pop equals a plainly written decay_position bit for bit, jittered clock included")
    func popMatchesPlain() {
        var generator = SeededGenerator(seed: 11)
        for d in Self.decelerations {
            for velocity in [-20_000.0, -3.5, 1.0, 2_500.0] {
                var plain = PlainPopDecay(deceleration: d, x: 10, v: velocity)
                var stepper = DecayStepper(
                    parameters: try! DecayParameters(deceleration: d), method: .pop, value: 10.0, velocity: velocity)
                for _ in 0 ..< 300 {
                    let dt = Double.random(in: 0.004 ... 0.034, using: &generator)
                    plain.frame(dt)
                    stepper.advance(by: dt)
                    #expect(stepper.value.bitPattern == plain.x.bitPattern)
                    #expect(stepper.velocity.bitPattern == plain.v.bitPattern)
                }
            }
        }
    }

    @Test("continuous matches GSL's integration of x' = v, v' = -λv to 1e-12 of the throw")
    func continuousMatchesGSL() throws {
        for d in Self.decelerations {
            for velocity in [-20_000.0, 1.0, 1_500.0] {
                let times = frameTimes(fps: 60, seconds: 3)
                let computed = run(.continuous, d, times: times, velocity: velocity)
                let exact = try ReferenceODE.decay(deceleration: d, position: 0, velocity: velocity, times: times)
                let scale = abs(
                    try DecayParameters(deceleration: d).totalThrow(velocity: velocity, method: .continuous))
                // GSL's global error at tolerance 1e-13 stays below 1e-13 of the throw.
                #expect(maxDifference(computed.values, exact.map(\.position)) / scale <= 1e-12, "d \(d)")
                #expect(maxDifference(computed.velocities, exact.map(\.velocity)) / abs(velocity) <= 1e-12)
            }
        }
    }

    @Test("exact is GSL's continuous trajectory scaled by λd/(1000(1 - d)), to 1e-12 of the throw")
    func exactMatchesScaledGSL() throws {
        // The discrete law travels v/1000·d(1 - d^n)/(1 - d), the continuous one
        // v/λ·(1 - d^n): the same shape, a constant factor apart.
        for d in Self.decelerations {
            let velocity = 3_000.0
            let times = frameTimes(fps: 144, seconds: 3)
            let computed = run(.exact, d, times: times, velocity: velocity)
            let exact = try ReferenceODE.decay(deceleration: d, position: 0, velocity: velocity, times: times)
            let lambda = -1000 * log(d)
            let factor = lambda * d / (1000 * (1 - d))
            let scale = try DecayParameters(deceleration: d).totalThrow(velocity: velocity, method: .exact)
            let error = maxDifference(computed.values, exact.map { $0.position * factor }) / scale
            #expect(error <= 1e-12, "d \(d): \(error)")
        }
    }

    @Test("pop is within its single-precision bound of exact over 10 s")
    func popAgainstExact() {
        for d in Self.decelerations {
            let times = frameTimes(fps: 60, seconds: 10)
            let pop = run(.pop, d, times: times, velocity: 5_000).values
            let exact = run(.exact, d, times: times, velocity: 5_000).values
            let scale = try! DecayParameters(deceleration: d).totalThrow(velocity: 5_000, method: .exact)
            let error = maxDifference(pop, exact) / scale
            // Pop forms 1 - kv in float: an error of about a float ulp (2^-24)
            // in kv is relative error 2^-24/(1 - kv) in a frame's travel.
            // The velocity also drifts by about 2^-24 per frame (its float
            // copy and powf); weighted by travel, frames average 1/(1 - kv)
            // of them. Together, with a factor 2 to spare: 2^-22/(1 - kv) of
            // the throw, with kv = d^n for a frame of n = 16.7 ms.
            let bound = pow(2, -22) / -expm1(1000.0 / 60 * log(d))
            #expect(error <= bound && error > 0, "d \(d): \(error) > \(bound)")
        }
    }

    @Test("total throw for d = 0.998: 0.4990·v discrete, 0.4995·v continuous")
    func throwConstants() {
        let decay = DecayParameters.popDefault
        #expect(abs(decay.totalThrow(velocity: 1, method: .exact) - 0.499) < 1e-12)
        #expect(abs(decay.totalThrow(velocity: 1, method: .continuous) - 1 / (-1000 * log(0.998))) < 1e-15)
        #expect(abs(decay.totalThrow(velocity: 1, method: .continuous) - 0.4995) < 1e-4)
        // A 60 s run comes within 1e-9 of the total.
        let times = frameTimes(fps: 60, seconds: 60)
        let end = run(.exact, 0.998, times: times, velocity: 1000).values.last!
        #expect(abs(end - 499) < 1e-9)
    }

    @Test("duration to rest and end value follow Pop's formulas")
    func restAndEnd() {
        let decay = DecayParameters.popDefault
        let expected = log(5.0 / 1000) / (1000 * log(0.998))
        #expect(abs(decay.durationToRest(velocity: 1000.0, threshold: 1) - expected) < 1e-12)
        // The slowest component decides; zero and tiny velocities give 0.
        #expect(
            decay.durationToRest(velocity: SIMD2(-1000.0, 3.0), threshold: 1)
                == decay.durationToRest(velocity: 1000.0, threshold: 1))
        #expect(decay.durationToRest(velocity: 0.0, threshold: 1) == 0)
        #expect(decay.durationToRest(velocity: 4.0, threshold: 1) == 0)
        // At the end the velocity is 5·threshold.
        var stepper = DecayStepper(parameters: decay, method: .exact, value: 0.0, velocity: 1000.0)
        stepper.advance(by: expected)
        #expect(abs(stepper.velocity - 5) < 1e-9)
        #expect(decay.endValue(from: 0.0, velocity: 1000.0, threshold: 1, method: .exact) == stepper.value)
        #expect(stepper.isAtRest(threshold: 1.0001) && !stepper.isAtRest(threshold: 0.9999))
    }

    @Test("deceleration must be in (0, 1)")
    func badDeceleration() {
        for d in [0.0, 1.0, 1.5, -0.2, .nan, .infinity] {
            let error = #expect(throws: ParameterError.self) { try DecayParameters(deceleration: d) }
            #expect(error?.parameter == "deceleration" && error?.accepted == "in (0, 1)")
        }
    }

    @Test("bad frames are ignored and counted")
    func badFrames() {
        for method in DecayMethod.allCases {
            var stepper = DecayStepper(parameters: .popDefault, method: method, value: 1.0, velocity: 100.0)
            for dt in [-1.0, .nan, .infinity] { stepper.advance(by: dt) }
            #expect(stepper.ignoredFrames == 3 && stepper.value == 1 && stepper.velocity == 100)
        }
    }
}
