import Foundation
import Kinetics
import KineticsInput

/// A trace recorded from some animation engine: samples of a motion at the
/// engine's own frame times (spring or decay: `time,value[,velocity]`), or
/// of a timing curve (bezier: `x,y`).
public struct MotionTrace: Sendable, Equatable {
    /// One sample. For a curve, `time` holds x and `value` holds y.
    public struct Sample: Sendable, Equatable {
        public var time: Double
        public var value: Double
        public var velocity: Double?

        /// A sample at `time` (seconds, or x for a curve).
        public init(time: Double, value: Double, velocity: Double? = nil) {
            self.time = time
            self.value = value
            self.velocity = velocity
        }
    }

    /// The samples, in the file's order.
    public var samples: [Sample]

    /// The step of the times as the file printed them, in seconds (x for a
    /// curve): `1e-6` s for seconds to six decimals, and for milliseconds to
    /// three decimals also `1e-6` s, which the times read as seconds no
    /// longer show (16.667 / 1000 is 0.016666999999999998). Nil for a trace
    /// not read from a file: its times' own digits are then its step. 0 for
    /// times that are the engine's own clock exactly (`--exact-times`).
    public var timeStep: Double?

    /// A trace of `samples`, whose times were printed to `timeStep`.
    public init(samples: [Sample], timeStep: Double? = nil) {
        self.samples = samples
        self.timeStep = timeStep
    }

    /// The sample times (x for a curve).
    public var times: [Double] { samples.map(\.time) }
    /// The sample values (y for a curve).
    public var values: [Double] { samples.map(\.value) }
}

/// What is wrong with a trace file, and where: the line of a CSV file (1 is
/// the header), or the index of a JSON array element.
public struct TraceError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Where: `line 7`, `sample 3`, or `the file`.
    public let location: String
    /// What is wrong.
    public let message: String

    /// An error at `location`.
    public init(_ location: String, _ message: String) {
        self.location = location
        self.message = message
    }

    /// `line 7: time 0.1 is not after the previous time 0.1`.
    public var description: String { "\(location): \(message)" }
}

/// The columns a trace has.
public enum TraceColumns: Sendable {
    /// `time,value` and an optional `velocity` (springs and decays).
    case motion
    /// `x,y` (timing curves).
    case curve

    var names: (first: String, second: String) {
        switch self {
        case .motion: ("time", "value")
        case .curve: ("x", "y")
        }
    }
}

extension MotionTrace {
    /// The largest trace read, in samples.
    public static let maximumSamples = maximumFrameCount

    /// The latest time a motion's trace may hold, in seconds: an hour. An
    /// animation's motion lasts seconds, and the reference integrates up
    /// to the last time, at a cost that grows with it (a time of 1e9 s ran
    /// GSL's driver for seconds before it gave up).
    public static let maximumTime = 3_600.0

    /// The most memory a comparison takes a sample, in bytes, reading the
    /// trace included (the candidates are replayed one at a time): a
    /// million samples of CSV (a 49 MB file) took 462 MB in all, 600,000
    /// of JSON (47 MB) 355 MB.
    public static let memoryPerSample = 800

    /// The memory a comparison of the trace in `data` may need: the bytes
    /// themselves, and ``memoryPerSample`` for each row or object it may
    /// hold (its line breaks and opening braces, counted before it is
    /// parsed), with the number of those.
    public static func memoryNeeded(_ data: Data) -> (samples: Int, bytes: Int) {
        let rows = data.withUnsafeBytes { bytes in
            // Line feeds (0x0A) and opening braces (0x7B).
            bytes.reduce(1) { $0 + ($1 == 0x0A || $1 == 0x7B ? 1 : 0) }
        }
        return (rows, data.count + rows * memoryPerSample)
    }

