import Foundation
import Kinetics

/// How many cases a verification runs.
public enum VerificationGrid: String, CaseIterable, Sendable, Codable {
    /// About 150 springs, 40 decays and 25 curves at 1,001 x: seconds.
    case quick
    /// 10,000 springs, 1,000 decays and 1,005 curves at 10,001 x: minutes.
    case full
}

/// The frame rates every spring and decay case runs at.
public let verificationFrameRates: [Double] = [30, 60, 90, 120, 144, 240]

/// What a verification case's parameters decide besides the motion: how
/// long a case of them is observed.
public protocol CaseParameters: Sendable, Equatable {
    /// The observation window, in seconds, of a case released with
    /// `velocity`.
    func observationWindow(velocity: Double) -> Double
}

/// A case of the grid: a spring released at 0 with `velocity` and moving
/// to 1, or a decay thrown from 0 with `velocity`, observed for `seconds`.
public struct VerificationCase<Parameters: CaseParameters>: Sendable, Equatable {
    /// The spring or the deceleration.
    public let parameters: Parameters
    /// The initial velocity, units per second.
    public let velocity: Double
    /// The observation window (``CaseParameters/observationWindow(velocity:)``).
    public let seconds: Double

    init(_ parameters: Parameters, velocity: Double) {
        self.parameters = parameters
        self.velocity = velocity
        seconds = parameters.observationWindow(velocity: velocity)
    }
}

/// A spring case of the grid.
public typealias SpringCase = VerificationCase<SpringParameters>
/// A decay case of the grid.
public typealias DecayCase = VerificationCase<DecayParameters>

extension SpringParameters: CaseParameters {
    /// 1.5× the settling duration (band 1e-3), clamped to [0.5, 5] s.
    public func observationWindow(velocity: Double) -> Double {
        let settling = (try? settlingDuration(displacement: -1, velocity: velocity, band: 1e-3)) ?? 5
        return min(max(1.5 * settling, 0.5), 5)
    }
}

extension DecayParameters: CaseParameters {
    /// Pop's duration to rest (threshold 1), clamped to [0.25, 10] s.
    public func observationWindow(velocity: Double) -> Double {
        min(max(durationToRest(velocity: velocity, threshold: 1), 0.25), 10)
    }
}

extension VerificationCase where Parameters == SpringParameters {
    /// `k=342.1 c=30.49 m=1 v₀=0 (ζ=0.824)`.
    var label: String {
        "k=\(brief(parameters.tension)) c=\(brief(parameters.friction)) m=\(brief(parameters.mass)) v0=\(brief(velocity)) (ζ=\(brief(parameters.dampingRatio)))"
    }
}

extension VerificationCase where Parameters == DecayParameters {
    /// `d=0.998 v0=1000`.
    var label: String { "d=\(String(format: "%.6g", parameters.deceleration)) v0=\(brief(velocity))" }
}

