/// One line of a verification: a check of one mode of one suite over a grid.
public struct VerificationRow: Codable, Sendable, Equatable {
    /// `spring`, `decay`, `bezier` or `conversions`.
    public var suite: String
    /// The solver mode (`pop`, `rk4`, …) or, for conversions, the mapping.
    public var mode: String
    /// What is measured: `error`, `frame-rate`, `time scale 60 Hz`, `order`, …
    public var check: String
    /// How many cases the value summarises.
    public var cases: Int
    /// The worst value over the cases (for time scales and orders: the median).
    public var value: Double
    /// The root mean square over the cases, where it means something.
    public var rms: Double?
    /// The smallest and largest value, for time scales and orders.
    public var minimum: Double?
    /// See ``minimum``.
    public var maximum: Double?
    /// Where the worst value occurs, in words.
    public var location: String
    /// The worst case's parameters.
    public var parameters: [String: Double]
    /// The tolerance's name, or nil for a value that is reported, not checked.
    public var toleranceName: String?
    /// The tolerance, or nil when reported only.
    public var tolerance: Double?
    /// Whether the check held; nil when reported only.
    public var passed: Bool?
    /// A remark, for example how many cases diverged.
    public var note: String?

    /// Creates a row.
    public init(
        suite: String, mode: String, check: String, cases: Int, value: Double, rms: Double? = nil,
        minimum: Double? = nil, maximum: Double? = nil, location: String = "", parameters: [String: Double] = [:],
        toleranceName: String? = nil, tolerance: Double? = nil, passed: Bool? = nil, note: String? = nil
    ) {
        self.suite = suite
        self.mode = mode
        self.check = check
        self.cases = cases
        self.value = value
        self.rms = rms
        self.minimum = minimum
        self.maximum = maximum
        self.location = location
        self.parameters = parameters
        self.toleranceName = toleranceName
        self.tolerance = tolerance
        self.passed = passed
        self.note = note
    }
}

/// One spring trajectory's errors, for plots: a parameter set at a frame rate.
public struct SpringCaseResult: Codable, Sendable, Equatable {
    /// The spring's tension.
    public var tension: Double
    /// The spring's friction.
    public var friction: Double
    /// The spring's mass.
    public var mass: Double
    /// The initial velocity, in units of the displacement a second.
    public var velocity: Double
    /// ζ = friction / (2 √(tension · mass)).
    public var dampingRatio: Double
    /// ω₀ = √(tension / mass), in radians a second.
    public var naturalFrequency: Double
    /// The frame rate stepped at.
    public var fps: Double
    /// Max error over the amplitude by method name; absent when it diverged.
    public var errors: [String: Double]
}

/// One decay trajectory's errors, for plots.
public struct DecayCaseResult: Codable, Sendable, Equatable {
    /// The decay's deceleration: the factor its velocity keeps each millisecond.
    public var deceleration: Double
    /// The initial velocity.
    public var velocity: Double
    /// The frame rate stepped at.
    public var fps: Double
    /// Max error over the throw by method name.
    public var errors: [String: Double]
}

/// One curve's errors, for plots.
public struct BezierCaseResult: Codable, Sendable, Equatable {
    /// x1, y1, x2, y2.
    public var curve: [Double]
    /// The largest |dy/dx| between neighbouring samples.
    public var steepness: Double
    /// Max error over the y scale by method name (regular points only).
    public var errors: [String: Double]
}

/// The whole result of ``Verifier/run(_:progress:)``: rows for people, cases for plots.
///
/// The JSON form (``VerificationReport`` encoded with sorted keys) is stable:
/// fields are only ever added, and ``formatVersion`` changes if one changes
/// meaning.
public struct VerificationReport: Codable, Sendable {
    /// The version of this format: 1.
    public var formatVersion = 1
    /// `quick` or `full`.
    public var grid: String
    /// The suites run.
    public var suites: [String]
    /// The reference: GSL's version and the integrator's settings.
    public var reference: String
    /// Wall time of the run in seconds.
    public var seconds: Double
    /// The rows, in suite and mode order.
    public var rows: [VerificationRow]
    /// Per-case spring errors.
    public var springCases: [SpringCaseResult]
    /// Per-case decay errors.
    public var decayCases: [DecayCaseResult]
    /// Per-curve bezier errors.
    public var bezierCases: [BezierCaseResult]
    /// For a shard of a run of Kinetics' own methods: what it measured, case
    /// by case, for ``Verifier/merge(_:)``.
    public var methodMeasures: MethodMeasures?
    /// For an engine run: the engine's name, nil for the built-in methods.
    public var engine: String?
    /// For an engine run: what stopped the engine before it answered every
    /// case; the rows cover the answers read up to it.
    public var fault: EngineFault?
    /// For an engine run: the measures of every case, from which the rows
    /// are computed (and shards merged).
    public var engineMeasures: EngineMeasures?
    /// For an engine run: what the answers suggest went wrong before any
    /// tolerance (most trajectories diverged or barely match: units),
    /// printed on stderr by `kinetics verify`; nil when nothing does.
    public var warnings: [String]?

    /// Whether every checked row held and no engine fault stopped the run.
    public var passed: Bool { fault == nil && rows.allSatisfy { $0.passed != false } }

    /// The rows that failed.
    public var failures: [VerificationRow] { rows.filter { $0.passed == false } }
}
