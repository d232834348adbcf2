import ArgumentParser
import Foundation
import Kinetics
import KineticsCompare
import KineticsPlot
import KineticsReference
import KineticsReport

struct Compare: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Measure another engine's trace against GSL and name the stepper that made it.",
        discussion: """
            The trace is CSV with a header (time,value[,velocity]; x,y for a bezier) or a JSON \
            array of objects with those keys. Times start at the motion's start and need not be \
            regular. Exit status: 0 within --tolerance, 1 outside it, 64 usage error, 65 a \
            malformed trace (naming the line), 66 a missing trace.
            """,
        subcommands: [SpringCompare.self, DecayCompare.self, BezierCompare.self]
    )
}

/// A trace file and the unit of its times, for `compare` and `plot compare`.
struct TraceInput: ParsableArguments {
    @Argument(help: "The trace: CSV or JSON.")
    var trace: String
    @Option(name: .customLong("time-unit"), help: "Unit of the trace's times: s or ms.")
    var timeUnit: TimeUnit = .s

    enum TimeUnit: String, ExpressibleByArgument, CaseIterable {
        case s, ms
    }

    /// The trace; a malformed one is exit 65 naming the file and the line.
    func read(_ columns: TraceColumns) throws -> MotionTrace {
        let data = try readInput(trace)
        do {
            return try MotionTrace.parse(data, columns: columns, timeDivisor: timeUnit == .ms ? 1_000 : 1)
        } catch {
            throw CLIError(message: "\(trace): \(error)", status: CLIError.badData)
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

    /// Prints the comparison and fails with exit 1 outside the tolerance.
    func finish(_ comparison: Comparison, parameters: [(String, String)]) throws {
        print(CompareText.render(comparison, parameters: parameters, tolerance: tolerance, format: format), terminator: "")
        if !(comparison.maxError <= tolerance) {
            throw CLIError(
                message: "max error \(scientific(comparison.maxError)) of the amplitude is over the tolerance \(scientific(tolerance))",
                status: CLIError.checkFailed)
        }
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
    var from: Double { motion.from }
    var to: Double { motion.to }
    var velocity: Double { motion.velocity }

    func run() throws {
        let parameters = try spring.resolve()
        let trace = try options.read(.motion)
        let comparison = try Comparison.spring(trace, parameters: parameters, from: from, to: to, velocity: velocity)
        try options.finish(comparison, parameters: [
            ("tension", "\(parameters.tension)"), ("friction", "\(parameters.friction)"), ("mass", "\(parameters.mass)"),
            ("from", "\(from)"), ("to", "\(to)"), ("velocity", "\(velocity)"),
        ])
    }
}

struct DecayCompare: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "decay",
        abstract: "Compare a decay trace (time,value[,velocity]) with the exact motion.")

    @OptionGroup var options: CompareOptions
    @OptionGroup var decay: DecayOptions
    var velocity: Double { decay.velocity }
    var from: Double { decay.from }
    var deceleration: Double { decay.deceleration }

    func run() throws {
        let parameters = try DecayParameters(deceleration: deceleration)
        let trace = try options.read(.motion)
        let comparison = try Comparison.decay(trace, parameters: parameters, from: from, velocity: velocity)
        try options.finish(comparison, parameters: [
            ("deceleration", "\(deceleration)"), ("from", "\(from)"), ("velocity", "\(velocity)"),
        ])
    }
}

struct BezierCompare: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bezier",
        abstract: "Compare a timing-curve trace (x,y) with the exact curve.")

    @OptionGroup var options: CompareOptions
    @Option(help: "A named curve (linear, default, ease-in, ease-out, ease-in-out) or x1,y1,x2,y2.")
    var curve: String

    func validate() throws { _ = try parseCurve(curve) }

    func run() throws {
        let bezier = try parseCurve(curve)
        let trace = try options.read(.curve)
        let comparison = try Comparison.bezier(trace, curve: bezier)
        try options.finish(comparison, parameters: [("curve", "\(bezier.x1),\(bezier.y1),\(bezier.x2),\(bezier.y2)")])
    }
}

/// The three forms of a comparison.
enum CompareText {
    struct Document: Encodable {
        struct Candidate: Encodable {
            let name: String
            let rmsError: Double
            let maxError: Double
            let explains: Bool
        }
        let kind: String
        let parameters: [String: String]
        let samples: Int
        let amplitude: Double
        let maxError: Double
        let rmsError: Double
        let worstAt: Double
        let maxVelocityError: Double?
        let timeScale: Double?
        let settlingTrace: Double?
        let settlingExact: Double?
        let settlingBand: Double?
        let scheme: String?
        let noiseFloor: Double?
        let candidates: [Candidate]?
        let tolerance: Double
        let withinTolerance: Bool
    }

