import Foundation
import Kinetics
import KineticsReference

enum ConversionsSuite {
    /// Pop's mapping both ways over a grid of bounciness and speed, against
    /// itself (round trips) and against GSL's quadratic solver (the inverse).
    static func popRows(_ grid: VerificationGrid, springs: [SpringCase], tolerances: Tolerances) -> [VerificationRow] {
        let step = grid == .full ? 0.25 : 2.0
        var worstTrip = (value: 0.0, label: "", parameters: [String: Double]())
        var worstInverse = worstTrip
        var count = 0
        for bounciness in stride(from: 0.0, through: 34, by: step) {
            for speed in stride(from: 0.0, through: 40, by: step) {
                count += 1
                guard let spring = try? SpringParameters(bounciness: bounciness, speed: speed),
                    let back = spring.popBouncinessAndSpeed
                else {
                    worstTrip = (
                        .infinity, "bounciness \(bounciness), speed \(speed): no inverse",
                        ["bounciness": bounciness, "speed": speed]
                    )
                    continue
                }
                let trip = max(abs(back.bounciness - bounciness), abs(back.speed - speed))
                if !(trip <= worstTrip.value) {
                    worstTrip = (
                        trip, "bounciness \(bounciness), speed \(speed)", ["bounciness": bounciness, "speed": speed]
                    )
                }
                // GSL: (nb - 0.01)·b² - 2(nb - 0.01)·b + (nb - qcFriction) = 0, the root below 0.8.
                let qcTension = 30 + 50 * (spring.tension - 194) / 181
                let qcFriction = 8 + 2 * (spring.friction - 25) / 6
                let noBounce = popNoBounce(qcTension)
                let roots = ReferenceRoots.quadratic(
                    a: noBounce - 0.01, b: -2 * (noBounce - 0.01), c: noBounce - qcFriction)
                let normalized = roots.first { $0 < 0.8 * (1 + 1e-12) } ?? .nan
                let inverse = abs(normalized / 0.8 * 34 - back.bounciness)
                if !(inverse <= worstInverse.value) {
                    worstInverse = (
                        inverse, "bounciness \(bounciness), speed \(speed)", ["bounciness": bounciness, "speed": speed]
                    )
                }
            }
        }
        // Tension and friction → bounciness and speed → back, for the grid's
        // springs inside Pop's range.
        var worstSpring = (value: 0.0, label: "", parameters: [String: Double]())
        var springCount = 0
        for springCase in springs {
            let spring = springCase.parameters
            guard let pop = spring.popBouncinessAndSpeed, SpringParameters.popBouncinessRange.contains(pop.bounciness),
                pop.speed >= 0, let back = try? SpringParameters(bounciness: pop.bounciness, speed: pop.speed)
            else { continue }
            springCount += 1
            let error = max(
                abs(back.tension - spring.stiffnessPerMass) / spring.stiffnessPerMass,
                abs(back.friction - spring.frictionPerMass) / max(spring.frictionPerMass, 1))
            if !(error <= worstSpring.value) {
                worstSpring = (
                    error, springCase.label,
                    ["tension": spring.tension, "friction": spring.friction, "mass": spring.mass]
                )
            }
        }
        let tolerance = tolerances["conversions.pop"]
        return [
            row("pop", "round trip from bounciness/speed", count, worstTrip, tolerance),
            row("pop", "inverse vs GSL quadratic", count, worstInverse, tolerance),
            row("pop", "round trip from tension/friction (relative)", springCount, worstSpring, tolerance),
        ]
    }

