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
/// retain and release of each of its arrays). Its tables are ``Column``s
/// held in constants: an add writes five of them, and as arrays each write
/// checked its array's uniqueness.
final class KeyRegistry: UncheckedState<KeyRegistry.State> {
    /// A record's key: a caller's string, or the name the animator gave it
    /// (``GeneratedKey``), kept as its number.
    struct Entry {
        var target = TargetID(0)
        /// The caller's key; empty for a name the animator gave.
        var key = ""
        var hash = 0
        /// The number of the name the animator gave, plus one; 0 for a
        /// caller's key.
        var generated: UInt64 = 0

        /// The key, as a string.
        var name: String { generated == 0 ? key : GeneratedKey.name(generated &- 1) }

        /// Whether the key is `key`.
        @inline(__always)
        func isKey(_ key: String) -> Bool {
            generated == 0 ? self.key == key : GeneratedKey.name(generated &- 1, is: key)
        }

        /// Whether the key is the name the animator gives its add number `number`.
        @inline(__always)
        func isGenerated(_ number: UInt64) -> Bool {
            generated == 0 ? GeneratedKey.name(number, is: key) : generated == number &+ 1
        }
    }

    /// A record's place: its bucket and its neighbours in its target's
    /// list; `list` is none when the record is not registered.
    struct Link {
        var bucket = BucketIndex.none
        var previous = RecordIndex.none
        var next = RecordIndex.none
        var list = KeyListIndex.none
    }

    /// One target's keys: the first and last entry and how many.
    struct KeyList {
        var target: TargetID
        var head: RecordIndex
        var tail: RecordIndex
        var count: Int
    }

    /// By record index; grown on demand. An entry stays after removal until
    /// its record registers again (clearing the key would release a string).
    private let entries = Column<Entry>()
    private let links = Column<Link>()
    /// Record indices or none; the count is a power of two.
    private let buckets: Column<RecordIndex> = {
        let buckets = Column<RecordIndex>()
        buckets.reset(count: 16, to: .none)
        return buckets
    }()
    private let lists = Column<KeyList>()
    private let freeLists = Column<KeyListIndex>()

    struct State {
        /// Buckets that are not empty (live or left by removed records).
        var occupied = 0
        /// The number of registered records.
        var count = 0
        var listOfTarget: [TargetID: KeyListIndex] = [:]
        /// The target last inserted under and its list (or none), so that
        /// inserting many keys on one target hashes the target once.
        var lastTarget = TargetID(0)
        var lastList = KeyListIndex.none
    }

    init() { super.init(State()) }
    /// The entries, by record index (for the invariant check).
    var allEntries: [Entry] { (0 ..< entries.count).map { entries[$0] } }
    /// The number of registered records.
    var count: Int { state.count }

    private let keyHash = KeyHash.shared

    /// The hash of `key` on `target` (``KeyHash``).
    func hash(_ target: TargetID, _ key: String) -> Int { keyHash(target, key) }

    /// The hash on `target` of the name the animator gives its add number
    /// `number` (``GeneratedKey``): the hash of that name as a string.
    func hash(_ target: TargetID, generated number: UInt64) -> Int {
        GeneratedKey.withName(number) { keyHash(target, keyHash.prefix(ascii: $0)) }
    }

    /// The hash of `key` on `target`, from `prefix` (the key's
    /// ``KeyHash/Prefix``) when the caller has it: the same number.
    @inline(__always)
    func hash(_ target: TargetID, _ key: String, prefix: KeyHash.Prefix?) -> Int {
        if let prefix { return keyHash(target, prefix) }
        return keyHash(target, key)
    }

    /// Whether `record` is registered.
    func contains(_ record: RecordIndex) -> Bool {
        !record.isNone && record.index < links.count && !links[record.index].list.isNone
    }

    /// The hash of `key` on `target` when `record` (any index, none
    /// included) is registered under them, which is then what
    /// ``find(_:_:hash:)`` returns; nil otherwise, and for a record under a
    /// name the animator gave it (``GeneratedKey``), which `key` may still
    /// be: ``find(_:_:hash:)`` tells.
    @inline(__always)
    func hash(ifRegistered record: RecordIndex, as target: TargetID, _ key: String) -> Int? {
        guard contains(record) else { return nil }
        let entry = record.index
        guard entries[entry].target == target, entries[entry].key == key, entries[entry].generated == 0 else {
            return nil
        }
        return entries[entry].hash
    }

