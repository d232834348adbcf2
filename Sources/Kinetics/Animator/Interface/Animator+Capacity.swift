// Room made ahead of a burst of adds.

extension Animator {
    /// The most animations ``reserveCapacity(_:springsOf:method:settings:)``
    /// makes room for: an animator numbers its records in 32 bits.
    public static let maximumCapacity = Int(Int32.max)

    /// Makes room for `count` animations at once, any of them springs of
    /// `Value` stepped by `method`, and for `settings` new spring groups, so
    /// that adding them allocates nothing.
    ///
    /// After this, adding springs of `Value` and `method` that nothing
    /// observes and that start at once, on properties made before this
    /// call, under keys the caller made (``AnimationKey``s or strings) or
    /// none, allocates nothing until `count` animations run at once (the bench's
    /// burst scenario counts this: 0 allocations in a frame that adds 1,000
    /// springs to 10,000). Springs added in one tick with the same
    /// parameters and rest threshold share a group (``SpringMethod/pop`` and
    /// ``SpringMethod/fixed`` start new groups every tick, the others share
    /// them across ticks), and `settings` is how many new groups the room
    /// holds beyond those in use (at most `count`: a spring makes one group
    /// at most). Not covered: an animation that something observes (it
    /// makes an object, reused from a pool once one of its type has ended),
    /// the first key of a target, and a target's or property's first use.
    ///
    /// A `count` at or below what the animator has room for changes
    /// nothing, as for `Array.reserveCapacity`; the room stays until the
    /// animator goes.
    ///
    /// - Throws: ``ParameterError`` when `count` is outside
    ///   `0 ... maximumCapacity` or `settings` is negative.
    /// - Complexity: O(`count`) when it grows, else O(1).
    public func reserveCapacity<Value: AnimatableVector>(
        _ count: Int, springsOf type: Value.Type, method: SpringMethod = .pop, settings: Int = 16
    ) throws(ParameterError) {
        guard count >= 0 && count <= Self.maximumCapacity else {
            throw ParameterError(
                parameter: "count", value: Double(count), accepted: "an integer in 0 ... \(Self.maximumCapacity)")
        }
        guard settings >= 0 else {
            throw ParameterError(parameter: "settings", value: Double(settings), accepted: "an integer >= 0")
        }
        precondition(state.phase != .advancing, "the animator cannot be changed while animations advance")
        reserveRecords(count)
        registry.reserveKeys(count)
        onLane(
            width: Self.width(of: Value.self),
            ReserveSprings(count: count, method: method.index, settings: min(settings, count), tables: shared))
    }

    private struct ReserveSprings: LaneOperation {
        let count: Int
        let method: Int
        let settings: Int
        let tables: SharedTables

        func callAsFunction<V: AnimatableVector>(_ lane: Lane<V>, _: inout Void) {
            lane.reserveSprings(count, method: method, settings: settings, tables: tables)
        }
    }
}
