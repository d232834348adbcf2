import Foundation
import Kinetics
import KineticsReference
import KineticsTestSupport
import Testing

/// The closed form (`analytic`) against GSL's rk8pd and exact formulas.
///
/// Tolerance: GSL integrates at absolute and relative tolerance 1e-13 per
/// step; over a 2 s trajectory its global error measures below 2e-13 of the
/// amplitude on these springs (checked against the critically damped and
/// undamped formulas in KineticsReferenceTests). The closed form itself is
/// accurate to a few ulps, so 1e-12 of the amplitude leaves the reference's
/// error and nothing else. This is the bound (~1e-12) at ζ = 1 ± 1e-9
/// and ζ = 500.
@Suite("Spring: analytic")
struct SpringAnalyticTests {
    static let tolerance = 1e-12

    static let cases: [(String, SpringParameters)] = [
        ("Pop default", .popDefault),
        ("ζ 0.01", spring(omega: 20, zeta: 0.01)),
        ("ζ 0.5", spring(omega: 10, zeta: 0.5)),
        ("ζ 1 - 1e-9", spring(omega: 15, zeta: 1 - 1e-9)),
        ("ζ 1", spring(omega: 15, zeta: 1)),
        ("ζ 1 + 1e-9", spring(omega: 15, zeta: 1 + 1e-9)),
        ("ζ 1.2", spring(omega: 15, zeta: 1.2)),
        ("ζ 1.5", spring(omega: 15, zeta: 1.5)),
        ("ζ 3", spring(omega: 15, zeta: 3)),
        ("ζ 500", spring(omega: 10, zeta: 500)),
        ("mass 0.1", spring(omega: 12, zeta: 0.3, mass: 0.1)),
        ("mass 10", spring(omega: 12, zeta: 0.3, mass: 10)),
        ("undamped", try! SpringParameters(tension: 100, friction: 0)),
    ]

    @Test("matches GSL to 1e-12 of the amplitude", arguments: cases)
    func matchesGSL(name: String, parameters: SpringParameters) throws {
        for (from, velocity) in [(0.0, 0.0), (0.0, 25.0), (2.0, -40.0)] {
            let times = frameTimes(fps: 60, seconds: 2)
            let computed = run(parameters, .analytic, times: times, from: from, velocity: velocity)
            let exact = try reference(parameters, times: times, from: from, velocity: velocity)
            let amplitude = exact.values.map { abs($0 - 1) }.max()!
            let error = maxDifference(computed.values, exact.values) / amplitude
            #expect(error <= Self.tolerance, "\(name), from \(from), velocity \(velocity): \(error)")
            let velocityScale = exact.velocities.map(abs).max()!
            let velocityError = maxDifference(computed.velocities, exact.velocities) / velocityScale
            #expect(velocityError <= Self.tolerance * 10, "\(name) velocity: \(velocityError)")
        }
    }

    @Test("equals the critically damped formula at ζ = 1")
    func criticalFormula() {
        let omega = 15.0
        let parameters = spring(omega: omega, zeta: 1)
        for t in stride(from: 0.0, through: 3, by: 0.01) {
            let (d0, v0) = (-1.0, 4.0)
            let formula = (d0 + (v0 + omega * d0) * t) * exp(-omega * t)
            let computed = SpringPropagator.exact(parameters, time: t).apply(displacement: d0, velocity: v0)
            // A few roundings of quantities of size 1: 4 ulps.
            #expect(abs(computed.displacement - formula) <= 4 * Double.ulpOfOne, "t = \(t)")
        }
    }

    @Test("is continuous through ζ = 1: the three branches agree to 1e-12")
    func continuousThroughCritical() {
        let omega = 15.0
        for t in [0.01, 0.1, 0.5, 1.0, 2.0] {
            let zetas: [Double] = [1 - 1e-12, 1 - 1e-15, 1, 1 + 1e-15, 1 + 1e-12]
            let values = zetas.map { zeta in
                SpringPropagator.exact(spring(omega: omega, zeta: zeta), time: t)
                    .apply(displacement: -1.0, velocity: 3.0).displacement
            }
            #expect(values.max()! - values.min()! <= 1e-12, "t = \(t): \(values)")
        }
    }

    @Test("stays finite and at rest for huge ζ, stiffness and times")
    func noOverflow() throws {
        let extremes = [
            try SpringParameters(tension: 1e9, friction: 10, mass: 1e-6),
            spring(omega: 1, zeta: 1e6),
            spring(omega: 1e4, zeta: 500),
            spring(omega: 0.01, zeta: 0.001),
        ]
        for parameters in extremes {
            for t in [0.0, 1e-9, 1e-3, 1.0, 1e3, 1e7] {
                let state = SpringPropagator.exact(parameters, time: t).apply(displacement: 1e12, velocity: -1e12)
                #expect(state.displacement.isFinite && state.velocity.isFinite, "\(parameters) at \(t)")
            }
        }
        // ζ = 500 decays on the slow time scale 2ζ/ω = 100 s; at 1e7 s it is at rest.
        let late = SpringPropagator.exact(spring(omega: 10, zeta: 500), time: 1e7).apply(
            displacement: 1.0, velocity: 0.0)
        #expect(late.displacement == 0 && late.velocity == 0)
    }

    @Test("its time-0 map is the identity and maps compose")
    func composition() {
        let parameters = SpringParameters.popDefault
        #expect(SpringPropagator.exact(parameters, time: 0) == .identity)
        let whole = SpringPropagator.exact(parameters, time: 0.3)
        let parts = SpringPropagator.exact(parameters, time: 0.1).then(.exact(parameters, time: 0.2))
        for (a, b) in [(whole.dd, parts.dd), (whole.dv, parts.dv), (whole.vd, parts.vd), (whole.vv, parts.vv)] {
            #expect(abs(a - b) <= 1e-15 * max(1, abs(a)))
        }
    }
}