    /// Whether `bucket`, holding `record`, belongs to a registered record.
    private func isLive(_ bucket: Int, holding record: RecordIndex) -> Bool {
        !links[record.index].list.isNone && links[record.index].bucket.index == bucket
    }

    /// The record registered under `key` on `target`; `hash` is
    /// ``hash(_:_:)`` of them, when the caller has it.
    ///
    /// A new key's first bucket is most often empty (the table is at most
    /// half full): that answer is read inline, without the call that
    /// probes the table and compares keys.
    @inline(__always)
    func find(_ target: TargetID, _ key: String, hash known: Int? = nil) -> RecordIndex? {
        let hash = known ?? self.hash(target, key)
        if buckets[hash & (buckets.count - 1)].isNone { return nil }
        return probe(target, key, hash: hash)
    }

    /// ``find(_:_:hash:)`` past its first bucket.
    @inline(never)
    private func probe(_ target: TargetID, _ key: String, hash: Int) -> RecordIndex? {
        find(target, hash: hash) { $0.isKey(key) }
    }

    /// The record registered under the name the animator gives its add
    /// number `number` on `target`; `hash` is ``hash(_:generated:)`` of them.
    func find(_ target: TargetID, generated number: UInt64, hash: Int) -> RecordIndex? {
        find(target, hash: hash) { $0.isGenerated(number) }
    }

    /// The record whose entry has `hash` and `target` and whose key
    /// `matches`.
    @inline(__always)
    private func find(_ target: TargetID, hash: Int, matches: (Entry) -> Bool) -> RecordIndex? {
        let mask = buckets.count - 1
        var bucket = hash & mask
        while true {
            let record = buckets[bucket]
            if record.isNone { return nil }
            if isLive(bucket, holding: record) {
                let entry = entries[record.index]
                if entry.hash == hash && entry.target == target && matches(entry) { return record }
            }
            bucket = (bucket + 1) & mask
        }
    }

    /// Makes room for the entries and links of records `0 ..< capacity`, so
    /// that they grow when the animator's records do (in the same frame),
    /// not in a later one.
    func reserve(_ capacity: Int) {
        entries.reserve(capacity)
        links.reserve(capacity)
    }

    /// Makes room to register records up to `count` in all, and records
    /// `0 ..< count`: inserting them rebuilds nothing and allocates nothing
    /// (unless a target gets its first key).
    func reserveKeys(_ count: Int) {
        reserve(count)
        let added = max(0, count - state.count)
        if (state.occupied + added + 1) * 2 > buckets.count { rebuild(room: count) }
    }

    /// Registers `record` under `key` on `target`, last in the target's list;
    /// `hash` as for ``find(_:_:hash:)``.
    ///
    /// - Precondition: the key is free on the target and the record is not registered.
    func insert(_ record: RecordIndex, target: TargetID, key: String, hash known: Int? = nil) {
        insert(record, target: target, key: key, generated: 0, hash: known ?? hash(target, key))
    }

    /// Registers `record` under the name the animator gives its add number
    /// `number` on `target`, as ``insert(_:target:key:hash:)``; `hash` as for
    /// ``find(_:generated:hash:)``.
    ///
    /// - Precondition: `number` is below `UInt64.max` (the animator's count
    ///   of adds stops the process before it gets there).
    func insert(_ record: RecordIndex, target: TargetID, generated number: UInt64, hash: Int) {
        precondition(number < UInt64.max, "add number \(number) is past the last")
        insert(record, target: target, key: "", generated: number &+ 1, hash: hash)
    }

