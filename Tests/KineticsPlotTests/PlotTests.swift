import Foundation
import KineticsTestSupport
import Testing

@testable import KineticsPlot

@Suite("Plot: scales and SVG")
struct PlotTests {
    @Test("a linear scale maps the ends of its domain to its pixels, and values between in proportion")
    func linear() throws {
        let scale = Scale(.linear, domain: 0 ... 10, pixels: 100, 600)
        #expect(scale.pixel(0) == 100 && scale.pixel(10) == 600 && scale.pixel(2.5) == 225)
        #expect(scale.pixel(.nan) == nil && scale.pixel(.infinity) == nil)
        let flipped = Scale(.linear, domain: -1 ... 1, pixels: 400, 0)  // y grows downwards
        #expect(flipped.pixel(1) == 0 && flipped.pixel(0) == 200)
        #expect(scale.ticks == [0, 2, 4, 6, 8, 10])
        #expect(Scale(.linear, domain: 0 ... 1.5, pixels: 0, 1).ticks == [0, 0.5, 1, 1.5])
        #expect(Scale.niceDomain(.linear, covering: [0.13, 0.96]) == 0 ... 1, "ticks of 0.2")
        let fine = Scale.niceDomain(.linear, covering: [0.13, 0.34])
        #expect(abs(fine.lowerBound - 0.1) < 1e-12 && abs(fine.upperBound - 0.35) < 1e-12, "ticks of 0.05")
    }

    @Test("a log scale maps decades to equal distances and drops what it cannot draw")
    func log() throws {
        let scale = Scale(.log, domain: 1e-6 ... 1, pixels: 0, 600)
        #expect(abs(scale.pixel(1e-3)! - 300) < 1e-9)
        #expect(abs(scale.pixel(1e-5)! - 100) < 1e-9)
        #expect(scale.pixel(0) == nil && scale.pixel(-1) == nil)
        #expect(scale.ticks == [1e-6, 1e-5, 1e-4, 1e-3, 1e-2, 1e-1, 1])
        #expect(scale.label(1e-6) == "1e-6" && scale.label(0.01) == "0.01" && scale.label(1) == "1")
        #expect(Scale.niceDomain(.log, covering: [0, 3e-9, 2e-3]) == 1e-9 ... 1e-2)
        // Many decades: every second or third is ticked.
        #expect(Scale(.log, domain: 1e-16 ... 1, pixels: 0, 1).ticks.count <= 9)
    }

    @Test("domains of subnormal, huge or single values give usable scales, never a trap")
    func extremeDomains() {
        // Subnormal values (a bench report once held them) crashed niceDomain:
        // about 1.7e-319 and 2.9e-319, and the smallest, 5e-324 (written as
        // multiples of it, which a literal cannot state exactly).
        let least = Double.leastNonzeroMagnitude
        for values in [[least * 34_400, least * 58_700], [least], [1e308, 1.7e308], [-1e308, 1e308], [0.0]] {
            for kind in [Scale.Kind.linear, .log] {
                let domain = Scale.niceDomain(kind, covering: values)
                #expect(domain.lowerBound.isFinite && domain.upperBound.isFinite, "\(kind) \(values)")
                let scale = Scale(kind, domain: domain, pixels: 0, 100)
                #expect(scale.domain.lowerBound < scale.domain.upperBound, "\(kind) \(values)")
                _ = scale.ticks
            }
        }
    }

    @Test("a point at a known data value lands at the expected pixel of the SVG")
    func pointPixels() throws {
        let figure = Figure(
            title: "test", width: 800, height: 500,
            panels: [
                Panel(
                    x: "x", y: "y",
                    series: [Series("line", points: [(0, 0), (5, 0.5), (10, 1)], style: .lineAndMarkers)])
            ])
        let layout = figure.layout()[0]
        // The domain is the data's, rounded to ticks: 0 … 10 and 0 … 1.
        #expect(layout.x.domain == 0 ... 10 && layout.y.domain == 0 ... 1)
        let left = Figure.left
        let right = 800 - Figure.right
        let top = Figure.top
        let bottom = 500 - Figure.bottom
        let collector = try #require(SVGSeries.parse(figure.svg()))
        let points = try #require(collector.lines["line"]) + (collector.markers["line"] ?? [])
        // Polyline then markers: the middle point at the middle of the area.
        #expect(points.count == 6)
        #expect(abs(points[1].0 - (left + right) / 2) < 0.01 && abs(points[1].1 - (top + bottom) / 2) < 0.01)
        #expect(abs(points[0].0 - left) < 0.01 && abs(points[0].1 - bottom) < 0.01)
        #expect(abs(points[2].0 - right) < 0.01 && abs(points[2].1 - top) < 0.01)
    }

    @Test("a line breaks where a point cannot be drawn; names are escaped; rules are labelled")
    func gapsAndEscaping() throws {
        let figure = Figure(
            title: "a < b & \"c\"",
            panels: [
                Panel(
                    x: "x", y: "error", yKind: .log,
                    series: [
                        Series(
                            "<odd> & \"name\"", points: [(1, 1e-3), (2, 1e-4), (3, 0), (4, .nan), (5, 1e-5), (6, 1e-6)])
                    ], rules: [Rule("tolerance", y: 1e-4)])
            ])
        let svg = figure.svg()
        let collector = try #require(SVGSeries.parse(svg), "well-formed XML")
        #expect(collector.lines["<odd> & \"name\""]?.count == 4, "two runs of two points; 0 and NaN left out")
        #expect(svg.components(separatedBy: "<polyline").count - 1 == 2)
        #expect(collector.rules == ["tolerance"])
        #expect(
            svg.hasPrefix(
                "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\"")
        )
        #expect(!figure.svg(standalone: false).contains("xmlns"), "inline SVG for HTML carries no namespace URL")
    }

    @Test("a series keeps its colour in every panel")
    func colours() throws {
        let figure = Figure(
            title: "t",
            panels: [
                Panel(
                    x: "x", y: "y",
                    series: [Series("a", points: [(0, 0), (1, 1)]), Series("b", points: [(0, 1), (1, 0)])]),
                Panel(x: "x", y: "y", series: [Series("b", points: [(0, 1), (1, 0)])]),
            ])
        let colors = figure.seriesColors()
        #expect(colors["a"] == Figure.palette[0] && colors["b"] == Figure.palette[1])
        let svg = figure.svg()
        #expect(svg.components(separatedBy: "data-name=\"b\" stroke=\"\(Figure.palette[1])\"").count - 1 == 2)
    }
}
