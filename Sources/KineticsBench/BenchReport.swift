import Foundation
import Kinetics
import KineticsInput

/// The fitted exponent of frame cost against the number of animations.
public struct ScalingFit: Codable, Sendable, Equatable {
    /// The configuration family, without the count: `animator spring steady 60 Hz pop`.
    public var family: String
    /// The counts the fit used.
    public var counts: [Int]
    /// The slope of ln(p50) against ln(N): 1 is linear.
    public var exponent: Double

    /// Least squares on (ln x, ln y); nil with fewer than two distinct x.
    public static func exponent(counts: [Double], times: [Double]) -> Double? {
        let points = zip(counts, times).filter { $0.0 > 0 && $0.1 > 0 }.map { (log($0.0), log($0.1)) }
        guard Set(points.map(\.0)).count >= 2 else { return nil }
        let n = Double(points.count)
        let meanX = points.map(\.0).reduce(0, +) / n
        let meanY = points.map(\.1).reduce(0, +) / n
        let covariance = points.map { ($0.0 - meanX) * ($0.1 - meanY) }.reduce(0, +)
        let variance = points.map { ($0.0 - meanX) * ($0.0 - meanX) }.reduce(0, +)
        return covariance / variance
    }
}

/// A whole run of `kinetics bench`: what it measured, where and how it scales.
///
/// This is also the baseline format (`--save-baseline`). Fields are only
/// ever added; ``formatVersion`` changes if one changes meaning.
public struct BenchReport: Codable, Sendable {
    /// The version of this format: 1.
    public var formatVersion = BenchReport.currentFormat
    /// Always `kinetics-bench`.
    public var kind = "kinetics-bench"
    /// The Kinetics version that measured.
    public var kinetics: String
    /// The machine: CPU model and cores.
    public var machine: String
    /// The results, in the order measured.
    public var results: [BenchResult]
    /// The scaling exponent per configuration family with several counts.
    public var scaling: [ScalingFit]
    /// The cost of a bezier evaluation per method (absent in reports made
    /// without it).
    public var bezier: [BezierResult]?
    /// What each bezier method executes per evaluation, with
    /// `--count instructions` (absent otherwise).
    public var bezierInstructions: [BezierInstructionCount]?
    /// What each interaction counted in this run costs, in instructions
    /// (``InteractionCost/costs(_:)``; absent without `--count instructions`
    /// or without a steady frame beside the event's).
    public var interactionCosts: [InteractionCost]?
    /// The configurations an engine library's worker died measuring, in
    /// the order met: they have no result (absent when none did).
    public var failures: [BenchFailure]?

    /// The format this Kinetics writes and reads.
    public static let currentFormat = 1

    /// A report of `results`, with the scaling fits computed.
    public init(
        kinetics: String, machine: String = BenchReport.machineDescription, results: [BenchResult],
        bezier: [BezierResult]? = nil
    ) {
        self.kinetics = kinetics
        self.machine = machine
        self.results = results
        self.bezier = bezier
        var families: [String: [BenchResult]] = [:]
        var order: [String] = []
        for result in results {
            let configuration = result.configuration
            let family =
                "\(configuration.engine.rawValue) \(configuration.mix.rawValue) \(configuration.scenario.rawValue) \(configuration.rate) Hz \(configuration.method.rawValue)"
            if families[family] == nil { order.append(family) }
            families[family, default: []].append(result)
        }
        scaling = order.compactMap { family in
            let members = families[family]!
            let counts = members.map { Double($0.configuration.animations) }
            guard let exponent = ScalingFit.exponent(counts: counts, times: members.map(\.p50)) else { return nil }
            return ScalingFit(family: family, counts: members.map(\.configuration.animations), exponent: exponent)
        }
    }

    /// `Intel(R) Xeon(R) … (2 cores)`: the processor's name from
    /// /proc/cpuinfo on Linux, from `machdep.cpu.brand_string` on Darwin.
    public static var machineDescription: String {
        let cores = ProcessInfo.processInfo.activeProcessorCount
        return "\(processorName ?? "unknown CPU") (\(cores) cores)"
    }