    /// Reads a trace: CSV with a header naming its columns (in any order;
    /// other columns are ignored), or a JSON array of objects with those
    /// keys. Times (x for a curve) are divided by `timeDivisor` (1 for
    /// seconds, 1000 for milliseconds); velocities are multiplied by
    /// `velocityScale` (1 for units per second, 1000 for units per millisecond).
    ///
    /// A motion's times must be finite, in [0, ``maximumTime``] seconds
    /// and strictly increasing, and its velocities finite in units per
    /// second; a curve's x must be in [0, 1]. At least two samples.
    ///
    /// - Throws: ``TraceError`` naming the line (CSV) or the sample (JSON).
    public static func parse(
        _ data: Data, columns: TraceColumns, timeDivisor: Double = 1, velocityScale: Double = 1
    ) throws(TraceError) -> MotionTrace {
        var samples: [Sample] = []
        var locations: [String] = []
        try checkText(data)
        // A UTF-8 byte-order mark and leading white space before JSON's '['.
        let start = data.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        let opening = data.dropFirst(start).first(where: { !" \t\r\n".utf8.contains($0) })
        if opening == UInt8(ascii: "{") {
            throw TraceError(
                "the file",
                "is a JSON object; a trace in JSON is an array of samples, [{\"\(columns.names.first)\": 0, \"\(columns.names.second)\": 0}, …]"
            )
        }
        if opening == UInt8(ascii: "[") {
            try readJSON(
                Data(data.dropFirst(start)), columns: columns, velocityScale: velocityScale, into: &samples,
                locations: &locations)
        } else {
            try readCSV(data, columns: columns, velocityScale: velocityScale, into: &samples, locations: &locations)
        }
        // The step of the times as printed, then the times in seconds.
        var printedStep = Double.infinity
        for index in samples.indices {
            if samples[index].time != 0 { printedStep = min(printedStep, DecimalForm(samples[index].time).lastDigit) }
            samples[index].time /= timeDivisor
        }
        guard samples.count >= 2 else {
            throw TraceError("the file", "has \(samples.count) samples; a trace needs at least 2")
        }
        for index in samples.indices {
            let sample = samples[index]
            switch columns {
            case .motion:
                guard sample.time >= 0 else { throw TraceError(locations[index], "time \(sample.time) is negative") }
                guard sample.time <= maximumTime else {
                    throw TraceError(
                        locations[index],
                        "time \(sample.time) s is past \(Int(maximumTime)) s, the latest a trace may hold (times in milliseconds need --time-unit ms)"
                    )
                }
                if let velocity = sample.velocity, !velocity.isFinite {
                    throw TraceError(
                        locations[index],
                        "velocity \(velocity) in units per second is not finite (the value read times \(velocityScale), its unit)"
                    )
                }
                if index > 0 && !(sample.time > samples[index - 1].time) {
                    throw TraceError(
                        locations[index],
                        "time \(sample.time) is not after the previous time \(samples[index - 1].time)")
                }
            case .curve:
                guard (0 ... 1).contains(sample.time) else {
                    throw TraceError(locations[index], "x \(sample.time) is outside [0, 1]")
                }
            }
        }
        return MotionTrace(samples: samples, timeStep: printedStep.isFinite ? printedStep / timeDivisor : nil)
    }

    /// A trace is UTF-8 text: UTF-16 (what some Windows tools save) and
    /// binary files are refused as such, not by the CSV errors they would
    /// otherwise make.
    private static func checkText(_ data: Data) throws(TraceError) {
        if data.starts(with: [0xFF, 0xFE]) || data.starts(with: [0xFE, 0xFF]) {
            throw TraceError("the file", "is UTF-16 text (it starts with UTF-16's byte-order mark); save it as UTF-8")
        }
        if let zero = data.firstIndex(of: 0) {
            let offset = zero - data.startIndex
            throw TraceError(
                "the file",
                "holds a NUL byte at byte \(offset): not UTF-8 text (UTF-16 without a byte-order mark, or a binary file)"
            )
        }
        var bytes = data.makeIterator()
        var decoder = UTF8()
        var scalars = 0
        while true {
            switch decoder.decode(&bytes) {
            case .scalarValue: scalars += 1
            case .emptyInput: return
            case .error: throw TraceError("the file", "is not UTF-8 text (an invalid byte after \(scalars) characters)")
            }
        }
    }

