/// Which animation runs under each key of each target, and each target's
/// keys in the order they were registered.
///
/// Registered animations are named by their record index. The table is open
/// addressing with linear probing, mapping (target, key) to a record index.
/// Each registered record has an entry (its target, key and the key's hash)
/// and a link: its bucket and its place in its target's list (a doubly
/// linked list through the links). Removing a record only touches links:
/// no hashing, no string comparison, no visit to the table, and 16 bytes
/// per record (so a frame that removes many stays cheap). A bucket counts as
/// taken only if a live link names it back, so the buckets of removed
/// records read as free to insertions; they are reclaimed for good when the
/// table is rebuilt from the entries, which happens when buckets that were
/// ever used fill half of it.
///
/// A class, so that a lookup reads the animator's registry in place: as a
/// struct stored in the animator, every non-mutating call copied it (a
/// retain and release of each of its arrays).
final class KeyRegistry {
    /// A record's key.
    struct Entry {
        var target = TargetID(0)
        var key = ""
        var hash = 0
    }

    /// A record's place: its bucket and its neighbours in its target's
    /// list; `list` is -1 when the record is not registered.
    struct Link {
        var bucket: Int32 = -1
        var previous: Int32 = -1
        var next: Int32 = -1
        var list: Int32 = -1
    }

    /// One target's keys: the first and last entry and how many.
    struct KeyList {
        var target: TargetID
        var head: Int32
        var tail: Int32
        var count: Int
    }

    private static let empty: Int32 = -1

    /// The mutable state, in one stored property: one of the few whose
    /// exclusivity is not checked at run time (see "How a frame runs").
    #if !KINETICS_CHECKED_EXCLUSIVITY
        @exclusivity(unchecked)
    #endif
    private var state = State()

    private struct State {
        /// By record index; grown on demand. An entry stays after removal until
        /// its record registers again (clearing the key would release a string).
        var entries: [Entry] = []
        var links: [Link] = []
        /// Record indices or `empty`; the count is a power of two.
        var buckets = [Int32](repeating: empty, count: 16)
        /// Buckets that are not empty (live or left by removed records).
        var occupied = 0
        /// The number of registered records.
        var count = 0
        var lists: [KeyList] = []
        var freeLists: [Int32] = []
        var listOfTarget: [TargetID: Int32] = [:]
        /// The target last inserted under and its list (-1: none), so that
        /// inserting many keys on one target hashes the target once.
        var lastTarget = TargetID(0)
        var lastList: Int32 = -1
    }
    var entries: [Entry] { state.entries }
    /// The number of registered records.
    var count: Int { state.count }

    private let keyHash = KeyHash()

    /// The hash of `key` on `target` (``KeyHash``).
    func hash(_ target: TargetID, _ key: String) -> Int { keyHash(target, key) }

    /// Whether `record` is registered.
    func contains(_ record: Int32) -> Bool {
        record >= 0 && Int(record) < state.links.count && state.links[Int(record)].list >= 0
    }

    /// The hash of `key` on `target` when `record` (any number, -1
    /// included) is registered under them, which is then what
    /// ``find(_:_:hash:)`` returns; nil otherwise.
    @inline(__always)
    func hash(ifRegistered record: Int32, as target: TargetID, _ key: String) -> Int? {
        guard contains(record) else { return nil }
        let entry = Int(record)
        guard state.entries[entry].target == target, state.entries[entry].key == key else { return nil }
        return state.entries[entry].hash
    }

    /// Whether `bucket`, holding `record`, belongs to a registered record.
    private func isLive(_ bucket: Int, holding record: Int32) -> Bool {
        state.links[Int(record)].list >= 0 && Int(state.links[Int(record)].bucket) == bucket
    }

    /// The record registered under `key` on `target`; `hash` is
    /// ``hash(_:_:)`` of them, when the caller has it.
    func find(_ target: TargetID, _ key: String, hash known: Int? = nil) -> Int32? {
        let hash = known ?? hash(target, key)
        let mask = state.buckets.count - 1
        var bucket = hash & mask
        while true {
            let record = state.buckets[bucket]
            if record == Self.empty { return nil }
            if isLive(bucket, holding: record) {
                let entry = state.entries[Int(record)]
                if entry.hash == hash && entry.target == target && entry.key == key { return record }
            }
            bucket = (bucket + 1) & mask
        }
    }

