/// A growable buffer whose elements the hot loops reach through a raw
/// pointer: no bounds checks and no dynamic exclusivity checks per element
/// (a Swift array held by a class pays both on every access).
///
/// The pointer is stable between appends; loops read ``base`` once. The
/// columns of a batch are removed from together (``ColumnList``): the last
/// element moves into the hole and the columns shrink by one, so it is O(1).
final class Column<Element>: UncheckedState<Column<Element>.Buffer> {
    /// The column's mutable state. Its fields are this file's alone.
    struct Buffer {
        fileprivate var base: UnsafeMutablePointer<Element>
        fileprivate var count = 0
        fileprivate var capacity: Int
    }

    /// The first element; stable between appends. Only this file reaches
    /// it: the rest of the module goes through ``pointer``, ``elements``
    /// and the subscript, which check their indices in debug builds.
    fileprivate var base: UnsafeMutablePointer<Element> { state.base }

    /// The elements as the batch loops reach them (``ColumnPointer``):
    /// checked against the capacity in debug builds, a bare pointer in
    /// release builds. Valid until the column next grows.
    @inline(__always)
    var pointer: ColumnPointer<Element> { ColumnPointer(base, capacity: capacity) }

    /// The elements, read-only, as a buffer of `count`. Valid until the
    /// column next changes.
    @inline(__always)
    var elements: UnsafeBufferPointer<Element> { UnsafeBufferPointer(start: base, count: count) }

    var count: Int { state.count }
    var capacity: Int { state.capacity }

    init(capacity: Int = 16) {
        super.init(Buffer(base: .allocate(capacity: capacity), capacity: capacity))
    }

    deinit {
        base.deinitialize(count: count)
        base.deallocate()
    }

    /// Appends, doubling the capacity when full. (The counts below use
    /// wrapping arithmetic: a count is within the capacity, so it cannot
    /// overflow, and the check would cost an instruction a column.)
    func append(_ element: Element) {
        if count == capacity { grow(to: capacity * 2) }
        (base + count).initialize(to: element)
        state.count &+= 1
    }

    /// Stores `element` at slot `index` of a ``CountedSlots`` table:
    /// overwrites a recycled slot, or appends a new one (`index == count`).
    func store<Table>(_ element: Element, at index: TableIndex<Table>) {
        if index.index == count { append(element) } else { self[index.index] = element }
    }

    /// Appends `element` until the column holds at least `minimum`
    /// elements, and as many more as its capacity then allows (so that its
    /// count is its capacity: a ``ColumnPointer``'s checks are then those
    /// of the count).
    func fill(_ minimum: Int, with element: Element) {
        reserve(minimum)
        while count < capacity { appendWithinCapacity(element) }
    }

    /// Makes the column `newCount` copies of `element`, at a capacity of
    /// exactly `newCount` (a table rebuilt at a new size).
    func reset(count newCount: Int, to element: Element) {
        precondition(newCount >= 0, "column size \(newCount) is negative")
        base.deinitialize(count: count)
        if newCount != capacity {
            base.deallocate()
            state.base = .allocate(capacity: newCount)
            state.capacity = newCount
        }
        base.initialize(repeating: element, count: newCount)
        state.count = newCount
    }

    /// Makes room for `minimum` elements without allocating again.
    func reserve(_ minimum: Int) {
        if minimum > capacity { grow(to: max(minimum, capacity * 2)) }
    }

    private func grow(to newCapacity: Int) {
        let grown = UnsafeMutablePointer<Element>.allocate(capacity: newCapacity)
        grown.moveInitialize(from: base, count: count)
        base.deallocate()
        state.base = grown
        state.capacity = newCapacity
    }

    /// Moves the last element into `index` and shrinks by one: one
    /// element's removal from a ``ColumnList``, done to each column.
    func removeSwapping(at index: Int) {
        precondition(index >= 0 && index < count, "column index \(index) out of 0..<\(count)")
        let last = count - 1
        if index != last {
            base[index] = (base + last).move()
        } else {
            (base + last).deinitialize(count: 1)
        }
        state.count = last
    }

