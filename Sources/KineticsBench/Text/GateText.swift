import Foundation
import KineticsInput

/// The human forms of a `kinetics gate` report.
package enum GateText {
    package static let columns = ["configuration", "rounds", "before ns", "after ns", "change", "interval", "verdict"]
    package static let countColumns = [
        "configuration", "before instr/frame", "after instr/frame", "change", "before est. cycles",
        "after est. cycles", "verdict",
    ]

    /// `+5.0%` for a ratio of 1.05.
    package static func change(_ ratio: Double) -> String {
        ratio.isFinite ? String(format: "%+.1f%%", (ratio - 1) * 100) : "unbounded"
    }

    /// `+4.1% … +5.8%`, or `unbounded` while too few rounds bound it.
    package static func interval(_ comparison: PairedComparison) -> String {
        comparison.lower > 0 && comparison.upper.isFinite
            ? "\(change(comparison.lower)) … \(change(comparison.upper))" : "unbounded"
    }

    package static func cells(_ result: GateResult) -> [String] {
        if let counts = result.instructions {
            return [
                result.configuration, String(format: "%.1f", counts.before.instructionsPerFrame),
                String(format: "%.1f", counts.after.instructionsPerFrame), String(format: "%+.2f%%", counts.change),
                String(format: "%.1f", counts.before.estimatedCyclesPerFrame),
                String(format: "%.1f", counts.after.estimatedCyclesPerFrame), counts.verdict.rawValue,
            ]
        }
        guard let comparison = result.comparison else {
            return [result.configuration] + Array(repeating: "-", count: 5) + ["inconclusive"]
        }
        return [
            result.configuration, String(comparison.rounds), String(format: "%.0f", result.beforeMedian ?? 0),
            String(format: "%.0f", result.afterMedian ?? 0), change(comparison.ratio), interval(comparison),
            comparison.verdict.rawValue,
        ]
    }

    /// What was compared and how, in two lines.
    package static func header(_ report: GateReport) -> [String] {
        if report.counted {
            let route =
                switch report.inProcess?.count {
                case 0: ", each library in a worker process"
                case 1: ", \(report.inProcess![0]) in a copy of this program, the other in a worker"
                case 2: ", each library in a copy of this program"
                default: ""
                }
            let valgrind = report.results.first?.instructions?.before.valgrind ?? "valgrind"
            return [
                "Kinetics gate on \(report.machine): before \(report.before), after \(report.after) (instructions counted\(route)); \(String(format: "%.1f", report.seconds)) s.",
                "Instructions per measured frame under \(valgrind) callgrind (the same binary counts the same every run); a change counts from \(String(format: "%g", report.results.first?.instructions?.threshold ?? 1))%; est. cycles = Ir + 10 × L1 misses + 100 × LL misses.",
            ]
        }
        let what: String
        switch (report.mode, report.inProcess?.count) {
        case ("library", 0): what = "engine libraries, each in a worker process"
        case ("library", 1): what = "engine libraries, \(report.inProcess![0]) in this process, the other in a worker"
        case ("library", _): what = "engine libraries, in one process"
        default: what = "commands, run in turn"
        }
        return [
            "Kinetics gate on \(report.machine): before \(report.before), after \(report.after) (\(what)); \(String(format: "%.1f", report.seconds)) s.",
            "Each round runs both on the same work, in random order; change is the Hodges–Lehmann estimate of after/before − 1, with the Wilcoxon signed-rank interval of the look that decided (the looks share the \(percent(1 - report.confidence)): together they hold at \(percent(report.confidence))); a change counts from \(percent(report.minimumEffect)).",
        ]
    }

    /// `99%`, `2%`, `0.5%`, `99.39%`.
    package static func percent(_ fraction: Double) -> String { String(format: "%.4g%%", fraction * 100) }

    /// `1 regression, 2 unchanged.`: the count of each verdict that occurs.
    package static func verdictLine(_ report: GateReport) -> String {
        let parts = GateVerdict.allCases.compactMap { verdict -> String? in
            let count = report.results(verdict).count
            guard count > 0 else { return nil }
            let plural = count > 1 && (verdict == .regression || verdict == .improvement)
            return "\(count) \(verdict.rawValue)\(plural ? "s" : "")"
        }
        guard !parts.isEmpty else { return "Nothing was compared." }
        let changed = report.valueRegressions.count
        return parts.joined(separator: ", ") + (changed > 0 ? "; \(changed) with changed values" : "") + "."
    }

    /// Each configuration's value errors against the exact motion, where
    /// checked.
    package static func valueLines(_ report: GateReport) -> [String] {
        let checked = report.results.filter { $0.beforeValueError != nil && $0.afterValueError != nil }
        guard !checked.isEmpty else { return [] }
        return [
            "values against \(BenchRunner.motionReference.name) of the workload (failing past 1.1 × before's + 1e-12):"
        ]
            + checked.map { result in
                "  \(result.configuration): before \(scientific(result.beforeValueError!)), after \(scientific(result.afterValueError!))"
                    + (result.valuesRegressed ? "  CHANGED" : "")
            }
    }

    /// The columns of `report`'s table.
    static func columns(_ report: GateReport) -> [String] { report.counted ? countColumns : columns }

    package static func table(_ report: GateReport) -> String {
        var lines = header(report) + [""] + aligned(columns(report), report.results.map(cells))
        let values = valueLines(report)
        if !values.isEmpty { lines += [""] + values }
        if let failure = report.failure { lines += ["", "CRASHED: " + failure.sentence + "."] }
        lines += ["", verdictLine(report)]
        return lines.joined(separator: "\n") + "\n"
    }

    /// For a pull-request comment.
    package static func markdown(_ report: GateReport) -> String {
        var lines = header(report).map { $0 + "  " } + [""]
        lines.append("| " + columns(report).joined(separator: " | ") + " |")
        lines.append("|" + columns(report).map { _ in " --- " }.joined(separator: "|") + "|")
        for result in report.results {
            var row = cells(result)
            if result.verdict == .regression { row[6] = "**regression**" }
            lines.append("| " + row.joined(separator: " | ") + " |")
        }
        let values = valueLines(report)
        if !values.isEmpty { lines += [""] + values.map { $0.hasPrefix("  ") ? "-" + $0.dropFirst() : $0 } }
        if let failure = report.failure { lines += ["", "**Crashed:** " + failure.sentence + "."] }
        lines += ["", "**" + verdictLine(report) + "**"]
        return lines.joined(separator: "\n") + "\n"
    }

    package static func csv(_ report: GateReport) -> String {
        if report.counted {
            var lines = [
                "configuration,before_instructions_per_frame,after_instructions_per_frame,change_percent,before_estimated_cycles_per_frame,after_estimated_cycles_per_frame,verdict"
            ]
            for result in report.results {
                guard let c = result.instructions else { continue }
                lines.append(
                    [
                        csvField(result.configuration), csvNumber(c.before.instructionsPerFrame),
                        csvNumber(c.after.instructionsPerFrame), csvNumber(c.change),
                        csvNumber(c.before.estimatedCyclesPerFrame), csvNumber(c.after.estimatedCyclesPerFrame),
                        c.verdict.rawValue,
                    ].joined(separator: ","))
            }
            return lines.joined(separator: "\n") + "\n"
        }
        var lines = [
            "configuration,rounds,before_ns,after_ns,ratio,lower,upper,confidence,min_effect,verdict,before_value_error,after_value_error,seconds"
        ]
        for result in report.results {
            guard let c = result.comparison else { continue }
            lines.append(
                [
                    csvField(result.configuration), String(c.rounds), (result.beforeMedian).map(csvNumber) ?? "",
                    (result.afterMedian).map(csvNumber) ?? "", csvNumber(c.ratio), csvNumber(c.lower),
                    csvNumber(c.upper), csvNumber(c.confidence), csvNumber(c.minimumEffect), c.verdict.rawValue,
                    result.beforeValueError.map(csvNumber) ?? "", result.afterValueError.map(csvNumber) ?? "",
                    csvNumber(report.seconds),
                ].joined(separator: ","))
        }
        if let failure = report.failure {
            // The configuration it died in, with nothing measured but the verdict.
            let verdict = "crashed: \(failure.side) (\(failure.build)): \(failure.what) during \(failure.during)"
            lines.append(
                ([csvField(failure.configuration)] + Array(repeating: "", count: 8) + [csvField(verdict), "", "", ""])
                    .joined(separator: ","))
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
