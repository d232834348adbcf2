/// The key an animation added without one runs under: `animation-N`, N the
/// count of animations the animator made before it (a group's children
/// count), so that it can be listed, found and removed like any other (Pop
/// names such an animation too, with a UUID string).
///
/// The registry keeps N, not the string: it hashes and compares the name's
/// bytes, written on the stack, and makes the string only when it is asked
/// for (``Animator/keys(on:)``, a trace event). Made as a string at every
/// add (an interpolation), the name cost an add without a key about 490
/// instructions more than one under a string, and from `animation-100000`
/// on (past 15 bytes, a string's inline room) an allocation too, about
/// 1,050 more.
enum GeneratedKey {
    /// The name's bytes before the number.
    private static let prefix: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) = (
        0x61, 0x6E, 0x69, 0x6D, 0x61, 0x74, 0x69, 0x6F, 0x6E, 0x2D  // "animation-"
    )
    private static let prefixCount = 10
    /// The prefix and the 20 digits of the largest `UInt64`, rounded up.
    private static let capacity = 32

    /// Calls `body` with the ASCII bytes of the name for `number`.
    @inline(__always)
    static func withName<Result>(_ number: UInt64, _ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { buffer in
            let base = buffer.baseAddress!
            // The digits from the end, two at a time, then the prefix
            // before them.
            var start = capacity
            var rest = number
            while rest >= 100 {
                start &-= 2
                writePair(rest % 100, at: base + start)
                rest /= 100
            }
            if rest >= 10 {
                start &-= 2
                writePair(rest, at: base + start)
            } else {
                start &-= 1
                base[start] = 0x30 &+ UInt8(truncatingIfNeeded: rest)
            }
            start &-= prefixCount
            withUnsafeBytes(of: prefix) { prefix in
                UnsafeMutableRawPointer(base + start).copyMemory(from: prefix.baseAddress!, byteCount: prefixCount)
            }
            return body(UnsafeRawBufferPointer(start: base + start, count: capacity &- start))
        }
    }

    /// Writes the two digits of `pair` (below 100) at `destination`, in one
    /// store.
    @inline(__always)
    private static func writePair(_ pair: UInt64, at destination: UnsafeMutablePointer<UInt8>) {
        let tens = pair / 10
        let digits = UInt16(truncatingIfNeeded: 0x3030 | tens | (pair &- tens &* 10) &<< 8)
        UnsafeMutableRawPointer(destination).storeBytes(of: digits.littleEndian, as: UInt16.self)
    }

    /// The name for `number`, as a string.
    static func name(_ number: UInt64) -> String {
        withName(number) { String(decoding: $0, as: UTF8.self) }
    }

    /// Whether `key` is the name for `number`, as `==` on strings would say.
    static func name(_ number: UInt64, is key: String) -> Bool {
        withName(number) { name in
            if key.utf8.elementsEqual(name) { return true }
            // A string that is not ASCII may still be canonically
            // equivalent to the name; `==` decides (rare: such a key's hash
            // met the name's).
            return !key.utf8.allSatisfy { $0 < 0x80 } && key == String(decoding: name, as: UTF8.self)
        }
    }
}
