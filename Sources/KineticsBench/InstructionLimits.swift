import Foundation
import Kinetics

/// An interaction whose cost a run can read off its counted frames: the
/// frame of a scenario that does it, less the steady frame of the same
/// workload, over the animations it touches.
public enum BenchInteraction: String, CaseIterable, Sendable, Codable {
    /// A new target for a running spring (retarget storms: every spring, every frame).
    case retarget
    /// An animation removed and another added under its key (churn: a tenth a frame).
    case replacement
    /// An animation added (the burst frame: a tenth more).
    case add
    /// An animation finishing quietly (the mass-completion frame: all of them).
    case completion

    /// The scenario whose frames do this interaction.
    public var scenario: BenchScenario {
        switch self {
        case .retarget: .retargetStorm
        case .replacement: .churn
        case .add: .burst
        case .completion: .massCompletion
        }
    }

    /// The interaction a scenario's frames do; nil for steady and jittered frames.
    public init?(scenario: BenchScenario) {
        guard let found = Self.allCases.first(where: { $0.scenario == scenario }) else { return nil }
        self = found
    }

    /// How many animations one frame of `configuration` touches.
    public func touched(_ configuration: BenchConfiguration) -> Int {
        switch self {
        case .retarget, .completion: configuration.animations
        case .replacement, .add: configuration.eventCount
        }
    }
}

/// The instructions one interaction costs an engine on a workload, from
/// two frames of one run counted by callgrind (`--count instructions`).
public struct InteractionCost: Codable, Sendable, Equatable {
    /// The engine.
    public var engine: BenchEngine
    /// The interaction.
    public var interaction: BenchInteraction
    /// The event's configuration key: `animator 10000 spring churn 60 Hz pop`.
    public var key: String
    /// The event frame's instructions less the steady frame's, over the
    /// animations the event touches.
    public var instructionsPerOperation: Double

    /// The cost of every interaction `report` counted both frames of: each
    /// event configuration beside the steady configuration of its workload.
    public static func costs(_ report: BenchReport) -> [InteractionCost] {
        var steady: [String: InstructionCount] = [:]
        for result in report.results where result.configuration.scenario == .steady {
            steady[result.configuration.key] = result.instructions
        }
        return report.results.compactMap { result in
            let configuration = result.configuration
            guard let interaction = BenchInteraction(scenario: configuration.scenario),
                let event = result.instructions
            else { return nil }
            var plain = configuration
            plain.scenario = .steady
            guard let base = steady[plain.key] else { return nil }
            let cost =
                (event.instructionsPerFrame - base.instructionsPerFrame) / Double(interaction.touched(configuration))
            return InteractionCost(
                engine: configuration.engine, interaction: interaction, key: configuration.key,
                instructionsPerOperation: cost)
        }
    }
}

/// `--max-instructions ENGINE.INTERACTION=N`: the most instructions one
/// interaction may cost an engine, in every workload a run counts it on.
public struct InteractionCeiling: Sendable, Equatable {
    /// The engine.
    public var engine: BenchEngine
    /// The interaction.
    public var interaction: BenchInteraction
    /// The most instructions an interaction may cost.
    public var most: Double

    /// Reads `animator.retarget=300`.
    ///
    /// - Throws: a sentence naming the text and what is accepted.
    public init(parsing text: String) throws(BenchError) {
        let interactions = BenchInteraction.allCases.map(\.rawValue).joined(separator: ", ")
        let parts = text.split(separator: "=", maxSplits: 1).map(String.init)
        guard parts.count == 2, let dot = parts[0].lastIndex(of: "."),
            let engine = BenchEngine(rawValue: String(parts[0][..<dot])),
            let interaction = BenchInteraction(rawValue: String(parts[0][parts[0].index(after: dot)...])),
            let most = Double(parts[1]), most.isFinite, most >= 0
        else {
            throw BenchError(
                description:
                    "--max-instructions must be ENGINE.INTERACTION=N with INTERACTION one of \(interactions) and N a number >= 0, got '\(text)'"
            )
        }
        self.engine = engine
        self.interaction = interaction
        self.most = most
    }

