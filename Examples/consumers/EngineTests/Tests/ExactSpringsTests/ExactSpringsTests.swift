import ExactSprings
import KineticsVerify
import Testing

/// The engine, answering Kinetics' spring cases.
struct Engine: VerifiableEngine {
    func answer(_ engineCase: EngineCase) throws -> EngineAnswer {
        guard case .spring(let spring) = engineCase.problem else { throw Unsupported() }
        let model = ExactSpring(
            stiffness: spring.parameters.tension, damping: spring.parameters.friction, mass: spring.parameters.mass)
        return EngineAnswer(
            values: model.values(from: spring.from, to: spring.to, velocity: spring.velocity, at: spring.times))
    }

    struct Unsupported: Error {}
}

@Test("the closed form holds 1e-6 of the amplitude against GSL on the quick grid's well-conditioned springs")
func verified() throws {
    let report = try Verifier.run(
        Engine(), named: "exact-springs",
        on: EngineCaseSet(grid: .quick, suites: [.spring], shard: VerificationShard(index: 1, count: 4)),
        tolerances: Tolerances(overrides: ["engine": 1e-6]), namingSchemes: false)
    #expect(report.passed, "\(report.failureSummary)")
    print(report.text)
}
