import Foundation
import Kinetics
import KineticsReference
import KineticsTestSupport
import Testing

@Suite("Spring: parameters and conversions")
struct SpringParametersTests {
    @Test("Pop's round trip: bounciness 12, speed 5 → tension/friction → back, to 1e-9")
    func popRoundTripFromBounciness() throws {
        let spring = try SpringParameters(bounciness: 12, speed: 5)
        let back = try #require(spring.popBouncinessAndSpeed)
        #expect(abs(back.bounciness - 12) <= 1e-9)
        #expect(abs(back.speed - 5) <= 1e-9)
    }

    @Test("Pop's round trip: tension 240, friction 25 → bounciness/speed → back, to 1e-9")
    func popRoundTripFromTension() throws {
        let spring = try SpringParameters(tension: 240, friction: 25)
        let pop = try #require(spring.popBouncinessAndSpeed)
        let back = try SpringParameters(bounciness: pop.bounciness, speed: pop.speed)
        #expect(abs(back.tension - 240) <= 1e-9)
        #expect(abs(back.friction - 25) <= 1e-9)
    }

    @Test("Pop's default spring, from the formulas written out by hand")
    func popDefault() {
        // b = 0.8·(4/1.7)/20, s = (12/1.7)/20, qcT = 0.5 + 199.5·s;
        // noBounce(qcT) with qcT > 44: 0.00000045x³ - 0.000332x² + 0.1078x + 5.84.
        let b = 0.8 * (4 / 1.7) / 20
        let s = (12 / 1.7) / 20
        let qcT = 0.5 + 199.5 * s
        let noBounce = 0.00000045 * qcT * qcT * qcT - 0.000332 * qcT * qcT + 0.1078 * qcT + 5.84
        let u = 2 * b - b * b
        let qcF = u * 0.01 + (1 - u) * noBounce
        let spring = SpringParameters.popDefault
        #expect(abs(spring.tension - (194 + (qcT - 30) / 50 * 181)) <= 1e-12)
        #expect(abs(spring.friction - (25 + (qcF - 8) / 2 * 6)) <= 1e-12)
        #expect(spring.mass == 1)
    }

    @Test("the inverse mapping agrees with GSL's quadratic solver over a grid")
    func inverseAgainstGSL() throws {
        for bounciness in stride(from: 0.0, through: 34, by: 2) {
            for speed in stride(from: 0.5, through: 40, by: 1.5) {
                let spring = try SpringParameters(bounciness: bounciness, speed: speed)
                let pop = try #require(spring.popBouncinessAndSpeed)
                // Friction = u·0.01 + (1 - u)·nb with u = 2b - b²: solve
                // (nb - 0.01)·b² - 2(nb - 0.01)·b + (nb - qcF) = 0 with GSL.
                let qcT = 30 + 50 * (spring.tension - 194) / 181
                let qcF = 8 + 2 * (spring.friction - 25) / 6
                let nb = noBounce(qcT)
                let roots = ReferenceRoots.quadratic(a: nb - 0.01, b: -2 * (nb - 0.01), c: nb - qcF)
                let normalized = try #require(roots.first { $0 < 0.8 + 1e-12 })
                #expect(abs(pop.bounciness - normalized / 0.8 * 34) <= 1e-9, "b \(bounciness), s \(speed)")
                #expect(abs(pop.speed - speed) <= 1e-9)
                #expect(abs(pop.bounciness - bounciness) <= 1e-9)
            }
        }
    }

    private func noBounce(_ x: Double) -> Double {
        if x <= 18 { return 0.0007 * x * x * x - 0.031 * x * x + 0.64 * x + 1.28 }
        if x <= 44 { return 0.000044 * x * x * x - 0.006 * x * x + 0.36 * x + 2 }
        return 0.00000045 * x * x * x - 0.000332 * x * x + 0.1078 * x + 5.84
    }

    @Test("a spring of another mass maps to Pop's values of the equivalent mass-1 spring")
    func popMassScaling() throws {
        let heavy = try SpringParameters(tension: 480, friction: 50, mass: 2)
        let light = try SpringParameters(tension: 240, friction: 25, mass: 1)
        let a = try #require(heavy.popBouncinessAndSpeed)
        let b = try #require(light.popBouncinessAndSpeed)
        #expect(a.bounciness == b.bounciness && a.speed == b.speed)
    }

