import Foundation
import KineticsInput

/// The human forms of a bench report.
package enum BenchText {
    package static let columns = [
        "engine", "animations", "mix", "scenario", "fps", "method", "p50 ms (min–max)", "p99 ms", "ns/anim",
        "budget", "allocs/frame", "bytes/anim", "calibrated", "vs Pop (faster model)",
    ]

    package static func cells(_ result: BenchResult, _ report: BenchReport) -> [String] {
        let c = result.configuration
        let range = result.repetitionRange
        var ratio = "-"
        if !c.engine.isPopModel, let pop = report.popModel(for: result) {
            // A slower engine reads as slower: "0.1× faster" says nothing.
            let speedup = pop.p50 / result.p50
            ratio =
                speedup >= 1
                ? String(format: "%.1f× faster than %@", speedup, pop.configuration.engine.rawValue)
                : String(format: "%.1f× slower than %@", 1 / speedup, pop.configuration.engine.rawValue)
        }
        var p50 = String(format: "%.4g (%.4g–%.4g)", result.p50 / 1e6, range.min / 1e6, range.max / 1e6)
        if let steady = result.steadyNanoseconds {
            p50 += String(format: " = %.2f× steady", result.p50 / steady)
        }
        return [
            c.engine.rawValue, String(c.animations), c.mix.rawValue, c.scenario.rawValue, String(format: "%g", c.fps),
            c.engine.takesMethod ? c.method.rawValue : "-", p50, String(format: "%.4g", result.p99 / 1e6),
            String(format: "%.3g", result.nanosecondsPerAnimation), String(format: "%.2f%%", result.budgetShare * 100),
            result.allocationsCounted == false ? "not counted" : String(format: "%g", result.allocationsPerFrame),
            c.engine.usesBatchLayout ? String(result.bytesPerFrame / max(c.animations, 1)) : "-",
            String(format: "%.3g", result.calibrated), ratio,
        ]
    }

    package static func scalingLines(_ report: BenchReport) -> [String] {
        report.scaling.map { fit in
            String(
                format: "scaling %@: cost ∝ N^%.3f over N = %@", fit.family, fit.exponent,
                fit.counts.map(String.init).joined(separator: ", "))
        }
    }

    /// Per engine and workload checked (whatever the count: the check runs
    /// the first 64 animations), the values' largest error against the
    /// exact motion (``ValueCheck/reference``: GSL's in the `kinetics` tool).
    package static func valueLines(_ report: BenchReport) -> [String] {
        var seen: Set<String> = []
        var lines: [String] = []
        var reference = "GSL's motion"
        for result in report.results {
            guard let check = result.valueCheck else { continue }
            reference = check.reference ?? reference
            let c = result.configuration
            // An engine that takes no method steps as it steps: its
            // configuration's `pop` is only a placeholder.
            let method = c.engine.takesMethod ? " \(c.method.rawValue)" : ""
            let name =
                "\(c.engine.rawValue) \(c.mix.rawValue) \(c.scenario.rawValue) \(String(format: "%g", c.fps)) Hz\(method)"
            guard seen.insert(name).inserted else { continue }
            lines.append(
                "  \(name): \(String(format: "%.2e", check.error)) at \(check.worst) (\(check.animations) animations, t = \(String(format: "%.3g", check.time)) s)"
            )
        }
        guard !lines.isEmpty else { return [] }
        // The closed forms are GSL's motion within 1e-12 of the travel (the
        // tests hold them there): the errors are those kinetics bench prints.
        let same = reference == "GSL's motion" ? "" : ", within 1e-12 of GSL's motion: the errors kinetics bench prints"
        return ["values against \(reference) of the workload (spring: over its travel; decay: over its throw\(same)):"]
            + lines
    }

    /// What the table's less obvious columns mean, under it.
    package static func legendLines(_ report: BenchReport) -> [String] {
        var lines = [
            "p50 (min–max): the median of every measured frame, and the smallest and largest of the repetitions' medians; bytes/anim: what Kinetics' batches touch a frame (- for engines that keep their own layout); calibrated: p50 over the time of a kernel streaming the workload's bytes in the batches' layout (the same kernel for every engine of a workload), timed in the same run (what baselines compare across machines).",
            "vs Pop: against the faster of Pop's two models (reference, pop-c) on the same workload in this run; - for the models themselves"
                + (report.results.contains { $0.configuration.engine.isPopModel }
                    ? "." : " and wherever neither ran (add --engine reference or --engine pop-c)."),
        ]
        // A burst's frame adds a tenth to animations that all run: divided
        // by them all it hides what an add costs.
        for result in report.results where result.configuration.scenario == .burst {
            guard let steady = result.steadyNanoseconds else { continue }
            let c = result.configuration
            let add = (result.p50 - steady) / Double(c.eventCount)
            let cost = abs(add) < 1_000 ? String(format: "%.3g ns", add) : String(format: "%.3g µs", add / 1_000)
            lines.append(
                "burst, \(c.key): \(c.eventCount) added, \(cost) an add (the burst frame less the steady frame after it, over the added)."
            )
        }
        return lines
    }

    /// For each engine from a library or a Swift package, what the harness
    /// adds to its frame: the `abi-null` engine's frame in the same run, over
    /// the engine's own.
    package static func overheadLines(_ report: BenchReport) -> [String] {
        var lines: [String] = []
        for result in report.results where !result.configuration.engine.isBuiltIn {
            guard
                let harness = report.results.first(where: {
                    $0.configuration.engine == .abiNull && $0.configuration.workload == result.configuration.workload
                })
            else { continue }
            lines.append(
                "  \(result.configuration.engine.rawValue) \(result.configuration.workload): "
                    + String(
                        format: "%.3g ns of %.3g ns per frame, %.2f%%", harness.p50, result.p50,
                        harness.p50 / result.p50 * 100))
        }
        guard !lines.isEmpty else { return [] }
        return ["harness overhead (the abi-null engine's frame, same run, over the engine's):"] + lines
    }

    /// Per configuration counted (`--count instructions`): instructions,
    /// simulated misses and estimated cycles per frame.
    package static func instructionLines(_ report: BenchReport) -> [String] {
        let counted = report.results.filter { $0.instructions != nil }
        guard let first = counted.first?.instructions else { return [] }
        return [
            "instructions per measured frame (\(first.valgrind) callgrind, the measured frames only; est. cycles = Ir + 10 × L1 misses + 100 × LL misses):"
        ]
            + counted.map { result in
                let count = result.instructions!
                return String(
                    format:
                        "  %@: %.1f per frame (%.2f per animation), L1 misses %.1f, LL misses %.1f, est. cycles %.1f",
                    result.configuration.key, count.instructionsPerFrame, count.instructionsPerAnimation,
                    count.l1MissesPerFrame, count.lastLevelMissesPerFrame, count.estimatedCyclesPerFrame)
            }
    }

    /// Per interaction counted (`--count instructions` of an event's frame
    /// and the steady frame of its workload): what one costs.
    package static func interactionLines(_ report: BenchReport) -> [String] {
        guard let costs = report.interactionCosts, !costs.isEmpty else { return [] }
        return [
            "instructions an interaction costs (the event's frame less the steady frame, over the animations it touches):"
        ]
            + costs.map {
                String(
                    format: "  %@: %.1f instructions per %@", $0.key, $0.instructionsPerOperation,
                    $0.interaction.rawValue)
            }
    }

    package static func table(_ report: BenchReport) -> String {
        let rows = report.results.map { cells($0, report) }
        var lines = ["Kinetics bench on \(report.machine); frame times are medians over every measured frame.", ""]
        lines += aligned(columns, rows) + [""] + legendLines(report)
        for extra in [
            valueLines(report), instructionLines(report), interactionLines(report), overheadLines(report),
            scalingLines(report),
        ]
        where !extra.isEmpty {
            lines += [""] + extra
        }
        let bezier = bezierLines(report) + bezierInstructionLines(report)
        if !bezier.isEmpty { lines += [""] + bezier }
        let failures = failureLines(report, mark: "CRASHED:")
        if !failures.isEmpty { lines += [""] + failures }
        return lines.joined(separator: "\n") + "\n"
    }

    /// A line for each configuration an engine's worker died measuring.
    package static func failureLines(_ report: BenchReport, mark: String) -> [String] {
        (report.failures ?? []).map { "\(mark) \($0.sentence); no result." }
    }

    /// Per curve: each method's time per evaluation (median, min–max over
    /// repetitions) and largest error, and how many times faster `fast` is
    /// than `webkit` (median and range of the per-repetition ratios).
    package static func bezierLines(_ report: BenchReport) -> [String] {
        guard let results = report.bezier, !results.isEmpty else { return [] }
        var lines = ["bezier, ns per evaluation (min–max), largest |y - precise|:"]
        var curves: [String] = []
        for result in results where !curves.contains(result.curve) { curves.append(result.curve) }
        for curve in curves {
            let rows = results.filter { $0.curve == curve }
            let cells = rows.map {
                String(
                    format: "%@ %.3g (%.3g–%.3g) err %.1e", $0.method.rawValue, $0.nanoseconds, $0.minimum, $0.maximum,
                    $0.maxError)
            }
            var line = "  \(curve): " + cells.joined(separator: "; ")
            if let fast = rows.first(where: { $0.method == .fast }) {
                let ratios = rows.filter(\.method.isWebKit).map { row in
                    if let ratio = row.timesFast, let low = row.timesFastMinimum, let high = row.timesFastMaximum {
                        return String(format: "%.1f× (%.1f–%.1f) %@", ratio, low, high, row.method.rawValue)
                    }
                    // Reports written before the ratios were measured per repetition.
                    return String(format: "%.1f× %@", row.nanoseconds / fast.nanoseconds, row.method.rawValue)
                }
                if !ratios.isEmpty { line += "; fast is faster than " + ratios.joined(separator: ", ") }
                let single = rows.filter(\.method.isWebKit).compactMap { row -> String? in
                    guard let ratio = row.timesFastSingle, let low = row.timesFastSingleMinimum,
                        let high = row.timesFastSingleMaximum
                    else { return nil }
                    return String(format: "%.1f× (%.1f–%.1f) %@", ratio, low, high, row.method.rawValue)
                }
                if !single.isEmpty {
                    line += "; fast-single (the animator's path) than " + single.joined(separator: ", ")
                }
            }
            lines.append(line)
        }
        return lines
    }

    /// Per bezier method, what one evaluation executes (with `--count
    /// instructions`).
    package static func bezierInstructionLines(_ report: BenchReport) -> [String] {
        guard let counts = report.bezierInstructions, let first = counts.first else { return [] }
        return [
            "bezier, instructions per evaluation over the three curves (\(first.valgrind) callgrind, \(first.evaluations) evaluations each):"
        ]
            + counts.map {
                String(
                    format: "  %@: %.1f instructions, L1 misses %.3f, LL misses %.4f, est. cycles %.1f",
                    $0.method.rawValue, $0.instructionsPerEvaluation, $0.l1MissesPerEvaluation,
                    $0.lastLevelMissesPerEvaluation, $0.estimatedCyclesPerEvaluation)
            }
    }

    package static func markdown(_ report: BenchReport) -> String {
        var lines = ["Kinetics bench on \(report.machine).", ""]
        lines.append("| " + columns.joined(separator: " | ") + " |")
        lines.append("|" + columns.map { _ in " --- " }.joined(separator: "|") + "|")
        for result in report.results { lines.append("| " + cells(result, report).joined(separator: " | ") + " |") }
        lines += [""] + legendLines(report)
        for extra in [valueLines(report), instructionLines(report), interactionLines(report), overheadLines(report)]
        where !extra.isEmpty {
            lines += [""] + extra
        }
        let scaling = scalingLines(report)
        if !scaling.isEmpty { lines += [""] + scaling.map { "- " + $0 } }
        let bezier = bezierLines(report) + bezierInstructionLines(report)
        if !bezier.isEmpty { lines += [""] + bezier }
        let failures = failureLines(report, mark: "**Crashed:**")
        if !failures.isEmpty { lines += [""] + failures.map { "- " + $0 } }
        return lines.joined(separator: "\n") + "\n"
    }

    package static func csv(_ report: BenchReport) -> String {
        var lines = [
            "engine,animations,mix,scenario,fps,method,p50_ns,p90_ns,p99_ns,max_ns,mean_ns,repetition_min_ns,repetition_max_ns,ns_per_animation,budget_share,allocations_per_frame,bytes_per_frame,calibration_ns,calibrated,steady_ns,instructions_per_frame,l1_misses_per_frame,ll_misses_per_frame,estimated_cycles_per_frame,failure"
        ]
        for result in report.results {
            let c = result.configuration
            let range = result.repetitionRange
            let fields: [String] = [
                c.engine.rawValue, String(c.animations), c.mix.rawValue, c.scenario.rawValue, csvNumber(c.fps),
                c.method.rawValue,
                csvNumber(result.p50), csvNumber(result.p90), csvNumber(result.p99), csvNumber(result.max),
                csvNumber(result.mean), csvNumber(range.min), csvNumber(range.max),
                csvNumber(result.nanosecondsPerAnimation), csvNumber(result.budgetShare),
                csvNumber(result.allocationsPerFrame), String(result.bytesPerFrame),
                csvNumber(result.calibrationNanoseconds), csvNumber(result.calibrated),
                result.steadyNanoseconds.map(csvNumber) ?? "",
                result.instructions.map { csvNumber($0.instructionsPerFrame) } ?? "",
                result.instructions.map { csvNumber($0.l1MissesPerFrame) } ?? "",
                result.instructions.map { csvNumber($0.lastLevelMissesPerFrame) } ?? "",
                result.instructions.map { csvNumber($0.estimatedCyclesPerFrame) } ?? "", "",
            ]
            lines.append(fields.joined(separator: ","))
        }
        // A configuration a worker died measuring: its name, no numbers, what happened.
        for failure in report.failures ?? [] {
            let c = failure.configuration
            let named = [
                c.engine.rawValue, String(c.animations), c.mix.rawValue, c.scenario.rawValue, csvNumber(c.fps),
                c.method.rawValue,
            ]
            let what = "crashed: \(failure.library): \(failure.what)"
            lines.append((named + Array(repeating: "", count: 18) + [csvField(what)]).joined(separator: ","))
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
