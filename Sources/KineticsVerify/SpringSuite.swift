import Foundation
import Kinetics
import KineticsReference

/// One spring method's result on one trajectory.
struct SpringTrajectoryError: Sendable, Codable, Equatable {
    /// The largest error over the amplitude: NaN when a value was not a
    /// number (or the error overflowed), the worst outcome of all.
    var maxError: Double
    var rmsError: Double
    /// The first time with a NaN error, or the time of the largest error.
    var worstTime: Double
}

/// Everything measured for one spring case at every frame rate, for each
/// method (or engine) named by a `Key`.
struct SpringCaseMeasurement<Key: Hashable & Sendable & Codable>: Sendable, Codable, Equatable {
    /// The largest difference from the 60 Hz run, and the rate where it is.
    struct Spread: Sendable, Codable, Equatable {
        var value: Double
        var fps: Double
    }

    /// Per frame rate (in ``verificationFrameRates`` order), per key; a key
    /// without values at a rate is absent there.
    var errors: [[Key: SpringTrajectoryError]]
    /// Per key: the largest difference from the 60 Hz run at common times,
    /// over the amplitude.
    var frameRateSpread: [Key: Spread]
}

enum SpringSuite {
    /// Runs every method on one case at every frame rate against GSL;
    /// `fault` (a test hook) spoils one method's values.
    static func measure(
        _ springCase: SpringCase, methods: [SpringMethod], fault: InjectedFault? = nil
    ) throws -> SpringCaseMeasurement<SpringMethod> {
        try measure(springCase, keys: methods) { method, _, times in
            var computed = springValues(springCase, method: method, times: times)
            if let fault, fault.method == method.rawValue { fault.spoil(&computed) }
            return computed
        }
    }

    /// Measures the values that `values(key, rate index, times)` gives at
    /// each frame rate (nil: none at that rate) against GSL, and each key's
    /// dependence on the frame rate.
    static func measure<Key: Hashable & Sendable & Codable>(
        _ springCase: SpringCase, keys: [Key], values: (Key, Int, [Double]) throws -> [Double]?
    ) throws -> SpringCaseMeasurement<Key> {
        var errors: [[Key: SpringTrajectoryError]] = []
        var runs: [[Key: [Double]]] = []
        var amplitudes: [Double] = []
        for (rate, fps) in verificationFrameRates.enumerated() {
            let times = frameTimes(fps: fps, seconds: springCase.seconds)
            let reference = try springReference(springCase, times: times)
            let amplitude = max(reference.map { abs($0 - 1) }.max() ?? 1, 1e-300)
            var perKey: [Key: SpringTrajectoryError] = [:]
            var run: [Key: [Double]] = [:]
            for key in keys {
                guard let computed = try values(key, rate, times) else { continue }
                run[key] = computed
                perKey[key] = trajectoryError(computed, reference, times: times, amplitude: amplitude)
            }
            errors.append(perKey)
            runs.append(run)
            amplitudes.append(amplitude)
        }
        // Frame-rate dependence: each rate against 60 Hz at their common times.
        let base = verificationFrameRates.firstIndex(of: 60)!
        var spread: [Key: SpringCaseMeasurement<Key>.Spread] = [:]
        for key in keys {
            guard let a = runs[base][key] else { continue }
            var worst = SpringCaseMeasurement<Key>.Spread(value: 0, fps: 60)
            for (index, fps) in verificationFrameRates.enumerated() where index != base {
                guard let b = runs[index][key] else { continue }
                let common = greatestCommonDivisor(60, Int(fps))
                let strideBase = 60 / common
                let strideOther = Int(fps) / common
                var k = 0
                while k * strideBase < a.count && k * strideOther < b.count {
                    let difference = abs(a[k * strideBase] - b[k * strideOther]) / amplitudes[base]
                    if isWorse(difference, than: worst.value) { worst = .init(value: difference, fps: fps) }
                    k += 1
                }
            }
            spread[key] = worst
        }
        return SpringCaseMeasurement(errors: errors, frameRateSpread: spread)
    }

    /// GSL's trajectory of the case, as values.
    static func springReference(_ springCase: SpringCase, times: [Double]) throws -> [Double] {
        let p = springCase.parameters
        do {
            return try ReferenceODE.spring(
                tension: p.tension, friction: p.friction, mass: p.mass,
                displacement: -1, velocity: springCase.velocity, times: times
            ).map { 1 + $0.position }
        } catch {
            throw VerificationError.reference("GSL failed on the spring \(springCase.label): \(error)")
        }
    }

    /// The method's values at the frame times, from 0 towards 1.
    static func springValues(_ springCase: SpringCase, method: SpringMethod, times: [Double]) -> [Double] {
        SpringStepper(
            parameters: springCase.parameters, method: method, value: 0.0, velocity: springCase.velocity, target: 1.0
        ).values(at: times)
    }

    /// Max and RMS error over the amplitude. A value that is not a number
    /// makes the error NaN from there on (and an infinite one, infinite):
    /// the result says so, never leaves it out.
    static func trajectoryError(
        _ values: [Double], _ reference: [Double], times: [Double], amplitude: Double
    ) -> SpringTrajectoryError {
        var worst = 0.0
        var worstTime = 0.0
        var sum = 0.0
        for index in values.indices {
            let error = abs(values[index] - reference[index]) / amplitude
            guard !error.isNaN else {
                return SpringTrajectoryError(maxError: .nan, rmsError: .nan, worstTime: times[index])
            }
            if error > worst {
                worst = error
                worstTime = times[index]
            }
            sum += error * error
        }
        return SpringTrajectoryError(
            maxError: worst, rmsError: (sum / Double(values.count)).squareRoot(), worstTime: worstTime)
    }

    // MARK: Time scale and order

    /// The fitted time scale of each method at each frame rate on one case.
    static func timeScales(_ springCase: SpringCase, methods: [SpringMethod]) -> [SpringMethod: [Double]] {
        var result: [SpringMethod: [Double]] = [:]
        for fps in verificationFrameRates {
            let times = frameTimes(fps: fps, seconds: springCase.seconds)
            for method in methods {
                let values = springValues(springCase, method: method, times: times)
                let fit = TimeScale(times: times, values: values) { t in
                    let state = SpringPropagator.exact(springCase.parameters, time: t)
                        .apply(displacement: -1.0, velocity: springCase.velocity)
                    return (1 + state.displacement, state.velocity)
                }
                result[method, default: []].append(fit.scale)
            }
        }
        return result
    }

    /// RK4's observed order: log₂ of the error ratio when the step halves from
    /// 1 ms, over half a second, against the closed form.
    static func rk4Order(_ spring: SpringParameters) -> Double {
        func error(step: Double) -> Double {
            let steps = Int((0.5 / step).rounded())
            let map = SpringPropagator.rk4Step(spring, step: step)
            var state = (displacement: -1.0, velocity: 0.0)
            var worst = 0.0
            for n in 1 ... steps {
                state = map.apply(displacement: state.displacement, velocity: state.velocity)
                if n % 10 == 0 {
                    let exact = SpringPropagator.exact(spring, time: Double(n) * step)
                        .apply(displacement: -1.0, velocity: 0.0).displacement
                    worst = max(worst, abs(state.displacement - exact))
                }
            }
            return worst
        }
        return log2(error(step: 0.001) / error(step: 0.0005))
    }
}

func greatestCommonDivisor(_ a: Int, _ b: Int) -> Int { b == 0 ? a : greatestCommonDivisor(b, a % b) }
