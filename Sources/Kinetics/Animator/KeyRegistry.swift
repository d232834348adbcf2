/// Which animation runs under each key of each target, and each target's
/// keys in the order they were registered.
///
/// Registered animations are named by their record index. The table is open
/// addressing with linear probing, mapping (target, key) to a record index.
/// The entry of a registered record keeps its key's hash and its place in
/// its target's list (a doubly linked list through the entries), so removing
/// a record hashes nothing and compares no strings: it walks the probe
/// sequence from the stored hash to the bucket that holds the record, marks
/// that bucket removed and unlinks the entry. Removed buckets are reclaimed
/// when the table is rebuilt (from the stored hashes), which happens when
/// entries and removed buckets together fill three quarters of it.
struct KeyRegistry {
    /// A record's registration; `list` is -1 when the record is not registered.
    struct Entry {
        var target = TargetID(0)
        var key = ""
        var hash = 0
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
    private static let removed: Int32 = -2

    /// By record index; grown on demand.
    private(set) var entries: [Entry] = []
    /// Record indices, `empty` or `removed`; the count is a power of two.
    private var buckets = [Int32](repeating: empty, count: 16)
    /// Buckets that are not empty (entries and removed ones).
    private var occupied = 0
    /// The number of registered records.
    private(set) var count = 0
    private var lists: [KeyList] = []
    private var freeLists: [Int32] = []
    private var listOfTarget: [TargetID: Int32] = [:]

    static func hash(_ target: TargetID, _ key: String) -> Int {
        var hasher = Hasher()
        hasher.combine(target)
        hasher.combine(key)
        return hasher.finalize()
    }

    /// Whether `record` is registered.
    func contains(_ record: Int32) -> Bool {
        Int(record) < entries.count && entries[Int(record)].list >= 0
    }

    /// The record registered under `key` on `target`.
    func find(_ target: TargetID, _ key: String) -> Int32? {
        let hash = Self.hash(target, key)
        let mask = buckets.count - 1
        var bucket = hash & mask
        while true {
            let record = buckets[bucket]
            if record == Self.empty { return nil }
            if record >= 0 {
                let entry = entries[Int(record)]
                if entry.hash == hash && entry.target == target && entry.key == key { return record }
            }
            bucket = (bucket + 1) & mask
        }
    }

    /// Registers `record` under `key` on `target`, last in the target's list.
    ///
    /// - Precondition: the key is free on the target and the record is not registered.
    mutating func insert(_ record: Int32, target: TargetID, key: String) {
        precondition(!contains(record), "record \(record) is registered already")
        if (occupied + 1) * 4 > buckets.count * 3 { rebuild() }
        let hash = Self.hash(target, key)
        let mask = buckets.count - 1
        var bucket = hash & mask
        while buckets[bucket] >= 0 { bucket = (bucket + 1) & mask }
        if buckets[bucket] == Self.empty { occupied += 1 }
        buckets[bucket] = record
        count += 1
        while entries.count <= Int(record) { entries.append(Entry()) }

        let list: Int32
        if let existing = listOfTarget[target] {
            list = existing
        } else {
            let fresh = KeyList(target: target, head: -1, tail: -1, count: 0)
            if let reused = freeLists.popLast() {
                list = reused
                lists[Int(list)] = fresh
            } else {
                list = Int32(lists.count)
                lists.append(fresh)
            }
            listOfTarget[target] = list
        }
        let tail = lists[Int(list)].tail
        entries[Int(record)] = Entry(target: target, key: key, hash: hash, previous: tail, next: -1, list: list)
        if tail >= 0 { entries[Int(tail)].next = record } else { lists[Int(list)].head = record }
        lists[Int(list)].tail = record
        lists[Int(list)].count += 1
    }

    /// Unregisters `record`; does nothing if it is not registered.
    mutating func remove(_ record: Int32) {
        guard contains(record) else { return }
        let entry = entries[Int(record)]
        let mask = buckets.count - 1
        var bucket = entry.hash & mask
        while buckets[bucket] != record { bucket = (bucket + 1) & mask }
        buckets[bucket] = Self.removed
        count -= 1

        let list = Int(entry.list)
        if entry.previous >= 0 { entries[Int(entry.previous)].next = entry.next } else { lists[list].head = entry.next }
        if entry.next >= 0 { entries[Int(entry.next)].previous = entry.previous } else { lists[list].tail = entry.previous }
        lists[list].count -= 1
        if lists[list].count == 0 {
            listOfTarget[entry.target] = nil
            freeLists.append(Int32(list))
        }
        entries[Int(record)] = Entry()
    }

    /// Unregisters the records of `handles` in one pass.
    mutating func remove(_ handles: [AnimationHandle]) {
        var index = 0
        while index < handles.count {
            remove(handles[index].index)
            index += 1
        }
    }

    /// The keys on `target`, in the order they were registered.
    func keys(on target: TargetID) -> [String] {
        guard let list = listOfTarget[target] else { return [] }
        var keys: [String] = []
        keys.reserveCapacity(lists[Int(list)].count)
        var record = lists[Int(list)].head
        while record >= 0 {
            keys.append(entries[Int(record)].key)
            record = entries[Int(record)].next
        }
        return keys
    }

    /// The targets with at least one key.
    var targets: [TargetID] { Array(listOfTarget.keys) }

    /// Rebuilds the table from the stored hashes, at twice the entries'
    /// count rounded up to a power of two (at least 16): removed buckets go,
    /// and a table that has emptied shrinks.
    private mutating func rebuild() {
        var capacity = 16
        while capacity < (count + 1) * 2 { capacity *= 2 }
        let old = buckets
        buckets = [Int32](repeating: Self.empty, count: capacity)
        let mask = capacity - 1
        for record in old where record >= 0 {
            var bucket = entries[Int(record)].hash & mask
            while buckets[bucket] != Self.empty { bucket = (bucket + 1) & mask }
            buckets[bucket] = record
        }
        occupied = count
    }

    /// Every way the table and the lists disagree, as sentences (a test hook).
    func violations() -> [String] {
        var problems: [String] = []
        var inTable = 0
        for record in buckets where record >= 0 {
            inTable += 1
            guard contains(record) else { problems.append("bucket holds unregistered record \(record)"); continue }
            let entry = entries[Int(record)]
            if find(entry.target, entry.key) != record { problems.append("key \(entry.key) does not find record \(record)") }
            if entry.hash != Self.hash(entry.target, entry.key) { problems.append("record \(record) has a stale hash") }
        }
        if inTable != count { problems.append("\(inTable) records in the table, count \(count)") }
        if occupied < count || occupied > buckets.count { problems.append("occupied \(occupied) of \(buckets.count)") }
        var listed = 0
        for (target, list) in listOfTarget {
            let keyList = lists[Int(list)]
            if keyList.target != target { problems.append("list \(list) belongs to \(keyList.target), not \(target)") }
            var record = keyList.head
            var previous: Int32 = -1
            var length = 0
            while record >= 0 && length <= count {
                let entry = entries[Int(record)]
                if entry.list != list || entry.target != target || entry.previous != previous {
                    problems.append("record \(record) is misplaced in the list of \(target)")
                }
                previous = record
                record = entry.next
                length += 1
            }
            if previous != keyList.tail || length != keyList.count {
                problems.append("the list of \(target) has \(length) keys, counts \(keyList.count)")
            }
            listed += length
        }
        if listed != count { problems.append("\(listed) listed keys, \(count) registered") }
        return problems
    }
}
