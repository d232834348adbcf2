/// A timing function as the hot loops evaluate it: linear and table-backed
/// beziers inline (a table's split segments and ends through its own slow
/// path), everything else (WebKit's and the precise solver, steps) through
/// ``TimingTable/evaluateSlowly(_:_:)``.
/// It holds no references, so reading it costs no reference counting.
struct TimingEvaluator {
    enum Form: UInt8 {
        case linear
        case table
        case slow
    }

    var form: Form
    /// The table as evaluation reads it (see ``BezierTable``; the timing
    /// table keeps the table alive).
    var table: BezierTable.Lookup?
    /// The entry in the timing table.
    var index: TimingIndex

    /// The eased fraction at `x`.
    @inline(__always)
    func evaluate(_ x: Double, _ timings: TimingTable) -> Double {
        switch form {
        case .linear:
            return x
        case .table:
            // The ends too, as ``BezierTable/solve(_:)`` gives them.
            return table.unsafelyUnwrapped.solve(x)
        case .slow:
            return timings.evaluateSlowly(index, x)
        }
    }
}

/// The timing functions in use, shared by every animation with the same
/// function, bezier method and (for WebKit's tolerance, Pop's
/// `1/(1000·duration)`) duration; a fast bezier's table is built once for
/// all of them.
final class TimingTable: UncheckedState<TimingTable.State> {
    struct Key: Hashable {
        let function: TimingFunction
        let bezier: BezierMethod
        let epsilon: Double
    }

    let evaluators = Column<TimingEvaluator>()
    struct State {
        var slots = SharedSlots<Key, TimingSlot>()
        var tables: [BezierTable?] = []
        /// Entries nobody uses, oldest first, kept so that the next animation
        /// along the same curve does not build its table again (a UI often runs
        /// one ease-in-out at a time); beyond ``idleLimit`` the oldest goes.
        var idle: [TimingIndex] = []
    }
    static let idleLimit = 16

    init() {
        super.init(State())
        state.idle.reserveCapacity(Self.idleLimit + 1)
    }

    /// The entry for `function` solved with `bezier` over `duration`, counting one more user.
    func acquire(_ function: TimingFunction, bezier: BezierMethod, duration: Double) -> TimingIndex {
        let key = Key(function: function, bezier: bezier, epsilon: bezier == .webkit ? 1 / (1000 * duration) : 0)
        if let index = state.slots.retain(key) {
            if state.slots.users(index.index) == 1, let position = state.idle.firstIndex(of: index) {
                state.idle.remove(at: position)
            }
            return index
        }
        let index = state.slots.insert(key)
        var evaluator = TimingEvaluator(form: .slow, index: index)
        var table: BezierTable?
        switch function.shape {
        case .linear:
            evaluator.form = .linear
        case .bezier(let curve) where bezier == .fast:
            let built = BezierTable(curve)
            evaluator.form = .table
            evaluator.table = built.lookup
            table = built
        case .bezier, .steps:
            break
        }
        state.tables.store(table, at: index)
        evaluators.store(evaluator, at: index)
        return index
    }

    /// Counts one user fewer; at zero the entry waits, idle, for a new user
    /// and is recycled when too many others wait.
    ///
    /// Out of line: the batches call it once per run of finished elements,
    /// and inlined it would crowd their loops.
    @inline(never)
    func release(_ index: TimingIndex, count released: Int = 1) {
        guard state.slots.release(index, count: released) else { return }
        state.idle.append(index)
        if state.idle.count > Self.idleLimit { recycle(state.idle.removeFirst()) }
    }

    /// Every way the table disagrees with the users counted from the
    /// animations and tracks; an idle entry has none.
    func violations(expected: [Int]) -> [String] {
        var problems = state.slots.violations(expected: expected, name: "timing function")
        for index in state.idle where state.slots.users(index.index) != 0 {
            problems.append("idle timing function \(index) is used")
        }
        return problems
    }

    private func recycle(_ index: TimingIndex) {
        state.slots.recycle(index)
        evaluators[index.index] = TimingEvaluator(form: .slow, index: index)
        state.tables[index.index] = nil
    }

    /// The eased fraction at `x` the slow way: WebKit's and the precise
    /// solver, steps (a table's evaluator solves with its own lookup).
    @inline(never)
    func evaluateSlowly(_ index: TimingIndex, _ x: Double) -> Double {
        let key = state.slots.keys[index.index]
        return key.function.transform(x, method: key.bezier, epsilon: key.epsilon)
    }
}
