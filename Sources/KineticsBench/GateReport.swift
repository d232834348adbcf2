import Kinetics

/// One configuration of a paired comparison, while it runs: the rounds so
/// far and, once two looks in a row have reached the same verdict, the
/// comparison of the second. One decisive look alone is not enough: a
/// burst of a neighbour's work can make a few rounds look like a change,
/// and the rounds up to the next look (a quarter more) must say it again.
/// A decided configuration takes no more rounds, so later looks cannot
/// undo it.
public struct SequentialComparison: Sendable {
    /// The configuration without the engine: `10000 spring steady 60 Hz`.
    public let name: String
    /// Each round's time of `before`, in nanoseconds.
    public private(set) var before: [Double] = []
    /// Each round's time of `after`, in nanoseconds.
    public private(set) var after: [Double] = []
    /// The comparison that decided it; nil while undecided.
    public private(set) var decided: PairedComparison?
    /// The looks taken so far.
    public private(set) var looks = 0
    /// The verdict of the last look, when it was decisive.
    private var pending: GateVerdict?
    private let confidence: Double
    private let minimumEffect: Double

    /// A comparison of `name` at `confidence` with `minimumEffect` (see
    /// ``PairedComparison``).
    public init(name: String, confidence: Double, minimumEffect: Double) {
        self.name = name
        self.confidence = confidence
        self.minimumEffect = minimumEffect
    }

    /// Adds a round (ignored once decided); looks when the schedule says
    /// so (``SequentialSchedule``) and returns whether it is now decided.
    @discardableResult
    public mutating func add(before first: Double, after second: Double) -> Bool {
        guard decided == nil else { return true }
        before.append(first)
        after.append(second)
        if let look = SequentialSchedule.look(after: before.count) {
            looks = look
            let comparison = compared(look: look)
            let verdict = comparison.verdict
            if verdict != .inconclusive && verdict == pending { decided = comparison }
            pending = verdict == .inconclusive ? nil : verdict
        }
        return decided != nil
    }

    /// The comparison of every round so far at the k-th look's confidence.
    private func compared(look: Int) -> PairedComparison {
        PairedComparison(
            before: before, after: after, confidence: SequentialSchedule.confidence(confidence, look: look),
            minimumEffect: minimumEffect)
    }

    /// The final result: the deciding comparison, or, when none decided,
    /// every round's interval at the confidence a next look would have,
    /// with the verdict `inconclusive`.
    public var result: GateResult {
        var comparison = decided ?? compared(look: looks + 1)
        if decided == nil { comparison.verdict = .inconclusive }
        return GateResult(
            configuration: name, comparison: comparison, beforeMedian: BenchRunner.median(before),
            afterMedian: BenchRunner.median(after), before: before, after: after)
    }
}

/// The instructions per frame of two builds (`kinetics gate --count
/// instructions`): counts repeat exactly, so one run of each decides.
public struct InstructionComparison: Codable, Sendable, Equatable {
    /// The first build's counts.
    public var before: InstructionCount
    /// The second build's counts.
    public var after: InstructionCount
    /// after/before − 1 in instructions per frame, in percent.
    public var change: Double
    /// `regression` at `threshold` percent more or beyond, `improvement` at
    /// as much less, `unchanged` between.
    public var verdict: GateVerdict
    /// The change that counts, in percent.
    public var threshold: Double

    /// The comparison of `after` with `before` at `threshold` percent.
    public init(before: InstructionCount, after: InstructionCount, threshold: Double) {
        self.before = before
        self.after = after
        self.threshold = threshold
        change = InstructionCount.change(after, from: before)
        // A change that is not a number (a count of 0) is a regression.
        verdict =
            Limit.below(threshold).isExceeded(by: change)
            ? .regression : change <= -threshold ? .improvement : .unchanged
    }
}

/// The outcome of one configuration in `kinetics gate`.
public struct GateResult: Codable, Sendable, Equatable {
    /// The configuration without the engine: `10000 spring steady 60 Hz`.
    public var configuration: String
    /// Timed: the estimate, its interval, the rounds and the verdict; nil
    /// when instructions were counted instead.
    public var comparison: PairedComparison?
    /// Counted (`--count instructions`): both builds' counts and the verdict.
    public var instructions: InstructionComparison?

