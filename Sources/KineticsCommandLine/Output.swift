import Foundation

/// Writes text to standard output in large chunks; a failed write is
/// exit 73 (``writeStandardOutput(_:)``).
struct StandardOutput {
    private var buffer = ""

    init() {}

    /// Appends `text` and a newline, writing every 64 KiB.
    mutating func line(_ text: String) throws {
        try write(text)
        try write("\n")
    }

    /// Appends `text`, writing every 64 KiB.
    mutating func write(_ text: String) throws {
        buffer += text
        if buffer.utf8.count >= 1 << 16 { try flush() }
    }

    /// Writes what is buffered.
    mutating func flush() throws {
        guard !buffer.isEmpty else { return }
        let text = buffer
        buffer = ""
        try writeStandardOutput(text)
    }
}

/// Encodes `value` as JSON with sorted keys; numbers read back to the same
/// double; non-finite numbers become the strings "inf", "-inf" and "nan".
func jsonText<T: Encodable>(_ value: T, pretty: Bool = false) throws -> String {
    String(decoding: try jsonEncoder(pretty: pretty).encode(value), as: UTF8.self)
}

/// The encoder of ``jsonText(_:pretty:)``, for a caller that encodes many values.
func jsonEncoder(pretty: Bool = false) -> JSONEncoder {
    let encoder = JSONEncoder()
    encoder.outputFormatting = pretty ? [.sortedKeys, .prettyPrinted] : [.sortedKeys]
    encoder.nonConformingFloatEncodingStrategy = .convertToString(
        positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
    return encoder
}