    /// Makes room for the entries and links of records `0 ..< capacity`, so
    /// that they grow when the animator's records do (in the same frame),
    /// not in a later one.
    func reserve(_ capacity: Int) {
        state.entries.reserveCapacity(capacity)
        state.links.reserveCapacity(capacity)
    }

    /// Registers `record` under `key` on `target`, last in the target's list;
    /// `hash` as for ``find(_:_:hash:)``.
    ///
    /// - Precondition: the key is free on the target and the record is not registered.
    func insert(_ record: Int32, target: TargetID, key: String, hash known: Int? = nil) {
        precondition(!contains(record), "record \(record) is registered already")
        while state.links.count <= Int(record) {
            state.links.append(Link())
            state.entries.append(Entry())
        }
        if (state.occupied + 1) * 2 > state.buckets.count { rebuild() }
        let hash = known ?? hash(target, key)
        let mask = state.buckets.count - 1
        var bucket = hash & mask
        while state.buckets[bucket] != Self.empty && isLive(bucket, holding: state.buckets[bucket]) {
            bucket = (bucket + 1) & mask
        }
        if state.buckets[bucket] == Self.empty { state.occupied += 1 }
        state.buckets[bucket] = record
        state.count += 1

        let list: Int32
        if state.lastList >= 0 && state.lastTarget == target {
            list = state.lastList
        } else if let existing = state.listOfTarget[target] {
            list = existing
        } else {
            let fresh = KeyList(target: target, head: -1, tail: -1, count: 0)
            if let reused = state.freeLists.popLast() {
                list = reused
                state.lists[Int(list)] = fresh
            } else {
                list = Int32(state.lists.count)
                state.lists.append(fresh)
                state.freeLists.reserveCapacity(state.lists.capacity)
            }
            state.listOfTarget[target] = list
        }
        state.lastTarget = target
        state.lastList = list
        let tail = state.lists[Int(list)].tail
        state.entries[Int(record)] = Entry(target: target, key: key, hash: hash)
        state.links[Int(record)] = Link(bucket: Int32(bucket), previous: tail, next: -1, list: list)
        if tail >= 0 { state.links[Int(tail)].next = record } else { state.lists[Int(list)].head = record }
        state.lists[Int(list)].tail = record
        state.lists[Int(list)].count += 1
    }

    /// Moves registered `record` to the end of its target's list, where
    /// removing and registering it again would put it, without touching the
    /// table (its key stays).
    func moveToEnd(_ record: Int32) {
        let link = state.links[Int(record)]
        precondition(link.list >= 0, "record \(record) is not registered")
        let list = Int(link.list)
        guard link.next >= 0 else { return }
        withState { state in
            state.links.withUnsafeMutableBufferPointer { links in
                if link.previous >= 0 {
                    links[Int(link.previous)].next = link.next
                } else {
                    state.lists[list].head = link.next
                }
                links[Int(link.next)].previous = link.previous
                let tail = state.lists[list].tail
                links[Int(tail)].next = record
                links[Int(record)].previous = tail
                links[Int(record)].next = -1
                state.lists[list].tail = record
            }
        }
    }

    /// Runs `body` on the state, in one access: what it does to one field
    /// does not overlap what it does to another.
    @inline(__always)
    private func withState<Result>(_ body: (inout State) -> Result) -> Result { body(&state) }

    /// Unregisters `record`; does nothing if it is not registered.
    func remove(_ record: Int32) {
        withUnsafePointer(to: record) { remove($0, count: 1) }
    }

    /// Unregisters `count` records from `records` (those registered), in
    /// one pass over the links.
    func remove(_ records: UnsafePointer<Int32>, count removing: Int) {
        remove(records, count: removing) { _, _ in }
    }

    /// Unregisters `count` records from `records` (those registered) and
    /// calls `body` with each one's position in the list and the record,
    /// registered or not, in the same pass: a caller with its own work per
    /// record reads the list once.
    @inline(__always)
    func remove(_ records: UnsafePointer<Int32>, count removing: Int, each body: (Int, Int32) -> Void) {
        withState { state in
            var removed = 0
            state.links.withUnsafeMutableBufferPointer { links in
                state.lists.withUnsafeMutableBufferPointer { lists in
                    for position in 0 ..< removing {
                        let record = records[position]
                        body(position, record)
                        guard Int(record) < links.count, links[Int(record)].list >= 0 else { continue }
                        let link = links[Int(record)]
                        let list = Int(link.list)
                        if link.previous >= 0 {
                            links[Int(link.previous)].next = link.next
                        } else {
                            lists[list].head = link.next
                        }
                        if link.next >= 0 {
                            links[Int(link.next)].previous = link.previous
                        } else {
                            lists[list].tail = link.previous
                        }
                        lists[list].count -= 1
                        if lists[list].count == 0 {
                            Self.freeList(
                                list, of: lists[list].target, &state.listOfTarget, &state.lastList, &state.freeLists)
                        }
                        links[Int(record)].list = -1
                        removed += 1
                    }
                }
            }
            state.count -= removed
        }
    }

