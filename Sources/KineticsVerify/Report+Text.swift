import Foundation
import KineticsInput

// The forms of a verification report a person reads, and its JSON: what
// `kinetics verify` writes in each --format, for a Swift package's own
// tests (``Verifier/run(_:named:on:tolerances:namingSchemes:jobs:progress:)``)
// as for the command line.

extension VerificationReport: CustomStringConvertible {
    /// The report as `kinetics verify` prints it: a header, one row a
    /// line, the verdict (``text``). `print(report)` shows this.
    public var description: String { text }

    /// The report as `kinetics verify` prints it (`--format table`): the
    /// header (grid, suites, reference, engine), the rows aligned in
    /// columns, and the verdict.
    public var text: String { VerificationText.table(self) }

    /// The report as a Markdown table (`--format markdown`).
    public var markdown: String { VerificationText.markdown(self) }

    /// The rows as CSV, numbers to full precision (`--format csv`).
    public var csv: String { VerificationText.csv(self) }

    /// The verdict in one sentence: how many checks failed of how many,
    /// that every tolerance held, that the engine stopped, or that nothing
    /// was checked.
    public var verdict: String { VerificationText.verdict(self) }

    /// What failed, one line each: the engine's fault, if it stopped, and
    /// every failed row with its value, tolerance and where (`spring rk4
    /// error: 2.10e-07 exceeds spring.rk4 = 1.00e-07 at …`); empty when the
    /// report passed. Made for a test's message:
    /// `#expect(report.passed, "\(report.failureSummary)")`.
    public var failureSummary: String {
        let lines =
            (fault.map { ["the engine stopped: \($0.message)"] } ?? []) + failures.map(VerificationText.describe)
        return lines.joined(separator: "\n")
    }

    /// The report as `kinetics verify --format json` writes it: keys
    /// sorted, and the numbers that are not numbers as the strings `nan`,
    /// `inf` and `-inf` (which JSON has no numbers for). `kinetics verify
    /// merge`, `kinetics plot verify` and ``init(json:)`` read it.
    public func json(pretty: Bool = true) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = pretty ? [.sortedKeys, .prettyPrinted] : [.sortedKeys]
        encoder.nonConformingFloatEncodingStrategy = .convertToString(
            positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        return try encoder.encode(self)
    }

    /// Reads a report written by ``json(pretty:)`` or `kinetics verify
    /// --format json`.
    ///
    /// - Throws: `DecodingError` for data that is not such a report.
    public init(json data: Data) throws {
        let decoder = JSONDecoder()
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(
            positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        self = try decoder.decode(VerificationReport.self, from: data)
    }
}

/// The human forms of a verification report.
package enum VerificationText {
    package static func header(_ report: VerificationReport) -> String {
        var text =
            "Kinetics verify: grid \(report.grid), suites \(report.suites.joined(separator: ", ")); \(String(format: "%.1f", report.seconds)) s.\nReference: \(report.reference)."
        if let engine = report.engine, let measures = report.engineMeasures {
            text +=
                "\nEngine: \(engine), \(measures.casesAnswered) of \(measures.casesAsked) cases answered"
                + refusedCount(measures) + (measures.shard.map { ", shard \($0)" } ?? "") + "."
            if let region = measures.region { text += "\nRegion: \(region) (the cases outside it were not asked)." }
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
        func number(_ value: Double?) -> String { value.map(csvNumber) ?? "" }
        var lines = ["suite,mode,check,cases,value,rms,minimum,maximum,tolerance_name,tolerance,passed,where,note"]
        for row in report.rows {
            lines.append(
                [
                    row.suite, row.mode, row.check, String(row.cases), number(row.value), number(row.rms),
                    number(row.minimum), number(row.maximum), row.toleranceName ?? "", number(row.tolerance),
                    row.passed.map { $0 ? "true" : "false" } ?? "", row.location, row.note ?? "",
                ].map(csvField).joined(separator: ","))
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
