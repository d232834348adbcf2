/// What an animator keeps for implicit animations: the open transactions and
/// keyframe blocks, and the callbacks held back until the outermost
/// implicit-layer operation returns.
struct ImplicitState {
    /// The open transactions, innermost last.
    var transactions: [Transaction] = []
    /// The keyframe blocks being captured, innermost last.
    var keyframeBlocks: [KeyframeBlock] = []
    /// How deep in implicit-layer operations the caller is.
    var depth = 0
    /// Transaction completions (and explicit animations' stop callbacks)
    /// held back until the outermost operation returns.
    var deferredCallbacks: [() -> Void] = []
}
