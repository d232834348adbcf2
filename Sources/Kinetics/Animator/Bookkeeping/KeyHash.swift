/// The key registry's hash of a key on a target: equal for keys that `==`
/// calls equal, and cheap for the keys animations have in practice, ASCII
/// strings.
///
/// `Hasher` (SipHash-1-3 over the key's normalised bytes) is several times
/// dearer than a replacement can afford per key (docs/performance.md, "Key
/// hashing", has the counts). This hash reads an ASCII key eight bytes at a
/// time, each word folded in with one full-width multiplication, so that
/// most of its work is reaching the string's bytes.
///
/// `==` on strings is canonical equivalence, so equal keys may differ in
/// their bytes. Keys whose canonical decomposition is all ASCII are hashed
/// as that ASCII: besides ASCII itself, they are the keys that also hold one
/// of the three characters whose decomposition is an ASCII character
/// (U+037E to ";", U+1FEF to "`", U+212A to "K"; no other code point of
/// Unicode 14 decomposes to ASCII alone). Any other key holds a character
/// that stays non-ASCII in every equivalent string, and is hashed by
/// `Hasher`, which hashes the normal form, so equal keys meet there too.
///
/// Seeded per process from `Hasher`'s own seed (fixed when
/// `SWIFT_DETERMINISTIC_HASHING` is set), so the table's order is not the
/// same from run to run, like a dictionary's.
struct KeyHash: Sendable {
    private let seed: UInt64

    /// The one every registry and every ``AnimationKey`` uses, so that a
    /// key's ``Prefix`` made once serves every animator of the process.
    static let shared = KeyHash()

    private init() {
        var hasher = Hasher()
        hasher.combine(0x6B65_7973 as UInt64)
        seed = UInt64(truncatingIfNeeded: hasher.finalize())
    }

    /// What the hash of a key whose canonical decomposition is ASCII owes
    /// to the key alone: the state after its bytes, and their count. The
    /// target is folded in by `callAsFunction(_:_:)` with the prefix.
    struct Prefix: Sendable {
        let state: UInt64
        let count: Int
    }

    /// The key's ``Prefix``; nil for a key hashed by `Hasher` (one with a
    /// character that no ASCII string is equivalent to), whose hash mixes
    /// the target in from the start.
    @inline(__always)
    func prefix(_ key: String) -> Prefix? {
        let ascii = key.utf8.withContiguousStorageIfAvailable { bytes in
            asciiState(UnsafeRawBufferPointer(bytes)).map { Prefix(state: $0, count: bytes.count) }
        }
        return (ascii ?? nil) ?? scalarsPrefix(key)
    }

    /// The ``Prefix`` of the key whose bytes are `bytes`, all ASCII (the
    /// same as ``prefix(_:)`` of that key as a string).
    @inline(__always)
    func prefix(ascii bytes: UnsafeRawBufferPointer) -> Prefix {
        guard let state = asciiState(bytes) else { preconditionFailure("the key's bytes are not ASCII") }
        return Prefix(state: state, count: bytes.count)
    }

    /// The hash of a key on `target`, from the key's ``Prefix``.
    @inline(__always)
    func callAsFunction(_ target: TargetID, _ prefix: Prefix) -> Int {
        finish(prefix.state, count: prefix.count, target)
    }

    private static let wordMultiplier: UInt64 = 0x9E37_79B9_7F4A_7C15
    private static let endMultiplier: UInt64 = 0xBF58_476D_1CE4_E5B9
    private static let targetMultiplier: UInt64 = 0x94D0_49BB_1331_11EB

    /// The high and low halves of a full-width product, folded together.
    @inline(__always)
    private static func fold(_ a: UInt64, _ b: UInt64) -> UInt64 {
        let (high, low) = a.multipliedFullWidth(by: b)
        return high ^ low
    }

    /// The hash of `key` on `target`.
    func callAsFunction(_ target: TargetID, _ key: String) -> Int {
        if let prefix = prefix(key) { return self(target, prefix) }
        var hasher = Hasher()
        hasher.combine(target)
        hasher.combine(key)
        return hasher.finalize()
    }

    /// The state after the whole words of an ASCII key and its last partial
    /// word, or nil if a byte is not ASCII.
    @inline(__always)
    private func asciiState(_ bytes: UnsafeRawBufferPointer) -> UInt64? {
        var state = seed
        var seen: UInt64 = 0
        var offset = 0
        while offset + 8 <= bytes.count {
            let word = bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            seen |= word
            state = Self.fold(state ^ UInt64(littleEndian: word), Self.wordMultiplier)
            offset += 8
        }
        if offset < bytes.count {
            // The last 1-7 bytes, little-endian, in at most three loads.
            var word: UInt64 = 0
            var shift: UInt64 = 0
            if bytes.count - offset >= 4 {
                word = UInt64(UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self)))
                shift = 32
                offset += 4
            }
            if bytes.count - offset >= 2 {
                let pair = UInt16(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt16.self))
                word |= UInt64(pair) &<< shift
                shift += 16
                offset += 2
            }
            if offset < bytes.count { word |= UInt64(bytes[offset]) &<< shift }
            seen |= word
            state = Self.fold(state ^ word, Self.wordMultiplier)
        }
        return seen & 0x8080_8080_8080_8080 == 0 ? state : nil
    }

    /// Any key, scalar by scalar: the three characters that decompose to
    /// ASCII are read as that ASCII, so the prefix is the one their ASCII
    /// equivalent has; nil for a key with any other non-ASCII character
    /// (it goes to `Hasher`).
    private func scalarsPrefix(_ key: String) -> Prefix? {
        var state = seed
        var word: UInt64 = 0
        var shift: UInt64 = 0
        var count = 0
        for scalar in key.unicodeScalars {
            let byte: UInt64
            switch scalar.value {
            case 0 ..< 0x80: byte = UInt64(scalar.value)
            case 0x037E: byte = 0x3B  // ";"
            case 0x1FEF: byte = 0x60  // "`"
            case 0x212A: byte = 0x4B  // "K"
            default: return nil
            }
            word |= byte &<< shift
            shift += 8
            count += 1
            if shift == 64 {
                state = Self.fold(state ^ word, Self.wordMultiplier)
                word = 0
                shift = 0
            }
        }
        if shift > 0 { state = Self.fold(state ^ word, Self.wordMultiplier) }
        return Prefix(state: state, count: count)
    }

    /// Folds in the length (so that trailing zero bytes count) and the target.
    @inline(__always)
    private func finish(_ state: UInt64, count: Int, _ target: TargetID) -> Int {
        let sized = Self.fold(state ^ UInt64(count), Self.endMultiplier)
        return Int(truncatingIfNeeded: Self.fold(sized ^ target.rawValue, Self.targetMultiplier))
    }
}
