import ArgumentParser
import Foundation
import Kinetics
import KineticsBench
import KineticsInput
import KineticsVerify

/// `kinetics trace spring|decay|bezier`: a solver's own state, frame by frame.
struct Trace: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print a solver's state at every frame (no rest test, no clamping, no snapping).",
        subcommands: [SpringTrace.self, DecayTrace.self, BezierTrace.self]
    )
}

/// The frame clock of a trace or a plot: `--fps` and `--seconds`.
struct FrameOptions: ParsableArguments {
    @Option(parsing: .unconditional, help: "Frames per second.")
    var fps: Double = 60
    @Option(parsing: .unconditional, help: "Length of the trace in seconds.")
    var seconds: Double = 2

    func validate() throws {
        try OptionCheck.positive(fps, "--fps")
        try OptionCheck.positive(seconds, "--seconds")
        let frames = (seconds * fps).rounded(.down)
        guard frames < Double(maximumFrameCount) else {
            throw ValidationError(
                "--seconds × --fps must give at most \(maximumFrameCount) frames, got \(String(format: "%.17g", frames)) (--seconds \(seconds), --fps \(fps))"
            )
        }
    }

    /// Frame k is at `k/fps`.
    var times: [Double] { frameTimes(fps: fps, seconds: seconds) }
}

/// One frame of a spring or decay trace.
struct MotionSample: Encodable {
    let time: Double
    let value: Double
    let velocity: Double
}

/// The stepper's samples at the frame times, the first its present state.
func traceMotion<Stepper: MotionStepper<Double>>(_ stepper: Stepper, times: [Double]) -> [MotionSample] {
    stepper.trajectory(at: times).map { MotionSample(time: $0.time, value: $0.value, velocity: $0.velocity) }
}

/// A spring or decay trace's frame clock and how it is printed: `--fps`,
/// `--seconds` and `--format`.
struct TraceOutput: ParsableArguments {
    @OptionGroup var frames: FrameOptions
    @Option(help: "Output: csv or json.")
    var format: SampleFormat = .csv

    /// Prints motion samples as CSV (`time,value,velocity`) or as JSON: the
    /// solver and its method, the fields of `setup` (what was traced), the
    /// frame clock and the samples.
    ///
    /// - Throws: a usage error (64), printing nothing, when a sample is not
    ///   finite: the options ask for a motion beyond a double's range.
    func print<Method: RawRepresentable<String>, Setup: Encodable>(
        _ samples: [MotionSample], solver: String, method: Method, setup: Setup
    ) throws {
        if let bad = samples.first(where: { !$0.value.isFinite || !$0.velocity.isFinite }) {
            throw CLIError.usage(
                "the \(solver)'s motion (--method \(method.rawValue), \((try? jsonText(setup)) ?? "")) leaves a double's range at t = \(bad.time) s (value \(bad.value), velocity \(bad.velocity)): the values and velocities it reaches must be finite, within \(Limit.doubleRange)"
            )
        }
        var output = StandardOutput()
        switch format {
        case .csv:
            try output.line("time,value,velocity")
            for sample in samples {
                try output.line("\(csvNumber(sample.time)),\(csvNumber(sample.value)),\(csvNumber(sample.velocity))")
            }
        case .json:
            try output.line(
                try jsonText(
                    MotionDocument(
                        solver: solver, method: method.rawValue, setup: setup, frames: frames, samples: samples)))
        }
        try output.flush()
    }
}

/// A trace in JSON: the solver, its method and the setup's own fields
/// beside `fps`, `seconds` and `samples`, in one object.
private struct MotionDocument<Setup: Encodable>: Encodable {
    let solver: String
    let method: String
    let setup: Setup
    let frames: FrameOptions
    let samples: [MotionSample]

    private enum Key: String, CodingKey { case solver, method, fps, seconds, samples }

    func encode(to encoder: any Encoder) throws {
        try setup.encode(to: encoder)
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(solver, forKey: .solver)
        try container.encode(method, forKey: .method)
        try container.encode(frames.fps, forKey: .fps)
        try container.encode(frames.seconds, forKey: .seconds)
        try container.encode(samples, forKey: .samples)
    }
}

// MARK: - Spring

struct SpringTrace: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "spring",
        abstract: "Trace a spring from --from to --to.",
        discussion: """
            Give exactly one spring: --tension/--friction [--mass], --bounciness/--speed, \
            --stiffness/--damping [--mass], --stiffness/--damping-ratio [--mass], \
            --response/--damping-fraction [--mass], --duration/--bounce [--mass], \
            --origami-tension/--origami-friction (Rebound, React Native), or Motion's \
            --motion-visual-duration/--bounce or --motion-duration/--bounce.
            """
    )

    @OptionGroup var spring: SpringOptions
    @OptionGroup var motion: SpringMotionOptions
    @OptionGroup var output: TraceOutput
    @Option(help: "Stepper: pop, fixed, rk4 or analytic.")
    var method: SpringMethod = .pop

    /// What the JSON says of the spring traced.
    struct Setup: Encodable {
        let parameters: SpringParametersJSON
        let from, to, velocity: Double
    }

    func run() throws {
        let parameters = try spring.resolve()
        _ = try springMethods([method], for: parameters)
        let samples = traceMotion(
            SpringStepper(
                parameters: parameters, method: method, value: motion.from, velocity: motion.velocity, target: motion.to
            ),
            times: output.frames.times)
        let setup = Setup(
            parameters: SpringParametersJSON(parameters), from: motion.from, to: motion.to, velocity: motion.velocity)
        try output.print(samples, solver: "spring", method: method, setup: setup)
    }
}