    @Test("response/damping fraction and duration/bounce round-trip")
    func swiftUIRoundTrips() throws {
        for (response, fraction) in [(0.5, 0.825), (0.3, 1.0), (1.2, 0.1), (0.55, 2.5)] {
            let spring = try SpringParameters(response: response, dampingFraction: fraction, mass: 1.5)
            #expect(abs(spring.response - response) <= 1e-14 * response)
            #expect(abs(spring.dampingFraction - fraction) <= 1e-14)
        }
        for bounce in [-0.9, -0.5, 0.0, 0.3, 0.99, 1.0] {
            let spring = try SpringParameters(duration: 0.4, bounce: bounce)
            #expect(abs(spring.bounce - bounce) <= 1e-14, "bounce \(bounce)")
            #expect(abs(spring.duration - 0.4) <= 1e-15)
        }
        // k = 4π²m/duration², ζ = 1 - bounce.
        let swiftUI = try SpringParameters(duration: 0.5, bounce: 0.2)
        #expect(abs(swiftUI.tension - 4 * .pi * .pi / 0.25) <= 1e-12)
        #expect(abs(swiftUI.dampingRatio - 0.8) <= 1e-15)
        let stiffness = try SpringParameters(stiffness: 170, damping: 26, mass: 2)
        #expect(stiffness == (try SpringParameters(tension: 170, friction: 26, mass: 2)))
    }

    @Test("derived quantities: ω₀ = √(k/m), ζ = c/(2√(km))")
    func derived() throws {
        let spring = try SpringParameters(tension: 400, friction: 10, mass: 4)
        #expect(spring.naturalFrequency == 10)
        #expect(spring.dampingRatio == 10.0 / 80.0)
    }

    @Test("bad parameters name themselves and their range")
    func badParameters() {
        let cases: [(() throws -> Void, String, String)] = [
            ({ _ = try SpringParameters(tension: 0, friction: 1) }, "tension", "a finite number > 0"),
            ({ _ = try SpringParameters(tension: 1, friction: -1) }, "friction", "a finite number >= 0"),
            ({ _ = try SpringParameters(tension: 1, friction: 1, mass: .nan) }, "mass", "a finite number > 0"),
            ({ _ = try SpringParameters(tension: .infinity, friction: 1) }, "tension", "a finite number > 0"),
            (
                { _ = try SpringParameters(tension: 1e300, friction: 1, mass: 1e-300) }, "tension",
                "small enough that tension/mass is finite (mass 1e-300)"
            ),
            ({ _ = try SpringParameters(bounciness: 35, speed: 1) }, "bounciness", "in [0.0, 34.0]"),
            ({ _ = try SpringParameters(bounciness: 3, speed: -1) }, "speed", "a finite number >= 0"),
            ({ _ = try SpringParameters(response: 0, dampingFraction: 1) }, "response", "a finite number > 0"),
            (
                { _ = try SpringParameters(response: 1, dampingFraction: -0.1) }, "dampingFraction",
                "a finite number >= 0"
            ),
            ({ _ = try SpringParameters(duration: 0.5, bounce: -1) }, "bounce", "in (-1, 1]"),
            ({ _ = try SpringParameters(duration: -0.5, bounce: 0) }, "duration", "a finite number > 0"),
            ({ _ = try SpringParameters(stiffness: 1, damping: .nan) }, "damping", "a finite number >= 0"),
        ]
        for (make, parameter, accepted) in cases {
            do {
                try make()
                Issue.record("accepted a bad \(parameter)")
            } catch let error as ParameterError {
                #expect(error.parameter == parameter)
                #expect(error.accepted == accepted)
                #expect(error.description.hasPrefix("\(parameter) must be \(accepted), got"))
            } catch {
                Issue.record("unexpected \(error)")
            }
        }
    }
}

@Suite("Spring: settling duration")
struct SettlingDurationTests {
    static let cases: [(String, SpringParameters, Double, Double)] = [
        ("Pop default", .popDefault, 1, 0),
        ("ζ 0.05", spring(omega: 12, zeta: 0.05), 1, 0),
        ("ζ 0.3 thrown", spring(omega: 20, zeta: 0.3), 0, 30),
        ("ζ 1 - 1e-9", spring(omega: 15, zeta: 1 - 1e-9), 1, 0),
        ("ζ 1", spring(omega: 15, zeta: 1), 1, -40),
        ("ζ 1 + 1e-9", spring(omega: 15, zeta: 1 + 1e-9), -1, 0),
        ("ζ 2 overshooting", spring(omega: 15, zeta: 2), 1, -200),
        ("ζ 50", spring(omega: 15, zeta: 50), 1, 0),
        ("heavy", spring(omega: 3, zeta: 0.7, mass: 10), 2, 5),
    ]