    /// Appends where the capacity is known to suffice: no growth, and in
    /// release builds no check (debug builds check the capacity).
    @inline(__always)
    func appendWithinCapacity(_ element: Element) {
        assert(count < capacity, "appendWithinCapacity on a full column (capacity \(capacity))")
        (base + count).initialize(to: element)
        state.count &+= 1
    }

    /// The last element, if any.
    var last: Element? { count > 0 ? base[count - 1] : nil }

    /// Removes and returns the last element, if any.
    func popLast() -> Element? {
        guard count > 0 else { return nil }
        state.count &-= 1
        return (base + count).move()
    }

    /// Appends the `added` elements that `body` initializes through the
    /// pointer it is given (to the first of them).
    @inline(__always)
    func append(count added: Int, _ body: (UnsafeMutablePointer<Element>) -> Void) {
        reserve(count + added)
        body(base + count)
        state.count += added
    }

    /// Drops every element from `newCount` on.
    func truncate(to newCount: Int) {
        precondition(newCount >= 0 && newCount <= count, "column size \(newCount) out of 0...\(count)")
        (base + newCount).deinitialize(count: count - newCount)
        state.count = newCount
    }

    /// Copies element `source` over element `destination`.
    @inline(__always)
    func copy(from source: Int, to destination: Int) {
        precondition(
            source >= 0 && source < count && destination >= 0 && destination < count, "column index out of 0..<\(count)"
        )
        base[destination] = base[source]
    }

    /// Element `index`, in place: a field written through it is written
    /// where it lives, with no copy of the element (an element holding a
    /// reference is not retained and released for it). The index is checked
    /// in every build; the address is valid until the column next grows.
    subscript(index: Int) -> Element {
        unsafeAddress {
            precondition(UInt(bitPattern: index) < UInt(bitPattern: count), "column index \(index) out of 0..<\(count)")
            return UnsafePointer(base + index)
        }
        unsafeMutableAddress {
            precondition(UInt(bitPattern: index) < UInt(bitPattern: count), "column index \(index) out of 0..<\(count)")
            return base + index
        }
    }
}

/// A column's elements as the batch loops reach them: its base pointer
/// alone in release builds (the loops' indices are in range by
/// construction, and the layout is a plain pointer's), and in debug builds
/// its capacity too, which every index is checked against. Valid until the
/// column next grows.
struct ColumnPointer<Element> {
    fileprivate let base: UnsafeMutablePointer<Element>
    #if DEBUG
        let capacity: Int
    #endif

    @inline(__always)
    init(_ column: Column<Element>) {
        self = column.pointer
    }

    /// `capacity` elements from `base` (for other storage than a column's:
    /// a lane's values).
    @inline(__always)
    init(_ base: UnsafeMutablePointer<Element>, capacity: Int) {
        self.base = base
        #if DEBUG
            self.capacity = capacity
        #endif
    }

    /// The same memory as elements of `type`, of the same size and alignment.
    @inline(__always)
    func assumingMemoryBound<Other>(to type: Other.Type) -> ColumnPointer<Other> {
        precondition(
            MemoryLayout<Other>.stride == MemoryLayout<Element>.stride, "a column's elements retyped to another size")
        #if DEBUG
            let capacity = capacity
        #else
            let capacity = 0
        #endif
        return ColumnPointer<Other>(
            UnsafeMutableRawPointer(base).assumingMemoryBound(to: Other.self), capacity: capacity)
    }

    /// The address of element `index` (checked in debug builds), for a
    /// field read or written in place through it.
    @inline(__always)
    func address(_ index: Int) -> UnsafeMutablePointer<Element> {
        check(index)
        return base + index
    }

