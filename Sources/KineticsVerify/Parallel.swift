import Dispatch
import Foundation
import Kinetics

/// Runs `count` independent jobs on up to `jobs` threads and returns their
/// results in order; `progress` is told after each job how many are done.
///
/// Each job writes only its own slot of the result buffer, so the workers
/// share nothing but the job counter.
func parallelMap<Result: Sendable>(
    count: Int, jobs: Int, progress: @escaping @Sendable (Int) -> Void,
    _ body: @escaping @Sendable (Int) throws -> Result
) throws -> [Result] {
    guard count > 0 else { return [] }
    let slots = Slots<Result>(count: count)
    let next = AtomicInteger(0)
    let done = AtomicInteger(0)
    let failure = FirstFailure()
    let workers = max(1, min(jobs, count))
    DispatchQueue.concurrentPerform(iterations: workers) { _ in
        while true {
            let index = Int(next.add(1)) - 1
            guard index < count, failure.error == nil else { return }
            do {
                slots.store(try body(index), at: index)
            } catch {
                failure.record(error)
                return
            }
            progress(Int(done.add(1)))
        }
    }
    if let error = failure.error { throw error }
    return slots.results()
}

/// The first error that a job threw (behind a lock: the standard library's
/// `Mutex` needs macOS 15 and iOS 18).
private final class FirstFailure: @unchecked Sendable {
    private let lock = NSLock()
    private var first: (any Error)?

    var error: (any Error)? {
        lock.lock()
        defer { lock.unlock() }
        return first
    }

    func record(_ error: any Error) {
        lock.lock()
        defer { lock.unlock() }
        first = first ?? error
    }
}

/// A fixed array of result slots written from several threads, each slot by
/// exactly one of them, and read after they have all finished.
private final class Slots<Result>: @unchecked Sendable {
    private let buffer: UnsafeMutableBufferPointer<Result?>

    init(count: Int) {
        buffer = .allocate(capacity: count)
        buffer.initialize(repeating: nil)
    }

    deinit {
        buffer.deinitialize()
        buffer.deallocate()
    }

    func store(_ result: Result, at index: Int) { buffer[index] = result }

    func results() -> [Result] { buffer.map { $0! } }
}
