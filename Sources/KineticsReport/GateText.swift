import Foundation
import KineticsBench

/// The human forms of a `kinetics gate` report.
public enum GateText {
    public static let columns = ["configuration", "rounds", "before ns", "after ns", "change", "interval", "verdict"]

    /// `+5.0%` for a ratio of 1.05.
    public static func change(_ ratio: Double) -> String {
        ratio.isFinite ? String(format: "%+.1f%%", (ratio - 1) * 100) : "unbounded"
    }

    /// `+4.1% … +5.8%`, or `unbounded` while too few rounds bound it.
    public static func interval(_ comparison: PairedComparison) -> String {
        comparison.lower > 0 && comparison.upper.isFinite
            ? "\(change(comparison.lower)) … \(change(comparison.upper))" : "unbounded"
    }

    public static func cells(_ result: GateResult) -> [String] {
        let comparison = result.comparison
        return [
            result.configuration, String(comparison.rounds), String(format: "%.0f", result.beforeMedian),
            String(format: "%.0f", result.afterMedian), change(comparison.ratio), interval(comparison),
            comparison.verdict.rawValue,
        ]
    }

    /// What was compared and how, in two lines.
    public static func header(_ report: GateReport) -> [String] {
        let what = report.mode == "library" ? "engine libraries, in one process" : "commands, run in turn"
        return [
            "Kinetics gate on \(report.machine): before \(report.before), after \(report.after) (\(what)); \(String(format: "%.1f", report.seconds)) s.",
            "Each round runs both on the same work, in random order; change is the Hodges–Lehmann estimate of after/before − 1, with the Wilcoxon signed-rank interval of the look that decided (the looks share the \(percent(1 - report.confidence)): together they hold at \(percent(report.confidence))); a change counts from \(percent(report.minimumEffect)).",
        ]
    }

    /// `99%`, `2%`, `0.5%`, `99.39%`.
    public static func percent(_ fraction: Double) -> String { String(format: "%.4g%%", fraction * 100) }

    /// `1 regression, 2 unchanged.`: the count of each verdict that occurs.
    public static func verdictLine(_ report: GateReport) -> String {
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

    /// Each configuration's value errors against GSL, where checked.
    public static func valueLines(_ report: GateReport) -> [String] {
        let checked = report.results.filter { $0.beforeValueError != nil && $0.afterValueError != nil }
        guard !checked.isEmpty else { return [] }
        return ["values against GSL's motion of the workload (failing past 1.1 × before's + 1e-12):"]
            + checked.map { result in
                "  \(result.configuration): before \(scientific(result.beforeValueError!)), after \(scientific(result.afterValueError!))"
                    + (result.valuesRegressed ? "  CHANGED" : "")
            }
    }

    public static func table(_ report: GateReport) -> String {
        var lines = header(report) + [""] + aligned(columns, report.results.map(cells))
        let values = valueLines(report)
        if !values.isEmpty { lines += [""] + values }
        lines += ["", verdictLine(report)]
        return lines.joined(separator: "\n") + "\n"
    }

    /// For a pull-request comment.
    public static func markdown(_ report: GateReport) -> String {
        var lines = header(report).map { $0 + "  " } + [""]
        lines.append("| " + columns.joined(separator: " | ") + " |")
        lines.append("|" + columns.map { _ in " --- " }.joined(separator: "|") + "|")
        for result in report.results {
            var row = cells(result)
            if result.comparison.verdict == .regression { row[6] = "**regression**" }
            lines.append("| " + row.joined(separator: " | ") + " |")
        }
        let values = valueLines(report)
        if !values.isEmpty { lines += [""] + values.map { $0.hasPrefix("  ") ? "-" + $0.dropFirst() : $0 } }
        lines += ["", "**" + verdictLine(report) + "**"]
        return lines.joined(separator: "\n") + "\n"
    }

    public static func csv(_ report: GateReport) -> String {
        func field(_ text: String) -> String {
            text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" })
                ? "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : text
        }
        var lines = [
            "configuration,rounds,before_ns,after_ns,ratio,lower,upper,confidence,min_effect,verdict,before_value_error,after_value_error"
        ]
        for result in report.results {
            let c = result.comparison
            lines.append(
                [
                    field(result.configuration), String(c.rounds), csvNumber(result.beforeMedian),
                    csvNumber(result.afterMedian), csvNumber(c.ratio), csvNumber(c.lower), csvNumber(c.upper),
                    csvNumber(c.confidence), csvNumber(c.minimumEffect), c.verdict.rawValue,
                    result.beforeValueError.map(csvNumber) ?? "", result.afterValueError.map(csvNumber) ?? "",
                ].joined(separator: ","))
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
