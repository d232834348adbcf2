import ArgumentParser
import Foundation
import KineticsReport

/// `kinetics report` (and `kinetics` alone): the quick verification and
/// bench, the verdict and tables on the terminal, the HTML report in a file.
struct Report: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract:
            "Verify against GSL (quick grid), bench the hot path, and write an HTML report (the default command).",
        discussion: """
            Prints the verdict, the verification table and the bench table, and writes one self-contained \
            HTML file with the plots (no network resources). Exit status: 0 when every tolerance held and \
            no hot-path frame allocates, 1 otherwise, 73 when a file cannot be written.
            """
    )

    @Option(help: "The HTML report's path.")
    var output = "kinetics-report.html"
    @Option(help: "Also write the report as Markdown (for a pull request comment) to FILE.")
    var markdown: String?
    @Option(
        name: .customLong("animations"),
        help: "Bench animation counts (repeatable), 1 … 100,000. Default: 1000, 10000.",
        transform: OptionCheck.wholeNumber(in: 1 ... 100_000))
    var counts: [Int] = []

    func run() throws {
        try checkWritable(output, markdown)
        let bar = ProgressBar()
        let report: QuickReport
        do {
            report = try QuickReport.run(counts: counts.isEmpty ? QuickReport.defaultCounts : counts) {
                label, done, total in
                bar.update(label, done, total)
            }
        } catch {
            bar.finish()
            throw CLIError(message: "\(error)", status: .checkFailed)
        }
        bar.finish()
        try writeOutput(try report.html(), to: output)
        if let markdown { try writeOutput(report.markdown, to: markdown) }
        var text = report.text
        text += "\nHTML report: \(output)" + (markdown.map { "; Markdown: \($0)" } ?? "") + "\n"
        try writeStandardOutput(text)
        let allocations = report.bench.hotFramesAllocateNothing
        if !report.verification.passed || !allocations {
            throw CLIError(
                message: report.verdict.first { $0.contains("FAILED") || $0.hasPrefix("Allocations: ") && !allocations }
                    ?? "the report found a problem",
                status: .checkFailed)
        }
    }
}
