/// Slots with counted users and a free list: the storage plan of every
/// table that animations share (timing functions, spring configurations and
/// groups, decay configurations, keyframe tracks). Each table keeps the
/// columns its hot loops read beside the slots, indexed alike, and fills a
/// new slot's with ``Column/store(_:at:)``.
///
/// Freeing never allocates: the free list has room for every slot, so a
/// frame that retires animations can give their slots back.
struct CountedSlots<Table> {
    typealias Index = TableIndex<Table>

    /// The users of each slot; 0 for one that is free or idle. A column:
    /// an array's writes would each check that it is not shared.
    let users = Column<Int>()
    /// The slots to reuse, the last first.
    private(set) var free: [Index] = []

    /// The number of slots, used or not.
    var count: Int { users.count }

    /// A slot with one user: a recycled one or, when none is free, a new one
    /// at the end.
    mutating func allocate() -> Index {
        if let index = free.popLast() {
            users[index.index] = 1
            return index
        }
        users.append(1)
        // Room in the free list for every slot. Tested against the count:
        // an array's capacity is what its allocation holds, so the users'
        // (8-byte) and the free list's (4-byte) differ after equal requests,
        // by an amount that can depend on the block's address, and asking
        // for the users' capacity then reallocated a list that had room.
        if free.capacity < users.count { free.reserveCapacity(users.capacity) }
        return Index(users.count - 1)
    }

    /// Counts one more user of slot `index`.
    mutating func retain(_ index: Index) { users[index.index] += 1 }

    /// Makes room for `capacity` slots in all.
    mutating func reserve(_ capacity: Int) {
        users.reserve(capacity)
        free.reserveCapacity(capacity)
    }

    /// Counts `count` users fewer; true when none is left (the owner then
    /// recycles the slot, at once or later).
    mutating func release(_ index: Index, count: Int = 1) -> Bool {
        users[index.index] -= count
        return users[index.index] == 0
    }

    /// Puts a slot with no users on the free list.
    mutating func recycle(_ index: Index) { free.append(index) }

    /// Every way the slots disagree with the users counted from outside
    /// (`expected[i]` for slot `i`), and with themselves.
    func violations(expected: [Int], name: String) -> [String] {
        var problems: [String] = []
        var isFree = [Bool](repeating: false, count: users.count)
        for index in free {
            if isFree[index.index] { problems.append("\(name) slot \(index) is free twice") }
            isFree[index.index] = true
            if users[index.index] != 0 {
                problems.append("\(name) slot \(index) is free with \(users[index.index]) users")
            }
        }
        for index in 0 ..< users.count {
            let counted = index < expected.count ? expected[index] : 0
            if users[index] != counted {
                problems.append("\(name) slot \(index) counts \(users[index]) users, \(counted) hold it")
            }
        }
        return problems
    }
}

/// ``CountedSlots`` found by key: asking for a key already in use gives its
/// slot and counts one more user.
struct SharedSlots<Key: Hashable, Table> {
    typealias Index = TableIndex<Table>
    private(set) var slots = CountedSlots<Table>()
    /// The key of each slot (a free slot keeps its last key until reused).
    private(set) var keys: [Key] = []
    private var lookup: [Key: Index] = [:]
    /// Keys found lately and their slots, by a cheap hash the caller gives
    /// (``retain(_:quickHash:)``): requests mostly ask again for one of a few
    /// keys (an app's springs share a handful of configurations), and
    /// `lookup` hashes a key of several numbers with SipHash, which costs
    /// more than the rest of an add. Every entry is one that `lookup` holds:
    /// recycling a slot or forgetting the keys empties the cache.
    private var recent = [Index](repeating: .none, count: SharedSlots.recentLines)
    private static var recentLines: Int { 8 }

    /// The number of slots, used or not.
    var count: Int { keys.count }

    /// The users of slot `index`.
    func users(_ index: Int) -> Int { slots.users[index] }

    /// The slot of `key` with one more user, if the table has it.
    mutating func retain(_ key: Key) -> Index? {
        guard let index = lookup[key] else { return nil }
        slots.retain(index)
        return index
    }

    /// ``retain(_:)``, looking first among the keys found lately under
    /// `quickHash` (any cheap function of the key: equal keys, equal hashes).
    @inline(__always)
    mutating func retain(_ key: Key, quickHash: Int) -> Index? {
        let line = quickHash & (Self.recentLines - 1)
        let cached = recent[line]
        if !cached.isNone && keys[cached.index] == key {
            slots.retain(cached)
            return cached
        }
        guard let index = retain(key) else { return nil }
        recent[line] = index
        return index
    }

    /// Makes room for `additional` new keys beyond the slots in use (a
    /// free slot is taken first); returns the slot count that room reaches.
    /// Asking for keys the table has, and inserting that many, then
    /// allocates nothing.
    @discardableResult
    mutating func reserve(additional: Int) -> Int {
        let capacity = count + additional
        slots.reserve(capacity)
        keys.reserveCapacity(capacity)
        lookup.reserveCapacity(capacity)
        return capacity
    }

    /// A slot for `key`, which the table does not have, with one user.
    mutating func insert(_ key: Key) -> Index {
        let index = slots.allocate()
        keys.store(key, at: index)
        lookup[key] = index
        return index
    }

    /// Counts `count` users fewer; true when none is left.
    mutating func release(_ index: Index, count: Int = 1) -> Bool { slots.release(index, count: count) }

    /// Frees a slot with no users: its key is no longer found.
    mutating func recycle(_ index: Index) {
        // One hash in the usual case; the key goes back when it names a newer
        // slot (made after ``forgetKeys()``).
        if let found = lookup.removeValue(forKey: keys[index.index]), found != index {
            lookup[keys[index.index]] = found
        }
        slots.recycle(index)
        forgetRecent()
    }

    /// Forgets every key: later requests get new slots, whatever their key.
    mutating func forgetKeys() {
        lookup.removeAll(keepingCapacity: true)
        forgetRecent()
    }

    private mutating func forgetRecent() {
        for line in 0 ..< Self.recentLines { recent[line] = .none }
    }

    /// Every way the slots disagree with the users counted from outside,
    /// and every key found at a slot that holds another key or is free.
    func violations(expected: [Int], name: String) -> [String] {
        var problems = slots.violations(expected: expected, name: name)
        for index in recent where !index.isNone && lookup[keys[index.index]] != index {
            problems.append("\(name) slot \(index) is cached, but its key does not find it")
        }
        let free = Set(slots.free)
        for (key, index) in lookup {
            if keys[index.index] != key {
                problems.append("\(name) key \(key) finds slot \(index), which holds another")
            }
            if free.contains(index) { problems.append("\(name) key \(key) finds slot \(index), which is free") }
        }
        return problems
    }
}

extension Array {
    /// Stores `element` at slot `index` of a ``CountedSlots`` table:
    /// overwrites a recycled slot, or appends a new one (`index == count`).
    mutating func store<Table>(_ element: Element, at index: TableIndex<Table>) {
        if index.index == count { append(element) } else { self[index.index] = element }
    }
}
