import Dispatch
import Synchronization

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
    let next = Atomic<Int>(0)
    let done = Atomic<Int>(0)
    let failure = Mutex<(any Error)?>(nil)
    let workers = max(1, min(jobs, count))
    DispatchQueue.concurrentPerform(iterations: workers) { _ in
        while true {
            let index = next.add(1, ordering: .relaxed).oldValue
            guard index < count, failure.withLock({ $0 == nil }) else { return }
            do {
                slots.store(try body(index), at: index)
            } catch {
                failure.withLock { $0 = $0 ?? error }
                return
            }
            progress(done.add(1, ordering: .relaxed).newValue)
        }
    }
    if let error = failure.withLock({ $0 }) { throw error }
    return slots.results()
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