    /// Response/damping fraction and duration/bounce there and back, over the
    /// grid's springs, relative to tension and friction.
    static func swiftUIRows(springs: [SpringCase], tolerances: Tolerances) -> [VerificationRow] {
        var worstResponse = (value: 0.0, label: "", parameters: [String: Double]())
        var worstDuration = worstResponse
        var count = 0
        for springCase in springs where springCase.parameters.friction > 0 {
            let spring = springCase.parameters
            count += 1
            func relative(_ other: SpringParameters) -> Double {
                max(
                    abs(other.tension - spring.tension) / spring.tension,
                    abs(other.friction - spring.friction) / spring.friction)
            }
            let parameters = ["tension": spring.tension, "friction": spring.friction, "mass": spring.mass]
            if let other = try? SpringParameters(
                response: spring.response, dampingFraction: spring.dampingFraction, mass: spring.mass)
            {
                let error = relative(other)
                if !(error <= worstResponse.value) { worstResponse = (error, springCase.label, parameters) }
            } else {
                worstResponse = (.infinity, springCase.label, parameters)
            }
            if let other = try? SpringParameters(duration: spring.duration, bounce: spring.bounce, mass: spring.mass) {
                let error = relative(other)
                if !(error <= worstDuration.value) { worstDuration = (error, springCase.label, parameters) }
            } else {
                worstDuration = (.infinity, springCase.label, parameters)
            }
        }
        let tolerance = tolerances["conversions.swiftui"]
        return [
            row("response/damping-fraction", "round trip (relative)", count, worstResponse, tolerance),
            row("duration/bounce", "round trip (relative)", count, worstDuration, tolerance),
        ]
    }

    /// The settling duration against GSL's brent on the closed form's last
    /// crossing of the band, found by an independent scan.
    static func settling(_ springCase: SpringCase) throws -> (ours: Double, reference: Double)? {
        let spring = springCase.parameters
        guard spring.friction > 0 else { return nil }
        let band = 1e-3
        let ours = try spring.settlingDuration(displacement: -1, velocity: springCase.velocity, band: band)
        func displacement(_ t: Double) -> Double {
            SpringPropagator.exact(spring, time: t).apply(displacement: -1.0, velocity: springCase.velocity)
                .displacement
        }
        // The slowest decay rate: α when underdamped, the slow root otherwise.
        let omega2 = spring.stiffnessPerMass
        let alpha = spring.frictionPerMass / 2
        let underdamped = alpha * alpha < omega2
        let slowest = underdamped ? alpha : omega2 / (alpha + (alpha * alpha - omega2).squareRoot())
        // Twenty time constants past our answer the motion has shrunk by
        // e^-20 at least: it cannot be back at the band.
        let horizon = max(4 * ours, ours + 20 / slowest)
        var step = horizon / 200_000
        if underdamped {
            let period = 2 * Double.pi / (omega2 - alpha * alpha).squareRoot()
            step = min(step, period / 200)
        }
        var last = -1.0
        var t = 0.0
        while t <= horizon {
            if abs(displacement(t)) >= band { last = t }
            t += step
        }
        guard last >= 0 else { return (ours, 0) }
        let reference = try ReferenceRoots.brent(lower: last, upper: last + step) { abs(displacement($0)) - band }
        return (ours, reference)
    }

    static func popNoBounce(_ x: Double) -> Double {
        if x <= 18 { return 0.0007 * x * x * x - 0.031 * x * x + 0.64 * x + 1.28 }
        if x <= 44 { return 0.000044 * x * x * x - 0.006 * x * x + 0.36 * x + 2 }
        return 0.00000045 * x * x * x - 0.000332 * x * x + 0.1078 * x + 5.84
    }

    private static func row(
        _ mode: String, _ check: String, _ count: Int,
        _ worst: (value: Double, label: String, parameters: [String: Double]), _ tolerance: Double
    ) -> VerificationRow {
        VerificationRow(
            suite: "conversions", mode: mode, check: check, cases: count, value: worst.value,
            location: worst.label, parameters: worst.parameters,
            toleranceName: mode == "pop" ? "conversions.pop" : "conversions.swiftui", tolerance: tolerance,
            passed: Limit.atMost(tolerance).admits(worst.value))
    }
}

extension VerificationRow {
    /// The row held to the tolerance its name has in `tolerances`, judged
    /// again from its value: how the conversion rows a shard carries whole
    /// enter a merged report, so that a merge never trusts a shard's
    /// verdict. A row without a tolerance is unchanged.
    func judged(by tolerances: Tolerances) -> VerificationRow {
        guard let name = toleranceName else { return self }
        var row = self
        // A name this build does not know holds nothing.
        row.tolerance = tolerances.value(named: name)
        row.passed = row.tolerance.map { Limit.atMost($0).admits(value) } ?? false
        return row
    }
}