    private func insert(_ record: RecordIndex, target: TargetID, key: String, generated: UInt64, hash: Int) {
        precondition(!record.isNone && !contains(record), "record \(record) is registered already")
        // A record past the end (a new one, the common case: it is the
        // count) has its entry and link appended below, written once.
        while links.count < record.index {
            links.append(Link())
            entries.append(Entry())
        }
        // (Counts of records and buckets, far from overflowing: wrapping
        // arithmetic spares each its check.)
        if (state.occupied &+ 1) &* 2 > buckets.count { rebuild() }
        let mask = buckets.count &- 1
        var bucket = hash & mask
        while !buckets[bucket].isNone && isLive(bucket, holding: buckets[bucket]) {
            bucket = (bucket &+ 1) & mask
        }
        if buckets[bucket].isNone { state.occupied &+= 1 }
        buckets[bucket] = record
        state.count &+= 1

        let list: KeyListIndex
        if !state.lastList.isNone && state.lastTarget == target {
            list = state.lastList
        } else if let existing = state.listOfTarget[target] {
            list = existing
        } else {
            let fresh = KeyList(target: target, head: .none, tail: .none, count: 0)
            if let reused = freeLists.popLast() {
                list = reused
                lists[list.index] = fresh
            } else {
                list = KeyListIndex(lists.count)
                lists.append(fresh)
                freeLists.reserve(lists.capacity)
            }
            state.listOfTarget[target] = list
        }
        state.lastTarget = target
        state.lastList = list
        // The list was made with the registry's columns: in range, as its
        // tail is, and the record's link, written below.
        let lists = ColumnPointer(self.lists)
        let tail = lists[list.index].tail
        let entry = Entry(target: target, key: key, hash: hash, generated: generated)
        let link = Link(bucket: BucketIndex(bucket), previous: tail, next: .none, list: list)
        if record.index == links.count {
            // The two grow together (``reserve(_:)``).
            if links.count == links.capacity { reserve(Swift.max(16, 2 * links.count)) }
            entries.appendWithinCapacity(entry)
            links.appendWithinCapacity(link)
        } else {
            entries[record.index] = entry
            links[record.index] = link
        }
        let links = ColumnPointer(self.links)
        if !tail.isNone { links[tail.index].next = record } else { lists[list.index].head = record }
        lists[list.index].tail = record
        lists[list.index].count &+= 1
    }

    /// Moves registered `record` to the end of its target's list, where
    /// removing and registering it again would put it, without touching the
    /// table (its key stays).
    func moveToEnd(_ record: RecordIndex) {
        let link = links[record.index]
        precondition(!link.list.isNone, "record \(record) is not registered")
        guard !link.next.isNone else { return }
        // The record's index is checked; the links and list its link names
        // were made with it (as in ``remove(_:count:each:)``).
        let links = ColumnPointer(self.links)
        let lists = ColumnPointer(self.lists)
        let list = link.list.index
        if !link.previous.isNone {
            links[link.previous.index].next = link.next
        } else {
            lists[list].head = link.next
        }
        links[link.next.index].previous = link.previous
        let tail = lists[list].tail
        links[tail.index].next = record
        links[record.index].previous = tail
        links[record.index].next = .none
        lists[list].tail = record
    }

    /// Runs `body` on the state, in one access: what it does to one field
    /// does not overlap what it does to another.
    @inline(__always)
    private func withState<Result>(_ body: (inout State) -> Result) -> Result { body(&state) }

    /// Unregisters `record`; does nothing if it is not registered.
    func remove(_ record: RecordIndex) {
        withUnsafePointer(to: record) { remove(UnsafeBufferPointer(start: $0, count: 1)) }
    }

    /// Unregisters `records` (those registered), in one pass over the links.
    func remove(_ records: UnsafeBufferPointer<RecordIndex>) {
        remove(records) { _, _ in }
    }

