import CMallocCounter

import class Foundation.NSLock

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Counts the heap allocations (calls to `malloc` and friends, not bytes)
/// made by the calling thread while a closure runs, exactly.
///
/// The malloc interposer (malloc-interposer's C interface: its library, or
/// its source linked into the standalone binary) counts every thread of the
/// process; its allocation
/// hook runs on the allocating thread, so the hook counts only the thread
/// that asked, and other threads (parallel tests, the runtime's own) do not
/// disturb the count.
public enum AllocationCounter {
    /// The number of allocations `body` made on this thread.
    ///
    /// Measurements on different threads take turns (one lock), since the
    /// interposer's hook is process-wide. Warm up first: the Swift runtime
    /// allocates lazily (metadata, caches) the first time code runs.
    public static func count(_ body: () throws -> Void) rethrows -> Int {
        measuring.lock()
        defer { measuring.unlock() }
        prepare()
        counting.thread = pthread_self()
        counting.count = 0
        counting.active = true
        malloc_interposer_set_allocation_hook(countAllocation)
        malloc_interposer_enable()
        defer {
            malloc_interposer_disable()
            malloc_interposer_set_allocation_hook(nil)
            counting.active = false
        }
        try body()
        return counting.count
    }

    /// Whether the interposer is active in this process (it counts a known
    /// allocation).
    public static var isActive: Bool {
        AllocationCounter.count(allocateOnce) == 1
    }

    /// One malloc and its free. Not optimised: LLVM removes a malloc whose
    /// block is only freed (even through a global), and then a working
    /// counter counted nothing and was reported inactive in release builds.
    @inline(never)
    @_optimize(none)
    private static func allocateOnce() {
        probe = malloc(64)
        free(probe)
    }

    private static func prepare() {
        _ = counting.count
    }
}

/// The state the hook reads; touched once before hooking so that its lazy
/// initialisation never runs inside the allocator.
private final class CountingState: @unchecked Sendable {
    var thread = pthread_self()
    var count = 0
    var active = false
}

private let counting = CountingState()

/// One measurement at a time (not the standard library's `Mutex`, which
/// needs macOS 15 and iOS 18).
private let measuring = NSLock()

nonisolated(unsafe) private var probe: UnsafeMutableRawPointer?

private let countAllocation: malloc_interposer_allocation_hook_t = { _ in
    guard counting.active, pthread_equal(pthread_self(), counting.thread) != 0 else { return }
    counting.count += 1
}
