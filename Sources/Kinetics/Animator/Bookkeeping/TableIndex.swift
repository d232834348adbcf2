/// An index into one of the animator's tables: 32 bits, as the tables
/// store it, with an explicit ``none``. `Table` is a caseless enum naming
/// the table (``RecordTable``, ``ElementTable``, ``KeyListTable``,
/// ``BucketTable``), so that an index of one table cannot be passed where
/// another's is wanted, and "no entry" is a named value, not a bare -1.
/// Package access: the bench's batch engine holds property slots and
/// element ids of ``BatchSet``.
@usableFromInline
package struct TableIndex<Table>: Hashable, Sendable, CustomStringConvertible {
    /// The stored value: the index, or -1 for ``none``.
    @usableFromInline package var raw: Int32

    /// The index whose stored value is `raw` (-1: ``none``).
    @inline(__always) @usableFromInline
    package init(raw: Int32) { self.raw = raw }

    /// Index `index`, which must fit in 32 bits (checked in debug builds).
    @inline(__always)
    package init(_ index: Int) {
        assert(index >= 0 && index <= Int(Int32.max), "table index \(index) out of range")
        raw = Int32(truncatingIfNeeded: index)
    }

    /// No entry.
    package static var none: Self { Self(raw: -1) }

    /// Whether this is ``none``.
    package var isNone: Bool {
        @inline(__always) get { raw < 0 }
    }

    /// The index, to subscript the table's storage; not for ``none``.
    package var index: Int {
        @inline(__always) get { Int(raw) }
    }

    @usableFromInline package var description: String { isNone ? "none" : String(raw) }
}

/// The animator's records (``AnimationRecord``, by ``AnimationHandle``'s
/// index); in a ``BatchSet``, its element ids, which stand where the
/// animator's records do (an element's owner).
@usableFromInline package enum RecordTable {}
/// A batch's elements (its columns, by element).
enum ElementTable {}
/// The key registry's per-target key lists.
enum KeyListTable {}
/// The key registry's hash buckets.
enum BucketTable {}

/// A record's index.
@usableFromInline package typealias RecordIndex = TableIndex<RecordTable>
/// An element's index in its batch.
typealias ElementIndex = TableIndex<ElementTable>
/// A key list's index in the key registry.
typealias KeyListIndex = TableIndex<KeyListTable>
/// A bucket's index in the key registry's table.
typealias BucketIndex = TableIndex<BucketTable>

/// A lane's property values (``Lane/values``), by ``PropertyHandle``'s slot.
@usableFromInline package enum PropertyTable {}
/// A property's slot in its lane's values.
@usableFromInline package typealias PropertySlot = TableIndex<PropertyTable>

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
