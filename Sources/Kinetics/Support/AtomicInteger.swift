import CKineticsSupport

/// A 64-bit integer that any thread may read and change, on every platform
/// and OS version Kinetics supports (the standard library's `Atomic` needs
/// macOS 15 and iOS 18). Loads, stores and additions are relaxed: they order
/// nothing but themselves, which is all a counter needs.
package final class AtomicInteger: @unchecked Sendable {
    @usableFromInline let storage: UnsafeMutablePointer<Int64>

    /// An integer that starts at `value`.
    package init(_ value: Int64) {
        storage = .allocate(capacity: 1)
        storage.initialize(to: value)
    }

    deinit { storage.deallocate() }

    /// Adds `operand` and returns the new value.
    @inlinable @discardableResult
    package func add(_ operand: Int64) -> Int64 {
        kinetics_atomic_fetch_add(storage, operand) &+ operand
    }

    /// The value now.
    @inlinable
    package func load() -> Int64 { kinetics_atomic_load(storage) }

    /// Sets the value.
    @inlinable
    package func store(_ value: Int64) { kinetics_atomic_store(storage, value) }

    /// Sets the value and returns the one it replaced.
    @inlinable
    package func exchange(_ value: Int64) -> Int64 { kinetics_atomic_exchange(storage, value) }
}
