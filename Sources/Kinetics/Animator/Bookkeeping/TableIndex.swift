/// An index into one of the animator's tables: 32 bits, as the tables
/// store it, with an explicit ``none``. `Table` is a caseless enum naming
/// the table (``RecordTable``, ``ElementTable``, ``KeyListTable``,
/// ``BucketTable``), so that an index of one table cannot be passed where
/// another's is wanted, and "no entry" is a named value, not a bare -1.
struct TableIndex<Table>: Hashable, Sendable, CustomStringConvertible {
    /// The stored value: the index, or -1 for ``none``.
    var raw: Int32

    /// The index whose stored value is `raw` (-1: ``none``).
    @inline(__always)
    init(raw: Int32) { self.raw = raw }

    /// Index `index`, which must fit in 32 bits (checked in debug builds).
    @inline(__always)
    init(_ index: Int) {
        assert(index >= 0 && index <= Int(Int32.max), "table index \(index) out of range")
        raw = Int32(truncatingIfNeeded: index)
    }

    /// No entry.
    static var none: Self { Self(raw: -1) }

    /// Whether this is ``none``.
    var isNone: Bool {
        @inline(__always) get { raw < 0 }
    }

    /// The index, to subscript the table's storage; not for ``none``.
    var index: Int {
        @inline(__always) get { Int(raw) }
    }

    var description: String { isNone ? "none" : String(raw) }
}

/// The animator's records (``AnimationRecord``, by ``AnimationHandle``'s index).
enum RecordTable {}
/// A batch's elements (its columns, by element).
enum ElementTable {}
/// The key registry's per-target key lists.
enum KeyListTable {}
/// The key registry's hash buckets.
enum BucketTable {}

/// A record's index.
typealias RecordIndex = TableIndex<RecordTable>
/// An element's index in its batch.
typealias ElementIndex = TableIndex<ElementTable>
/// A key list's index in the key registry.
typealias KeyListIndex = TableIndex<KeyListTable>
/// A bucket's index in the key registry's table.
typealias BucketIndex = TableIndex<BucketTable>

/// The timing functions' slots (``TimingTable``).
enum TimingSlot {}
/// The keyframe tracks' slots (``KeyframeTracks``).
enum TrackSlot {}
/// The spring configurations' slots (``SpringConfigurations``).
enum ConfigurationSlot {}
/// The spring groups' slots (``SpringGroups``).
enum GroupSlot {}
/// The decay configurations' slots (``DecayConfigurations``).
enum DecaySlot {}

/// A timing function's slot in the timing table.
typealias TimingIndex = TableIndex<TimingSlot>
/// A keyframe track's slot.
typealias TrackIndex = TableIndex<TrackSlot>
/// A spring configuration's slot.
typealias ConfigurationIndex = TableIndex<ConfigurationSlot>
/// A spring group's slot.
typealias GroupIndex = TableIndex<GroupSlot>
/// A decay configuration's slot.
typealias DecayIndex = TableIndex<DecaySlot>
