extension Animator {
    /// Checks the bookkeeping after a public operation that changed it, when
    /// the package is compiled with `KINETICS_INTERNAL_CHECKS` (the test
    /// command, `scripts/test.sh`, sets it): a violation stops the program,
    /// naming the operation and what is wrong. Without the condition this
    /// is empty.
    ///
    /// An operation called from a callback is checked with the outermost
    /// one, when the animator is consistent again. A check visits every
    /// record, so an animator of more than ``checkedRecordsPerOperation``
    /// records is checked after every k-th operation, k its records over
    /// that number: checking then costs a bounded amount per operation, and
    /// a test that adds 10,000 animations does not take quadratic time.
    @inline(__always)
    func checkInternally(after operation: StaticString) {
        #if KINETICS_INTERNAL_CHECKS
            guard state.phase == .idle, state.checksInternally else { return }
            guard state.operationsToNextCheck <= 0 else {
                state.operationsToNextCheck -= 1
                return
            }
            state.operationsToNextCheck = records.count / Self.checkedRecordsPerOperation
            let problems = invariantViolations()
            precondition(problems.isEmpty, "after \(operation): " + problems.joined(separator: "; "))
        #endif
    }

    /// The records an internal check may visit per operation, on average.
    static let checkedRecordsPerOperation = 64

    /// Every way the animator's bookkeeping disagrees with itself, as
    /// sentences (empty when consistent). A test hook: O(n) in the number of
    /// records, for tests that drive random operations and check after each.
    ///
    /// It checks that the free list holds distinct dead records and the rest
    /// are live; that the registry is consistent and names live records by
    /// their keys; that every batch element is owned by a live running or
    /// paused record that points back at it, and every record holding an
    /// element is such an owner; that every shared table entry counts as
    /// many users as hold it (animations, and the groups and tracks that
    /// hold configurations and timing functions) and finds only its own key;
    /// and that every waiting record is queued to start.
    package func invariantViolations() -> [String] {
        var problems = recordViolations() + registryViolations()
        let owned = elementViolations(&problems)
        problems += bareSpringViolations(owned: owned) + springBatchViolations() + sharedTableViolations()
        // Waiting records are queued.
        let queued = Set(state.waiting)
        for i in 0 ..< records.count where status[i].live && status[i].phase == .waiting {
            if !queued.contains(AnimationHandle(record: RecordIndex(i), generation: status[i].generation)) {
                problems.append("waiting record \(i) is not queued")
            }
        }
        return problems
    }

    /// Every record is live or free, and free once.
    private func recordViolations() -> [String] {
        var problems: [String] = []
        var isFree = [Bool](repeating: false, count: records.count)
        for index in freeRecords.elements {
            let i = Int(index.raw)
            guard i >= 0 && i < records.count else {
                problems.append("free record \(i) out of range")
                continue
            }
            if isFree[i] { problems.append("record \(i) is free twice") }
            isFree[i] = true
            if status[i].live { problems.append("free record \(i) is live") }
        }
        for i in 0 ..< records.count where !isFree[i] && !status[i].live {
            problems.append("record \(i) is neither live nor free")
        }
        return problems
    }

    /// The registry: consistent in itself, and naming live records by their
    /// keys; every property has its keyed-record hint (a number; any is safe).
    private func registryViolations() -> [String] {
        var problems = registry.violations()
        let entries = registry.allEntries
        for i in entries.indices where registry.contains(RecordIndex(i)) {
            let entry = entries[i]
            if i >= records.count || !status[i].live {
                problems.append("registry key \(entry.name) names a dead record")
                continue
            }
            if places[i].target != entry.target || places[i].parent != nil {
                problems.append("registry key \(entry.name) and record \(i) disagree")
            }
        }
        for (width, count, hints) in [
            (1, lane1.values.count, lane1.keyedRecords.count), (2, lane2.values.count, lane2.keyedRecords.count),
            (4, lane4.values.count, lane4.keyedRecords.count),
        ] where count != hints {
            problems.append("lane \(width) has \(count) properties and \(hints) keyed-record hints")
        }
        return problems
    }

