import Kinetics
import Testing

/// `trajectory(at:start:)`, the one replay of a stepper over frame times
/// that verify, trace, summary, the figures and compare share.
@Suite("Steppers: trajectories over frame times")
struct TrajectoryTests {
    @Test("equals stepping by hand, bit for bit, and leaves the stepper where it was")
    func equalsManualStepping() {
        // A repeated time is a frame of zero length: nothing moves.
        let times = [0, 1.0 / 60, 2.0 / 60, 2.0 / 60, 0.1]
        for method in SpringMethod.allCases {
            let stepper = SpringStepper(parameters: .popDefault, method: method, value: 3.0, velocity: -2, target: 8)
            var manual = stepper
            let v0 = manual.value
            manual.advance(by: 1.0 / 60)
            let v1 = manual.value
            manual.advance(by: 2.0 / 60 - 1.0 / 60)
            let v2 = manual.value
            manual.advance(by: 0.1 - 2.0 / 60)
            let states = stepper.trajectory(at: times)
            #expect(states.map(\.value) == [v0, v1, v2, v2, manual.value], "\(method)")
            #expect(states.map(\.time) == times && states.last?.velocity == manual.velocity)
            #expect(stepper.value == 3 && stepper.velocity == -2 && stepper.elapsed == 0)
        }
    }

    @Test("start: the first time is advanced to from the given start")
    func explicitStart() {
        let decay = DecayStepper(parameters: .popDefault, method: .exact, value: 0.0, velocity: 1_000)
        var manual = decay
        manual.advance(by: 0.5)
        #expect(decay.values(at: [0.5], start: 0) == [manual.value])
        #expect(decay.values(at: [0.5]) == [0])
    }

    @Test("a time before the previous moves nothing; the next frame is measured from it")
    func backwardsTime() {
        let stepper = SpringStepper(parameters: .popDefault, method: .analytic, value: 0.0, target: 1)
        let states = stepper.trajectory(at: [0, 0.2, 0.1, 0.3])
        #expect(states[2].value == states[1].value)
        var manual = stepper
        manual.advance(by: 0.2)
        manual.advance(by: 0.2)  // 0.1 → 0.3
        #expect(states[3].value == manual.value)
    }
}
