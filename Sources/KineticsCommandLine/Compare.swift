import ArgumentParser
import Foundation
import Kinetics
import KineticsBench
import KineticsCompare
import KineticsInput
import KineticsPlot
import KineticsReference

struct Compare: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Measure another engine's trace against GSL and name the stepper that made it.",
        discussion: """
            The trace is CSV with a header (time,value[,velocity]; x,y for a bezier) or a JSON \
            array of objects with those keys. Times start at the motion's start and need not be \
            regular. Memory: at most 800 bytes a sample and the file. Exit status: 0 within \
            --tolerance, 1 outside it, 64 usage error, 65 a malformed trace (naming the line) or \
            one that needs more memory than the process may take, 66 a missing trace.
            """,
        subcommands: [SpringCompare.self, DecayCompare.self, BezierCompare.self]
    )
}

/// A trace file and the units of its columns, for `compare` and `plot compare`.
struct TraceInput: ParsableArguments {
    @Argument(help: "The trace: CSV or JSON.")
    var trace: String
    @Option(help: "Unit of the trace's times: s or ms (changes the times only).")
    var timeUnit: TimeUnit = .s
    @Option(help: "Unit of the trace's velocities: per second (s) or per millisecond (ms).")
    var velocityUnit: TimeUnit = .s
    @Flag(
        help:
            "The times are the engine's own clock as it kept them (a recorder that drove that clock): their printing is not counted as noise."
    )
    var exactTimes = false

    enum TimeUnit: String, ExpressibleByArgument, CaseIterable {
        case s, ms
    }

    /// The trace; a malformed one is exit 65 naming the file and the line.
    func read(_ columns: TraceColumns) throws -> MotionTrace {
        let data = try readInput(trace)
        let need = MotionTrace.memoryNeeded(data)
        try checkMemory(
            need.bytes,
            for:
                "\(trace): comparing up to \(need.samples) samples (\(MotionTrace.memoryPerSample) bytes a sample, and the file's \(data.count))"
        )
        do {
            var trace = try MotionTrace.parse(
                data, columns: columns, timeDivisor: timeUnit == .ms ? 1_000 : 1,
                velocityScale: velocityUnit == .ms ? 1_000 : 1)
            if exactTimes { trace.timeStep = 0 }
            return trace
        } catch {
            throw CLIError(message: "\(trace): \(error)", status: .badData)
        }
    }
}

/// The options every comparison shares.
struct CompareOptions: ParsableArguments {
    @OptionGroup var input: TraceInput
    @Option(parsing: .unconditional, help: "Largest accepted max error over the amplitude.")
    var tolerance: Double = 1e-3
    @Option(help: "Output: table, json or markdown.")
    var format: CompareFormat = .table

    func validate() throws {
        try OptionCheck.positive(tolerance, "--tolerance")
    }

    func read(_ columns: TraceColumns) throws -> MotionTrace { try input.read(columns) }

    /// Prints the comparison (its warnings also on stderr) and fails with
    /// exit 1 outside the tolerance.
    func finish(_ comparison: Comparison, parameters: [(String, String)]) throws {
        for warning in comparison.warnings { warnLine("warning: \(warning)") }
        try writeStandardOutput(
            CompareText.render(comparison, parameters: parameters, tolerance: tolerance, format: format))
        if !comparison.holds(tolerance) {
            throw CLIError(
                message:
                    "max error \(scientific(comparison.maxError)) of the amplitude is over the tolerance \(scientific(tolerance))",
                status: .checkFailed)
        }
    }
}

/// The comparison `body` makes, its failures in the command line's terms:
/// a derived value that is not finite is a usage error (the options ask
/// for a motion beyond a double), GSL failing on the trace's times is bad
/// data.
func compared(_ body: () throws -> Comparison) throws -> Comparison {
    do {
        return try body()
    } catch ComparisonError.notFinite(let sentence) {
        throw CLIError.usage(sentence)
    } catch ComparisonError.reference(let error) {
        throw CLIError(
            message: "GSL could not follow the exact motion to the trace's times: \(error)", status: .badData)
    }
}