    private static var processorName: String? {
        #if os(Linux)
            return (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8))?
                .split(separator: "\n").first { $0.hasPrefix("model name") }?
                .split(separator: ":", maxSplits: 1).last?.trimmingCharacters(in: .whitespaces)
        #elseif canImport(Darwin)
            var size = 0
            guard sysctlbyname("machdep.cpu.brand_string", nil, &size, nil, 0) == 0, size > 0 else { return nil }
            var name = [CChar](repeating: 0, count: size)
            guard sysctlbyname("machdep.cpu.brand_string", &name, &size, nil, 0) == 0 else { return nil }
            return String(cString: name)
        #else
            return nil
        #endif
    }

    /// Whether every frame of the animator and the batch path was counted and
    /// allocated nothing (Pop's models allocate by design).
    public var hotFramesAllocateNothing: Bool {
        results.allSatisfy {
            $0.configuration.engine.isPopModel || ($0.allocationsCounted != false && $0.allocationsPerFrame == 0)
        }
    }

    /// The faster of the two models of Pop's frame (`reference` in Swift,
    /// `pop-c` in C) on the same workload in this run: the baseline of every
    /// "× faster than Pop" ratio. Nil when neither was measured.
    public func popModel(for result: BenchResult) -> BenchResult? {
        results.filter {
            $0.configuration.engine.isPopModel && $0.configuration.workload == result.configuration.workload
        }
        .min { $0.p50 < $1.p50 }
    }
}

/// A configuration that an engine library's worker process did not measure
/// because it died, stalled or broke off (`kinetics bench` runs each
/// library in a worker of its own).
public struct BenchFailure: Error, Codable, Sendable, Equatable {
    /// The engine's name.
    public var engine: String
    /// Its library.
    public var library: String
    /// `killed by signal 11 (SIGSEGV)`, `exited with status 3`, `gave no
    /// frame for 60 s (--frame-timeout), at frame 41 (warm-up included)`.
    public var what: String
    /// The configuration it was measuring.
    public var configuration: BenchConfiguration

    /// `configuration` of `engine` (from `library`) ended as `what` says.
    public init(engine: String, library: String, what: String, configuration: BenchConfiguration) {
        self.engine = engine
        self.library = library
        self.what = what
        self.configuration = configuration
    }

    /// `faulty (./libfaulty.so): killed by signal 11 (SIGSEGV) measuring faulty 1000 spring steady 60 Hz pop`.
    public var sentence: String { "\(engine) (\(library)): \(what) measuring \(configuration.key)" }
}

/// What went wrong reading a baseline file.
public enum BaselineError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file does not exist (exit 66).
    case missing(String)
    /// The file exists but is not a usable baseline (exit 65).
    case malformed(String, String)

    /// One line naming the file and the problem.
    public var description: String {
        switch self {
        case .missing(let path): "\(path): no such baseline file"
        case .malformed(let path, let problem): "\(path): \(problem)"
        }
    }
}

/// One configuration that got worse than its baseline.
public struct Regression: Sendable, Equatable, CustomStringConvertible {
    /// The configuration's key, or what else got worse (`bezier fast`).
    public var key: String
    /// How it got worse, with both figures and the bound.
    public var message: String

    /// `key: message`.
    public var description: String { "\(key): \(message)" }
}

/// One configuration of a run compared with its saved baseline.
public struct BaselineComparison: Sendable, Equatable, CustomStringConvertible {
    /// The configuration's key.
    public var key: String
    /// The calibrated figure of this run.
    public var calibrated: Double
    /// The calibrated figure of the baseline.
    public var baseline: Double
    /// The change, in percent.
    public var change: Double
    /// The largest change that passes, in percent.
    public var bound: Double
    /// This run's repetition medians' spread, in percent of its p50.
    public var repetitionSpread: Double
    /// This run's calibration passes' spread, in percent (nil when unknown).
    public var calibrationSpread: Double?
    /// The change in instructions per frame, in percent, where both counted.
    public var instructionChange: Double?