    private static func number(_ field: String, _ name: String, _ location: String) throws(TraceError) -> Double {
        guard let value = Double(field) else {
            throw TraceError(location, "\(name) '\(clippedInput(field))' is not a number")
        }
        guard value.isFinite else { throw TraceError(location, "\(name) \(field) is not finite") }
        return value
    }

    private static func readCSV(
        _ data: Data, columns: TraceColumns, velocityScale: Double, into samples: inout [Sample],
        locations: inout [String]
    ) throws(TraceError) {
        let table: CSVTable
        do {
            table = try CSVTable.parse(data, maximumRows: maximumSamples)
        } catch {
            throw TraceError(error.line.map { "line \($0)" } ?? "the file", error.message)
        }
        let names = table.header.map { $0.lowercased() }
        let (first, second) = columns.names
        guard let firstColumn = names.firstIndex(of: first), let secondColumn = names.firstIndex(of: second) else {
            throw TraceError(
                "line 1",
                "the header must name the columns \(first) and \(second), got '\(clippedInput(table.header.joined(separator: ",")))'"
            )
        }
        for name in [first, second, "velocity"] where names.filter({ $0 == name }).count > 1 {
            throw TraceError("line 1", "the header names the column \(name) more than once")
        }
        let velocityColumn = columns == .motion ? names.firstIndex(of: "velocity") : nil
        for row in table.rows {
            let location = "line \(row.line)"
            let time = try number(row.fields[firstColumn], first, location)
            let value = try number(row.fields[secondColumn], second, location)
            let velocity: Double? =
                if let velocityColumn { try number(row.fields[velocityColumn], "velocity", location) } else { nil }
            samples.append(Sample(time: time, value: value, velocity: velocity.map { $0 * velocityScale }))
            locations.append(location)
        }
    }

    private static func readJSON(
        _ data: Data, columns: TraceColumns, velocityScale: Double, into samples: inout [Sample],
        locations: inout [String]
    ) throws(TraceError) {
        struct Row: Decodable {
            let values: [String: Double?]
            init(from decoder: any Decoder) throws {
                values = try decoder.singleValueContainer().decode([String: Double?].self)
            }
        }
        if let problem = JSONInput.problem(in: data) { throw TraceError("the file", problem) }
        let rows: [Row]
        do {
            rows = try JSONDecoder().decode([Row].self, from: data)
        } catch {
            let at =
                (error as? DecodingError).map { error -> String in
                    switch error {
                    case .dataCorrupted(let context), .typeMismatch(_, let context), .valueNotFound(_, let context),
                        .keyNotFound(_, let context):
                        context.codingPath.first.flatMap(\.intValue).map { "sample \($0)" } ?? "the file"
                    @unknown default: "the file"
                    }
                } ?? "the file"
            throw TraceError(
                at, "not a JSON array of objects with numbers for \(columns.names.first) and \(columns.names.second)")
        }
        guard rows.count <= maximumSamples else {
            throw TraceError("the file", "has \(rows.count) samples; a trace has at most \(maximumSamples)")
        }
        let (first, second) = columns.names
        for (index, row) in rows.enumerated() {
            let location = "sample \(index)"
            guard let time = row.values[first] ?? nil, let value = row.values[second] ?? nil else {
                throw TraceError(location, "needs numbers for \(first) and \(second)")
            }
            guard time.isFinite && value.isFinite else {
                throw TraceError(location, "\(first) and \(second) must be finite")
            }
            let velocity = columns == .motion ? (row.values["velocity"] ?? nil) : nil
            if let velocity, !velocity.isFinite { throw TraceError(location, "velocity must be finite") }
            samples.append(
                Sample(time: time, value: value, velocity: velocity.map { $0 * velocityScale }))
            locations.append(location)
        }
    }
}