enum CompareFormat: String, ExpressibleByArgument, CaseIterable {
    case table, json, markdown
}

struct SpringCompare: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "spring",
        abstract: "Compare a spring trace (time,value[,velocity]) with the exact motion.")

    @OptionGroup var options: CompareOptions
    @OptionGroup var spring: SpringOptions
    @OptionGroup var motion: SpringMotionOptions

    func run() throws {
        let parameters = try spring.resolve()
        let trace = try options.read(.motion)
        let comparison = try compared {
            try Comparison.spring(
                trace, parameters: parameters, from: motion.from, to: motion.to, velocity: motion.velocity)
        }
        try options.finish(
            comparison,
            parameters: [
                ("tension", "\(parameters.tension)"), ("friction", "\(parameters.friction)"),
                ("mass", "\(parameters.mass)"),
            ] + motion.described)
    }
}

struct DecayCompare: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "decay",
        abstract: "Compare a decay trace (time,value[,velocity]) with the exact motion.")

    @OptionGroup var options: CompareOptions
    @OptionGroup var decay: DecayOptions

    func run() throws {
        let parameters = try decay.parameters()
        let trace = try options.read(.motion)
        let comparison = try compared {
            try Comparison.decay(trace, parameters: parameters, from: decay.from, velocity: decay.velocity)
        }
        try options.finish(comparison, parameters: decay.described)
    }
}

struct BezierCompare: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bezier",
        abstract: "Compare a timing-curve trace (x,y) with the exact curve.")

    @OptionGroup var options: CompareOptions
    @OptionGroup var curve: CurveOption

    func run() throws {
        let bezier = try curve.bezier()
        let trace = try options.read(.curve)
        let comparison = try compared { try Comparison.bezier(trace, curve: bezier) }
        try options.finish(comparison, parameters: [("curve", "\(bezier.x1),\(bezier.y1),\(bezier.x2),\(bezier.y2)")])
    }
}

/// The three forms of a comparison.
enum CompareText {
    struct Document: Encodable {
        struct Candidate: Encodable {
            let name: String
            let engine: String?
            /// Nil when the replay diverges.
            let rmsError, maxError: Double?
            let diverges: Bool
            let explains: Bool
        }
        let kind: String
        let parameters: [String: String]
        let samples: Int
        let amplitude, maxError, rmsError, worstAt: Double
        let maxVelocityError, timeScale, lag, lagFrames: Double?
        let settlingTrace, settlingExact, settlingBand: Double?
        let scheme: String?
        /// The other schemes that explain the trace alike (``SchemeVerdict/alike``).
        let alike: [String]?
        let explained: Bool?
        let noise: Double?
        let noiseSource: String?
        let candidates: [Candidate]?
        let warnings: [String]
        let tolerance: Double
        let withinTolerance: Bool
    }

