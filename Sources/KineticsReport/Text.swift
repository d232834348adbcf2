import Foundation
import KineticsBench
import KineticsVerify

/// Numbers in reports: `1.23e-04`.
package func scientific(_ value: Double) -> String { String(format: "%.2e", value) }

/// Numbers in reports with a fixed number of decimals.
package func fixed(_ value: Double, _ digits: Int) -> String { String(format: "%.\(digits)f", value) }

/// Numbers in reports with four significant digits.
package func short(_ value: Double) -> String { String(format: "%.4g", value) }

/// Numbers as the shortest text that reads back to the same double
/// (`0.1`, `1e-05`, `1.0`); `inf`, `-inf` and `nan` for the rest.
package func csvNumber(_ value: Double) -> String { value.description }

/// The human forms of a verification report.
package enum VerificationText {
    package static func header(_ report: VerificationReport) -> String {
        var text =
            "Kinetics verify: grid \(report.grid), suites \(report.suites.joined(separator: ", ")); \(String(format: "%.1f", report.seconds)) s.\nReference: \(report.reference)."
        if let engine = report.engine, let measures = report.engineMeasures {
            text +=
                "\nEngine: \(engine), \(measures.casesAnswered) of \(measures.casesAsked) cases answered"
                + refusedCount(measures) + (measures.shard.map { ", shard \($0)" } ?? "") + "."
        }
        if let fault = report.fault { text += "\nThe engine stopped: \(fault.message)." }
        return text
    }

    package static let columns = ["suite", "mode", "check", "cases", "value", "tolerance", "result", "where"]

    package static func cells(_ row: VerificationRow) -> [String] {
        [
            row.suite, row.mode, row.check, String(row.cases), value(row),
            row.tolerance.map(scientific) ?? "-", result(row), row.location + (row.note.map { " [\($0)]" } ?? ""),
        ]
    }

    /// `, 30 refused (decay)` when the engine refused cases.
    static func refusedCount(_ measures: EngineMeasures) -> String {
        guard let refusals = measures.refusals, !refusals.isEmpty else { return "" }
        return ", \(refusals.map(\.cases).reduce(0, +)) refused (\(refusals.map(\.suite).joined(separator: ", ")))"
    }

    /// The row's value; `-` where nothing was measured.
    package static func value(_ row: VerificationRow) -> String {
        if row.value.isNaN && (row.cases == 0 || row.check == "refused") { return "-" }
        if let minimum = row.minimum, let maximum = row.maximum {
            return "\(fixed(row.value, 4)) (\(fixed(minimum, 4))–\(fixed(maximum, 4)))"
        }
        return scientific(row.value)
    }

    package static func result(_ row: VerificationRow) -> String {
        switch row.passed {
        case .some(true): "pass"
        case .some(false): "FAIL"
        case .none: "reported"
        }
    }

    package static func table(_ report: VerificationReport) -> String {
        let rows = report.rows.map(cells)
        return ([header(report), ""] + aligned(columns, rows) + ["", verdict(report)]).joined(separator: "\n") + "\n"
    }

    /// The report's verdict in one sentence: how many checks failed of how
    /// many, that every tolerance held, that the engine stopped, or that
    /// nothing was checked (and how to gate).
    package static func verdict(_ report: VerificationReport) -> String {
        let failed = failedChecks(report) + " FAILED."
        if report.fault != nil {
            return "Incomplete: the engine stopped before answering every case"
                + (report.failures.isEmpty ? "." : "; " + failed)
        }
        if !report.failures.isEmpty { return failed }
        let checked = report.rows.filter { $0.passed != nil }.count
        if checked == 0 {
            let how =
                report.engine == nil
                ? "the modes run are reported, not checked" : "give --tolerance engine=VALUE to gate an engine"
            return "Nothing was checked (every row is reported only): \(how)."
        }
        return "Every tolerance held (\(checked) check\(checked == 1 ? "" : "s"))."
    }

    /// `1 of 21 checks`, `1 of 1 check`: the failed rows of the checked ones.
    package static func failedChecks(_ report: VerificationReport) -> String {
        let checked = report.rows.filter { $0.passed != nil }.count
        return "\(report.failures.count) of \(checked) check\(checked == 1 ? "" : "s")"
    }

    package static func markdown(_ report: VerificationReport) -> String {
        func escape(_ text: String) -> String { text.replacingOccurrences(of: "|", with: "\\|") }
        var lines = [header(report).replacingOccurrences(of: "\n", with: "  \n"), ""]
        lines.append("| " + columns.joined(separator: " | ") + " |")
        lines.append("|" + columns.map { _ in " --- " }.joined(separator: "|") + "|")
        for row in report.rows {
            lines.append("| " + cells(row).map(escape).joined(separator: " | ") + " |")
        }
        lines.append("")
        lines.append("**\(verdict(report))**")
        return lines.joined(separator: "\n") + "\n"
    }

    package static func csv(_ report: VerificationReport) -> String {
        func field(_ text: String) -> String {
            text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" })
                ? "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : text
        }
        func number(_ value: Double?) -> String { value.map(csvNumber) ?? "" }
        var lines = ["suite,mode,check,cases,value,rms,minimum,maximum,tolerance_name,tolerance,passed,where,note"]
        for row in report.rows {
            lines.append(
                [
                    row.suite, row.mode, row.check, String(row.cases), number(row.value), number(row.rms),
                    number(row.minimum), number(row.maximum), row.toleranceName ?? "", number(row.tolerance),
                    row.passed.map { $0 ? "true" : "false" } ?? "", row.location, row.note ?? "",
                ].map(field).joined(separator: ","))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `spring rk4 error 2.1e-07 > tolerance spring.rk4 = 1e-07 at k=… at 120 Hz`.
    package static func describe(_ row: VerificationRow) -> String {
        if row.value.isNaN && (row.cases == 0 || row.check == "refused") {
            let what = row.check == "refused" ? "the engine refused it (\(row.location))" : "nothing was measured"
            return
                "\(row.suite) \(row.mode) \(row.check): \(row.toleranceName ?? "") = \(row.tolerance.map(scientific) ?? "-") cannot hold: \(what)"
        }
        return
            "\(row.suite) \(row.mode) \(row.check): \(value(row)) exceeds \(row.toleranceName ?? "") = \(row.tolerance.map(scientific) ?? "-") at \(row.location)"
    }
}

/// The human forms of a bench report.
package enum BenchText {
    package static let columns = [
        "engine", "animations", "mix", "scenario", "fps", "method", "p50 ms (min–max)", "p99 ms", "ns/anim",
        "budget", "allocs/frame", "calibrated", "vs Pop (faster model)",
    ]

    package static func cells(_ result: BenchResult, _ report: BenchReport) -> [String] {
        let c = result.configuration
        let range = result.repetitionRange
        var ratio = "-"
        if !c.engine.isPopModel, let pop = report.popModel(for: result) {
            ratio = String(format: "%.1f× faster than %@", pop.p50 / result.p50, pop.configuration.engine.rawValue)
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
    /// the first 64 animations), the values' largest error against GSL.
    package static func valueLines(_ report: BenchReport) -> [String] {
        var seen: Set<String> = []
        var lines: [String] = []
        for result in report.results {
            guard let check = result.valueCheck else { continue }
            let c = result.configuration
            let name =
                "\(c.engine.rawValue) \(c.mix.rawValue) \(c.scenario.rawValue) \(String(format: "%g", c.fps)) Hz \(c.method.rawValue)"
            guard seen.insert(name).inserted else { continue }
            lines.append(
                "  \(name): \(String(format: "%.2e", check.error)) at \(check.worst) (\(check.animations) animations, t = \(String(format: "%.3g", check.time)) s)"
            )
        }
        guard !lines.isEmpty else { return [] }
        return ["values against GSL's motion of the workload (spring: over its travel; decay: over its throw):"] + lines
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

    package static func table(_ report: BenchReport) -> String {
        let rows = report.results.map { cells($0, report) }
        var lines = ["Kinetics bench on \(report.machine); frame times are medians over every measured frame.", ""]
        lines += aligned(columns, rows)
        for extra in [
            valueLines(report), instructionLines(report), overheadLines(report),
            scalingLines(report),
        ]
        where !extra.isEmpty {
            lines += [""] + extra
        }
        let bezier = bezierLines(report) + bezierInstructionLines(report)
        if !bezier.isEmpty { lines += [""] + bezier }
        return lines.joined(separator: "\n") + "\n"
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
        for extra in [valueLines(report), instructionLines(report), overheadLines(report)]
        where !extra.isEmpty {
            lines += [""] + extra
        }
        let scaling = scalingLines(report)
        if !scaling.isEmpty { lines += [""] + scaling.map { "- " + $0 } }
        let bezier = bezierLines(report) + bezierInstructionLines(report)
        if !bezier.isEmpty { lines += [""] + bezier }
        return lines.joined(separator: "\n") + "\n"
    }

    package static func csv(_ report: BenchReport) -> String {
        var lines = [
            "engine,animations,mix,scenario,fps,method,p50_ns,p90_ns,p99_ns,max_ns,mean_ns,repetition_min_ns,repetition_max_ns,ns_per_animation,budget_share,allocations_per_frame,bytes_per_frame,calibration_ns,calibrated,steady_ns,instructions_per_frame,l1_misses_per_frame,ll_misses_per_frame,estimated_cycles_per_frame"
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
                result.instructions.map { csvNumber($0.estimatedCyclesPerFrame) } ?? "",
            ]
            lines.append(fields.joined(separator: ","))
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

/// The header and the rows as lines of columns two spaces apart, each
/// column as wide as its widest cell (the last one not padded).
func aligned(_ header: [String], _ rows: [[String]]) -> [String] {
    var widths = header.map(\.count)
    for row in rows {
        for (index, cell) in row.enumerated() { widths[index] = max(widths[index], cell.count) }
    }
    return ([header] + rows).map { cells in
        cells.enumerated().map { index, cell in
            index == cells.count - 1 ? cell : cell.padding(toLength: widths[index], withPad: " ", startingAt: 0)
        }.joined(separator: "  ")
    }
}
