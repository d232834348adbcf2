import ArgumentParser
import Foundation
import Kinetics
import KineticsBench

/// `kinetics bench`: the per-frame cost of many concurrent animations.
struct Bench: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Measure the per-frame cost of N concurrent animations; gate on a baseline.",
        discussion: """
            Every combination of the engines, counts, mixes, frame rates and scenarios given is measured: \
            warm-up frames, then --repetitions runs of --frames frames, each frame timed; allocations \
            are counted exactly over three more frames; a memory-streaming kernel over the same bytes \
            is timed in the same run, and p50 divided by it is the calibrated figure that baselines \
            compare. Exit status: 0 success, 2 a regression against --baseline, 64 usage error, \
            65 a malformed baseline, 66 a missing baseline, 73 an output that cannot be written.
            """
    )

    @Option(name: .customLong("engine"), help: "Engines (repeatable): animator, batch, reference. Default: all.")
    var engines: [BenchEngine] = []
    @Option(name: .customLong("animations"), help: "Animation counts (repeatable), 1 … 1,000,000. Default: 1000, 10000, 100000.")
    var counts: [Int] = []
    @Option(name: .customLong("mix"), help: "Mixes (repeatable): spring, decay, basic, keyframe, mixed. Default: spring.")
    var mixes: [BenchMix] = []
    @Option(name: .customLong("fps"), help: "Frame rates (repeatable). Default: 60.")
    var rates: [Double] = []
    @Option(name: .customLong("scenario"), help: "Scenarios (repeatable): steady, jitter, churn, mass-completion, retarget-storm. Default: steady.")
    var scenarios: [BenchScenario] = []
    @Option(help: "Spring method: pop, fixed, rk4 or analytic (the reference engine always steps as Pop).")
    var method: SpringMethod = .pop
    @Option(parsing: .unconditional, help: "Measured frames per repetition.")
    var frames = 30
    @Option(parsing: .unconditional, help: "Repetitions (at least 7).")
    var repetitions = 7
    @Option(parsing: .unconditional, help: "Warm-up frames before measuring.")
    var warmup = 10
    @Option(name: .customLong("churn-fraction"), parsing: .unconditional, help: "Fraction of animations replaced per frame under churn, in (0, 1].")
    var churnFraction = 0.1
    @Option(help: "Output: table, json, csv or markdown.")
    var format: Verify.ReportFormat = .table
    @Option(help: "Write the output to FILE instead of standard output.")
    var output: String?
    @Option(name: .customLong("save-baseline"), help: "Also write the results as a baseline to FILE.")
    var saveBaseline: String?
    @Option(help: "Compare with this baseline; exit 2 on a regression.")
    var baseline: String?
    @Option(name: .customLong("max-regression"), parsing: .unconditional, help: "Percent slower (calibrated) that counts as a regression.")
    var maxRegression = 25.0
    @Flag(name: .customLong("no-bezier"), help: "Skip the bezier evaluation timings.")
    var noBezier = false

    func validate() throws {
        for count in counts where !(1 ... 1_000_000).contains(count) {
            throw ValidationError("--animations must be a whole number in [1, 1000000], got \(count)")
        }
        for rate in rates where !(rate.isFinite && rate > 0 && rate <= 1_000) {
            throw ValidationError("--fps must be a number in (0, 1000], got \(rate)")
        }
        guard (1 ... 100_000).contains(frames) else {
            throw ValidationError("--frames must be a whole number in [1, 100000], got \(frames)")
        }
        guard (7 ... 1_000).contains(repetitions) else {
            throw ValidationError("--repetitions must be a whole number in [7, 1000], got \(repetitions)")
        }
        guard (0 ... 100_000).contains(warmup) else {
            throw ValidationError("--warmup must be a whole number in [0, 100000], got \(warmup)")
        }
        guard churnFraction.isFinite, churnFraction > 0, churnFraction <= 1 else {
            throw ValidationError("--churn-fraction must be in (0, 1], got \(churnFraction)")
        }
        guard maxRegression.isFinite, maxRegression >= 0 else {
            throw ValidationError("--max-regression must be a finite number >= 0, got \(maxRegression)")
        }
    }

    /// Every configuration asked for, engines innermost so that each
    /// workload's engines are measured back to back.
    var configurations: [BenchConfiguration] {
        var list: [BenchConfiguration] = []
        for mix in mixes.isEmpty ? [.spring] : mixes {
            for scenario in scenarios.isEmpty ? [.steady] : scenarios {
                for rate in rates.isEmpty ? [60] : rates {
                    for count in counts.isEmpty ? [1_000, 10_000, 100_000] : counts {
                        for engine in engines.isEmpty ? BenchEngine.allCases : engines {
                            list.append(BenchConfiguration(
                                engine: engine, animations: count, mix: mix, fps: rate, scenario: scenario,
                                method: method, frames: frames, repetitions: repetitions, warmupFrames: warmup,
                                churnFraction: churnFraction))
                        }
                    }
                }
            }
        }
        return list
    }

    func run() throws {
        // A missing or malformed baseline is reported before anything is measured.
        var base: BenchReport?
        if let baseline {
            do {
                base = try BaselineGate.load(baseline)
            } catch {
                switch error {
                case .missing: throw CLIError(message: error.description, status: CLIError.missingInput)
                case .malformed: throw CLIError(message: error.description, status: CLIError.badData)
                }
            }
        }
        let bar = ProgressBar()
        let list = configurations
        var results: [BenchResult] = []
        for (index, configuration) in list.enumerated() {
            bar.update("bench", index, list.count)
            results.append(BenchRunner.measure(configuration))
        }
        let bezier = noBezier ? nil : BezierBench.measure()
        bar.finish()
        let report = BenchReport(kinetics: KineticsVersion.current, results: results, bezier: bezier)
        let text: String
        switch format {
        case .table: text = BenchText.table(report)
        case .markdown: text = BenchText.markdown(report)
        case .csv: text = BenchText.csv(report)
        case .json: text = try jsonText(report, pretty: true) + "\n"
        }
        try writeOutput(text, to: output)
        if let saveBaseline { try writeOutput(try jsonText(report, pretty: true) + "\n", to: saveBaseline) }
        if let base {
            let regressions = BaselineGate.regressions(report, baseline: base, maxRegression: maxRegression)
            for regression in regressions { warnLine("regression: \(regression)") }
            if !regressions.isEmpty {
                throw CLIError(
                    message: "\(regressions.count) regression\(regressions.count == 1 ? "" : "s") against \(baseline!)",
                    status: CLIError.regression)
            }
        }
    }
}

