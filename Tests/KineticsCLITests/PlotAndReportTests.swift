import Foundation
import KineticsTestSupport
import Testing

@Suite("CLI: plot and report")
struct PlotAndReportTests {
    static func temporary(_ name: String) -> URL {
        temporaryPath("kinetics-plot", name)
    }

    @Test("plot spring: GSL and each method over two panels; every frame is a point")
    func spring() throws {
        let result = try kinetics(
            "plot", "spring", "--tension", "300", "--friction", "20", "--fps", "60", "--seconds", "1", "--method",
            "pop", "--method", "analytic")
        #expect(result.status == 0, "\(result.stderr)")
        let svg = try #require(SVGSeries.parse(result.stdout), "well-formed XML")
        #expect(svg.names == ["GSL rk8pd", "pop", "analytic", "pop", "analytic"])
        #expect(svg.lines["pop"]?.count ?? 0 >= 61, "61 frames drawn (the error panel drops exact zeros)")
    }

    @Test("plot decay and plot bezier hold their methods; an existing output file is replaced")
    func decayAndBezier() throws {
        let decay = try kinetics("plot", "decay", "--velocity", "800", "--seconds", "1")
        #expect(
            try #require(SVGSeries.parse(decay.stdout)).names == [
                "GSL rk8pd (continuous law)", "pop", "exact", "continuous", "pop", "exact", "continuous",
            ])
        let file = Self.temporary("bezier.svg")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data("old".utf8).write(to: file)
        let bezier = try kinetics("plot", "bezier", "--curve", "ease-out", "--method", "webkit", "--output", file.path)
        #expect(bezier.status == 0 && bezier.stdout.isEmpty, "\(bezier.stderr)")
        let text = try String(contentsOf: file, encoding: .utf8)
        #expect(try #require(SVGSeries.parse(text)).names == ["GSL (cubic + brent)", "webkit", "webkit"])
    }

    @Test("plot verify draws error against ζ, frame rate and steepness with the tolerance lines")
    func verify() throws {
        let input = Self.temporary("verify.json")
        defer { try? FileManager.default.removeItem(at: input) }
        let run = try kinetics(
            "verify", "--suite", "spring", "--shard", "1/4", "--format", "json", "--output", input.path)
        #expect(run.status == 0, "\(run.stderr)")
        let result = try kinetics("plot", "verify", "--input", input.path)
        #expect(result.status == 0, "\(result.stderr)")
        let svg = try #require(SVGSeries.parse(result.stdout))
        #expect(Set(svg.names) == ["analytic", "fixed", "pop", "rk4"])
        #expect(svg.rules.contains("spring.rk4 = 1e-07") && svg.rules.contains("spring.analytic = 1e-10"))
    }

    @Test("plot bench draws each engine against N with both budgets, and one configuration's frames")
    func bench() throws {
        let input = Self.temporary("bench.json")
        defer { try? FileManager.default.removeItem(at: input) }
        let run = try kinetics(
            "bench", "--engine", "animator", "--engine", "batch", "--animations", "100", "--animations", "1000",
            "--frames", "3", "--warmup", "1", "--no-bezier", "--format", "json", "--output", input.path)
        #expect(run.status == 0, "\(run.stderr)")
        // Frame times are nanoseconds: a frame of 100 springs takes more than 10 ns and less than a second.
        struct Report: Decodable {
            struct Result: Decodable { let frameTimes: [Double] }
            let results: [Result]
        }
        let frameTimes = try decodeJSON(Report.self, try String(contentsOf: input, encoding: .utf8)).results.flatMap(
            \.frameTimes)
        #expect(!frameTimes.isEmpty && frameTimes.allSatisfy { $0 > 10 && $0 < 1e9 }, "\(frameTimes.prefix(3))")
        let scaling = try #require(SVGSeries.parse(try kinetics("plot", "bench", "--input", input.path).stdout))
        #expect(scaling.names.count == 2 && scaling.names.allSatisfy { $0.contains("(N^") })
        #expect(scaling.rules == ["60 Hz budget (16.7 ms)", "120 Hz budget (8.3 ms)"])
        let frames = try kinetics(
            "plot", "bench", "--input", input.path, "--configuration", "batch 1000 spring steady 60 Hz pop")
        let drawn = try #require(SVGSeries.parse(frames.stdout)).lines["p50"]?.count
        #expect(frames.status == 0 && drawn == 3, "\(frames.status): \(frames.stderr)")
        let unknown = try kinetics("plot", "bench", "--input", input.path, "--configuration", "nothing")
        #expect(unknown.status == 64 && unknown.stderr.contains("is not in \(input.path)"))
    }

    @Test("plot inputs: missing exits 66, malformed 65, each naming the file")
    func badInputs() throws {
        let missing = try kinetics("plot", "verify", "--input", "/nonexistent/verify.json")
        #expect(missing.status == 66 && missing.stderr == "kinetics: error: /nonexistent/verify.json: no such file\n")
        let file = Self.temporary("bad.json")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data("{\"rows\": 3}".utf8).write(to: file)
        let malformed = try kinetics("plot", "verify", "--input", file.path)
        #expect(malformed.status == 65 && malformed.stderr.contains("\(file.path): not a kinetics verify report"))
        let bench = try kinetics("plot", "bench", "--input", file.path)
        #expect(bench.status == 65 && bench.stderr.contains(file.path))
    }

    @Test(
        "kinetics alone runs the report: exits 0, names the file, and the file holds every section and no external URL")
    func defaultCommand() throws {
        let html = Self.temporary("report.html")
        let markdown = Self.temporary("report.md")
        defer {
            try? FileManager.default.removeItem(at: html)
            try? FileManager.default.removeItem(at: markdown)
        }
        // Small bench counts: the debug build is slow.
        let result = try kinetics("--animations", "100", "--output", html.path, "--markdown", markdown.path)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("HTML report: \(html.path); Markdown: \(markdown.path)"))
        #expect(result.stdout.contains("Verification: every tolerance held"))
        #expect(result.stdout.contains("Allocations: no steady frame of the animator or the batch path allocates"))
        let page = try String(contentsOf: html, encoding: .utf8)
        for section in [
            "<h2>Verdict</h2>", "<h2>Verification against GSL</h2>", "<h2>Pictures</h2>", "<h2>Bench</h2>",
            "<h2>Reproduce</h2>",
        ] {
            #expect(page.contains(section), "\(section)")
        }
        #expect(page.components(separatedBy: "<svg ").count - 1 == 4, "four inline pictures")
        #expect(
            !page.contains("http:") && !page.contains("https:") && !page.contains("src="),
            "nothing loaded from anywhere")
        let comment = try String(contentsOf: markdown, encoding: .utf8)
        #expect(
            comment.hasPrefix("## Kinetics report") && comment.contains("| suite | mode |")
                && comment.contains("kinetics bench --animations 100 "))
    }
}