    /// Unregisters `records` (those registered) and
    /// calls `body` with each one's position in the list and the record,
    /// registered or not, in the same pass: a caller with its own work per
    /// record reads the list once.
    @inline(__always)
    func remove(_ records: UnsafeBufferPointer<RecordIndex>, each body: (Int, RecordIndex) -> Void) {
        withState { state in
            var removed = 0
            // A record's links are within the count (checked); the links and
            // lists they name were made with them.
            let linkCount = self.links.count
            let links = ColumnPointer(self.links)
            let lists = ColumnPointer(self.lists)
            for position in 0 ..< records.count {
                let record = records[position]
                body(position, record)
                guard record.index < linkCount, !links[record.index].list.isNone else { continue }
                let link = links[record.index]
                let list = link.list.index
                if !link.previous.isNone {
                    links[link.previous.index].next = link.next
                } else {
                    lists[list].head = link.next
                }
                if !link.next.isNone {
                    links[link.next.index].previous = link.previous
                } else {
                    lists[list].tail = link.previous
                }
                lists[list].count -= 1
                if lists[list].count == 0 {
                    Self.freeList(list, of: lists[list].target, &state.listOfTarget, &state.lastList, freeLists)
                }
                links[record.index].list = .none
                removed += 1
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
        _ list: Int, of target: TargetID, _ listOfTarget: inout [TargetID: KeyListIndex],
        _ lastList: inout KeyListIndex, _ freeLists: Column<KeyListIndex>
    ) {
        listOfTarget[target] = nil
        if lastList == KeyListIndex(list) { lastList = .none }
        freeLists.append(KeyListIndex(list))
    }

    /// The keys on `target`, in the order they were registered.
    func keys(on target: TargetID) -> [String] {
        guard let list = state.listOfTarget[target] else { return [] }
        var keys: [String] = []
        keys.reserveCapacity(lists[list.index].count)
        var record = lists[list.index].head
        while !record.isNone {
            keys.append(entries[record.index].name)
            record = links[record.index].next
        }
        return keys
    }

    /// The key `record` was last registered under (the empty string for
    /// one never registered).
    func key(of record: RecordIndex) -> String {
        record.index < entries.count ? entries[record.index].name : ""
    }

    /// The targets with at least one key.
    var targets: [TargetID] { Array(state.listOfTarget.keys) }

    /// Rebuilds the table from the registered records, at four times their
    /// count (or `room`, if larger) rounded up to a power of two (at least
    /// 16): the buckets of
    /// removed records go, and a table that has emptied shrinks. The table
    /// is rebuilt when half its buckets are used, so a lookup of a key that
    /// is not there (every add's) probes at most about 2.5 buckets on
    /// average (Knuth's estimate for linear probing), against 8.5 at three
    /// quarters.
    private func rebuild(room: Int = 0) {
        var capacity = 16
        while capacity < (max(state.count, room) + 1) * 4 { capacity *= 2 }
        buckets.reset(count: capacity, to: .none)
        let mask = capacity - 1
        for record in 0 ..< links.count where !links[record].list.isNone {
            var bucket = entries[record].hash & mask
            while !buckets[bucket].isNone { bucket = (bucket + 1) & mask }
            buckets[bucket] = RecordIndex(record)
            links[record].bucket = BucketIndex(bucket)
        }
        state.occupied = state.count
    }

    /// Every way the table and the lists disagree, as sentences (a test hook).
    func violations() -> [String] {
        var problems: [String] = []
        for record in 0 ..< links.count where !links[record].list.isNone {
            let entry = entries[record]
            if find(entry.target, entry.name) != RecordIndex(record) {
                problems.append("key \(entry.name) does not find record \(record)")
            }
            if entry.generated != 0
                && find(entry.target, generated: entry.generated - 1, hash: entry.hash) != RecordIndex(record)
            {
                problems.append("the number of key \(entry.name) does not find record \(record)")
            }
            if entry.hash != hash(entry.target, entry.name) { problems.append("record \(record) has a stale hash") }
        }
        let inTable = (0 ..< buckets.count).filter {
            !buckets[$0].isNone && isLive($0, holding: buckets[$0])
        }.count
        if inTable != state.count { problems.append("\(inTable) live buckets, count \(state.count)") }
        if state.occupied < state.count || state.occupied > buckets.count {
            problems.append("occupied \(state.occupied) of \(buckets.count)")
        }
        var listed = 0
        for (target, list) in state.listOfTarget {
            let keyList = lists[list.index]
            if keyList.target != target { problems.append("list \(list) belongs to \(keyList.target), not \(target)") }
            var record = keyList.head
            var previous = RecordIndex.none
            var length = 0
            while !record.isNone && length <= state.count {
                let link = links[record.index]
                if link.list != list || entries[record.index].target != target || link.previous != previous {
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
        if !state.lastList.isNone && state.listOfTarget[state.lastTarget] != state.lastList {
            problems.append("the remembered list \(state.lastList) is not the list of \(state.lastTarget)")
        }
        return problems
    }
}
