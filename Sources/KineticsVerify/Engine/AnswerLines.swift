#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Splits an engine's output into answer lines as its bytes arrive, and
/// refuses a line as soon as it is longer than any answer to the cases
/// asked can be (``EngineAnswers/lineLimit``): an engine that writes one
/// endless line costs the reader that limit, not the line.
///
/// The same reader serves the process route (`--engine-command`, chunks
/// from the pipe) and the file route (`--results`, chunks of the file).
package struct AnswerLines: Sendable {
    /// The longest line taken, in bytes, without its newline.
    package let limit: Int
    /// The lines completed so far.
    package private(set) var count = 0
    private var pending: [UInt8] = []

    /// A reader that refuses lines over `limit` bytes.
    package init(limit: Int) {
        self.limit = limit
    }

    /// Takes the next bytes of the output and hands every line they
    /// complete to `take`, with its 1-based number.
    ///
    /// The bytes are searched with `memchr` and copied whole: a debug
    /// build's generic collection code allocates for each byte it reads.
    ///
    /// - Throws: ``EngineFault`` (`badAnswer`) for a line over the limit,
    ///   at once (the rest of it is not kept), or what `take` throws.
    package mutating func append(
        _ bytes: UnsafeRawBufferPointer, to take: (String, Int) throws(EngineFault) -> Void
    ) throws(EngineFault) {
        guard var start = bytes.baseAddress else { return }
        let end = start + bytes.count
        while let found = memchr(start, Int32(UInt8(ascii: "\n")), end - start) {
            let newline = UnsafeRawPointer(found)
            try keep(UnsafeRawBufferPointer(start: start, count: newline - start))
            count += 1
            let line = String(decoding: pending, as: UTF8.self)
            pending.removeAll(keepingCapacity: true)
            try take(line, count)
            start = newline + 1
        }
        try keep(UnsafeRawBufferPointer(start: start, count: end - start))
    }

    /// Ends the output: a last line without a newline is handed to `take`.
    package mutating func finish(to take: (String, Int) throws(EngineFault) -> Void) throws(EngineFault) {
        guard !pending.isEmpty else { return }
        count += 1
        let line = String(decoding: pending, as: UTF8.self)
        pending = []
        try take(line, count)
    }

    private mutating func keep(_ bytes: UnsafeRawBufferPointer) throws(EngineFault) {
        guard pending.count + bytes.count <= limit else {
            throw EngineFault(
                .badAnswer,
                "line \(count + 1) of the engine's output is longer than any answer to these cases can be (over \(limit) bytes); it was refused there, the rest not read"
            )
        }
        pending.append(contentsOf: bytes)
    }
}

extension EngineAnswers {
    /// Bytes allowed for one number on an answer line, with its separator
    /// and spaces: a double printed to round-trip takes at most 24.
    static let bytesPerNumber = 64
    /// Bytes allowed on a line besides its numbers: the keys, the id, an
    /// error's message.
    static let lineOverhead = 64 << 10

    /// The longest line an answer to these cases can need: the case with
    /// the most values, each value and velocity at ``bytesPerNumber``, and
    /// ``lineOverhead``. A line over it cannot be a valid answer, so it is
    /// refused before it is read to its end.
    package var lineLimit: Int { maximumCount * 2 * Self.bytesPerNumber + Self.lineOverhead }
}