extension BenchEngine: ExpressibleByArgument {}
extension BenchMix: ExpressibleByArgument {}
extension BenchScenario: ExpressibleByArgument {}

/// The human forms of a bench report.
enum BenchText {
    static let columns = [
        "engine", "animations", "mix", "scenario", "fps", "method", "p50 ms (min–max)", "p99 ms", "ns/anim",
        "budget", "allocs/frame", "calibrated", "vs reference",
    ]

    static func cells(_ result: BenchResult, _ report: BenchReport) -> [String] {
        let c = result.configuration
        let range = result.repetitionRange
        var ratio = "-"
        if c.engine != .reference, let reference = report.reference(for: result) {
            ratio = String(format: "%.1f× faster", reference.p50 / result.p50)
        }
        var p50 = String(format: "%.4g (%.4g–%.4g)", result.p50 / 1e6, range.min / 1e6, range.max / 1e6)
        if let steady = result.steadyNanoseconds {
            p50 += String(format: " = %.2f× steady", result.p50 / steady)
        }
        return [
            c.engine.rawValue, String(c.animations), c.mix.rawValue, c.scenario.rawValue, String(format: "%g", c.fps),
            c.method.rawValue, p50, String(format: "%.4g", result.p99 / 1e6),
            String(format: "%.3g", result.nanosecondsPerAnimation), String(format: "%.2f%%", result.budgetShare * 100),
            String(format: "%g", result.allocationsPerFrame), String(format: "%.3g", result.calibrated), ratio,
        ]
    }

