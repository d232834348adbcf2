import Foundation

/// One named set of points drawn as a line (broken where a point cannot be
/// drawn), as markers, or both.
package struct Series: Sendable {
    package enum Style: Sendable {
        case line
        case dashed
        case markers
        case lineAndMarkers
    }

    package var name: String
    package var points: [(x: Double, y: Double)]
    package var style: Style
    /// A fixed colour (`#rrggbb`); nil takes the next one of the palette.
    package var color: String?

    package init(_ name: String, points: [(x: Double, y: Double)], style: Style = .line, color: String? = nil) {
        self.name = name
        self.points = points
        self.style = style
        self.color = color
    }
}

/// A shaded band between a lower and an upper curve: at each point's x,
/// from its lower to its upper y.
package struct Band: Sendable {
    package var name: String
    package var points: [(x: Double, lower: Double, upper: Double)]

    package init(_ name: String, points: [(x: Double, lower: Double, upper: Double)]) {
        self.name = name
        self.points = points
    }
}

/// A labelled horizontal line across a panel: a tolerance, a frame budget.
package struct Rule: Sendable {
    package var label: String
    package var y: Double

    package init(_ label: String, y: Double) {
        self.label = label
        self.y = y
    }
}

/// One plot area with its axes.
package struct Panel: Sendable {
    package var title: String
    package var xLabel: String
    package var yLabel: String
    package var xKind: Scale.Kind
    package var yKind: Scale.Kind
    package var series: [Series]
    package var bands: [Band]
    package var rules: [Rule]
    /// The share of the figure's plotting height this panel takes.
    package var weight: Double

    package init(
        title: String = "", x xLabel: String, y yLabel: String, xKind: Scale.Kind = .linear,
        yKind: Scale.Kind = .linear,
        series: [Series] = [], bands: [Band] = [], rules: [Rule] = [], weight: Double = 1
    ) {
        self.title = title
        self.xLabel = xLabel
        self.yLabel = yLabel
        self.xKind = xKind
        self.yKind = yKind
        self.series = series
        self.bands = bands
        self.rules = rules
        self.weight = weight
    }

    /// The data ranges, from every series, band and rule.
    var xValues: [Double] { series.flatMap { $0.points.map(\.x) } + bands.flatMap { $0.points.map(\.x) } }
    var yValues: [Double] {
        series.flatMap { $0.points.map(\.y) } + bands.flatMap { $0.points.flatMap { [$0.lower, $0.upper] } }
            + rules.map(\.y)
    }
}

