import CSV
import Foundation

/// What is wrong with a CSV file, and on which line (1 is the header).
package struct CSVTableError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The line, or nil for the file as a whole.
    package let line: Int?
    /// What is wrong.
    package let message: String

    /// An error on `line` (nil: the file as a whole).
    package init(line: Int?, message: String) {
        self.line = line
        self.message = message
    }

    /// `line 7: has 3 fields; the header has 2`.
    package var description: String { (line.map { "line \($0)" } ?? "the file") + ": " + message }
}

/// A CSV file as users write it: read by yaslab/CSV.swift, which takes
/// LF or CRLF line ends, a UTF-8 byte-order mark, quoted fields (with commas,
/// quotes and line breaks inside) and a missing final newline; fields are
/// trimmed of spaces and tabs.
package struct CSVTable: Sendable {
    /// One row after the header, with the line it starts on.
    package struct Row: Sendable {
        /// The line the row starts on in the file (1 is the header).
        package let line: Int
        /// The row's fields, as many as the header's.
        package let fields: [String]
    }

    /// The header's fields, trimmed.
    package let header: [String]
    /// The rows after the header; blank lines are skipped.
    package let rows: [Row]

    /// Reads `data`, at most `maximumRows` rows after the header.
    ///
    /// - Throws: ``CSVTableError``: text that is not UTF-8, no header, a row
    ///   whose field count differs from the header's, too many rows.
    package static func parse(_ data: Data, maximumRows: Int) throws(CSVTableError) -> CSVTable {
        let reader: CSVReader
        do {
            reader = try CSVReader(stream: InputStream(data: data), hasHeaderRow: false, trimFields: true)
        } catch {
            throw CSVTableError(line: nil, message: "cannot be read as CSV (\(error))")
        }
        var header: [String]?
        var rows: [Row] = []
        var line = 1
        while let fields = reader.next() {
            let start = line
            // The row's own line break, and those inside its quoted fields.
            line += 1 + fields.reduce(0) { $0 + lineBreaks($1) }
            if fields.allSatisfy(\.isEmpty) { continue }
            guard let names = header else {
                header = fields
                continue
            }
            guard fields.count == names.count else {
                throw CSVTableError(line: start, message: "has \(fields.count) fields; the header has \(names.count)")
            }
            guard rows.count < maximumRows else {
                throw CSVTableError(
                    line: start, message: "more than \(maximumRows) rows; a file has at most \(maximumRows)")
            }
            rows.append(Row(line: start, fields: fields))
        }
        if let error = reader.error {
            throw CSVTableError(line: line, message: "is not UTF-8 text (\(error))")
        }
        guard let header else { throw CSVTableError(line: nil, message: "is empty") }
        return CSVTable(header: header, rows: rows)
    }

    /// The line breaks in a quoted field: LF, CR LF and a lone CR each count one.
    static func lineBreaks(_ field: String) -> Int {
        var count = 0
        var afterCarriageReturn = false
        for scalar in field.unicodeScalars {
            if scalar == "\r" {
                count += 1
            } else if scalar == "\n" && !afterCarriageReturn {
                count += 1
            }
            afterCarriageReturn = scalar == "\r"
        }
        return count
    }
}