    static func scalingLines(_ report: BenchReport) -> [String] {
        report.scaling.map { fit in
            String(format: "scaling %@: cost ∝ N^%.3f over N = %@", fit.family, fit.exponent,
                   fit.counts.map(String.init).joined(separator: ", "))
        }
    }

    static func table(_ report: BenchReport) -> String {
        let rows = report.results.map { cells($0, report) }
        var widths = columns.map(\.count)
        for row in rows {
            for (index, cell) in row.enumerated() { widths[index] = max(widths[index], cell.count) }
        }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { index, cell in
                index == cells.count - 1 ? cell : cell.padding(toLength: widths[index], withPad: " ", startingAt: 0)
            }.joined(separator: "  ")
        }
        var lines = ["Kinetics bench on \(report.machine); frame times are medians over every measured frame.", ""]
        lines.append(line(columns))
        lines += rows.map(line)
        let scaling = scalingLines(report)
        if !scaling.isEmpty { lines += [""] + scaling }
        let bezier = bezierLines(report)
        if !bezier.isEmpty { lines += [""] + bezier }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Per curve: each method's time per evaluation (median, min–max over
    /// repetitions) and largest error, and how many times faster `fast` is
    /// than `webkit`.
    static func bezierLines(_ report: BenchReport) -> [String] {
        guard let results = report.bezier, !results.isEmpty else { return [] }
        var lines = ["bezier, ns per evaluation (min–max), largest |y - precise|:"]
        var curves: [String] = []
        for result in results where !curves.contains(result.curve) { curves.append(result.curve) }
        for curve in curves {
            let rows = results.filter { $0.curve == curve }
            let cells = rows.map {
                String(format: "%@ %.3g (%.3g–%.3g) err %.1e", $0.method, $0.nanoseconds, $0.minimum, $0.maximum, $0.maxError)
            }
            var line = "  \(curve): " + cells.joined(separator: "; ")
            if let fast = rows.first(where: { $0.method == "fast" }) {
                let ratios = rows.filter { $0.method.hasPrefix("webkit") }.map {
                    String(format: "%.1f× %@", $0.nanoseconds / fast.nanoseconds, $0.method)
                }
                if !ratios.isEmpty { line += "; fast is faster than " + ratios.joined(separator: ", ") }
            }
            lines.append(line)
        }
        return lines
    }

    static func markdown(_ report: BenchReport) -> String {
        var lines = ["Kinetics bench on \(report.machine).", ""]
        lines.append("| " + columns.joined(separator: " | ") + " |")
        lines.append("|" + columns.map { _ in " --- " }.joined(separator: "|") + "|")
        for result in report.results { lines.append("| " + cells(result, report).joined(separator: " | ") + " |") }
        let scaling = scalingLines(report)
        if !scaling.isEmpty { lines += [""] + scaling.map { "- " + $0 } }
        let bezier = bezierLines(report)
        if !bezier.isEmpty { lines += [""] + bezier }
        return lines.joined(separator: "\n") + "\n"
    }

    static func csv(_ report: BenchReport) -> String {
        var lines = [
            "engine,animations,mix,scenario,fps,method,p50_ns,p90_ns,p99_ns,max_ns,mean_ns,repetition_min_ns,repetition_max_ns,ns_per_animation,budget_share,allocations_per_frame,bytes_per_frame,calibration_ns,calibrated,steady_ns"
        ]
        for result in report.results {
            let c = result.configuration
            let range = result.repetitionRange
            lines.append(
                [
                    c.engine.rawValue, String(c.animations), c.mix.rawValue, c.scenario.rawValue, csvNumber(c.fps), c.method.rawValue,
                    csvNumber(result.p50), csvNumber(result.p90), csvNumber(result.p99), csvNumber(result.max),
                    csvNumber(result.mean), csvNumber(range.min), csvNumber(range.max),
                    csvNumber(result.nanosecondsPerAnimation), csvNumber(result.budgetShare),
                    csvNumber(result.allocationsPerFrame), String(result.bytesPerFrame),
                    csvNumber(result.calibrationNanoseconds), csvNumber(result.calibrated),
                    result.steadyNanoseconds.map(csvNumber) ?? "",
                ].joined(separator: ","))
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
