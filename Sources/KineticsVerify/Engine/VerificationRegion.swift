import Foundation
import Kinetics
import KineticsCompare

/// The part of a grid an engine is verified, and gated, on: some frame
/// rates, springs of some damping ratios and natural frequencies, the
/// springs a scheme steps stably. An engine made for a region (a
/// one-step-a-frame integrator, stable only while ω₀·h stays small) is
/// then held where it is meant to work; the cases outside are not asked,
/// and the report names the region. Curves are not restricted.
public struct VerificationRegion: Sendable, Codable, Equatable, CustomStringConvertible {
    /// Springs and decays at these frame rates only (of ``verificationFrameRates``).
    public var frameRates: [Double]?
    /// Springs whose damping ratio ζ lies here.
    public var dampingRatio: ClosedRange<Double>?
    /// Springs whose natural frequency ω₀, in radians a second, lies here.
    public var naturalFrequency: ClosedRange<Double>?
    /// Springs that this scheme of `kinetics compare` (a spring family's
    /// title, as the scheme rows name it) steps stably at the case's frame
    /// rate: its one-frame step has no mode that grows.
    public var stableUnder: String?

    /// A region; nil leaves that dimension whole.
    ///
    /// - Throws: ``VerificationError/usage(_:)`` for a frame rate that is
    ///   not one of the grid's, a range that is not finite with its lower
    ///   bound ≥ 0, or a scheme that is not a spring family of `kinetics
    ///   compare` (the message lists them).
    public init(
        frameRates: [Double]? = nil, dampingRatio: ClosedRange<Double>? = nil,
        naturalFrequency: ClosedRange<Double>? = nil, stableUnder: String? = nil
    ) throws(VerificationError) {
        for rate in frameRates ?? [] where !verificationFrameRates.contains(rate) {
            throw .usage(
                "a frame rate of the region must be one of the grid's, \(verificationFrameRates.map { String(format: "%g", $0) }.joined(separator: ", ")), got \(String(format: "%g", rate))"
            )
        }
        for (name, range) in [("damping ratio", dampingRatio), ("natural frequency", naturalFrequency)] {
            guard let range else { continue }
            guard range.lowerBound.isFinite, range.upperBound.isFinite, range.lowerBound >= 0 else {
                throw .usage(
                    "the region's \(name) must be LOW:HIGH with 0 <= LOW <= HIGH, both finite, got \(range.lowerBound):\(range.upperBound)"
                )
            }
        }
        if let stableUnder, Self.family(stableUnder) == nil {
            throw .usage(
                "--stable-under must name a spring scheme of kinetics compare, one of: \(Self.schemeNames.joined(separator: "; ")); got '\(stableUnder)'"
            )
        }
        self.frameRates = frameRates
        self.dampingRatio = dampingRatio
        self.naturalFrequency = naturalFrequency
        self.stableUnder = stableUnder
    }

    /// `frame rates 60, 120; ζ in [0.1, 2]; springs that velocity-first
    /// symplectic Euler, force, one step a frame steps stably`.
    public var description: String {
        var parts: [String] = []
        if let frameRates {
            parts.append("frame rates " + frameRates.map { String(format: "%g", $0) }.joined(separator: ", "))
        }
        func interval(_ range: ClosedRange<Double>) -> String {
            String(format: "[%g, %g]", range.lowerBound, range.upperBound)
        }
        if let dampingRatio { parts.append("ζ in \(interval(dampingRatio))") }
        if let naturalFrequency { parts.append("ω₀ in \(interval(naturalFrequency)) rad/s") }
        if let stableUnder { parts.append("springs that \(stableUnder) steps stably") }
        return parts.isEmpty ? "the whole grid" : parts.joined(separator: "; ")
    }

    /// The names ``stableUnder`` takes: every spring family's title.
    public static var schemeNames: [String] { SpringFamily.all.map(\.title) }

    private static func family(_ name: String) -> SpringFamily? { SpringFamily.all.first { $0.title == name } }

    /// Whether the region holds `spring` at `fps`.
    func keeps(_ spring: SpringCase, fps: Double) -> Bool {
        guard frameRates?.contains(fps) ?? true else { return false }
        let parameters = spring.parameters
        if let dampingRatio, !dampingRatio.contains(parameters.dampingRatio) { return false }
        if let naturalFrequency, !naturalFrequency.contains(parameters.naturalFrequency) { return false }
        if let stableUnder, let family = Self.family(stableUnder) {
            return Self.isStable(family, parameters, step: 1 / fps)
        }
        return true
    }

    /// Whether the region holds a decay at `fps`.
    func keepsDecay(fps: Double) -> Bool { frameRates?.contains(fps) ?? true }

    /// Whether `family` steps `spring` stably at `step` seconds a frame:
    /// the largest root of its one-frame step's characteristic polynomial
    /// is at most 1 in magnitude. The polynomial λ² − tλ + d is read off
    /// four frames of the scheme's replay from a unit offset at rest (the
    /// positions of a linear step obey x₂ = t·x₁ − d·x₀); where that start
    /// shows one mode only, from a unit offset and velocity.
    static func isStable(_ family: SpringFamily, _ spring: SpringParameters, step: Double) -> Bool {
        let times = (0 ..< 4).map { Double($0) * step }
        for velocity in [0.0, 1 / step] {
            let x = SpringCandidate(family).values(spring, from: 1, to: 0, velocity: velocity, times: times)
            guard x.allSatisfy(\.isFinite) else { return false }
            // [x1 −x0; x2 −x1]·[t; d] = [x2; x3]
            let determinant = -x[1] * x[1] + x[0] * x[2]
            guard abs(determinant) > 1e-12 * max(1, x[0] * x[0] + x[1] * x[1]) else { continue }
            let t = (-x[2] * x[1] + x[0] * x[3]) / determinant
            let d = (x[1] * x[3] - x[2] * x[2]) / determinant
            let discriminant = t * t - 4 * d
            let radius =
                discriminant >= 0
                ? max(abs(t + discriminant.squareRoot()), abs(t - discriminant.squareRoot())) / 2
                : abs(d).squareRoot()
            return radius <= 1 + 1e-9
        }
        // One mode in every start: its ratio decides.
        let x = SpringCandidate(family).values(spring, from: 1, to: 0, velocity: 0, times: times)
        return abs(x[1]) <= 1 + 1e-9
    }
}

extension EngineCaseSet {
    /// The set within `region`: the cases outside it are left out (not
    /// asked), and so are the springs and decays with no case left.
    public func restricted(to region: VerificationRegion) -> EngineCaseSet {
        var kept: Set<String> = []
        let rates = verificationFrameRates
        var springs: [(position: Int, springCase: SpringCase)] = []
        for entry in self.springs {
            let ids = rates.filter { region.keeps(entry.springCase, fps: $0) }.map {
                Self.id("spring", entry.position, fps: $0)
            }
            if !ids.isEmpty { springs.append(entry) }
            kept.formUnion(ids)
        }
        var decays: [(position: Int, decayCase: DecayCase)] = []
        for entry in self.decays {
            let ids = rates.filter(region.keepsDecay).map { Self.id("decay", entry.position, fps: $0) }
            if !ids.isEmpty { decays.append(entry) }
            kept.formUnion(ids)
        }
        let cases = self.cases.filter { engineCase in
            if case .bezier = engineCase.problem { return true }
            return kept.contains(engineCase.id)
        }
        return EngineCaseSet(
            grid: grid, suites: suites, shard: shard, region: region, cases: cases, springs: springs, decays: decays,
            curves: curves, samples: samples)
    }
}
