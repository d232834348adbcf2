/// A key made once from a string and used for many adds, as a selector or
/// an interned string is: the part of the key's hash that does not depend
/// on the target is computed when the key is made, not at every add.
///
/// An animation key is its ``name`` in every rule of string keys: adding
/// under `AnimationKey("x")` replaces an animation added under `"x"` and
/// the other way round, `animation(forKey:on:)` and
/// `removeAnimation(forKey:on:)` take either, and ``Animator/keys(on:)``
/// lists the name. Two keys are equal when their names are (canonical
/// equivalence, as `String`'s `==`).
///
/// ```swift
/// let opacity = AnimationKey("opacity")
/// for layer in layers {
///     try animator.add(.spring(to: 1), to: layer.opacity, forKey: opacity)
/// }
/// ```
public struct AnimationKey: Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The string this key stands for.
    public let name: String
    // The key's ``KeyHash/Prefix``, as two plain numbers (a count of -1 for
    // none): with an optional among its stored properties, a copy of the
    // key outside this module is destroyed through the key's metadata.
    private let prefixState: UInt64
    private let prefixCount: Int

    /// The key's part of its hash; nil when its hash mixes the target in
    /// from the start (``KeyHash``).
    var prefix: KeyHash.Prefix? {
        prefixCount < 0 ? nil : KeyHash.Prefix(state: prefixState, count: prefixCount)
    }

    /// The key for `name`.
    public init(_ name: String) {
        self.name = name
        let prefix = KeyHash.shared.prefix(name)
        prefixState = prefix?.state ?? 0
        prefixCount = prefix?.count ?? -1
    }

    /// The key for a string literal.
    public init(stringLiteral name: String) {
        self.init(name)
    }

    /// The key's name.
    public var description: String { name }

    /// Whether the two keys' names are equal.
    public static func == (lhs: AnimationKey, rhs: AnimationKey) -> Bool { lhs.name == rhs.name }

    /// Hashes the key's name.
    public func hash(into hasher: inout Hasher) { hasher.combine(name) }
}
