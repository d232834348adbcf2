extension Animator {
    /// Every way the animator's bookkeeping disagrees with itself, as
    /// sentences (empty when consistent). A test hook: O(n) in the number of
    /// records, for tests that drive random operations and check after each.
    ///
    /// It checks that the free list holds distinct dead records and the rest
    /// are live; that the registry is consistent and names live records by
    /// their keys; that every batch element is owned by a live running or
    /// paused record that points back at it, and every record holding an
    /// element is such an owner; and that every waiting record is queued to
    /// start.
    package func invariantViolations() -> [String] {
        var problems: [String] = []
        var isFree = [Bool](repeating: false, count: records.count)
        for index in UnsafeBufferPointer(start: freeRecords.base, count: freeRecords.count) {
            let i = Int(index)
            guard i >= 0 && i < records.count else {
                problems.append("free record \(i) out of range")
                continue
            }
            if isFree[i] { problems.append("record \(i) is free twice") }
            isFree[i] = true
            if status[i].live { problems.append("free record \(i) is live") }
        }
        for i in records.indices where !isFree[i] && !status[i].live {
            problems.append("record \(i) is neither live nor free")
        }

        // The registry: consistent in itself, and naming live records by their keys.
        problems += registry.violations()
        for i in registry.entries.indices where registry.contains(Int32(i)) {
            let entry = registry.entries[i]
            if i >= records.count || !status[i].live {
                problems.append("registry key \(entry.key) names a dead record")
                continue
            }
            if records[i].key != entry.key || records[i].target != entry.target {
                problems.append("registry key \(entry.key) and record \(i) disagree")
            }
        }

        // Batch elements and their owners.
        var owned = [Bool](repeating: false, count: records.count)
        func checkColumns<V>(_ columns: [ElementColumns<V>]) {
            for common in columns {
                for element in 0 ..< common.count {
                    let owner = common.owner[element]
                    guard let i = liveIndex(owner) else {
                        problems.append("an element's owner is dead")
                        continue
                    }
                    if owned[i] { problems.append("record \(i) owns two elements") }
                    owned[i] = true
                    if status[i].element != Int32(element) {
                        problems.append("record \(i) points at element \(status[i].element), owns \(element)")
                    }
                    if status[i].phase != .running && status[i].phase != .paused {
                        problems.append("record \(i) owns an element while \(status[i].phase)")
                    }
                }
            }
        }
        checkColumns(lane1.allColumns)
        checkColumns(lane2.allColumns)
        checkColumns(lane4.allColumns)
        for i in records.indices where status[i].live && records[i].box?.hasElement == true && !owned[i] {
            problems.append("record \(i) has an element that no batch holds")
        }

        // Waiting records are queued.
        let queued = Set(waiting)
        for i in records.indices where status[i].live && status[i].phase == .waiting {
            if !queued.contains(AnimationHandle(index: Int32(i), generation: status[i].generation)) {
                problems.append("waiting record \(i) is not queued")
            }
        }
        return problems
    }
}