    /// Stops the process (debug builds) unless `index` is within the capacity.
    @inline(__always)
    func check(_ index: Int) {
        #if DEBUG
            precondition(index >= 0 && index < capacity, "column index \(index) out of 0..<\(capacity)")
        #endif
    }

    @inline(__always)
    subscript(index: Int) -> Element {
        unsafeAddress {
            check(index)
            return UnsafePointer(base + index)
        }
        nonmutating unsafeMutableAddress {
            check(index)
            return base + index
        }
    }
}

/// Something done to one column, which ``ColumnList/forEachColumn(_:)``
/// does to every column of a batch.
protocol ColumnOperation {
    func apply<Element>(to column: Column<Element>)
    /// The first element it writes, whose neighbours may change with it
    /// (`Int.max` when it writes none).
    var firstChanged: Int { get }
}

/// Parallel columns, one element per animation, listed once (in
/// ``forEachColumn(_:)``): copying, truncating and removing an element are
/// written over that list, so a new column cannot be forgotten in one of
/// them.
protocol ColumnList: AnyObject {
    /// Applies `operation` to every column that holds an element per animation.
    func forEachColumn<Operation: ColumnOperation>(_ operation: Operation)
}

extension ColumnList {
    /// Copies element `source` over element `destination` in every column.
    @inline(__always)
    func copyElement(from source: Int, to destination: Int) {
        forEachColumn(CopyElement(source: source, destination: destination))
    }

    /// Drops every element from `newCount` on, in every column.
    @inline(__always)
    func truncateColumns(to newCount: Int) {
        forEachColumn(Truncate(count: newCount))
    }

    /// Removes element `index` from every column: the last element moves
    /// into its place and each column shrinks by one.
    @inline(__always)
    func removeElement(at index: Int) {
        forEachColumn(RemoveSwapping(index: index))
    }

    /// Makes room in every column for `count` elements.
    func reserveColumns(_ count: Int) {
        forEachColumn(Reserve(count: count))
    }
}

private struct Reserve: ColumnOperation {
    let count: Int
    var firstChanged: Int { .max }

    func apply<Element>(to column: Column<Element>) { column.reserve(count) }
}

private struct CopyElement: ColumnOperation {
    let source: Int
    let destination: Int
    var firstChanged: Int { destination }

    @inline(__always)
    func apply<Element>(to column: Column<Element>) { column.copy(from: source, to: destination) }
}

private struct Truncate: ColumnOperation {
    let count: Int
    var firstChanged: Int { .max }

    @inline(__always)
    func apply<Element>(to column: Column<Element>) { column.truncate(to: count) }
}

private struct RemoveSwapping: ColumnOperation {
    let index: Int
    var firstChanged: Int { index }

    @inline(__always)
    func apply<Element>(to column: Column<Element>) { column.removeSwapping(at: index) }
}

extension ColumnPointer where Element == Bool {
    /// Stores elements `index` and `index + 1` from `bits`, each lane 0
    /// (false) or 1 (true): one 2-byte store.
    @inline(__always)
    func setPair(_ index: Int, _ bits: SIMD2<UInt64>) {
        check(index &+ 1)
        let word = UInt16(truncatingIfNeeded: bits[0] | bits[1] &<< 8)
        UnsafeMutableRawPointer(base + index).storeBytes(of: word, as: UInt16.self)
    }
}

extension ColumnPointer where Element == Double {
    /// Elements `index` and `index + 1`, in one SIMD register.
    @inline(__always)
    func pair(_ index: Int) -> SIMD2<Double> {
        check(index &+ 1)
        return UnsafeRawPointer(base + index).loadUnaligned(as: SIMD2<Double>.self)
    }

    /// Stores `pair` in elements `index` and `index + 1`.
    @inline(__always)
    func setPair(_ index: Int, _ pair: SIMD2<Double>) {
        check(index &+ 1)
        UnsafeMutableRawPointer(base + index).storeBytes(of: pair, as: SIMD2<Double>.self)
    }
}