    /// Whether the calibration kernel varied more than the frames it divides.
    public var calibrationIsNoisier: Bool { (calibrationSpread ?? 0) > repetitionSpread }

    /// The smallest change, in percent, that this comparison can tell from
    /// noise: the bound, or this run's own spread where that is wider (a
    /// saved baseline was measured at another moment, so this is a floor:
    /// the machine's drift between the two runs comes on top).
    public var smallestVisibleChange: Double {
        max(bound, repetitionSpread, calibrationIsNoisier ? calibrationSpread ?? 0 : 0)
    }

    /// `soa-springs 10000 …: calibrated 35.8 vs 35.7 (+0.3%), fails above +25%; …`.
    public var description: String {
        var text = String(
            format: "%@: calibrated %.4g vs %.4g (%+.1f%%), fails above %+.0f%%; repetitions spread %.1f%%", key,
            calibrated, baseline, change, bound, repetitionSpread)
        if let calibrationSpread {
            text += String(format: ", calibration %.1f%%", calibrationSpread)
            if calibrationIsNoisier { text += " (noisier than the frames it calibrates)" }
        }
        text += String(format: "; sees changes above %+.0f%% at best", smallestVisibleChange)
        if let instructionChange { text += String(format: "; instructions per frame %+.2f%%", instructionChange) }
        return text
    }
}

/// The CI performance gate: compares calibrated figures and allocations with
/// a saved baseline.
public enum BaselineGate {
    /// Reads a baseline written by `--save-baseline`.
    ///
    /// - Throws: ``BaselineError``: missing file; empty, malformed, or of
    ///   another format version.
    public static func load(_ path: String) throws(BaselineError) -> BenchReport {
        let data: Data
        do {
            data = try InputFile.read(path, limit: maximumSize, what: "a baseline")
        } catch {
            switch error {
            case .missing: throw .missing(path)
            case .unreadable(_, let reason): throw .malformed(path, "cannot be read (\(reason))")
            case .tooLarge: throw .malformed(path, String(error.description.dropFirst(path.count + 2)))
            }
        }
        return try baseline(from: data, name: path)
    }

    /// The largest baseline read, 64 MiB (a run of every configuration is
    /// under 1 MiB); a larger file is refused before it is read.
    public static let maximumSize = 64 << 20

