import Foundation

/// A value behind a lock, for what the bench shares between threads. Not the
/// standard library's `Mutex`, which needs macOS 15 and iOS 18, above the
/// package's floor; `NSLock` is in every Foundation.
package final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    package init(_ value: Value) { self.value = value }

    /// Runs `body` with the value, which no other thread reads or changes meanwhile.
    package func withLock<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure)
        -> Result
    {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
