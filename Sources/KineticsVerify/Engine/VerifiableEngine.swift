import Foundation
import Kinetics

/// An animation engine verified in-process, without the line protocol: a
/// Swift package that depends on Kinetics conforms its solver to this and
/// runs ``Verifier/run(_:named:on:tolerances:namingSchemes:jobs:progress:)`` in its own
/// tests, with the same grids, checks and report as `kinetics verify
/// --engine-command`.
///
/// ```swift
/// struct MyEngine: VerifiableEngine {
///     func answer(_ engineCase: EngineCase) throws -> EngineAnswer {
///         guard case .spring(let spring) = engineCase.problem else { throw MyError.unsupported }
///         return EngineAnswer(values: mySpring(spring.parameters, spring.times))
///     }
/// }
/// let report = try Verifier.run(MyEngine(), named: "mine", on: EngineCaseSet(grid: .quick, suites: [.spring]),
///                               tolerances: Tolerances(overrides: ["engine": 1e-6]))
/// #expect(report.passed, "\(report.failureSummary)")
/// ```
public protocol VerifiableEngine: Sendable {
    /// The values (and, if the engine has them, the velocities) for one
    /// case. Cases are answered concurrently, from several threads.
    ///
    /// - Throws: anything; the run stops with an ``EngineFault`` naming the
    ///   case, and the answers given so far are still reported.
    func answer(_ engineCase: EngineCase) throws -> EngineAnswer
}

extension Verifier {
    /// Verifies `engine` on the cases of `set`: every case answered, then
    /// measured and reported as ``report(_:grid:suites:tolerances:fault:seconds:)``
    /// does. An error thrown by the engine, or an answer with the wrong
    /// number of values, becomes the report's ``VerificationReport/fault``.
    /// With `namingSchemes` false, the traces' schemes are not named and
    /// the scheme rows are left out (see
    /// ``measure(_:answers:refusals:engine:tolerances:namingSchemes:jobs:progress:)``).
    ///
    /// - Throws: ``VerificationError/reference(_:)`` when GSL fails on a case.
    public static func run(
        _ engine: some VerifiableEngine, named name: String, on set: EngineCaseSet, tolerances: Tolerances,
        namingSchemes: Bool = true, jobs: Int = ProcessInfo.processInfo.activeProcessorCount,
        progress: @escaping Progress = { _, _, _ in }
    ) throws -> VerificationReport {
        let start = Date()
        let cases = set.cases
        let results = try parallelMap(
            count: cases.count, jobs: jobs, progress: { progress("engine", $0, cases.count) }
        ) { index -> Result<EngineAnswer, EngineFault> in
            do {
                return .success(try engine.answer(cases[index]))
            } catch {
                return .failure(EngineFault(.threw, "the engine threw on case \(cases[index].id): \(error)"))
            }
        }
        var answers = EngineAnswers(for: cases)
        var fault: EngineFault?
        for (engineCase, result) in zip(cases, results) {
            do {
                try answers.take(try result.get(), for: engineCase.id)
            } catch {
                fault = fault ?? error
            }
        }
        return try report(
            set, answers: answers.answers, engine: name, tolerances: tolerances, fault: fault,
            namingSchemes: namingSchemes, jobs: jobs, start: start, progress: progress)
    }

    /// Measures `answers` (and keeps `refusals`, case id to message) and
    /// makes the report: the end of every engine route (in-process,
    /// command, results file). `namingSchemes` as for
    /// ``run(_:named:on:tolerances:namingSchemes:jobs:progress:)``.
    public static func report(
        _ set: EngineCaseSet, answers: [String: EngineAnswer], refusals: [String: String] = [:],
        engine name: String, tolerances: Tolerances, fault: EngineFault?, namingSchemes: Bool = true,
        jobs: Int = ProcessInfo.processInfo.activeProcessorCount, start: Date = Date(),
        progress: @escaping Progress = { _, _, _ in }
    ) throws -> VerificationReport {
        let measures = try measure(
            set, answers: answers, refusals: refusals, engine: name, tolerances: tolerances,
            namingSchemes: namingSchemes, jobs: jobs, progress: progress)
        return report(
            measures, grid: set.grid, suites: set.suites, tolerances: tolerances, fault: fault,
            seconds: Date().timeIntervalSince(start))
    }
}

/// Kinetics' own solvers as an engine: the spring, decay and bezier methods
/// named, computing exactly what the built-in suites compute, so that a run
/// through the protocol reproduces the built-in numbers (the tests hold
/// this), and a reference for engine authors.
public struct MethodEngine: VerifiableEngine {
    /// The spring method.
    public var spring: SpringMethod
    /// The decay method.
    public var decay: DecayMethod
    /// The bezier method (`webkit` at Pop's epsilon 1/400, as verify uses).
    public var bezier: BezierMethod

    /// An engine of these methods.
    public init(spring: SpringMethod = .rk4, decay: DecayMethod = .exact, bezier: BezierMethod = .precise) {
        self.spring = spring
        self.decay = decay
        self.bezier = bezier
    }

    /// The method's values (and velocities, for springs and decays),
    /// replayed as the built-in suites replay them.
    public func answer(_ engineCase: EngineCase) -> EngineAnswer {
        switch engineCase.problem {
        case .spring(let problem):
            Self.answer(
                SpringStepper(
                    parameters: problem.parameters, method: spring, value: problem.from, velocity: problem.velocity,
                    target: problem.to
                ).trajectory(at: problem.times))
        case .decay(let problem):
            Self.answer(
                DecayStepper(
                    parameters: problem.parameters, method: decay, value: problem.from, velocity: problem.velocity
                ).trajectory(at: problem.times))
        case .bezier(let problem):
            EngineAnswer(values: problem.x.map { problem.curve.solve($0, method: bezier, epsilon: 1.0 / 400) })
        }
    }

    private static func answer(_ states: [MotionState<Double>]) -> EngineAnswer {
        EngineAnswer(values: states.map(\.value), velocities: states.map(\.velocity))
    }
}
