import Foundation

/// Writes text to standard output in large chunks.
struct StandardOutput {
    private var buffer = ""

    /// Appends `text` and a newline, flushing every 64 KiB.
    init() {}

    mutating func line(_ text: String) {
        buffer += text
        buffer += "\n"
        if buffer.utf8.count >= 1 << 16 { flush() }
    }

    /// Writes what is buffered.
    mutating func flush() {
        guard !buffer.isEmpty else { return }
        FileHandle.standardOutput.write(Data(buffer.utf8))
        buffer = ""
    }
}

/// Encodes `value` as JSON with sorted keys; numbers read back to the same
/// double; non-finite numbers become the strings "inf", "-inf" and "nan".
func jsonText<T: Encodable>(_ value: T, pretty: Bool = false) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = pretty ? [.sortedKeys, .prettyPrinted] : [.sortedKeys]
    encoder.nonConformingFloatEncodingStrategy = .convertToString(
        positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
    return String(decoding: try encoder.encode(value), as: UTF8.self)
}