    static func render(_ c: Comparison, parameters: [(String, String)], tolerance: Double, format: CompareFormat)
        -> String
    {
        let within = c.holds(tolerance)
        let lagFrames = c.lag.flatMap { c.frameInterval > 0 ? $0 / c.frameInterval : nil }
        switch format {
        case .json:
            let verdict = c.verdict
            let candidates = verdict?.fits.map {
                Document.Candidate(
                    name: $0.name, engine: $0.engine, rmsError: $0.diverges ? nil : $0.rms,
                    maxError: $0.diverges ? nil : $0.max, diverges: $0.diverges, explains: $0.explains)
            }
            let document = Document(
                kind: c.kind, parameters: Dictionary(uniqueKeysWithValues: parameters), samples: c.samples,
                amplitude: c.amplitude,
                maxError: c.maxError, rmsError: c.rmsError, worstAt: c.worstAt, maxVelocityError: c.maxVelocityError,
                timeScale: c.timeScale, lag: c.lag, lagFrames: lagFrames, settlingTrace: c.settling?.trace,
                settlingExact: c.settling.flatMap { $0.exact.isFinite ? $0.exact : nil },
                settlingBand: c.settling?.band, scheme: c.scheme, alike: verdict?.alike.map(\.title),
                explained: verdict?.explained,
                noise: verdict.map { $0.noise.deviation / $0.amplitude }, noiseSource: verdict?.noise.source,
                candidates: candidates, warnings: c.warnings, tolerance: tolerance, withinTolerance: within)
            return ((try? jsonText(document, pretty: true)) ?? "{}") + "\n"
        case .table, .markdown:
            let markdown = format == .markdown
            let at = c.kind == "bezier" ? "x = " : "t = "
            var rows: [(String, String)] = [
                ("samples", "\(c.samples)"),
                (
                    "max error / amplitude",
                    scientific(c.maxError) + " at " + at + short(c.worstAt) + (c.kind == "bezier" ? "" : " s")
                ),
                ("RMS error / amplitude", scientific(c.rmsError)),
            ]
            if let velocityError = c.maxVelocityError {
                rows.append(("max velocity error / max speed", scientific(velocityError)))
            }
            if let scale = c.timeScale { rows.append(("time scale (simulated / real)", fixed(scale, 4))) }
            if let lag = c.lag {
                let frames = lagFrames.map { String(format: " (%+.2f frames)", $0) } ?? ""
                rows.append(("lag (+ ahead, - behind)", String(format: "%+.2f ms", lag * 1_000) + frames))
            }
            if let settling = c.settling {
                let trace = settling.trace.map { short($0) + " s" } ?? "not settled"
                rows.append(
                    (
                        "settling (band \(short(settling.band)))",
                        "trace " + trace + ", exact "
                            + (settling.exact.isFinite ? short(settling.exact) + " s" : "never")
                    ))
            }
            rows.append(("verdict", (within ? "within" : "OUTSIDE") + " the tolerance " + scientific(tolerance)))
            if let scheme = c.scheme { rows.append(("scheme", scheme)) }
            if let alike = c.verdict?.alike, !alike.isEmpty {
                let shown = alike.prefix(3).map(\.title).joined(separator: "; ")
                rows.append(
                    (
                        "explained alike by",
                        shown + (alike.count > 3 ? "; and \(alike.count - 3) more" : "")
                            + " (the trace cannot tell these from the scheme named)"
                    ))
            }
            for warning in c.warnings { rows.append(("warning", warning)) }
            var text = ""
            let title = "kinetics compare \(c.kind): " + parameters.map { "\($0.0) \($0.1)" }.joined(separator: ", ")
            if markdown {
                text += "### \(title)\n\n| measure | value |\n| --- | --- |\n"
                for row in rows { text += "| \(row.0) | \(row.1) |\n" }
            } else {
                text += title + "\n\n"
                let width = rows.map(\.0.count).max() ?? 0
                for row in rows {
                    text += row.0.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + row.1 + "\n"
                }
            }
            if let verdict = c.verdict, !verdict.fits.isEmpty { text += candidateLines(verdict, markdown: markdown) }
            return text
        }
    }

    /// The nearest candidates: those that explain the trace and the next few.
    static func candidateLines(_ verdict: SchemeVerdict, markdown: Bool) -> String {
        let shown = Array(verdict.fits.prefix(max(5, verdict.explaining.count)).prefix(12))
        let noise = scientific(verdict.noise.deviation / verdict.amplitude)
        var text =
            markdown
            ? "\n| candidate | RMS / amplitude | max / amplitude | explains |\n| --- | --- | --- | --- |\n"
            : "\nnearest candidates (the trace's noise: \(noise) of the amplitude, from its \(verdict.noise.source); "
                + "a candidate explains it within \(Int(TraceNoise.explainingFactor))× that)\n"
        let width = shown.map(\.title.count).max() ?? 0
        for fit in shown {
            let explains = fit.explains ? "yes" : "no"
            let (rms, largest) = fit.diverges ? ("diverges", "diverges") : (scientific(fit.rms), scientific(fit.max))
            if markdown {
                text += "| \(fit.title) | \(rms) | \(largest) | \(explains) |\n"
            } else {
                let name = fit.title.padding(toLength: width, withPad: " ", startingAt: 0)
                text += "  \(name)  RMS \(rms)  max \(largest)  \(explains)\n"
            }
        }
        return text
    }
}

