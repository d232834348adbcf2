import Foundation

/// One trajectory's error against GSL.
public struct EngineTrajectoryMeasure: Codable, Sendable, Equatable {
    /// The largest error over the scale (the amplitude, the total throw);
    /// NaN when a value was not a number.
    public var maxError: Double
    /// The RMS error over the scale.
    public var rmsError: Double
    /// Where the largest error (or the first NaN) is, in seconds.
    public var worstTime: Double
}

/// What was measured on one spring of the grid: the rows of an engine run
/// are computed from these, and so are those of merged shards.
public struct EngineSpringMeasure: Codable, Sendable, Equatable {
    /// The spring's position in the grid.
    public var position: Int
    /// Per frame rate of ``verificationFrameRates``: the error, nil where
    /// the case was not answered.
    public var errors: [EngineTrajectoryMeasure?]
    /// The largest difference from the 60 Hz run at common times, over the
    /// amplitude, and the rate where it is.
    public var spread: Double?
    /// See ``spread``.
    public var spreadFPS: Double?
    /// The 60 Hz trace's fitted time scale and lag (seconds), as `compare`
    /// fits them.
    public var timeScale: Double?
    /// See ``timeScale``.
    public var lag: Double?
    /// Whether that fit stopped at the edge of its search range (nil: not
    /// fitted, or a report from before this was kept).
    public var timeFitAtEdge: Bool?
    /// The scheme that explains the 60 Hz trace (a candidate of `compare`),
    /// `none` when no candidate does, `diverged` when it holds a value
    /// that is not a number; nil when unanswered.
    public var scheme: String?
}

/// What was measured on one decay of the grid.
public struct EngineDecayMeasure: Codable, Sendable, Equatable {
    /// The decay's position in the grid.
    public var position: Int
    /// Per frame rate: the error against the continuous law over its throw.
    public var errors: [EngineTrajectoryMeasure?]
    /// Per frame rate: the error against Pop's discrete law over its throw.
    public var discreteErrors: [EngineTrajectoryMeasure?]
    /// The scheme that explains the 60 Hz trace, `none` or `diverged`.
    public var scheme: String?
}

/// What was measured on one curve of the grid.
public struct EngineCurveMeasure: Codable, Sendable, Equatable {
    /// The curve's position in the grid.
    public var position: Int
    /// Points where x'(t) >= 1e-3, the largest error there over the y scale,
    /// and the x where it is.
    public var regularPoints: Int
    /// See ``regularPoints``.
    public var maxRegular: Double
    /// See ``regularPoints``.
    public var worstX: Double
    /// Whether every regular point held the gate (plus GSL's own
    /// uncertainty there); nil without a gate. Written for readers of the
    /// report: a merge judges again from ``regularExcess``.
    public var regularHeld: Bool?
    /// The largest amount by which a regular point's error passed the gate
    /// plus GSL's own uncertainty there, over the y scale (at most 0 when
    /// every point held; NaN once an error was NaN); nil without a gate.
    public var regularExcess: Double?
    /// The most GSL's uncertainty adds to the gate at a regular point, over
    /// the y scale: ``maxRegular`` can pass the gate by this much and hold.
    public var regularAllowance: Double?
    /// Points where x(t) is flat, their largest error, and whether each held
    /// the gate plus the spread of y there; nil without a gate.
    public var flatPoints: Int
    /// See ``flatPoints``.
    public var maxFlat: Double
    /// See ``flatPoints``.
    public var flatHeld: Bool?
    /// As ``regularExcess``, of the flat points (against the gate plus the
    /// spread of y there).
    public var flatExcess: Double?
    /// As ``regularAllowance``, of the flat points.
    public var flatAllowance: Double?
    /// The largest |dy/dx| between neighbouring samples.
    public var steepness: Double
    /// The solver that explains the curve's values, `none` or `diverged`.
    public var scheme: String?
}

/// Everything measured on an engine's answers, case by case.
public struct EngineMeasures: Codable, Sendable, Equatable {
    /// The engine's name in the rows.
    public var engine: String
    /// The shard the measures come from, nil for a whole run.
    public var shard: VerificationShard?
    /// The engine gates the run was held to (`engine`, `engine.spring`, …),
    /// so that merged shards are held to the same.
    public var gates: [String: Double] = [:]
    /// How many cases were asked, and how many answered.
    public var casesAsked: Int
    /// See ``casesAsked``.
    public var casesAnswered: Int
    /// The suites the engine refused cases of, in the order of the suites;
    /// nil or empty when it refused none. (Optional, so that reports
    /// written before refusals were kept still read.)
    public var refusals: [EngineRefusal]?
    /// False when the traces' schemes were not named (`--no-schemes`):
    /// the scheme rows are then left out. (Optional, so that reports
    /// written before the choice existed still read; nil means named.)
    public var schemesNamed: Bool?
    /// The region the cases were restricted to; nil for the whole grid.
    public var region: VerificationRegion?
    /// Per spring of the grid (of the shard).
    public var springs: [EngineSpringMeasure] = []
    /// Per decay.
    public var decays: [EngineDecayMeasure] = []
    /// Per curve.
    public var curves: [EngineCurveMeasure] = []
}

/// The cases of one suite that an engine refused: the suite is reported as
/// refused, not measured.
public struct EngineRefusal: Codable, Sendable, Equatable {
    /// The suite: `spring`, `decay` or `bezier`.
    public var suite: String
    /// How many of its cases were refused.
    public var cases: Int
    /// The first refused case, in the order asked, and the engine's message.
    public var firstCase: String
    /// See ``firstCase``.
    public var message: String

    /// A refusal of `cases` cases of `suite`, the first `firstCase`.
    public init(suite: String, cases: Int, firstCase: String, message: String) {
        self.suite = suite
        self.cases = cases
        self.firstCase = firstCase
        self.message = message
    }

    /// The refusals among `ids` (in the order asked), by suite.
    public static func grouped(_ ids: [String], refusals: [String: String]) -> [EngineRefusal] {
        var grouped: [EngineRefusal] = []
        for id in ids {
            guard let message = refusals[id] else { continue }
            let suite = String(id.prefix { $0 != "/" })
            if let index = grouped.firstIndex(where: { $0.suite == suite }) {
                grouped[index].cases += 1
            } else {
                grouped.append(EngineRefusal(suite: suite, cases: 1, firstCase: id, message: message))
            }
        }
        return grouped
    }
}