    /// Reads a baseline from the bytes of a file called `name` (used in the
    /// errors), with the checks of ``load(_:)``.
    ///
    /// - Throws: ``BaselineError/malformed(_:_:)``.
    public static func baseline(from data: Data, name path: String) throws(BaselineError) -> BenchReport {
        guard !data.isEmpty else { throw .malformed(path, "the file is empty") }
        guard data.count <= maximumSize else {
            throw .malformed(
                path, "the file is \(data.count) bytes; a baseline is at most \(maximumSize) bytes (64 MiB)")
        }
        struct Header: Decodable {
            let formatVersion: Int?
            let kind: String?
        }
        let header: Header
        do {
            header = try JSONInput.decode(Header.self, from: data)
        } catch {
            throw .malformed(path, "not a kinetics bench baseline (\(error))")
        }
        guard header.kind == "kinetics-bench" else {
            throw .malformed(path, "not a kinetics bench baseline (no \"kind\": \"kinetics-bench\")")
        }
        guard header.formatVersion == BenchReport.currentFormat else {
            throw .malformed(
                path,
                "format version \(header.formatVersion.map(String.init) ?? "missing"); this kinetics reads version \(BenchReport.currentFormat)"
            )
        }
        // Numbers that are not finite as `kinetics bench` writes them: a
        // value check of NaN must read back as NaN, and fail the gate.
        let decoder = JSONDecoder()
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(
            positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        let report: BenchReport
        do {
            report = try JSONInput.decode(BenchReport.self, from: data, decoder: decoder)
        } catch {
            throw .malformed(path, error.description)
        }
        var seen = Set<String>()
        for (index, result) in report.results.enumerated() {
            // The ranges `kinetics bench` accepts: anything else cannot have
            // been measured (found by fuzzing: an fps of 7e95 trapped when
            // the configuration was named).
            if let problem = result.configuration.outOfRange {
                throw .malformed(path, "results[\(index)].configuration.\(problem)")
            }
            let key = result.configuration.key
            guard result.calibrated.isFinite && result.calibrated > 0 else {
                throw .malformed(path, "\(key): calibrated \(result.calibrated) is not a positive number")
            }
            guard result.allocationsPerFrame.isFinite && result.allocationsPerFrame >= 0 else {
                throw .malformed(path, "\(key): allocationsPerFrame \(result.allocationsPerFrame) is not a number >= 0")
            }
            // Two figures for one configuration: which would the gate use?
            guard seen.insert(key).inserted else { throw .malformed(path, "\(key) appears twice") }
        }
        return report
    }

    /// How much a value check's error may grow before the gate fails: to
    /// 1.1 times the baseline's, plus 1e-12. An engine's values are
    /// deterministic (the same workload, the same frames), so any growth is
    /// a change of what it computes; the 10% and the 1e-12 leave room for
    /// a change in the order of floating-point operations, whose error
    /// moves by a few ulps of the amplitude, and none for a frame stepped
    /// wrong (a library that advanced half of every frame went from 1.7e-2
    /// to 3.4e-1). A baseline whose error is not finite bounds nothing but
    /// finiteness: the limit is then the largest double, so that an error of
    /// NaN or infinity still fails and a fixed engine passes.
    public static func valueErrorLimit(baseline error: Double) -> Double {
        error.isFinite ? error * 1.1 + 1e-12 : .greatestFiniteMagnitude
    }

    /// Each configuration of `current` that `baseline` also has, compared:
    /// the calibrated change, the bound it is held to, and the spreads that
    /// say how small a change this one comparison can see.
    public static func comparisons(
        _ current: BenchReport, baseline: BenchReport, maxRegression: Double, perScenario: [BenchScenario: Double] = [:]
    ) -> [BaselineComparison] {
        let byKey = Dictionary(
            baseline.results.map { ($0.configuration.key, $0) }, uniquingKeysWith: { first, _ in first })
        return current.results.compactMap { result in
            guard let base = byKey[result.configuration.key] else { return nil }
            return BaselineComparison(
                key: result.configuration.key, calibrated: result.calibrated, baseline: base.calibrated,
                change: (result.calibrated / base.calibrated - 1) * 100,
                bound: perScenario[result.configuration.scenario] ?? maxRegression,
                repetitionSpread: result.repetitionSpread, calibrationSpread: result.calibrationSpread,
                instructionChange: result.instructions.flatMap { now in
                    base.instructions.map { InstructionCount.change(now, from: $0) }
                })
        }
    }

    /// The configurations of `baseline` that `current` did not measure.
    public static func unmeasured(_ current: BenchReport, baseline: BenchReport) -> [String] {
        let measured = Set(current.results.map(\.configuration.key))
        return baseline.results.map(\.configuration.key).filter { !measured.contains($0) }
    }

    /// The regressions of `current` against `baseline`: a configuration whose
    /// calibrated p50 is more than `maxRegression` percent above the
    /// baseline's (`perScenario` percent for the scenarios it names; not
    /// compared when `comparingTimes` is false), whose instructions per frame
    /// (or a bezier method's per evaluation) grew by `maxCountIncrease`
    /// percent or more where both counted, that allocates where the baseline
    /// did not, or whose value error grew past
    /// ``valueErrorLimit(baseline:)``. Configurations the baseline lacks are
    /// not compared (``unmeasured(_:baseline:)`` lists the converse).
    public static func regressions(
        _ current: BenchReport, baseline: BenchReport, maxRegression: Double,
        perScenario: [BenchScenario: Double] = [:],
        maxCountIncrease: Double = 1, comparingTimes: Bool = true
    ) -> [Regression] {
        var found = bezierRegressions(current, baseline: baseline, maxCountIncrease: maxCountIncrease)
        let byKey = Dictionary(
            baseline.results.map { ($0.configuration.key, $0) }, uniquingKeysWith: { first, _ in first })
        for result in current.results {
            guard let base = byKey[result.configuration.key] else { continue }
            let change = (result.calibrated / base.calibrated - 1) * 100
            let bound = perScenario[result.configuration.scenario] ?? maxRegression
            if comparingTimes && Limit.atMost(bound).isExceeded(by: change) {
                found.append(
                    Regression(
                        key: result.configuration.key,
                        message: String(
                            format: "calibrated %.4g vs baseline %.4g (%+.1f%%, more than %.0f%%)", result.calibrated,
                            base.calibrated, change, bound)))
            }
            if let now = result.instructions, let then = base.instructions,
                Limit.below(maxCountIncrease).isExceeded(by: InstructionCount.change(now, from: then))
            {
                found.append(
                    Regression(
                        key: result.configuration.key,
                        message: String(
                            format: "%.1f instructions per frame vs baseline %.1f (%+.2f%%, %g%% or more)",
                            now.instructionsPerFrame, then.instructionsPerFrame,
                            InstructionCount.change(now, from: then), maxCountIncrease)))
            }
            if let now = result.valueCheck, let then = base.valueCheck,
                Limit.atMost(valueErrorLimit(baseline: then.error)).isExceeded(by: now.error)
            {
                found.append(
                    Regression(
                        key: result.configuration.key,
                        message: String(
                            format: "value error %.2e vs baseline %.2e (%@): the engine's values %@, at %@", now.error,
                            then.error, now.error.isFinite ? "more than 1.1× + 1e-12" : "not a finite number",
                            now.error.isFinite ? "changed" : "are not numbers or overflow", now.worst)))
            }
            if result.allocationsCounted == false && base.allocationsCounted != false {
                found.append(
                    Regression(
                        key: result.configuration.key,
                        message:
                            "allocations were not counted (the malloc interposer was not active); the baseline counted them"
                    ))
            }
            if Limit.atMost(0).isExceeded(by: result.allocationsPerFrame) && base.allocationsPerFrame == 0 {
                found.append(
                    Regression(
                        key: result.configuration.key,
                        message: String(
                            format: "allocates %.1f times per frame; the baseline did not allocate",
                            result.allocationsPerFrame)))
            }
        }
        return found
    }

    /// The bezier methods whose instructions per evaluation grew by
    /// `maxCountIncrease` percent or more, where both reports counted them.
    static func bezierRegressions(_ current: BenchReport, baseline: BenchReport, maxCountIncrease: Double)
        -> [Regression]
    {
        let before = Dictionary(
            (baseline.bezierInstructions ?? []).map { ($0.method, $0.instructionsPerEvaluation) },
            uniquingKeysWith: { first, _ in first })
        return (current.bezierInstructions ?? []).compactMap { count in
            guard let then = before[count.method], then > 0 else { return nil }
            let change = (count.instructionsPerEvaluation / then - 1) * 100
            guard Limit.below(maxCountIncrease).isExceeded(by: change) else { return nil }
            return Regression(
                key: "bezier \(count.method.rawValue)",
                message: String(
                    format: "%.1f instructions per evaluation vs baseline %.1f (%+.2f%%, %g%% or more)",
                    count.instructionsPerEvaluation, then, change, maxCountIncrease))
        }
    }

    /// One line per configuration both reports counted: its instructions
    /// per frame against the baseline's, and the change.
    public static func countComparisons(_ current: BenchReport, baseline: BenchReport) -> [String] {
        let byKey = Dictionary(
            baseline.results.map { ($0.configuration.key, $0) }, uniquingKeysWith: { first, _ in first })
        return current.results.compactMap { result in
            guard let now = result.instructions, let then = byKey[result.configuration.key]?.instructions else {
                return nil
            }
            return String(
                format: "%@: %.1f instructions per frame vs %.1f (%+.2f%%)", result.configuration.key,
                now.instructionsPerFrame, then.instructionsPerFrame, InstructionCount.change(now, from: then))
        }
    }
}