// MARK: - kinetics plot compare

/// `kinetics plot compare`: a trace over GSL's motion, the best candidate
/// stepper, and the trace's error on a log scale.
struct ComparePlot: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compare",
        abstract: "A trace from another engine over GSL's motion, with its error on a log scale.",
        subcommands: [SpringComparePlot.self, DecayComparePlot.self]
    )

    /// The figure: values (GSL at fine times, the trace, the best
    /// candidate) and the trace's error, all but the fine curve as the
    /// comparison computed them.
    static func figure(title: String, trace: MotionTrace, comparison: Comparison, fine: [(Double, Double)]) -> Figure {
        var values = [Series("GSL rk8pd", points: fine, style: .dashed, color: "#333333")]
        if let verdict = comparison.verdict, let best = verdict.fits.first {
            values.append(
                Series(
                    "best candidate: " + best.title, points: Array(zip(trace.times, verdict.bestValues)), style: .line))
        }
        values.append(Series("trace", points: trace.samples.map { ($0.time, $0.value) }, style: .markers))
        let errors = Series(
            "trace",
            points: zip(trace.samples, comparison.exact).map {
                ($0.time, max(abs($0.value - $1) / comparison.amplitude, 1e-17))
            },
            style: .lineAndMarkers)
        return Figure(
            title: title,
            panels: [
                Panel(title: "value", x: "time (s)", y: "value", series: values, weight: 1.2),
                Panel(
                    title: "|trace − GSL|, over the amplitude", x: "time (s)", y: "relative error", yKind: .log,
                    series: [errors]),
            ])
    }

    static func fineTimes(until end: Double) -> [Double] {
        (0 ... 600).map { Double($0) / 600 * end }
    }
}

struct SpringComparePlot: FigureCommand {
    static let configuration = CommandConfiguration(
        commandName: "spring", abstract: "A spring trace over GSL's motion.")

    @OptionGroup var input: TraceInput
    @OptionGroup var spring: SpringOptions
    @OptionGroup var motion: SpringMotionOptions
    @OptionGroup var output: PlotOutput

    func figure() throws -> Figure {
        let parameters = try spring.resolve()
        let (from, to, velocity) = (motion.from, motion.to, motion.velocity)
        let trace = try input.read(.motion)
        let comparison = try compared {
            try Comparison.spring(trace, parameters: parameters, from: from, to: to, velocity: velocity)
        }
        let fine = ComparePlot.fineTimes(until: trace.times.last!)
        let reference = try ReferenceODE.spring(
            tension: parameters.tension, friction: parameters.friction, mass: parameters.mass,
            displacement: from - to, velocity: velocity, times: fine)
        return ComparePlot.figure(
            title:
                "\(input.trace) against spring (tension \(short(parameters.tension)), friction \(short(parameters.friction)), mass \(short(parameters.mass)))",
            trace: trace, comparison: comparison, fine: zip(fine, reference).map { ($0, to + $1.position) })
    }
}

struct DecayComparePlot: FigureCommand {
    static let configuration = CommandConfiguration(commandName: "decay", abstract: "A decay trace over GSL's motion.")

    @OptionGroup var input: TraceInput
    @OptionGroup var decay: DecayOptions
    @OptionGroup var output: PlotOutput

    func figure() throws -> Figure {
        let parameters = try decay.parameters()
        let trace = try input.read(.motion)
        let comparison = try compared {
            try Comparison.decay(trace, parameters: parameters, from: decay.from, velocity: decay.velocity)
        }
        let fine = ComparePlot.fineTimes(until: trace.times.last!)
        let reference = try ReferenceODE.decay(
            deceleration: decay.deceleration, position: decay.from, velocity: decay.velocity, times: fine)
        return ComparePlot.figure(
            title:
                "\(input.trace) against decay (deceleration \(decay.deceleration), velocity \(short(decay.velocity)))",
            trace: trace, comparison: comparison, fine: zip(fine, reference).map { ($0, $1.position) })
    }
}