    static func render(_ c: Comparison, parameters: [(String, String)], tolerance: Double, format: CompareFormat) -> String {
        let within = c.maxError <= tolerance
        switch format {
        case .json:
            let ranking = c.ranking
            let document = Document(
                kind: c.kind, parameters: Dictionary(uniqueKeysWithValues: parameters), samples: c.samples, amplitude: c.amplitude,
                maxError: c.maxError, rmsError: c.rmsError, worstAt: c.worstAt, maxVelocityError: c.maxVelocityError,
                timeScale: c.timeScale, settlingTrace: c.settling?.trace, settlingExact: c.settling?.exact, settlingBand: c.settling?.band,
                scheme: c.scheme, noiseFloor: ranking?.noiseFloor,
                candidates: ranking?.fits.map { .init(name: $0.name, rmsError: $0.rms, maxError: $0.max, explains: $0.rms <= 100 * ranking!.noiseFloor) },
                tolerance: tolerance, withinTolerance: within)
            return ((try? jsonText(document, pretty: true)) ?? "{}") + "\n"
        case .table, .markdown:
            let markdown = format == .markdown
            var rows: [(String, String)] = [
                ("samples", "\(c.samples)"),
                ("max error / amplitude", scientific(c.maxError) + " at " + (c.kind == "bezier" ? "x = " : "t = ") + short(c.worstAt) + (c.kind == "bezier" ? "" : " s")),
                ("RMS error / amplitude", scientific(c.rmsError)),
            ]
            if let velocityError = c.maxVelocityError { rows.append(("max velocity error / max speed", scientific(velocityError))) }
            if let scale = c.timeScale { rows.append(("time scale (simulated / real)", fixed(scale, 4))) }
            if let settling = c.settling {
                rows.append(("settling (band \(short(settling.band)))", "trace " + (settling.trace.map { short($0) + " s" } ?? "not settled") + ", exact " + short(settling.exact) + " s"))
            }
            rows.append(("verdict", (within ? "within" : "OUTSIDE") + " the tolerance " + scientific(tolerance)))
            if let scheme = c.scheme { rows.append(("scheme", scheme)) }
            var text = ""
            let title = "kinetics compare \(c.kind): " + parameters.map { "\($0.0) \($0.1)" }.joined(separator: ", ")
            if markdown {
                text += "### \(title)\n\n| measure | value |\n| --- | --- |\n"
                for row in rows { text += "| \(row.0) | \(row.1) |\n" }
            } else {
                text += title + "\n\n"
                let width = rows.map(\.0.count).max() ?? 0
                for row in rows { text += row.0.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + row.1 + "\n" }
            }
            if let ranking = c.ranking {
                let best = ranking.fits.prefix(5)
                text += markdown
                    ? "\n| candidate | RMS / amplitude | max / amplitude | explains |\n| --- | --- | --- | --- |\n"
                    : "\nbest candidates (noise floor \(scientific(ranking.noiseFloor)); a candidate explains the trace within 100× of it)\n"
                let width = best.map(\.name.count).max() ?? 0
                for fit in best {
                    let explains = fit.rms <= 100 * ranking.noiseFloor ? "yes" : "no"
                    text += markdown
                        ? "| \(fit.name) | \(scientific(fit.rms)) | \(scientific(fit.max)) | \(explains) |\n"
                        : "  " + fit.name.padding(toLength: width, withPad: " ", startingAt: 0) + "  RMS " + scientific(fit.rms) + "  max " + scientific(fit.max) + "  " + explains + "\n"
                }
            }
            return text
        }
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
        if let ranking = comparison.ranking, let best = ranking.fits.first {
            values.append(Series("best candidate: " + best.name, points: Array(zip(trace.times, ranking.bestValues)), style: .line))
        }
        values.append(Series("trace", points: trace.samples.map { ($0.time, $0.value) }, style: .markers))
        let errors = Series(
            "trace", points: zip(trace.samples, comparison.exact).map { ($0.time, max(abs($0.value - $1) / comparison.amplitude, 1e-17)) },
            style: .lineAndMarkers)
        return Figure(title: title, panels: [
            Panel(title: "value", x: "time (s)", y: "value", series: values, weight: 1.2),
            Panel(title: "|trace − GSL|, over the amplitude", x: "time (s)", y: "relative error", yKind: .log, series: [errors]),
        ])
    }

    static func fineTimes(until end: Double) -> [Double] {
        (0 ... 600).map { Double($0) / 600 * end }
    }
}

struct SpringComparePlot: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "spring", abstract: "A spring trace over GSL's motion.")

    @OptionGroup var input: TraceInput
    @OptionGroup var spring: SpringOptions
    @OptionGroup var motion: SpringMotionOptions
    @OptionGroup var output: PlotOutput

    func run() throws {
        try checkWritable(output.output)
        let parameters = try spring.resolve()
        let (from, to, velocity) = (motion.from, motion.to, motion.velocity)
        let trace = try input.read(.motion)
        let comparison = try Comparison.spring(trace, parameters: parameters, from: from, to: to, velocity: velocity)
        let fine = ComparePlot.fineTimes(until: trace.times.last!)
        let reference = try ReferenceODE.spring(
            tension: parameters.tension, friction: parameters.friction, mass: parameters.mass,
            displacement: from - to, velocity: velocity, times: fine)
        try output.write(ComparePlot.figure(
            title: "\(input.trace) against spring (tension \(short(parameters.tension)), friction \(short(parameters.friction)), mass \(short(parameters.mass)))",
            trace: trace, comparison: comparison, fine: zip(fine, reference).map { ($0, to + $1.position) }))
    }
}

struct DecayComparePlot: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "decay", abstract: "A decay trace over GSL's motion.")

    @OptionGroup var input: TraceInput
    @OptionGroup var decay: DecayOptions
    @OptionGroup var output: PlotOutput

    func run() throws {
        try checkWritable(output.output)
        let parameters = try DecayParameters(deceleration: decay.deceleration)
        let trace = try input.read(.motion)
        let comparison = try Comparison.decay(trace, parameters: parameters, from: decay.from, velocity: decay.velocity)
        let fine = ComparePlot.fineTimes(until: trace.times.last!)
        let reference = try ReferenceODE.decay(deceleration: decay.deceleration, position: decay.from, velocity: decay.velocity, times: fine)
        try output.write(ComparePlot.figure(
            title: "\(input.trace) against decay (deceleration \(decay.deceleration), velocity \(short(decay.velocity)))",
            trace: trace, comparison: comparison, fine: zip(fine, reference).map { ($0, $1.position) }))
    }
}
