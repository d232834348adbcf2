import Kinetics
import KineticsReference
import Testing

@testable import KineticsBench

/// The closed forms that check values where GSL is not linked (a package's
/// own bench executable) against GSL's trajectories, which the `kinetics`
/// tool checks with.
@Suite("Bench: the value check's references")
struct MotionReferenceTests {
    @Test("the closed forms are GSL's motion to 1e-12 of the travel, for every spring and decay a workload holds")
    func closedFormIsGSL() throws {
        // The workloads' springs (four lightly damped sets and Pop's
        // default) and decays (the steady and Pop's deceleration), at the
        // times a value check reads and further out. GSL's rk8pd runs at
        // 1e-13 absolute and relative, and the closed forms are exact to a
        // few ulps of the amplitude: 1e-12 of the travel holds both with
        // room, and a wrong law (a sign, a factor of the mass) misses by
        // far more.
        let closed = MotionReference.closedForm
        let springs = Workload.steadySprings + [.popDefault]
        for parameters in springs {
            for time in [0.1, 1.0, 1.0 + 1.0 / 60, 3.7] {
                for (displacement, velocity) in [(-1_000.0, 0.0), (250.0, -40.0)] {
                    let exact = try closed.spring(parameters, displacement, velocity, time)
                    let gsl = try ReferenceODE.spring(
                        tension: parameters.tension, friction: parameters.friction, mass: parameters.mass,
                        displacement: displacement, velocity: velocity, times: [time])[0].position
                    #expect(
                        abs(exact - gsl) <= 1e-12 * abs(displacement), "\(parameters) at \(time): \(exact) vs \(gsl)")
                }
            }
        }
        for parameters in [try DecayParameters(deceleration: 0.9995), .popDefault] {
            for time in [0.1, 1.0, 5.0] {
                let velocity = 1_500.0
                let exact = try closed.decay(parameters, 20, velocity, time)
                let gsl = try ReferenceODE.decay(
                    deceleration: parameters.deceleration, position: 20, velocity: velocity, times: [time])[0].position
                let travel = parameters.totalThrow(velocity: velocity, method: .continuous)
                #expect(abs(exact - gsl) <= 1e-12 * travel, "\(parameters.deceleration) at \(time): \(exact) vs \(gsl)")
            }
        }
    }

    @Test("a value check names its reference, and an exact and a Pop-stepped engine read as such against it")
    func checkNamesReference() throws {
        let configuration = BenchConfiguration(
            engine: .batch, animations: 100, mix: .spring, fps: 60, method: .analytic)
        let exact = try #require(try BenchRunner.checkValues(configuration))
        #expect(exact.reference == MotionReference.closedForm.name)
        // The analytic method composes the same closed form frame by frame.
        #expect(exact.error < 1e-12, "\(exact)")
        var pop = configuration
        pop.method = .pop
        let stepped = try #require(try BenchRunner.checkValues(pop))
        // Pop's time runs about 2% slow at 60 Hz: a visible error, not rounding.
        #expect(stepped.error > 1e-4 && stepped.error < 0.2, "\(stepped)")
    }
}
