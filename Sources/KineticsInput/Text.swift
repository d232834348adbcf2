import Foundation

/// The name this program was started under (`kinetics`, or a package's
/// own bench executable), which begins every line it writes to standard
/// error.
package let programName = URL(fileURLWithPath: CommandLine.arguments.first ?? "kinetics").lastPathComponent

/// Numbers in reports: `1.23e-04`.
package func scientific(_ value: Double) -> String { String(format: "%.2e", value) }

/// Numbers in reports with a fixed number of decimals.
package func fixed(_ value: Double, _ digits: Int) -> String { String(format: "%.\(digits)f", value) }

/// Numbers in reports with four significant digits.
package func short(_ value: Double) -> String { String(format: "%.4g", value) }

/// Numbers as the shortest text that reads back to the same double
/// (`0.1`, `1e-05`, `1.0`); `inf`, `-inf` and `nan` for the rest.
package func csvNumber(_ value: Double) -> String { value.description }

/// Text read from an input, as an error message quotes it: at most `limit`
/// characters (then "…" and how many were left out), control characters
/// and invalid bytes shown as escapes, so that a 64 MB line of NULs makes a
/// message of one short line.
package func clippedInput(_ text: some StringProtocol, limit: Int = 80) -> String {
    var shown = ""
    var count = 0
    for character in text {
        if count == limit {
            return shown + "… (\(text.count - limit) more characters)"
        }
        count += 1
        if character.isNewline
            || character.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
        {
            shown += character.unicodeScalars.map { $0.escaped(asASCII: true) }.joined()
        } else {
            shown.append(character)
        }
    }
    return shown
}

/// A CSV field, quoted when it holds a comma, a quote or a line break.
package func csvField(_ text: String) -> String {
    text.contains(where: { $0 == "," || $0 == "\"" || $0.isNewline })
        ? "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : text
}

/// The header and the rows as lines of columns two spaces apart, each
/// column as wide as its widest cell (the last one not padded).
package func aligned(_ header: [String], _ rows: [[String]]) -> [String] {
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
