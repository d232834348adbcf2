import Foundation

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// What a Kinetics SVG figure draws, read back with an XML parser: each
/// series by name (the `data-name` of its group), the pixels of its line
/// and of its markers, and the rules' labels.
public final class SVGSeries: NSObject, XMLParserDelegate {
    /// The series' names in document order (a name drawn in two panels
    /// appears twice).
    public private(set) var names: [String] = []
    /// The points of each series' polylines, in pixels.
    public private(set) var lines: [String: [(x: Double, y: Double)]] = [:]
    /// The centres of each series' markers, in pixels.
    public private(set) var markers: [String: [(x: Double, y: Double)]] = [:]
    /// The rules' labels in document order.
    public private(set) var rules: [String] = []
    private var current: String?

    /// Reads `svg`; nil when it is not well-formed XML.
    public static func parse(_ svg: String) -> SVGSeries? {
        let collector = SVGSeries()
        let parser = XMLParser(data: Data(svg.utf8))
        parser.delegate = collector
        return parser.parse() ? collector : nil
    }

    public func parser(
        _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        switch name {
        case "g":
            if attributes["class"] == "series", let series = attributes["data-name"] {
                names.append(series)
                current = series
            }
            if attributes["class"] == "rule", let label = attributes["data-name"] { rules.append(label) }
        case "polyline":
            guard let current, let points = attributes["points"] else { return }
            for pair in points.split(separator: " ") {
                let xy = pair.split(separator: ",").compactMap { Double($0) }
                lines[current, default: []].append((xy[0], xy[1]))
            }
        case "circle":
            guard let current, let x = attributes["cx"].flatMap(Double.init),
                let y = attributes["cy"].flatMap(Double.init)
            else { return }
            markers[current, default: []].append((x, y))
        default:
            break
        }
    }

    public func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        if name == "g" { current = nil }
    }
}