/// A figure of panels stacked top to bottom, drawn as SVG 1.1.
///
/// Every series is a `<g class="series" data-name="…">` holding its
/// polylines and markers, so tools (and the tests) can find the data in it.
package struct Figure: Sendable {
    package var title: String
    package var width: Double
    package var height: Double
    package var panels: [Panel]

    /// The colours of series, in order (distinguishable in colour and in grey).
    package static let palette = [
        "#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf",
    ]

    /// Margins around each panel's plotting area, in pixels.
    static let left = 78.0
    static let right = 24.0
    static let top = 52.0
    static let panelGap = 56.0
    static let bottom = 48.0

    package init(title: String, width: Double = 800, height: Double = 500, panels: [Panel]) {
        self.title = title
        self.width = width
        self.height = height
        self.panels = panels
    }

    /// The plotting area and scales of each panel.
    package func layout() -> [(
        panel: Panel, x: Scale, y: Scale, frame: (x: Double, y: Double, width: Double, height: Double)
    )] {
        let available = height - Self.top - Self.bottom - Self.panelGap * Double(max(panels.count - 1, 0))
        let total = panels.map(\.weight).reduce(0, +)
        var y = Self.top
        var result: [(panel: Panel, x: Scale, y: Scale, frame: (x: Double, y: Double, width: Double, height: Double))] =
            []
        for panel in panels {
            let panelHeight = available * panel.weight / (total > 0 ? total : 1)
            let frame = (x: Self.left, y: y, width: width - Self.left - Self.right, height: panelHeight)
            let xScale = Scale(
                panel.xKind, domain: Scale.niceDomain(panel.xKind, covering: panel.xValues), pixels: frame.x,
                frame.x + frame.width)
            let yScale = Scale(
                panel.yKind, domain: Scale.niceDomain(panel.yKind, covering: panel.yValues),
                pixels: frame.y + frame.height, frame.y)
            result.append((panel, xScale, yScale, frame))
            y += panelHeight + Self.panelGap
        }
        return result
    }

    /// The document: a standalone SVG file (`standalone`, with the XML
    /// declaration and namespace) or an element to put inside HTML.
    package func svg(standalone: Bool = true) -> String {
        var svg = SVGWriter()
        if standalone { svg.raw("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n") }
        let namespace = standalone ? " xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\"" : ""
        svg.raw(
            "<svg\(namespace) width=\"\(n(width))\" height=\"\(n(height))\" viewBox=\"0 0 \(n(width)) \(n(height))\" font-family=\"Helvetica, Arial, sans-serif\" font-size=\"12\">\n"
        )
        svg.element("title", text: title)
        svg.raw("<rect x=\"0\" y=\"0\" width=\"\(n(width))\" height=\"\(n(height))\" fill=\"white\"/>\n")
        svg.element(
            "text", ["x": n(width / 2), "y": "22", "text-anchor": "middle", "font-size": "15", "font-weight": "bold"],
            text: title)
        let colors = seriesColors()
        for (index, item) in layout().enumerated() {
            draw(item.panel, x: item.x, y: item.y, frame: item.frame, index: index, colors: colors, into: &svg)
        }
        svg.raw("</svg>\n")
        return svg.text
    }

    /// One colour per series name across every panel, so that a method has
    /// the same colour in each.
    func seriesColors() -> [String: String] {
        var colors: [String: String] = [:]
        var next = 0
        for panel in panels {
            for series in panel.series where colors[series.name] == nil {
                if let color = series.color {
                    colors[series.name] = color
                } else {
                    colors[series.name] = Self.palette[next % Self.palette.count]
                    next += 1
                }
            }
        }
        return colors
    }

    private func draw(
        _ panel: Panel, x: Scale, y: Scale, frame: (x: Double, y: Double, width: Double, height: Double), index: Int,
        colors: [String: String], into svg: inout SVGWriter
    ) {
        let clip = "panel\(index)"
        svg.raw("<g class=\"panel\" data-title=\"\(SVGWriter.escape(panel.title))\">\n")
        svg.raw(
            "<defs><clipPath id=\"\(clip)\"><rect x=\"\(n(frame.x))\" y=\"\(n(frame.y))\" width=\"\(n(frame.width))\" height=\"\(n(frame.height))\"/></clipPath></defs>\n"
        )
        drawAxes(panel, x: x, y: y, frame: frame, into: &svg)
        // Data, clipped to the plotting area.
        svg.raw("<g clip-path=\"url(#\(clip))\">\n")
        for (position, band) in panel.bands.enumerated() {
            let color = Self.palette[position % Self.palette.count]
            var outline: [String] = []
            // Along the upper curve, then back along the lower one.
            for point in band.points {
                if let px = x.pixel(point.x), let py = y.pixel(point.upper) { outline.append("\(n(px)),\(n(py))") }
            }
            for point in band.points.reversed() {
                if let px = x.pixel(point.x), let py = y.pixel(point.lower) { outline.append("\(n(px)),\(n(py))") }
            }
            svg.raw(
                "<g class=\"band\" data-name=\"\(SVGWriter.escape(band.name))\"><polygon points=\"\(outline.joined(separator: " "))\" fill=\"\(color)\" fill-opacity=\"0.2\" stroke=\"none\"/></g>\n"
            )
        }
        for rule in panel.rules {
            guard let py = y.pixel(rule.y) else { continue }
            svg.raw(
                "<g class=\"rule\" data-name=\"\(SVGWriter.escape(rule.label))\"><line x1=\"\(n(frame.x))\" y1=\"\(n(py))\" x2=\"\(n(frame.x + frame.width))\" y2=\"\(n(py))\" stroke=\"#555\" stroke-dasharray=\"6 4\"/>"
            )
            svg.element(
                "text", ["x": n(frame.x + 6), "y": n(py - 4), "fill": "#555"], text: rule.label, newline: false)
            svg.raw("</g>\n")
        }
        for series in panel.series { draw(series, x: x, y: y, colors: colors, into: &svg) }
        svg.raw("</g>\n")
        drawLegend(panel, frame: frame, colors: colors, into: &svg)
        svg.raw("</g>\n")
    }

    /// The panel's grid, ticks, frame, title and axis labels.
    private func drawAxes(
        _ panel: Panel, x: Scale, y: Scale, frame: (x: Double, y: Double, width: Double, height: Double),
        into svg: inout SVGWriter
    ) {
        for tick in x.ticks {
            guard let px = x.pixel(tick) else { continue }
            svg.raw(
                "<line x1=\"\(n(px))\" y1=\"\(n(frame.y))\" x2=\"\(n(px))\" y2=\"\(n(frame.y + frame.height))\" stroke=\"#e6e6e6\"/>\n"
            )
            svg.element(
                "text", ["x": n(px), "y": n(frame.y + frame.height + 16), "text-anchor": "middle", "class": "tick"],
                text: x.label(tick))
        }
        for tick in y.ticks {
            guard let py = y.pixel(tick) else { continue }
            svg.raw(
                "<line x1=\"\(n(frame.x))\" y1=\"\(n(py))\" x2=\"\(n(frame.x + frame.width))\" y2=\"\(n(py))\" stroke=\"#e6e6e6\"/>\n"
            )
            svg.element(
                "text", ["x": n(frame.x - 6), "y": n(py + 4), "text-anchor": "end", "class": "tick"],
                text: y.label(tick))
        }
        svg.raw(
            "<rect x=\"\(n(frame.x))\" y=\"\(n(frame.y))\" width=\"\(n(frame.width))\" height=\"\(n(frame.height))\" fill=\"none\" stroke=\"#444\"/>\n"
        )
        if !panel.title.isEmpty {
            svg.element("text", ["x": n(frame.x), "y": n(frame.y - 8), "font-weight": "bold"], text: panel.title)
        }
        svg.element(
            "text", ["x": n(frame.x + frame.width / 2), "y": n(frame.y + frame.height + 34), "text-anchor": "middle"],
            text: panel.xLabel)
        let yMiddle = frame.y + frame.height / 2
        svg.element(
            "text",
            ["x": n(18), "y": n(yMiddle), "text-anchor": "middle", "transform": "rotate(-90 18 \(n(yMiddle)))"],
            text: panel.yLabel)
    }

    /// One series: its polylines (one per run of drawable points) and its
    /// markers.
    private func draw(
        _ series: Series, x: Scale, y: Scale, colors: [String: String], into svg: inout SVGWriter
    ) {
        let color = colors[series.name] ?? Self.palette[0]
        svg.raw(
            "<g class=\"series\" data-name=\"\(SVGWriter.escape(series.name))\" stroke=\"\(color)\" fill=\"\(color)\">\n"
        )
        if series.style != .markers {
            // One polyline per run of drawable points.
            var run: [String] = []
            func flush() {
                if run.count > 1 {
                    let dash = series.style == .dashed ? " stroke-dasharray=\"5 3\"" : ""
                    svg.raw(
                        "<polyline points=\"\(run.joined(separator: " "))\" fill=\"none\" stroke-width=\"1.6\"\(dash)/>\n"
                    )
                }
                run.removeAll()
            }
            for point in series.points {
                if let px = x.pixel(point.x), let py = y.pixel(point.y) {
                    run.append("\(n(px)),\(n(py))")
                } else {
                    flush()
                }
            }
            flush()
        }
        if series.style == .markers || series.style == .lineAndMarkers {
            for point in series.points {
                guard let px = x.pixel(point.x), let py = y.pixel(point.y) else { continue }
                svg.raw("<circle cx=\"\(n(px))\" cy=\"\(n(py))\" r=\"2.5\" stroke=\"none\"/>\n")
            }
        }
        svg.raw("</g>\n")
    }

    private func drawLegend(
        _ panel: Panel, frame: (x: Double, y: Double, width: Double, height: Double), colors: [String: String],
        into svg: inout SVGWriter
    ) {
        let entries = panel.series.map(\.name) + panel.bands.map(\.name)
        guard !entries.isEmpty else { return }
        let longest = entries.map(\.count).max() ?? 0
        let boxWidth = 34 + Double(longest) * 6.6
        let boxHeight = 8 + 16 * Double(entries.count)
        let left = frame.x + frame.width - boxWidth - 8
        let top = frame.y + 8
        svg.raw(
            "<g class=\"legend\"><rect x=\"\(n(left))\" y=\"\(n(top))\" width=\"\(n(boxWidth))\" height=\"\(n(boxHeight))\" fill=\"white\" fill-opacity=\"0.85\" stroke=\"#bbb\"/>\n"
        )
        for (index, name) in entries.enumerated() {
            let color =
                index < panel.series.count
                ? colors[name] ?? Self.palette[0] : Self.palette[(index - panel.series.count) % Self.palette.count]
            let rowY = top + 14 + 16 * Double(index)
            svg.raw(
                "<line x1=\"\(n(left + 6))\" y1=\"\(n(rowY - 4))\" x2=\"\(n(left + 26))\" y2=\"\(n(rowY - 4))\" stroke=\"\(color)\" stroke-width=\"3\"/>"
            )
            svg.element("text", ["x": n(left + 30), "y": n(rowY)], text: name)
        }
        svg.raw("</g>\n")
    }
}

/// Coordinates with two decimals: enough for pixels, short in the file.
func n(_ value: Double) -> String {
    var text = String(format: "%.2f", value)
    while text.hasSuffix("0") { text.removeLast() }
    if text.hasSuffix(".") { text.removeLast() }
    return text == "-0" ? "0" : text
}

/// Builds SVG text with its special characters escaped.
struct SVGWriter {
    private(set) var text = ""

    mutating func raw(_ string: String) { text += string }

    mutating func element(
        _ name: String, _ attributes: [String: String] = [:], text content: String, newline: Bool = true
    ) {
        let attributeText = attributes.keys.sorted().map { " \($0)=\"\(Self.escape(attributes[$0]!))\"" }.joined()
        text += "<\(name)\(attributeText)>\(Self.escape(content))</\(name)>" + (newline ? "\n" : "")
    }

    /// `&`, `<`, `>` and `"` as entities.
    static func escape(_ string: String) -> String {
        var result = ""
        for character in string {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            default: result.append(character)
            }
        }
        return result
    }
}
