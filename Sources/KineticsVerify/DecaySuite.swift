import Foundation
import Kinetics
import KineticsReference

/// One decay method's worst error on one trajectory, over the throw.
struct DecayTrajectoryError: Sendable, Codable, Equatable {
    var maxError: Double
    var rmsError: Double
    var worstTime: Double
}

enum DecaySuite {
    /// Every method on one case at every frame rate. `pop` and `exact` are
    /// compared with the discrete law, `continuous` with the continuous one.
    static func measure(
        _ decayCase: DecayCase, methods: [DecayMethod], fault: InjectedFault? = nil
    ) throws -> [[DecayMethod: DecayTrajectoryError]] {
        try measure(decayCase, keys: methods, law: { $0 }) { method, _, times in
            var values = DecayStepper(
                parameters: decayCase.parameters, method: method, value: 0.0, velocity: decayCase.velocity
            ).values(at: times)
            if let fault, fault.method == method.rawValue, !values.isEmpty { fault.spoil(&values[times.count / 2]) }
            return values
        }
    }

    /// Measures the values that `values(key, rate index, times)` gives at
    /// each frame rate (nil: none at that rate) against the law `law(key)`
    /// names (`continuous`, or the discrete law of `pop` and `exact`), over
    /// that law's total throw. Both laws come from GSL's trajectory of
    /// `x' = v, v' = -λv`, the discrete one scaled by its constant factor
    /// `λd/(1000(1 - d))`.
    static func measure<Key: Hashable>(
        _ decayCase: DecayCase, keys: [Key], law: (Key) -> DecayMethod,
        values: (Key, Int, [Double]) throws -> [Double]?
    ) throws -> [[Key: DecayTrajectoryError]] {
        let d = decayCase.parameters.deceleration
        let lambda = decayCase.parameters.rate
        let factor = lambda * d / (1000 * (1 - d))
        var result: [[Key: DecayTrajectoryError]] = []
        for (rate, fps) in verificationFrameRates.enumerated() {
            let times = frameTimes(fps: fps, seconds: decayCase.seconds)
            let continuous: [Double]
            do {
                continuous = try ReferenceODE.decay(
                    deceleration: d, position: 0, velocity: decayCase.velocity, times: times
                ).map(\.position)
            } catch {
                throw VerificationError.reference("GSL failed on the decay \(decayCase.label): \(error)")
            }
            var perKey: [Key: DecayTrajectoryError] = [:]
            for key in keys {
                guard let computed = try values(key, rate, times) else { continue }
                let method = law(key)
                let reference = method == .continuous ? continuous : continuous.map { $0 * factor }
                let scale = abs(decayCase.parameters.totalThrow(velocity: decayCase.velocity, method: method))
                var worst = 0.0
                var worstTime = 0.0
                var sum = 0.0
                for k in times.indices {
                    let error = abs(computed[k] - reference[k]) / scale
                    if isWorse(error, than: worst) {
                        worst = error
                        worstTime = times[k]
                    }
                    sum += error * error
                }
                perKey[key] = DecayTrajectoryError(
                    maxError: worst, rmsError: (sum / Double(times.count)).squareRoot(), worstTime: worstTime)
            }
            result.append(perKey)
        }
        return result
    }
}
