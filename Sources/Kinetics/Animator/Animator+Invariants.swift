extension Animator {
    /// Every way the animator's bookkeeping disagrees with itself, as
    /// sentences (empty when consistent). A test hook: O(n) in the number of
    /// records, for tests that drive random operations and check after each.
    ///
    /// It checks that the free list holds distinct dead records and the rest
    /// are live; that the registry, the per-target key lists and the records'
    /// `registered` flags name the same animations; that every batch element
    /// is owned by a live running or paused record that points back at it,
    /// and every record holding an element is such an owner; and that every
    /// waiting record is queued to start.
    package func invariantViolations() -> [String] {
        var problems: [String] = []
        var isFree = [Bool](repeating: false, count: records.count)
        for index in freeRecords {
            let i = Int(index)
            guard i >= 0 && i < records.count else { problems.append("free record \(i) out of range"); continue }
            if isFree[i] { problems.append("record \(i) is free twice") }
            isFree[i] = true
            if records[i].live { problems.append("free record \(i) is live") }
        }
        for i in records.indices where !isFree[i] && !records[i].live {
            problems.append("record \(i) is neither live nor free")
        }

        // The registry and the key lists.
        var registeredCount = 0
        for (key, handle) in registry {
            guard let i = liveIndex(handle) else { problems.append("registry key \(key.key) holds a dead handle"); continue }
            if !records[i].registered || records[i].key != key.key || records[i].target != key.target {
                problems.append("registry key \(key.key) and record \(i) disagree")
            }
            if keysByTarget[key.target]?.sequences[key.key] == nil {
                problems.append("registry key \(key.key) missing from its target's key list")
            }
        }
        for i in records.indices where records[i].live && records[i].registered {
            registeredCount += 1
            let handle = AnimationHandle(index: Int32(i), generation: records[i].generation)
            if registry[RegistryKey(target: records[i].target, key: records[i].key)] != handle {
                problems.append("registered record \(i) is not in the registry")
            }
        }
        let listed = keysByTarget.values.reduce(0) { $0 + $1.sequences.count }
        if listed != registry.count || registeredCount != registry.count {
            problems.append("\(registry.count) registry keys, \(listed) listed keys, \(registeredCount) registered records")
        }

        // Batch elements and their owners.
        var owned = [Bool](repeating: false, count: records.count)
        func checkColumns<V>(_ columns: [ElementColumns<V>]) {
            for common in columns {
                for element in 0 ..< common.count {
                    let owner = common.owner[element]
                    guard let i = liveIndex(owner) else { problems.append("an element's owner is dead"); continue }
                    if owned[i] { problems.append("record \(i) owns two elements") }
                    owned[i] = true
                    if records[i].element != Int32(element) {
                        problems.append("record \(i) points at element \(records[i].element), owns \(element)")
                    }
                    if records[i].phase != .running && records[i].phase != .paused {
                        problems.append("record \(i) owns an element while \(records[i].phase)")
                    }
                }
            }
        }
        checkColumns(lane1.allColumns)
        checkColumns(lane2.allColumns)
        checkColumns(lane4.allColumns)
        for i in records.indices where records[i].live && records[i].box?.hasElement == true && !owned[i] {
            problems.append("record \(i) has an element that no batch holds")
        }

        // Waiting records are queued.
        let queued = Set(waiting)
        for i in records.indices where records[i].live && records[i].phase == .waiting {
            if !queued.contains(AnimationHandle(index: Int32(i), generation: records[i].generation)) {
                problems.append("waiting record \(i) is not queued")
            }
        }
        return problems
    }
}
