import ArgumentParser
import Foundation
import Kinetics
import KineticsBench
import KineticsPlot
import KineticsReport
import KineticsVerify

/// `kinetics plot`: SVG pictures of solvers, verification and bench results.
struct Plot: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Draw solvers against GSL, a verification report or a bench report as SVG.",
        subcommands: [
            SpringPlot.self, DecayPlot.self, BezierPlot.self, VerifyPlot.self, BenchPlot.self, ComparePlot.self,
        ]
    )
}

/// Where a plot goes: `--output FILE.svg`, or standard output.
struct PlotOutput: ParsableArguments {
    @Option(help: "Write the SVG to FILE (default: standard output).")
    var output: String?
}

/// A plot subcommand: it makes one figure, which `run` writes where
/// `--output` says, checking first that it can.
protocol FigureCommand: ParsableCommand {
    var output: PlotOutput { get }
    /// The figure the options ask for.
    func figure() throws -> Figure
}

extension FigureCommand {
    func run() throws {
        try checkWritable(output.output)
        try writeOutput(try figure().svg(), to: output.output)
    }
}

struct SpringPlot: FigureCommand {
    static let configuration = CommandConfiguration(
        commandName: "spring",
        abstract: "Spring methods over GSL's trajectory, and their errors on a log scale.",
        discussion:
            "Give one spring as for `kinetics trace spring` (default: Pop's, bounciness 4 and speed 12); --method is repeatable (default: every method)."
    )

    @OptionGroup var spring: SpringOptions
    @OptionGroup var motion: SpringMotionOptions
    @OptionGroup var frames: FrameOptions
    @Option(help: "Methods (repeatable): pop, fixed, rk4, analytic.")
    var method: [SpringMethod] = []
    @OptionGroup var output: PlotOutput

    func figure() throws -> Figure {
        let parameters = try spring.resolve(defaultingTo: .popDefault)
        return try Figures.spring(
            parameters, from: motion.from, to: motion.to, velocity: motion.velocity, fps: frames.fps,
            seconds: frames.seconds,
            methods: try springMethods(method, for: parameters))
    }
}

struct DecayPlot: FigureCommand {
    static let configuration = CommandConfiguration(
        commandName: "decay",
        abstract: "Decay methods over GSL's continuous trajectory, and their errors on a log scale."
    )

    @OptionGroup var decay: DecayOptions
    @OptionGroup var frames: FrameOptions
    @Option(help: "Methods (repeatable): pop, exact, continuous.")
    var method: [DecayMethod] = []
    @OptionGroup var output: PlotOutput

    func figure() throws -> Figure {
        try Figures.decay(
            deceleration: decay.deceleration, from: decay.from, velocity: decay.velocity, fps: frames.fps,
            seconds: frames.seconds,
            methods: method.isEmpty ? DecayMethod.allCases : method)
    }
}

struct BezierPlot: FigureCommand {
    static let configuration = CommandConfiguration(
        commandName: "bezier",
        abstract: "Bezier methods over GSL's roots, and their errors in y on a log scale."
    )

    @OptionGroup var curve: CurveOption
    @Option(help: "Methods (repeatable): webkit, precise, fast.")
    var method: [BezierMethod] = []
    @Option(
        parsing: .unconditional, help: "Number of x samples, from 0 to 1 inclusive, 2 … 100,000. Default: 401.",
        transform: OptionCheck.wholeNumber(in: 2 ... 100_000))
    var samples: Int = 401
    @OptionGroup var webkit: WebKitEpsilonOption
    @OptionGroup var output: PlotOutput

    func figure() throws -> Figure {
        try Figures.bezier(
            try curve.bezier(), methods: method.isEmpty ? BezierMethod.allCases : method, samples: samples,
            epsilon: webkit.epsilon)
    }
}

struct VerifyPlot: FigureCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "A verification report's errors against the parameter that drives them, with the tolerances.",
        discussion: "The input is the JSON of `kinetics verify --format json`."
    )

    @Option(help: "The JSON report of `kinetics verify`.")
    var input: String
    @OptionGroup var output: PlotOutput

    func figure() throws -> Figure {
        Figures.verify(try readVerificationReport(input))
    }
}

struct BenchPlot: FigureCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract:
            "Frame time against the number of animations (log-log, with the 60 and 120 Hz budgets), or one configuration's frames.",
        discussion: "The input is the JSON of `kinetics bench --format json` (or a saved baseline)."
    )

    @Option(help: "The JSON report of `kinetics bench`.")
    var input: String
    @Option(
        help:
            "Draw this configuration's frames instead, named as in the report: ENGINE N MIX SCENARIO FPS Hz METHOD, e.g. 'animator 10000 spring steady 60 Hz pop'."
    )
    var configuration: String?
    @OptionGroup var output: PlotOutput

    func figure() throws -> Figure {
        let report: BenchReport
        try checkReadable(input)
        do {
            report = try BaselineGate.load(input)
        } catch {
            switch error {
            case .missing: throw CLIError(message: "\(input): no such file", status: .missingInput)
            case .malformed: throw CLIError(message: error.description, status: .badData)
            }
        }
        guard let configuration else { return Figures.benchScaling(report) }
        guard let result = report.results.first(where: { $0.configuration.key == configuration }) else {
            let keys = report.results.map { "'\($0.configuration.key)'" }.joined(separator: ", ")
            throw CLIError(
                message: "--configuration '\(configuration)' is not in \(input); it has \(keys)", status: .usage
            )
        }
        guard let figure = Figures.benchFrames(result) else {
            throw CLIError(
                message: "\(input): '\(configuration)' has no frame times (made by an older kinetics)",
                status: .badData)
        }
        return figure
    }
}
