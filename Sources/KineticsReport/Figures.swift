import Foundation
import Kinetics
import KineticsBench
import KineticsInput
import KineticsPlot
import KineticsReference
import KineticsVerify

/// The figures of `kinetics plot` and `kinetics report`.
package enum Figures {
    /// The fine times at which the GSL reference curve is drawn: 500 per second.
    static func fineTimes(seconds: Double) -> [Double] {
        let count = max(Int(seconds * 500), 2)
        return (0 ... count).map { Double($0) / Double(count) * seconds }
    }

    /// Spring methods over GSL's trajectory, and each method's error against
    /// GSL (over the amplitude) on a log scale.
    ///
    /// - Throws: ``GSLError`` when the reference fails.
    package static func spring(
        _ parameters: SpringParameters, from: Double, to: Double, velocity: Double, fps: Double, seconds: Double,
        methods: [SpringMethod]
    ) throws -> Figure {
        let times = frameTimes(fps: fps, seconds: seconds)
        let fine = fineTimes(seconds: seconds)
        func reference(_ times: [Double]) throws -> [Double] {
            try ReferenceODE.spring(
                tension: parameters.tension, friction: parameters.friction, mass: parameters.mass,
                displacement: from - to, velocity: velocity, times: times
            ).map { to + $0.position }
        }
        let exact = try reference(times)
        let amplitude = max(abs(from - to), (try reference(fine)).map { abs($0 - to) }.max() ?? 0, 1e-300)
        return motionFigure(
            title:
                "Spring (tension \(short(parameters.tension)), friction \(short(parameters.friction)), mass \(short(parameters.mass)), ζ = \(short(parameters.dampingRatio))) at \(short(fps)) Hz",
            reference: Series(
                "GSL rk8pd", points: Array(zip(fine, try reference(fine))), style: .dashed, color: "#333333"),
            times: times, exact: exact, scale: amplitude,
            trajectories: methods.map { method in
                (
                    method.rawValue,
                    SpringStepper(parameters: parameters, method: method, value: from, velocity: velocity, target: to)
                        .values(at: times)
                )
            },
            errorTitle: "|error| against GSL, over the amplitude")
    }

    /// Decay methods over GSL's continuous trajectory, and their errors over the throw.
    package static func decay(
        deceleration: Double, from: Double, velocity: Double, fps: Double, seconds: Double, methods: [DecayMethod]
    ) throws -> Figure {
        let parameters = try DecayParameters(deceleration: deceleration)
        let times = frameTimes(fps: fps, seconds: seconds)
        let fine = fineTimes(seconds: seconds)
        func reference(_ times: [Double]) throws -> [Double] {
            try ReferenceODE.decay(deceleration: deceleration, position: from, velocity: velocity, times: times).map(
                \.position)
        }
        let exact = try reference(times)
        let throwLength = max(abs((exact.last ?? from) - from), 1e-300)
        return motionFigure(
            title:
                "Decay (deceleration \(short(deceleration)), thrown at \(short(velocity)) units/s) at \(short(fps)) Hz",
            reference: Series(
                "GSL rk8pd (continuous law)", points: Array(zip(fine, try reference(fine))), style: .dashed,
                color: "#333333"),
            times: times, exact: exact, scale: throwLength,
            trajectories: methods.map { method in
                (
                    method.rawValue,
                    DecayStepper(parameters: parameters, method: method, value: from, velocity: velocity)
                        .values(at: times)
                )
            },
            errorTitle: "|error| against the continuous law, over the throw")
    }

    /// Two panels: each trajectory's values at `times` over the `reference`
    /// curve, and its distance from `exact` at those times over `scale`.
    static func motionFigure(
        title: String, reference: Series, times: [Double], exact: [Double], scale: Double,
        trajectories: [(name: String, values: [Double])], errorTitle: String
    ) -> Figure {
        var values = [reference]
        var errors: [Series] = []
        for trajectory in trajectories {
            values.append(
                Series(trajectory.name, points: Array(zip(times, trajectory.values)), style: .lineAndMarkers))
            errors.append(
                Series(
                    trajectory.name,
                    points: times.indices.map { (times[$0], abs(trajectory.values[$0] - exact[$0]) / scale) }))
        }
        return Figure(
            title: title,
            panels: [
                Panel(title: "value", x: "time (s)", y: "value", series: values, weight: 1.2),
                Panel(title: errorTitle, x: "time (s)", y: "relative error", yKind: .log, series: errors),
            ])
    }

    /// Bezier methods over GSL's roots, and their errors in y.
    package static func bezier(
        _ curve: UnitBezier, methods: [BezierMethod], samples: Int = 401, epsilon: Double = 1.0 / 400
    ) throws -> Figure {
        let reference = ReferenceBezier(x1: curve.x1, y1: curve.y1, x2: curve.x2, y2: curve.y2)
        let xs = (0 ..< samples).map { Double($0) / Double(samples - 1) }
        let exact = try xs.map { x throws -> Double in reference.y(at: try reference.parameter(x: x)) }
        var values: [Series] = [
            Series("GSL (cubic + brent)", points: Array(zip(xs, exact)), style: .dashed, color: "#333333")
        ]
        var errors: [Series] = []
        let table = BezierTable(curve)
        for method in methods {
            let ys = xs.map { method == .fast ? table.solve($0) : curve.solve($0, method: method, epsilon: epsilon) }
            values.append(Series(method.rawValue, points: Array(zip(xs, ys))))
            errors.append(Series(method.rawValue, points: xs.indices.map { (xs[$0], abs(ys[$0] - exact[$0])) }))
        }
        return Figure(
            title: "\(curve) (webkit at x-tolerance \(short(epsilon)))",
            panels: [
                Panel(
                    title: "y against x", x: "x (fraction of time)", y: "y (fraction of change)", series: values,
                    weight: 1.2),
                Panel(title: "|y - GSL|", x: "x (fraction of time)", y: "error in y", yKind: .log, series: errors),
            ])
    }

    /// A verification report's per-case errors against what drives them:
    /// spring error against the damping ratio and against the frame rate,
    /// bezier error against the curve's steepness; tolerances as rules.
    package static func verify(_ report: VerificationReport) -> Figure {
        var panels: [Panel] = []
        func rules(_ suite: String) -> [Rule] {
            var seen: [String: Rule] = [:]
            for row in report.rows where row.suite == suite && row.check.hasPrefix("error") {
                if let tolerance = row.tolerance, let name = row.toleranceName {
                    seen[name] = Rule("\(name) = \(short(tolerance))", y: tolerance)
                }
            }
            return seen.keys.sorted().map { seen[$0]! }
        }
        if !report.springCases.isEmpty {
            let methods = Array(Set(report.springCases.flatMap(\.errors.keys))).sorted()
            let byRatio = methods.map { method in
                Series(
                    method,
                    points: report.springCases.compactMap { c in c.errors[method].map { (c.dampingRatio, $0) } },
                    style: .markers)
            }
            let rates = Array(Set(report.springCases.map(\.fps))).sorted()
            let byRate = methods.map { method in
                Series(
                    method,
                    points: rates.map { fps in
                        (
                            fps,
                            report.springCases.filter { $0.fps == fps }.compactMap { $0.errors[method] }.max() ?? .nan
                        )
                    }, style: .lineAndMarkers)
            }
            panels.append(
                Panel(
                    title: "spring: max error over the amplitude, per case", x: "damping ratio ζ", y: "relative error",
                    xKind: .log, yKind: .log, series: byRatio, rules: rules("spring")))
            panels.append(
                Panel(
                    title: "spring: worst case per frame rate", x: "frame rate (Hz)", y: "relative error", yKind: .log,
                    series: byRate, rules: rules("spring")))
        }
        if !report.bezierCases.isEmpty {
            let methods = Array(Set(report.bezierCases.flatMap(\.errors.keys))).sorted()
            let series = methods.map { method in
                Series(
                    method, points: report.bezierCases.compactMap { c in c.errors[method].map { (c.steepness, $0) } },
                    style: .markers)
            }
            panels.append(
                Panel(
                    title: "bezier: max error in y over the y scale, per curve", x: "steepness (largest |dy/dx|)",
                    y: "error",
                    xKind: .log, yKind: .log, series: series, rules: rules("bezier")))
        }
        return Figure(
            title: "Verification against GSL (\(report.grid) grid)", height: max(500, 300 * Double(panels.count)),
            panels: panels)
    }

    /// Frame time against the number of animations, log-log, per engine and
    /// mix, with the 60 and 120 Hz budgets and the fitted exponents.
    package static func benchScaling(_ report: BenchReport) -> Figure {
        var groups: [String: [BenchResult]] = [:]
        var order: [String] = []
        for result in report.results {
            let c = result.configuration
            let name =
                "\(c.engine.rawValue) \(c.mix.rawValue)" + (c.scenario == .steady ? "" : " \(c.scenario.rawValue)")
                + (c.fps == 60 ? "" : " \(short(c.fps)) Hz")
            if groups[name] == nil { order.append(name) }
            groups[name, default: []].append(result)
        }
        let series = order.map { name -> Series in
            let results = groups[name]!.sorted { $0.configuration.animations < $1.configuration.animations }
            let exponent = ScalingFit.exponent(
                counts: results.map { Double($0.configuration.animations) }, times: results.map(\.p50))
            let label = exponent.map { name + String(format: " (N^%.2f)", $0) } ?? name
            return Series(
                label, points: results.map { (Double($0.configuration.animations), $0.p50 / 1e6) },
                style: .lineAndMarkers)
        }
        return Figure(
            title: "Frame time against the number of animations (p50)",
            panels: [
                Panel(
                    x: "animations", y: "frame time (ms)", xKind: .log, yKind: .log, series: series,
                    rules: [
                        Rule("60 Hz budget (16.7 ms)", y: 1000 / 60), Rule("120 Hz budget (8.3 ms)", y: 1000 / 120),
                    ])
            ])
    }

    /// One configuration's frames in order: the median over repetitions of
    /// each frame, with the band from the fastest to the 99th percentile.
    package static func benchFrames(_ result: BenchResult) -> Figure? {
        guard let times = result.frameTimes, !times.isEmpty else { return nil }
        let c = result.configuration
        let perRepetition = max(times.count / max(c.repetitions, 1), 1)
        var median: [(x: Double, y: Double)] = []
        var band: [(x: Double, lower: Double, upper: Double)] = []
        for frame in 0 ..< perRepetition {
            let values = stride(from: frame, to: times.count, by: perRepetition).map { times[$0] / 1e6 }.sorted()
            let x = Double(frame + 1)
            median.append((x, values[values.count / 2]))
            band.append(
                (x, values[0], values[min(values.count - 1, Int((Double(values.count) * 0.99).rounded(.up)) - 1)]))
        }
        return Figure(
            title: "\(c.key): each frame over \(c.repetitions) repetitions",
            panels: [
                Panel(
                    x: "frame of the repetition", y: "frame time (ms)",
                    series: [Series("p50", points: median, style: .lineAndMarkers)],
                    bands: [Band("fastest to p99", points: band)])
            ])
    }

}
