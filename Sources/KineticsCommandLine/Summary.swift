import ArgumentParser
import Foundation
import Kinetics
import KineticsBench
import KineticsInput
import KineticsReference
import KineticsVerify

/// `kinetics` with no subcommand: what every solver does with Pop's defaults,
/// measured against GSL.
struct Summary: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Summarise what every solver does with Pop's defaults, against GSL."
    )

    func run() throws {
        var output = StandardOutput()
        let lines =
            try springLines(.popDefault, seconds: 2) + [""] + decayLines(.popDefault, velocity: 1000) + [""]
            + bezierLines()
        for line in lines {
            try output.line(line)
        }
        try output.flush()
    }

    /// Every spring method at 60 and 120 Hz against GSL's rk8pd, `spring`
    /// (Pop's default) moving from 0 to 1 for `seconds`.
    private func springLines(_ spring: SpringParameters, seconds: Double) throws -> [String] {
        var lines = [
            "Spring: Pop's default (bounciness 4, speed 12 → tension \(short(spring.tension)), friction \(short(spring.friction)), mass 1;",
            "ζ = \(short(spring.dampingRatio)), settles within 0.1% in \(short(try spring.settlingDuration())) s), from 0 to 1 over \(short(seconds)) s,",
            "against GSL \(GSL.version) rk8pd at tolerance 1e-13. Errors are relative to the amplitude.",
            "",
            row("method", "fps", "max error", "at t (s)", "RMS error", "time scale"),
        ]
        for method in SpringMethod.allCases {
            for fps in [60.0, 120.0] {
                let times = frameTimes(fps: fps, seconds: seconds)
                let reference = try ReferenceODE.spring(
                    tension: spring.tension, friction: spring.friction, mass: spring.mass,
                    displacement: -1, velocity: 0, times: times
                ).map { 1 + $0.position }
                let values = SpringStepper(parameters: spring, method: method, value: 0.0, target: 1.0).values(
                    at: times)
                let comparison = TrajectoryComparison(times: times, values: values, reference: reference, target: 1)
                let scale = TimeScale(times: times, values: values) { t in
                    let state = SpringPropagator.exact(spring, time: t).apply(displacement: -1.0, velocity: 0.0)
                    return (1 + state.displacement, state.velocity)
                }.scale
                lines.append(
                    row(
                        method.rawValue, String(Int(fps)), scientific(comparison.maxError),
                        fixed(comparison.worstTime, 3), scientific(comparison.rmsError), fixed(scale, 4)))
            }
        }
        return lines
    }

    /// Pop's and the exact decay laws against the continuous one, `decay`
    /// (Pop's default) thrown at `velocity`.
    private func decayLines(_ decay: DecayParameters, velocity: Double) throws -> [String] {
        var lines = [
            "Decay: deceleration \(decay.deceleration), thrown at \(short(velocity)) units/s; total throw per unit of velocity:",
            "",
        ]
        let rest = decay.durationToRest(velocity: velocity, threshold: PopRestTest.Threshold.point)
        for method in DecayMethod.allCases {
            let end = decay.endValue(
                from: 0, velocity: velocity, threshold: PopRestTest.Threshold.point, method: method)
            lines.append(
                "  \(method.rawValue.padding(toLength: 11, withPad: " ", startingAt: 0))"
                    + "throw \(fixed(decay.totalThrow(velocity: 1, method: method), 4))·v, "
                    + "end value \(fixed(end, 3)) after \(fixed(rest, 3)) s (Pop's rest time)")
        }
        return lines
    }

    /// The named curves' worst y error with WebKit's tolerance, against GSL.
    private func bezierLines() throws -> [String] {
        var lines = [
            "Unit bezier: worst |y - GSL| over 1,001 x in [0, 1]; webkit at Pop's tolerance for 0.4 s (1/400):",
            "",
            row("curve", "", "webkit", "precise", "fast", ""),
        ]
        for (name, curve) in UnitBezier.named {
            let reference = ReferenceBezier(x1: curve.x1, y1: curve.y1, x2: curve.x2, y2: curve.y2)
            var worst: [BezierMethod: Double] = [:]
            for index in 0 ... 1000 {
                let x = Double(index) / 1000
                let exact = reference.y(at: try reference.parameter(x: x))
                for method in BezierMethod.allCases {
                    worst[method] = max(worst[method] ?? 0, abs(curve.solve(x, method: method) - exact))
                }
            }
            lines.append(
                row(name, "", scientific(worst[.webkit]!), scientific(worst[.precise]!), scientific(worst[.fast]!), ""))
        }
        return lines
    }

    private func row(_ columns: String...) -> String {
        let widths = [12, 5, 11, 10, 11, 10]
        return zip(columns, widths).map { $0.padding(toLength: $1, withPad: " ", startingAt: 0) }
            .joined().trimmingCharacters(in: .whitespaces)
    }
}

/// `1.23e-04`.

/// `value` with `digits` decimals.

/// Up to 4 significant digits.