    /// Batch elements and their owners: each element's owner is live, owns
    /// it alone and points at it; every record with an element has one in a
    /// batch. Returns which records own an element.
    private func elementViolations(_ problems: inout [String]) -> [Bool] {
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
                    if status[i].element != ElementIndex(element) {
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
        for i in 0 ..< records.count
        where status[i].live && records[i].box?.hasElement == true && !owned[i] {
            problems.append("record \(i) has an element that no batch holds")
        }
        return owned
    }

    /// A bare spring (no box) runs in the element it owns: not paused
    /// (pausing gives it a box), neither rounded nor additive.
    private func bareSpringViolations(owned: [Bool]) -> [String] {
        var problems: [String] = []
        for i in 0 ..< records.count where status[i].live && records[i].box == nil {
            if status[i].spring == .none || !owned[i] || status[i].phase != .running {
                problems.append("record \(i) has no box, and is not a running spring in a batch")
            } else {
                let flags = elementFlags(status[i].spring, status[i].element.index)
                if flags & (ElementFlag.paused | ElementFlag.rounds | ElementFlag.additive) != 0 {
                    problems.append("record \(i) has no box, and its spring is observed (flags \(flags))")
                }
            }
        }
        return problems
    }

    /// A spring's status names its batch (retargets go there directly); no
    /// other record's does. A batch's group starts are marked, its columns
    /// keep one count, and each running element has its group's threshold.
    private func springBatchViolations() -> [String] {
        var problems: [String] = []
        var springs = 0
        func checkSprings<V>(_ lane: Lane<V>, width: Int) {
            for batch in lane.springs {
                springs += batch.count
                if !batch.groupStartsAreMarked {
                    problems.append("the \(batch.method) springs of lane \(width) have a group start marked wrong")
                }
                if !batch.columnsHaveOneCount {
                    problems.append("the \(batch.method) springs of lane \(width) have columns of different counts")
                }
                for element in 0 ..< batch.count {
                    // A new spring's first frame takes its group's threshold from its
                    // element. (A paused spring has given its group back.)
                    if batch.common.flags[element] & ElementFlag.paused == 0 {
                        let threshold = shared.springGroups[batch.method.index].threshold(batch.group(element))
                        if batch.common.threshold[element] != threshold {
                            problems.append(
                                "element \(element) of the \(batch.method) springs of lane \(width) has threshold \(batch.common.threshold[element]), its group \(threshold)"
                            )
                        }
                    }
                    guard let i = liveIndex(batch.common.owner[element]) else { continue }
                    let spring = status[i].spring
                    if spring.width != width || spring.method != batch.method.index {
                        problems.append(
                            "record \(i) is a \(batch.method) spring of lane \(width), its status says \(spring)")
                    }
                }
            }
        }
        checkSprings(lane1, width: 1)
        checkSprings(lane2, width: 2)
        checkSprings(lane4, width: 4)
        let located = (0 ..< records.count).count { status[$0].live && status[$0].spring != .none }
        if located != springs {
            problems.append("\(located) records are located in spring batches, which hold \(springs) elements")
        }
        return problems
    }

    /// The shared tables: each entry's users are the animations (and, for
    /// configurations and timing functions, the groups and tracks) that hold it.
    private func sharedTableViolations() -> [String] {
        var problems: [String] = []
        var usage = TableUsage()
        for i in 0 ..< records.count where status[i].live {
            if let box = records[i].box {
                box.countEntries(&usage)
            } else if status[i].spring != .none {
                // A bare spring holds its element's group.
                let spring = status[i].spring
                TableUsage.count(
                    elementGroup(spring, status[i].element.index), in: &usage.springGroups[spring.method])
            }
        }
        var configurations: [Int] = []
        for (method, groups) in zip(SpringMethod.allCases, shared.springGroups) {
            problems += groups.violations(expected: usage.springGroups[method.index], configurations: &configurations)
        }
        problems += shared.springs.violations(expected: configurations)
        problems += shared.decays.violations(expected: usage.decays)
        problems += lane1.tracks.violations(expected: usage.tracks[0], timings: &usage.timings)
        problems += lane2.tracks.violations(expected: usage.tracks[1], timings: &usage.timings)
        problems += lane4.tracks.violations(expected: usage.tracks[2], timings: &usage.timings)
        problems += shared.timings.violations(expected: usage.timings)
        return problems
    }
}

/// The users of each shared table entry, counted from what holds it, for
/// ``Animator/invariantViolations()``.
struct TableUsage {
    /// By spring method (`SpringMethod.index`), then group.
    var springGroups = [[Int]](repeating: [], count: SpringMethod.allCases.count)
    var decays: [Int] = []
    var timings: [Int] = []
    /// By lane (widths 1, 2, and 3 or 4), then track.
    var tracks: [[Int]] = [[], [], []]

    /// Counts one user of entry `index`.
    static func count<Table>(_ entry: TableIndex<Table>, in counts: inout [Int]) {
        let index = entry.index
        if counts.count <= index { counts += [Int](repeating: 0, count: index + 1 - counts.count) }
        counts[index] += 1
    }
}