    /// The costs over the ceiling, and an error when the run counted no
    /// cost the ceiling applies to (a ceiling that checks nothing).
    public func violations(_ costs: [InteractionCost]) -> [Regression] {
        let mine = costs.filter { $0.engine == engine && $0.interaction == interaction }
        guard !mine.isEmpty else {
            return [
                Regression(
                    key: "\(engine).\(interaction.rawValue)",
                    message:
                        "no cost to check: the run counted no \(interaction.scenario.rawValue) frame of \(engine) beside a steady one (--max-instructions)"
                )
            ]
        }
        return mine.filter { Limit.atMost(most).isExceeded(by: $0.instructionsPerOperation) }.map {
            Regression(
                key: $0.key,
                message: String(
                    format: "a %@ costs %.1f instructions, more than the ceiling %g (--max-instructions)",
                    interaction.rawValue, $0.instructionsPerOperation, most))
        }
    }
}

/// `--max-instruction-ratio A/B=R`: engine A's instructions per frame over
/// engine B's, in each workload the run counted both on, at most R.
public struct InstructionRatioLimit: Sendable, Equatable {
    /// The engine counted over the other.
    public var numerator: BenchEngine
    /// The engine it is counted against.
    public var denominator: BenchEngine
    /// The largest ratio that passes.
    public var most: Double

    /// Reads `abi-null/soa-springs=0.01`.
    ///
    /// - Throws: a sentence naming the text and what is accepted.
    public init(parsing text: String) throws(BenchError) {
        let parts = text.split(separator: "=", maxSplits: 1).map(String.init)
        let engines = parts.first?.split(separator: "/", maxSplits: 1).map(String.init) ?? []
        guard parts.count == 2, engines.count == 2, let numerator = BenchEngine(rawValue: engines[0]),
            let denominator = BenchEngine(rawValue: engines[1]), numerator != denominator,
            let most = Double(parts[1]), most.isFinite, most > 0
        else {
            throw BenchError(
                description:
                    "--max-instruction-ratio must be ENGINE/ENGINE=R with two engines and R a number > 0, got '\(text)'"
            )
        }
        self.numerator = numerator
        self.denominator = denominator
        self.most = most
    }

    /// One line per workload both engines were counted on: the two
    /// counts and their ratio.
    public func lines(_ report: BenchReport) -> [String] {
        pairs(report).map { top, bottom, ratio in
            String(
                format: "%@ over %@, %@: %.1f over %.1f instructions a frame, %.4g (at most %g)", numerator.rawValue,
                denominator.rawValue, top.configuration.workload, top.instructions!.instructionsPerFrame,
                bottom.instructions!.instructionsPerFrame, ratio, most)
        }
    }

    /// The workloads where the ratio is above the limit, and an error when
    /// no workload had both engines counted.
    public func violations(_ report: BenchReport) -> [Regression] {
        let found = pairs(report)
        guard !found.isEmpty else {
            return [
                Regression(
                    key: "\(numerator)/\(denominator)",
                    message: "no workload counted both engines (--max-instruction-ratio needs --count instructions)")
            ]
        }
        return found.filter { Limit.atMost(most).isExceeded(by: $0.ratio) }.map { top, _, ratio in
            Regression(
                key: top.configuration.key,
                message: String(
                    format: "%.4g times %@'s instructions a frame, more than %g (--max-instruction-ratio)", ratio,
                    denominator.rawValue, most))
        }
    }

    private func pairs(_ report: BenchReport) -> [(top: BenchResult, bottom: BenchResult, ratio: Double)] {
        report.results.compactMap { top in
            guard top.configuration.engine == numerator, let count = top.instructions,
                let bottom = report.results.first(where: {
                    $0.configuration.engine == denominator && $0.configuration.workload == top.configuration.workload
                }), let other = bottom.instructions, other.instructionsPerFrame > 0
            else { return nil }
            return (top, bottom, count.instructionsPerFrame / other.instructionsPerFrame)
        }
    }
}
