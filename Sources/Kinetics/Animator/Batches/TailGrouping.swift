/// Puts the springs a batch gained since its last tick next to the other
/// springs of their group (a stable sort by group of that tail, or of each
/// window of it: ``SpringBatch`` `groupingWindow`), so that
/// the straight path finds neighbours it can step two at a time
/// (``SpringBatch`` `pairStep`): springs added together mostly share a few
/// groups, but often interleaved (every other one a different spring).
///
/// Springs of a `pop` or `fixed` group all start in the tick that makes
/// it (older groups have moved on with their clocks), so a group sorted
/// once stays contiguous until a removal moves the batch's last spring into
/// its run, or one of its springs restarts in place in another group: the
/// straight path then steps that one alone.
///
/// The sort changes no value written: it leaves the tail as it is when two
/// of its springs write one property (the later one's value is the one
/// that stays), and the springs before the tail keep their places. What it
/// changes is the order within the tail, so springs of one tail that
/// finish in one frame report their ends in the new order (as a removal's
/// move of the last spring changes it already).
final class TailGrouping {
    /// By group index: the group's number among the tail's groups, or -1.
    private let numbers = Column<Int32>()
    /// The tail's groups in the order found, then where each one's springs go.
    private let groups = Column<Int32>()
    private let positions = Column<Int32>()
    /// By new place in the tail: the old place.
    private let order = Column<Int32>()
    /// By property slot: the stamp of the last sort that saw a tail spring
    /// write it, to find two that write one property.
    private let slotStamps = Column<UInt32>()
    private var stamp: UInt32 = 0
    /// Room for ``order``'s capacity of elements of ``largestStride``.
    private var scratch: UnsafeMutableRawPointer
    /// The largest stride of the batch's columns.
    let largestStride: Int

    /// A grouping for a batch whose columns' elements are at most
    /// `largestStride` bytes apart.
    init(largestStride: Int) {
        self.largestStride = largestStride
        scratch = .allocate(byteCount: 0, alignment: 16)
    }

    deinit { scratch.deallocate() }

    /// Makes room to group a tail of up to `elements` springs, one of which
    /// writes `slot`: what a spring added needs, reserved when it is added,
    /// so that a tick's grouping allocates nothing.
    @inline(__always)
    func reserve(elements: Int, slot: Int) {
        if elements > order.count || slot >= slotStamps.count { grow(elements: elements, slot: slot) }
    }

    /// Makes room for springs of group index `group`.
    @inline(__always)
    func reserve(group: Int) {
        if group >= numbers.count { grow(group: group) }
    }

    private func grow(elements: Int, slot: Int) {
        if elements > order.count {
            let capacity = max(elements, 2 * order.count)
            order.fill(capacity, with: 0)
            groups.fill(capacity, with: 0)
            positions.fill(capacity, with: 0)
            scratch.deallocate()
            scratch = .allocate(byteCount: order.capacity * largestStride, alignment: 16)
        }
        if slot >= slotStamps.count { slotStamps.fill(max(slot + 1, 2 * slotStamps.count), with: 0) }
    }

    private func grow(group: Int) {
        numbers.fill(max(group + 1, 2 * numbers.count), with: -1)
    }

    /// The order that groups `count` springs from `start` (their groups in
    /// `group`, their slots in `slot`) by group, stably: by new place, the
    /// old place in the tail; nil when the tail is grouped already (one
    /// group, or the order found is the tail's own) or two of its springs
    /// write one property.
    func order(
        start: Int, count: Int, group: ColumnPointer<GroupIndex>, slot: ColumnPointer<PropertySlot>
    ) -> Permutation? {
        guard count > 1 else { return nil }
        reserve(elements: count, slot: 0)
        // Every spring's group and slot had room made when it was set
        // (``reserve(group:)``, ``reserve(elements:slot:)``); checked once
        // a spring, then the columns are reached without their checks.
        let groupLimit = self.numbers.count
        let slotLimit = slotStamps.count
        stamp &+= 1
        if stamp == 0 {
            // Stamps wrapped: forget every old one.
            for index in 0 ..< slotStamps.count { slotStamps[index] = 0 }
            stamp = 1
        }
        let numbers = ColumnPointer(self.numbers)
        let stamps = ColumnPointer(slotStamps)
        let found = ColumnPointer(groups)
        let positions = ColumnPointer(self.positions)
        let order = ColumnPointer(self.order)
        // Each group's springs counted under a number, in the order found.
        var distinct = 0
        var distinctSlots = true
        for element in start ..< start &+ count {
            let g = group[element].index
            let s = slot[element].index
            precondition(
                UInt(bitPattern: g) < UInt(bitPattern: groupLimit) && UInt(bitPattern: s) < UInt(bitPattern: slotLimit),
                "a spring's group or slot without room in the tail's grouping")
            var number = Int(numbers[g])
            if number < 0 {
                number = distinct
                numbers[g] = Int32(number)
                found[number] = Int32(g)
                positions[number] = 0
                distinct &+= 1
            }
            positions[number] &+= 1
            distinctSlots = distinctSlots && stamps[s] != stamp
            stamps[s] = stamp
        }
        defer {
            for number in 0 ..< distinct { numbers[Int(found[number])] = -1 }
        }
        guard distinctSlots, distinct > 1 else { return nil }
        // Where each group's springs start, in the order the groups were found.
        var sum: Int32 = 0
        for number in 0 ..< distinct {
            let size = positions[number]
            positions[number] = sum
            sum &+= size
        }
        var moves = false
        for element in start ..< start &+ count {
            let number = Int(numbers[group[element].index])
            let place = Int(positions[number])
            positions[number] = Int32(truncatingIfNeeded: place &+ 1)
            order[place] = Int32(element &- start)
            moves = moves || place != element &- start
        }
        guard moves else { return nil }
        return Permutation(
            start: start, count: count, order: order, scratch: scratch, largestStride: largestStride)
    }

    /// Puts the tail of every column in a new order: the element at new
    /// place `j` is the one that was at `order[j]`.
    struct Permutation: ColumnOperation {
        let start: Int
        let count: Int
        let order: ColumnPointer<Int32>
        let scratch: UnsafeMutableRawPointer
        let largestStride: Int
        var firstChanged: Int { start }

        func apply<Element>(to column: Column<Element>) {
            let stride = MemoryLayout<Element>.stride
            precondition(_isPOD(Element.self) && stride <= largestStride, "a column of \(Element.self)")
            precondition(column.count >= start + count, "a column shorter than the batch")
            let tail = column.pointer.address(start)
            scratch.copyMemory(from: tail, byteCount: count * stride)
            for place in 0 ..< count {
                tail[place] = scratch.loadUnaligned(fromByteOffset: Int(order[place]) * stride, as: Element.self)
            }
        }
    }
}
