import Foundation
import Kinetics
import KineticsVerify
import Testing

@Suite("Metrics")
struct MetricsTests {
    /// A damped cosine: position and velocity.
    static func motion(_ t: Double) -> (position: Double, velocity: Double) {
        (exp(-2 * t) * cos(9 * t), exp(-2 * t) * (-2 * cos(9 * t) - 9 * sin(9 * t)))
    }

    @Test("the time-scale fit recovers a known scale and offset")
    func recoversScale() {
        let times = frameTimes(fps: 60, seconds: 2)
        for (scale, offset) in [(1.0, 0.0), (0.9797, -0.0008), (0.92, 0.001), (1.05, 0.0)] {
            let values = times.map { Self.motion(max(scale * $0 + offset, 0)).position }
            let fit = TimeScale(times: times, values: values, exact: Self.motion)
            #expect(abs(fit.scale - scale) <= 1e-9, "scale \(scale): \(fit.scale)")
            #expect(abs(fit.offset - offset) <= 1e-9, "offset \(offset): \(fit.offset)")
            #expect(fit.residual <= 1e-12)
        }
    }

    @Test("comparison: max and RMS error over the amplitude, and where")
    func comparison() {
        let times = [0.0, 0.1, 0.2, 0.3]
        let reference = [0.0, 1.5, 1.0, 1.0]
        let values = [0.0, 1.4, 1.0, 1.0]
        let result = TrajectoryComparison(times: times, values: values, reference: reference, target: 1)
        #expect(result.amplitude == 1)
        #expect(abs(result.maxError - 0.1) < 1e-15)
        #expect(result.worstTime == 0.1)
        #expect(abs(result.rmsError - 0.05) < 1e-15)
    }
}