    /// The verdict of the counts, or of the times.
    public var verdict: GateVerdict { instructions?.verdict ?? comparison?.verdict ?? .inconclusive }
    /// The median of the rounds' times of `before`, in nanoseconds (nil
    /// when counted).
    public var beforeMedian: Double?
    /// The same of `after`.
    public var afterMedian: Double?
    /// Every round's time of each build (the round's median frame), in
    /// nanoseconds, in the order measured: the comparison can be
    /// recomputed from them. `before`'s:
    public var before: [Double]
    /// `after`'s round times.
    public var after: [Double]
    /// Each build's value error against the exact motion (``ValueCheck``),
    /// where checked: `before`'s.
    public var beforeValueError: Double?
    /// `after`'s value error.
    public var afterValueError: Double?

    /// Whether `after`'s value error grew past
    /// ``BaselineGate/valueErrorLimit(baseline:)`` of `before`'s, or is not
    /// a finite number.
    public var valuesRegressed: Bool {
        guard let beforeValueError, let afterValueError else { return false }
        return Limit.atMost(BaselineGate.valueErrorLimit(baseline: beforeValueError)).isExceeded(by: afterValueError)
    }
}

// In an extension, so that the timed results keep the memberwise initialiser.
extension GateResult {
    /// A counted result: no rounds, no times.
    public init(configuration: String, instructions: InstructionComparison) {
        self.init(configuration: configuration, instructions: instructions, before: [], after: [])
    }
}

/// A build whose worker ended before the gate was done (`kinetics gate`
/// with libraries): which side, how it ended, and where.
public struct GateFailure: Codable, Sendable, Equatable {
    /// `before` or `after`.
    public var side: String
    /// Its library.
    public var build: String
    /// `killed by signal 11 (SIGSEGV)`, `exited with status 3`.
    public var what: String
    /// The configuration it was measuring: `1000 spring steady 60 Hz`.
    public var configuration: String
    /// `round 3`, `the value check`.
    public var during: String

    /// A failure of `side` (`build`): `what` happened during `during` of `configuration`.
    public init(side: String, build: String, what: String, configuration: String, during: String) {
        self.side = side
        self.build = build
        self.what = what
        self.configuration = configuration
        self.during = during
    }

    /// `after (./crash.so): killed by signal 11 (SIGSEGV) during round 3 of 1000 spring steady 60 Hz`.
    public var sentence: String { "\(side) (\(build)): \(what) during \(during) of \(configuration)" }
}

/// A whole run of `kinetics gate`. Fields are only ever added;
/// ``formatVersion`` changes if one changes meaning.
public struct GateReport: Codable, Sendable {
    /// The version of this format: 1.
    public var formatVersion = 1
    /// Always `kinetics-gate`.
    public var kind = "kinetics-gate"
    /// The Kinetics version that measured.
    public var kinetics: String
    /// The machine: CPU model and cores.
    public var machine: String
    /// What was compared: two libraries (`library`) or two commands (`command`).
    public var mode: String
    /// Whether instructions were counted instead of times measured.
    public var counted: Bool
    /// The first build: its path or command.
    public var before: String
    /// The second build: its path or command.
    public var after: String
    /// The confidence of the verdicts (`--confidence`).
    public var confidence: Double
    /// The smallest change a verdict calls a change, as a fraction (`--min-effect`).
    public var minimumEffect: Double
    /// The time a comparison may take before it stops undecided (`--max-seconds`).
    public var maxSeconds: Double
    /// How long the comparison ran, in seconds.
    public var seconds: Double
    /// Each configuration's outcome, in the order measured.
    public var results: [GateResult]
    /// The sides whose library ran in the gate's own process (timed
    /// libraries; the others ran each in a worker process of its own; nil
    /// for commands and counts).
    public var inProcess: [String]?
    /// The median time a round spent in the exchange with a worker (the
    /// request and answer, outside the timed frames), in nanoseconds; nil
    /// without workers.
    public var workerExchange: Double?
    /// The build that crashed, where one did: the results are those
    /// decided before it, and the run ended there.
    public var failure: GateFailure?

    /// A report of `results`.
    public init(
        kinetics: String, machine: String = BenchReport.machineDescription, mode: String, counted: Bool = false,
        before: String, after: String, confidence: Double, minimumEffect: Double, maxSeconds: Double,
        seconds: Double, results: [GateResult]
    ) {
        self.kinetics = kinetics
        self.machine = machine
        self.mode = mode
        self.counted = counted
        self.before = before
        self.after = after
        self.confidence = confidence
        self.minimumEffect = minimumEffect
        self.maxSeconds = maxSeconds
        self.seconds = seconds
        self.results = results
    }

    /// The results whose values regressed.
    public var valueRegressions: [GateResult] { results.filter(\.valuesRegressed) }

    /// The results with a verdict of `verdict`.
    public func results(_ verdict: GateVerdict) -> [GateResult] {
        results.filter { $0.verdict == verdict }
    }
}