    /// Forgets the emptied list `list` of `target` and recycles it. Out of
    /// line: rare in the loop of ``remove(_:count:each:)``, whose registers
    /// it would otherwise crowd (inlined, the loop's spills depended on the
    /// order the module's files were compiled in).
    @inline(never)
    private static func freeList(
        _ list: Int, of target: TargetID, _ listOfTarget: inout [TargetID: Int32], _ lastList: inout Int32,
        _ freeLists: inout [Int32]
    ) {
        listOfTarget[target] = nil
        if lastList == Int32(list) { lastList = -1 }
        freeLists.append(Int32(list))
    }

    /// The keys on `target`, in the order they were registered.
    func keys(on target: TargetID) -> [String] {
        guard let list = state.listOfTarget[target] else { return [] }
        var keys: [String] = []
        keys.reserveCapacity(state.lists[Int(list)].count)
        var record = state.lists[Int(list)].head
        while record >= 0 {
            keys.append(state.entries[Int(record)].key)
            record = state.links[Int(record)].next
        }
        return keys
    }

    /// The targets with at least one key.
    var targets: [TargetID] { Array(state.listOfTarget.keys) }

    /// Rebuilds the table from the registered records, at four times their
    /// count rounded up to a power of two (at least 16): the buckets of
    /// removed records go, and a table that has emptied shrinks. The table
    /// is rebuilt when half its buckets are used, so a lookup of a key that
    /// is not there (every add's) probes at most about 2.5 buckets on
    /// average (Knuth's estimate for linear probing), against 8.5 at three
    /// quarters.
    private func rebuild() {
        var capacity = 16
        while capacity < (state.count + 1) * 4 { capacity *= 2 }
        state.buckets = [Int32](repeating: Self.empty, count: capacity)
        let mask = capacity - 1
        for record in state.links.indices where state.links[record].list >= 0 {
            var bucket = state.entries[record].hash & mask
            while state.buckets[bucket] != Self.empty { bucket = (bucket + 1) & mask }
            state.buckets[bucket] = Int32(record)
            state.links[record].bucket = Int32(bucket)
        }
        state.occupied = state.count
    }

    /// Every way the table and the lists disagree, as sentences (a test hook).
    func violations() -> [String] {
        var problems: [String] = []
        for record in state.links.indices where state.links[record].list >= 0 {
            let entry = state.entries[record]
            if find(entry.target, entry.key) != Int32(record) {
                problems.append("key \(entry.key) does not find record \(record)")
            }
            if entry.hash != hash(entry.target, entry.key) { problems.append("record \(record) has a stale hash") }
        }
        let inTable = state.buckets.indices.filter {
            state.buckets[$0] != Self.empty && isLive($0, holding: state.buckets[$0])
        }.count
        if inTable != state.count { problems.append("\(inTable) live buckets, count \(state.count)") }
        if state.occupied < state.count || state.occupied > state.buckets.count {
            problems.append("occupied \(state.occupied) of \(state.buckets.count)")
        }
        var listed = 0
        for (target, list) in state.listOfTarget {
            let keyList = state.lists[Int(list)]
            if keyList.target != target { problems.append("list \(list) belongs to \(keyList.target), not \(target)") }
            var record = keyList.head
            var previous: Int32 = -1
            var length = 0
            while record >= 0 && length <= state.count {
                let link = state.links[Int(record)]
                if link.list != list || state.entries[Int(record)].target != target || link.previous != previous {
                    problems.append("record \(record) is misplaced in the list of \(target)")
                }
                previous = record
                record = link.next
                length += 1
            }
            if previous != keyList.tail || length != keyList.count {
                problems.append("the list of \(target) has \(length) keys, counts \(keyList.count)")
            }
            listed += length
        }
        if listed != state.count { problems.append("\(listed) listed keys, \(state.count) registered") }
        if state.lastList >= 0 && state.listOfTarget[state.lastTarget] != state.lastList {
            problems.append("the remembered list \(state.lastList) is not the list of \(state.lastTarget)")
        }
        return problems
    }
}