/// A spring's tension, friction and mass in JSON.
struct SpringParametersJSON: Encodable {
    let tension: Double
    let friction: Double
    let mass: Double

    init(_ parameters: SpringParameters) {
        tension = parameters.tension
        friction = parameters.friction
        mass = parameters.mass
    }
}

// MARK: - Decay

struct DecayTrace: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "decay",
        abstract: "Trace a decay thrown from --from with --velocity."
    )

    @OptionGroup var decay: DecayOptions
    @OptionGroup var output: TraceOutput
    @Option(help: "Stepper: pop, exact or continuous.")
    var method: DecayMethod = .pop

    /// What the JSON says of the decay traced.
    struct Setup: Encodable {
        let deceleration, from, velocity: Double
    }

    func run() throws {
        let parameters = try decay.parameters()
        let samples = traceMotion(
            DecayStepper(parameters: parameters, method: method, value: decay.from, velocity: decay.velocity),
            times: output.frames.times)
        let setup = Setup(deceleration: decay.deceleration, from: decay.from, velocity: decay.velocity)
        try output.print(samples, solver: "decay", method: method, setup: setup)
    }
}

// MARK: - Bezier

struct BezierTrace: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bezier",
        abstract: "Print y at evenly spaced x from 0 to 1 for a timing curve."
    )

    @OptionGroup var curve: CurveOption
    @Option(
        parsing: .unconditional, help: "Number of x samples, from 0 to 1 inclusive, 2 … 10,000,000. Default: 1001.",
        transform: OptionCheck.wholeNumber(in: 2 ... maximumFrameCount))
    var samples: Int = 1001
    @Option(help: "Solver: webkit, precise or fast.")
    var method: BezierMethod = .webkit
    @OptionGroup var webkit: WebKitEpsilonOption
    @Option(help: "Output: csv or json.")
    var format: SampleFormat = .csv

    struct Point: Encodable {
        let x: Double
        let y: Double
    }

    struct Document: Encodable {
        let solver = "bezier"
        let method: BezierMethod
        let curve: [Double]
        let epsilon: Double?
        let samples: [Point]
    }

    func run() throws {
        let bezier = try curve.bezier()
        let points = (0 ..< samples).map { index -> Point in
            let x = Double(index) / Double(samples - 1)
            return Point(x: x, y: bezier.solve(x, method: method, epsilon: webkit.epsilon))
        }
        var output = StandardOutput()
        switch format {
        case .csv:
            try output.line("x,y")
            for point in points { try output.line("\(csvNumber(point.x)),\(csvNumber(point.y))") }
        case .json:
            try output.line(
                try jsonText(
                    Document(
                        method: method, curve: [bezier.x1, bezier.y1, bezier.x2, bezier.y2],
                        epsilon: method == .webkit ? webkit.epsilon : nil, samples: points)))
        }
        try output.flush()
    }
}

/// `--curve`: a named curve or its control points.
struct CurveOption: ParsableArguments {
    @Option(help: "A named curve (linear, default, ease-in, ease-out, ease-in-out) or x1,y1,x2,y2.")
    var curve: String

    func validate() throws { _ = try parseCurve(curve) }

    /// The curve.
    func bezier() throws -> UnitBezier { try parseCurve(curve) }
}

/// `--epsilon`: the x tolerance of the `webkit` solver.
struct WebKitEpsilonOption: ParsableArguments {
    @Option(parsing: .unconditional, help: "WebKit's x tolerance (webkit only); default Pop's for 0.4 s, 1/400.")
    var epsilon: Double = 1.0 / 400

    func validate() throws { try OptionCheck.positive(epsilon, "--epsilon") }
}

/// A curve name or `x1,y1,x2,y2`.
func parseCurve(_ text: String) throws -> UnitBezier {
    if let named = UnitBezier.named.first(where: { $0.name == text }) { return named.curve }
    let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        .map { Double($0.trimmingCharacters(in: .whitespaces)) }
    guard parts.count == 4, let x1 = parts[0], let y1 = parts[1], let x2 = parts[2], let y2 = parts[3] else {
        let names = UnitBezier.named.map(\.name).joined(separator: ", ")
        throw ValidationError("--curve must be one of \(names) or four numbers x1,y1,x2,y2, got '\(text)'")
    }
    do {
        return try UnitBezier(x1: x1, y1: y1, x2: x2, y2: y2)
    } catch {
        throw ValidationError("--curve: \(error.description)")
    }
}
