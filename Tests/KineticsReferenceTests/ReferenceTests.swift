import Foundation
import Kinetics
import KineticsReference
import Testing

/// The reference itself against closed forms: if GSL or its wrapping drifts,
/// these fail before any solver test trusts it.
@Suite("GSL reference")
struct ReferenceTests {
    static let times = frameTimes(fps: 120, seconds: 2)

    @Test("an undamped spring is cos(ωt) and -ω·sin(ωt), to 1e-12")
    func undamped() throws {
        let omega = 17.0
        let samples = try ReferenceODE.spring(
            tension: omega * omega, friction: 0, mass: 1, displacement: 1, velocity: 0, times: Self.times)
        for sample in samples {
            #expect(abs(sample.position - cos(omega * sample.time)) <= 1e-12)
            #expect(abs(sample.velocity + omega * sin(omega * sample.time)) <= 1e-12 * omega)
        }
    }

    @Test("a critically damped spring is (d₀ + (v₀ + ωd₀)t)e^{-ωt}, to 2e-13")
    func critical() throws {
        let omega = 15.0
        let samples = try ReferenceODE.spring(
            tension: omega * omega, friction: 2 * omega, mass: 1, displacement: -1, velocity: 7, times: Self.times)
        for sample in samples {
            let t = sample.time
            #expect(abs(sample.position - (-1 + (7 - omega) * t) * exp(-omega * t)) <= 2e-13)
        }
    }

    @Test("a decay is x₀ + v₀(1 - e^{-λt})/λ, to 1e-13 of the throw")
    func decay() throws {
        let lambda = -1000 * log(0.998)
        let samples = try ReferenceODE.decay(deceleration: 0.998, position: 3, velocity: 800, times: Self.times)
        for sample in samples {
            let exact = 3 + 800 * -expm1(-lambda * sample.time) / lambda
            #expect(abs(sample.position - exact) <= 1e-13 * 800 / lambda)
        }
    }

    @Test("a failed integration is an error, not a number")
    func failures() {
        let tooFewSteps = ODETolerance(absolute: 1e-13, relative: 1e-13, maxSteps: 5)
        let error = #expect(throws: GSLError.self) {
            try ReferenceODE.spring(
                tension: 100, friction: 1, mass: 1, displacement: 1, velocity: 0, times: [0, 10],
                tolerance: tooFewSteps)
        }
        #expect(error?.function == "gsl_odeiv2_driver_apply")
        #expect(error?.description.contains("status") == true)
        #expect(throws: GSLError.self) {
            try ReferenceODE.spring(tension: 1, friction: 1, mass: 1, displacement: 1, velocity: 0, times: [1, 0.5])
        }
        #expect(throws: GSLError.self) {
            try ReferenceODE.spring(tension: 1, friction: 1, mass: 1, displacement: 1, velocity: 0, times: [.nan])
        }
    }

    @Test("bezier: the cubic's root, brent alone and a known answer agree")
    func bezier() throws {
        // cubic-bezier(1/3, 0, 2/3, 1) has x(t) = t up to rounding: t ≈ x.
        let linearX = ReferenceBezier(x1: 1.0 / 3, y1: 0, x2: 2.0 / 3, y2: 1)
        for x in stride(from: 0.01, to: 1, by: 0.01) {
            #expect(abs(try linearX.parameter(x: x) - x) <= 1e-15)
        }
        let ease = ReferenceBezier(x1: 0.42, y1: 0, x2: 0.58, y2: 1)
        for x in stride(from: 0.001, to: 1, by: 0.0137) {
            let a = try ease.parameter(x: x)
            let b = try ease.brent(x: x)
            #expect(abs(a - b) <= 4e-16, "x \(x)")
            #expect(abs(ease.x(at: a) - x) <= 4e-16)
        }
        #expect(throws: GSLError.self) { try ease.brent(x: 0.5, lower: 0.6, upper: 1) }
    }

    @Test("quadratic and cubic roots")
    func roots() {
        #expect(ReferenceRoots.quadratic(a: 1, b: -3, c: 2) == [1, 2])
        #expect(ReferenceRoots.quadratic(a: 1, b: 0, c: 1).isEmpty)
        #expect(ReferenceRoots.monicCubic(a: -6, b: 11, c: -6) == [1, 2, 3])
        #expect(!GSL.version.isEmpty)
    }
}
