import Foundation
import Kinetics
import KineticsReference

/// One decay method's worst error on one trajectory, over the throw.
struct DecayTrajectoryError: Sendable {
    var maxError: Double
    var rmsError: Double
    var worstTime: Double
}

enum DecaySuite {
    /// Every method on one case at every frame rate. `pop` and `exact` are
    /// compared with the discrete law, `continuous` with the continuous one;
    /// both come from GSL's trajectory of `x' = v, v' = -λv`, the discrete
    /// one scaled by its constant factor `λd/(1000(1 - d))`.
    static func measure(
        _ decayCase: DecayCase, methods: [DecayMethod], fault: InjectedFault? = nil
    ) throws -> [[DecayMethod: DecayTrajectoryError]] {
        let d = decayCase.parameters.deceleration
        let lambda = decayCase.parameters.rate
        let factor = lambda * d / (1000 * (1 - d))
        var result: [[DecayMethod: DecayTrajectoryError]] = []
        for fps in verificationFrameRates {
            let times = frameTimes(fps: fps, seconds: decayCase.seconds)
            let continuous: [Double]
            do {
                continuous = try ReferenceODE.decay(
                    deceleration: d, position: 0, velocity: decayCase.velocity, times: times
                ).map(\.position)
            } catch {
                throw VerificationError.reference("GSL failed on the decay \(decayCase.label): \(error)")
            }
            var perMethod: [DecayMethod: DecayTrajectoryError] = [:]
            for method in methods {
                let reference = method == .continuous ? continuous : continuous.map { $0 * factor }
                let scale = abs(decayCase.parameters.totalThrow(velocity: decayCase.velocity, method: method))
                let values = DecayStepper(
                    parameters: decayCase.parameters, method: method, value: 0.0, velocity: decayCase.velocity
                ).values(at: times)
                var worst = 0.0
                var worstTime = 0.0
                var sum = 0.0
                for k in times.indices {
                    var value = values[k]
                    if let fault, fault.method == method.rawValue, k == times.count / 2 { fault.spoil(&value) }
                    let error = abs(value - reference[k]) / scale
                    if isWorse(error, than: worst) {
                        worst = error
                        worstTime = times[k]
                    }
                    sum += error * error
                }
                perMethod[method] = DecayTrajectoryError(
                    maxError: worst, rmsError: (sum / Double(times.count)).squareRoot(), worstTime: worstTime)
            }
            result.append(perMethod)
        }
        return result
    }
}