    @Test("is the last crossing of the band: GSL's trajectory is on the band there and inside after", arguments: cases)
    func lastCrossing(name: String, parameters: SpringParameters, d0: Double, v0: Double) throws {
        let band = 1e-3
        let settling = try parameters.settlingDuration(displacement: d0, velocity: v0, band: band)
        #expect(settling > 0 && settling.isFinite, "\(name)")
        // GSL at the crossing and densely over ten more time constants after it.
        let after = stride(
            from: settling,
            through: settling + 10
                * max(1 / parameters.naturalFrequency, 2 * parameters.dampingRatio / parameters.naturalFrequency),
            by: 1e-3
        ).map { $0 }
        let exact = try ReferenceODE.spring(
            tension: parameters.tension, friction: parameters.friction, mass: parameters.mass,
            displacement: d0, velocity: v0, times: after)
        // On the band at the crossing, to GSL's accuracy (1e-12 of the displacement).
        #expect(abs(abs(exact[0].position) - band) <= 1e-11, "\(name): |d| = \(abs(exact[0].position))")
        // Strictly inside afterwards (away from the crossing by more than GSL's error).
        for sample in exact.dropFirst() where sample.time > settling + 1e-6 {
            #expect(abs(sample.position) < band, "\(name) leaves the band again at \(sample.time)")
        }
    }

    @Test("agrees with a brute-force scan of the closed form", arguments: cases)
    func bruteForce(name: String, parameters: SpringParameters, d0: Double, v0: Double) throws {
        let band = 1e-2
        let settling = try parameters.settlingDuration(displacement: d0, velocity: v0, band: band)
        // The last 0.1 ms grid point where |d| >= band.
        var last = 0.0
        for index in 0 ... 400_000 {
            let t = Double(index) * 1e-4
            let d = SpringPropagator.exact(parameters, time: t).apply(displacement: d0, velocity: v0).displacement
            if abs(d) >= band { last = t }
        }
        #expect(settling >= last && settling < last + 1e-4, "\(name): \(settling) vs scan \(last)")
    }

    @Test("edge cases: at rest, inside the band, undamped, invalid band")
    func edgeCases() throws {
        let spring = SpringParameters.popDefault
        #expect(try spring.settlingDuration(displacement: 0, velocity: 0, band: 1e-3) == 0)
        #expect(try spring.settlingDuration(displacement: 1e-4, velocity: 0, band: 1e-3) == 0)
        let undamped = try SpringParameters(tension: 100, friction: 0)
        #expect(try undamped.settlingDuration(displacement: 1, velocity: 0, band: 1e-3) == .infinity)
        #expect(try undamped.settlingDuration(displacement: 1e-4, velocity: 0, band: 1e-3) == 0)
        #expect(throws: ParameterError.self) { try spring.settlingDuration(epsilon: 0) }
        #expect(throws: ParameterError.self) { try spring.settlingDuration(displacement: .nan, velocity: 0, band: 1) }
        // A unit step: the epsilon form is the band form with displacement 1.
        #expect(
            try spring.settlingDuration(epsilon: 1e-3)
                == spring.settlingDuration(displacement: 1, velocity: 0, band: 1e-3))
    }

    @Test(
        "any finite state: the motion is linear, so a state scaled by a power of two settles into the band scaled alike at the same time, up to 1e307"
    )
    func extremeStates() throws {
        let spring = SpringParameters.popDefault
        for (d0, v0) in [(0.0, 1.0), (1.0, 0.0), (1.0, -30.0)] {
            let unit = try spring.settlingDuration(displacement: d0, velocity: v0, band: 1e-3)
            for exponent in [-900, -100, 100, 900, 1_000] {
                let scale = Double(sign: .plus, exponent: exponent, significand: 1)
                let scaled = try spring.settlingDuration(
                    displacement: d0 * scale, velocity: v0 * scale, band: 1e-3 * scale)
                #expect(scaled == unit, "(\(d0), \(v0)) × 2^\(exponent): \(scaled) vs \(unit)")
            }
        }
        // A throw of 1e307 (which trapped in the closed form before) settles
        // into a band of 1e-3 of it where a throw of 1 settles into 1e-3.
        let huge = try spring.settlingDuration(displacement: 0, velocity: 1e307, band: 1e304)
        let unit = try spring.settlingDuration(displacement: 0, velocity: 1, band: 1e-3)
        #expect(abs(huge - unit) <= 1e-12 * unit, "\(huge) vs \(unit)")
        // A nearly undamped spring's last exit comes after more than 2^52
        // oscillations: the extremum there, an ulp from the crossing, finite.
        let ringing = try SpringParameters(tension: 1e6, friction: 1e-30)
        let long = try ringing.settlingDuration(displacement: 1, velocity: 0, band: 1e-3)
        #expect(long.isFinite && long > 1e20, "\(long)")
        // A motion whose last exit is past the largest double: infinity.
        let slow = try SpringParameters(tension: 1, friction: 1e-300, mass: 1e10)
        #expect(try slow.settlingDuration(displacement: 1, velocity: 0, band: 1e-3) == .infinity)
    }
}