/// The seeded parameter grids. The same grid name always gives the same cases.
public enum VerificationGrids {
    /// Springs: Pop's default first; the corners of the box (tension 1 and
    /// 10,000, mass 0.1 and 10, friction 0 and 500); log-uniform tension,
    /// mass and damping ratio (0.01 … 100) with friction kept within 0 … 500;
    /// ratios within 1e-6 of 1 (and exactly 1); undamped springs. Every
    /// other case starts with a velocity of ±(0.5 … 3)·ω₀.
    public static func springs(_ grid: VerificationGrid) -> [SpringCase] {
        let (random, critical, undamped) = grid == .full ? (9_000, 800, 191) : (120, 16, 8)
        var generator = SplitMix64(seed: 0x5EED_0001)
        var cases = [SpringCase(.popDefault, velocity: 0)]
        for tension in [1.0, 10_000] {
            for mass in [0.1, 10] {
                for friction in [0.0, 500] {
                    cases.append(
                        SpringCase(try! SpringParameters(tension: tension, friction: friction, mass: mass), velocity: 0)
                    )
                }
            }
        }
        func logUniform(_ low: Double, _ high: Double) -> Double {
            exp(Double.random(in: log(low) ... log(high), using: &generator))
        }
        func velocity(for parameters: SpringParameters, index: Int) -> Double {
            guard index % 2 == 1 else { return 0 }
            let sign: Double = Bool.random(using: &generator) ? 1 : -1
            return sign * Double.random(in: 0.5 ... 3, using: &generator) * parameters.naturalFrequency
        }
        func draw(ratio: () -> Double) -> SpringParameters {
            while true {
                let tension = logUniform(1, 10_000)
                let mass = logUniform(0.1, 10)
                let friction = 2 * ratio() * (tension * mass).squareRoot()
                if friction <= 500, let spring = try? SpringParameters(tension: tension, friction: friction, mass: mass)
                {
                    return spring
                }
            }
        }
        for index in 0 ..< random {
            let spring = draw { logUniform(0.01, 100) }
            cases.append(SpringCase(spring, velocity: velocity(for: spring, index: index)))
        }
        for index in 0 ..< critical {
            let spring = draw {
                if index % 8 == 0 { return 1 }
                let sign: Double = Bool.random(using: &generator) ? 1 : -1
                return 1 + sign * logUniform(1e-9, 1e-6)
            }
            cases.append(SpringCase(spring, velocity: velocity(for: spring, index: index)))
        }
        for index in 0 ..< undamped {
            let spring = try! SpringParameters(tension: logUniform(1, 10_000), friction: 0, mass: logUniform(0.1, 10))
            cases.append(SpringCase(spring, velocity: velocity(for: spring, index: index)))
        }
        return cases
    }

    /// Decays: the corners (velocities ±1 and ±20,000 at decelerations 0.99
    /// and 0.9999), then log-uniform speeds in 1 … 20,000 of either sign and
    /// `1 - d` log-uniform in 1e-4 … 1e-2.
    public static func decays(_ grid: VerificationGrid) -> [DecayCase] {
        let random = grid == .full ? 992 : 32
        var generator = SplitMix64(seed: 0x5EED_0002)
        var cases: [DecayCase] = []
        for d in [0.99, 0.9999] {
            for v in [1.0, -1, 20_000, -20_000] {
                cases.append(DecayCase(try! DecayParameters(deceleration: d), velocity: v))
            }
        }
        for _ in 0 ..< random {
            let d = 1 - exp(Double.random(in: log(1e-4) ... log(1e-2), using: &generator))
            let speed = exp(Double.random(in: 0 ... log(20_000), using: &generator))
            let sign: Double = Bool.random(using: &generator) ? 1 : -1
            cases.append(DecayCase(try! DecayParameters(deceleration: d), velocity: sign * speed))
        }
        return cases
    }

    /// Curves: the five named ones, then random control points with x
    /// uniform in [0, 1] (a fifth of them exactly 0 or 1 or within 1e-9 of
    /// either) and y uniform in [-1, 2].
    public static func curves(_ grid: VerificationGrid) -> [UnitBezier] {
        let random = grid == .full ? 1_000 : 20
        var generator = SplitMix64(seed: 0x5EED_0003)
        func controlX() -> Double {
            switch Int.random(in: 0 ..< 10, using: &generator) {
            case 0: 0
            case 1: 1
            case 2: Double.random(in: 0 ... 1e-9, using: &generator)
            case 3: 1 - Double.random(in: 0 ... 1e-9, using: &generator)
            default: Double.random(in: 0 ... 1, using: &generator)
            }
        }
        var curves = UnitBezier.named.map(\.curve)
        for _ in 0 ..< random {
            let x1 = controlX()
            let y1 = Double.random(in: -1 ... 2, using: &generator)
            let x2 = controlX()
            let y2 = Double.random(in: -1 ... 2, using: &generator)
            curves.append(try! UnitBezier(x1: x1, y1: y1, x2: x2, y2: y2))
        }
        return curves
    }

    /// How many x samples each curve is solved at: 10,001 (full) or 1,001.
    public static func bezierSamples(_ grid: VerificationGrid) -> Int { grid == .full ? 10_001 : 1_001 }
}

/// Four significant digits, for labels.
func brief(_ value: Double) -> String { String(format: "%.4g", value) }
