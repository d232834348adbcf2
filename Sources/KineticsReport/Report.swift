import Foundation
import Kinetics
import KineticsBench
import KineticsInput
import KineticsPlot
import KineticsVerify
import Plot

/// The one-command report: the quick verification grid, a quick bench, the
/// verdict on both, and the pictures.
package struct QuickReport: Sendable {
    package var verification: VerificationReport
    package var bench: BenchReport
    /// CPU model and cores, Swift version, build configuration.
    package var machine: String
    package var swift: String
    package var configuration: String
    package var date: Date

    /// The animation counts of the report's bench, by default.
    package static let defaultCounts = [1_000, 10_000]

    /// The bench configurations of the report: every engine, springs and
    /// mixed animations at 60 Hz, at each count.
    package static func benchConfigurations(counts: [Int]) -> [BenchConfiguration] {
        var list: [BenchConfiguration] = []
        for mix in [BenchMix.spring, .mixed] {
            for count in counts {
                for engine in BenchEngine.allCases {
                    list.append(
                        BenchConfiguration(
                            engine: engine, animations: count, mix: mix, fps: 60, scenario: .steady, frames: 10,
                            repetitions: 7, warmupFrames: 5))
                }
            }
        }
        return list
    }

    /// The animation counts of this report's bench.
    package var counts: [Int] {
        var counts: [Int] = []
        for result in bench.results where !counts.contains(result.configuration.animations) {
            counts.append(result.configuration.animations)
        }
        return counts
    }

    /// The commands that reproduce each number.
    package var commands: [(what: String, command: String)] {
        let bench =
            "kinetics bench " + counts.map { "--animations \($0) " }.joined()
            + "--mix spring --mix mixed --frames 10 --warmup 5"
        return [
            ("the verification table", "kinetics verify --grid quick"),
            ("the bench table", bench),
            ("the spring plot", "kinetics plot spring --fps 120 --output spring.svg"),
            ("the bezier plot", "kinetics plot bezier --curve ease-in-out --output bezier.svg"),
            (
                "the verification plot",
                "kinetics verify --format json --output verify.json && kinetics plot verify --input verify.json --output verify.svg"
            ),
            (
                "the bench plot",
                bench
                    + " --format json --output bench.json && kinetics plot bench --input bench.json --output bench.svg"
            ),
        ]
    }

    /// Runs the quick verification and the quick bench.
    ///
    /// - Throws: ``VerificationError`` when the GSL reference fails.
    package static func run(
        counts: [Int] = defaultCounts, progress: @escaping @Sendable (String, Int, Int) -> Void = { _, _, _ in }
    ) throws -> QuickReport {
        let verification = try Verifier.run(VerificationRequest(grid: .quick, tolerances: try Tolerances())) {
            suite, done, total in
            progress("verify \(suite)", done, total)
        }
        var results: [BenchResult] = []
        let configurations = benchConfigurations(counts: counts)
        for (index, configuration) in configurations.enumerated() {
            progress("bench", index, configurations.count)
            // The report's engines are built in: they accept every workload.
            results.append(try BenchRunner.measure(configuration))
        }
        let bench = BenchReport(
            kinetics: KineticsBuildInfo.version, results: results, bezier: BezierBench.measure(samples: 1 << 14))
        return QuickReport(
            verification: verification, bench: bench, machine: BenchReport.machineDescription,
            swift: KineticsBuildInfo.swift,
            configuration: KineticsBuildInfo.buildConfiguration, date: Date())
    }

    /// The verdict, one finding per line: the tolerances, the allocations,
    /// the frame cost and budget headroom at 10,000 animations.
    package var verdict: [String] {
        var lines: [String] = []
        let checked = verification.rows.filter { $0.passed != nil }.count
        if verification.passed {
            lines.append("Verification: every tolerance held (\(checked) checks against GSL, quick grid).")
        } else {
            lines.append(
                "Verification: \(VerificationText.failedChecks(verification)) FAILED: "
                    + verification.failures.map { "\($0.suite) \($0.mode) \($0.check)" }.joined(separator: "; ") + ".")
        }
        let hot = bench.results.filter { !$0.configuration.engine.isPopModel }
        let allocating = hot.filter { $0.allocationsPerFrame > 0 }
        if hot.contains(where: { $0.allocationsCounted == false }) {
            lines.append(
                "Allocations: NOT COUNTED: the malloc interposer was not active in this process, so no frame's allocations are known."
            )
        } else if allocating.isEmpty {
            lines.append(
                "Allocations: no steady frame of the animator or the batch path allocates (\(hot.count) configurations, counted exactly)."
            )
        } else {
            lines.append(
                "Allocations: \(allocating.map { "\($0.configuration.key) allocates \(short($0.allocationsPerFrame)) per frame" }.joined(separator: "; "))."
            )
        }
        let largest = bench.results.map(\.configuration.animations).max() ?? 0
        for result in bench.results
        where result.configuration.engine == .animator && result.configuration.animations == largest {
            let p50 = result.p50
            let count = largest.formatted(.number.grouping(.automatic).locale(Locale(identifier: "en_US")))
            var line =
                "Frame cost, animator, \(count) \(result.configuration.mix.rawValue): \(fixed(p50 / 1e6, 3)) ms per frame "
                + "(\(short(result.nanosecondsPerAnimation)) ns per animation), \(fixed(p50 / (1e9 / 60) * 100, 2))% of the 60 Hz budget, "
                + "\(fixed(p50 / (1e9 / 120) * 100, 2))% of the 120 Hz budget"
            if let pop = bench.popModel(for: result) {
                let model = pop.configuration.engine == .popC ? "its C model" : "its Swift model"
                line +=
                    "; \(String(format: "%.0f", pop.p50 / p50))× faster than Pop's frame (\(model), the faster of two, same run)"
            }
            lines.append(line + ".")
        }
        return lines
    }

    /// The report for a terminal: the verdict and the two tables.
    package var text: String {
        (["Kinetics report: \(machine), Swift \(swift), \(configuration) build.", ""] + verdict.map { "- " + $0 } + [""])
            .joined(separator: "\n") + "\n" + VerificationText.table(verification) + "\n" + BenchText.table(bench)
    }

    /// The report as Markdown, for a pull request comment (no pictures).
    package var markdown: String {
        var lines = ["## Kinetics report", "", "\(machine), Swift \(swift), \(configuration) build.", ""]
        lines += verdict.map { "- " + $0 }
        lines += ["", "### Verification against GSL", ""]
        lines.append(VerificationText.markdown(verification))
        lines += ["### Bench", ""]
        lines.append(BenchText.markdown(bench))
        lines += ["### Reproduce", ""]
        lines += commands.map { "- \($0.what): `\($0.command)`" }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The figures of the report.
    ///
    /// - Throws: ``GSLError`` when a reference fails.
    package func figures() throws -> [(title: String, figure: Figure)] {
        [
            (
                "Pop's default spring at 120 Hz against GSL",
                try Figures.spring(
                    .popDefault, from: 0, to: 1, velocity: 0, fps: 120, seconds: 1.5, methods: SpringMethod.allCases)
            ),
            ("The ease-in-out curve against GSL", try Figures.bezier(.easeInEaseOut, methods: BezierMethod.allCases)),
            ("Every verification case", Figures.verify(verification)),
            ("Frame time against the number of animations", Figures.benchScaling(bench)),
        ]
    }

    /// The report as one self-contained HTML file: styles and SVG inline,
    /// nothing loaded from anywhere. Plot builds the page and escapes every
    /// text in it; the figures are SVG that ``Figure`` escapes itself.
    package func html() throws -> String {
        let failed = !verification.passed || !bench.hotFramesAllocateNothing
        let stamp = "\(machine), Swift \(swift), \(configuration) build, \(ISO8601DateFormatter().string(from: date))."
        var body: [Node<HTML.BodyContext>] = [
            .h1("Kinetics report"),
            .p(.class("machine"), .text(stamp)),
            .h2("Verdict"),
            .ul(.class("verdict " + (failed ? "failed" : "passed")), .forEach(verdict, Self.item)),
            .h2("Verification against GSL"),
            .p(.text(VerificationText.header(verification))),
            Self.table(VerificationText.columns, verification.rows.map(VerificationText.cells)),
            .h2("Pictures"),
        ]
        for (title, figure) in try figures() {
            let caption: Node<HTML.BodyContext> = .element(named: "figcaption", text: title)
            body.append(.element(named: "figure", nodes: [caption, .raw(figure.svg(standalone: false))]))
        }
        body += [
            .h2("Bench"),
            .p(
                .text(
                    "Frame times are medians over every measured frame (7 repetitions of 10 frames after 5 warm-up "
                        + "frames); calibrated is p50 over a memory-streaming kernel over the same bytes, timed "
                        + "between the repetitions.")),
            Self.table(BenchText.columns, bench.results.map { BenchText.cells($0, bench) }),
        ]
        let extra = BenchText.scalingLines(bench) + BenchText.bezierLines(bench)
        if !extra.isEmpty { body.append(.pre(.text(extra.joined(separator: "\n")))) }
        var reproduce: [Node<HTML.ListContext>] = []
        for command in commands {
            reproduce.append(.li(.text(command.what + ": "), .code(.text(command.command))))
        }
        body += [.h2("Reproduce"), .ul(.group(reproduce))]
        return Self.page("Kinetics report", body)
    }

    /// A verification report (built-in methods or an engine) as one
    /// self-contained HTML page: its header, its table and the plot of
    /// every case's error.
    package static func html(_ verification: VerificationReport) -> String {
        let title = verification.engine.map { "Kinetics verify: \($0)" } ?? "Kinetics verify"
        let failed = !verification.passed
        let verdict = VerificationText.verdict(verification)
        let body: [Node<HTML.BodyContext>] = [
            .h1(.text(title)),
            .pre(.text(VerificationText.header(verification))),
            .ul(.class("verdict " + (failed ? "failed" : "passed")), .li(.text(verdict))),
            table(VerificationText.columns, verification.rows.map(VerificationText.cells)),
            .element(
                named: "figure",
                nodes: [
                    .element(named: "figcaption", text: "Every case's error against GSL"),
                    .raw(Figures.verify(verification).svg(standalone: false)),
                ]),
        ]
        return page(title, body)
    }

    private static func page(_ title: String, _ body: [Node<HTML.BodyContext>]) -> String {
        HTML(
            .lang(.english),
            .head(.encoding(.utf8), .element(named: "title", text: title), .style(css)),
            .body(.group(body))
        ).render() + "\n"
    }

    private static func item(_ text: String) -> Node<HTML.ListContext> { .li(.text(text)) }

    private static func table(_ columns: [String], _ rows: [[String]]) -> Node<HTML.BodyContext> {
        let header: Node<HTML.TableContext> = .thead(.tr(.forEach(columns) { .th(.text($0)) }))
        var lines: [Node<HTML.TableContext>] = []
        for row in rows {
            let cells: [Node<HTML.TableRowContext>] = row.map { .td(.text($0)) }
            lines.append(.tr(.group(cells)))
        }
        return .table(header, .tbody(.group(lines)))
    }

    private static let css = """
        body { font-family: Helvetica, Arial, sans-serif; max-width: 1100px; margin: 2em auto; padding: 0 1em; color: #222; }
        h1 { font-size: 1.6em; } h2 { font-size: 1.25em; margin-top: 1.6em; border-bottom: 1px solid #ddd; }
        table { border-collapse: collapse; font-size: 0.82em; margin: 0.6em 0; }
        th, td { border: 1px solid #ddd; padding: 3px 6px; text-align: left; vertical-align: top; }
        th { background: #f4f4f4; }
        td:nth-child(5) { white-space: nowrap; }
        ul.verdict li { margin: 0.3em 0; } ul.verdict.passed { border-left: 4px solid #2ca02c; padding-left: 1.6em; }
        ul.verdict.failed { border-left: 4px solid #d62728; padding-left: 1.6em; }
        figure { margin: 1.2em 0; } figcaption { font-weight: bold; margin-bottom: 0.4em; }
        code, pre { font-family: Menlo, Consolas, monospace; font-size: 0.85em; background: #f6f6f6; }
        .machine { color: #555; }
        """
}
