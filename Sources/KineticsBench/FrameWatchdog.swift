import Foundation
import Kinetics
import KineticsInput

/// Ends the process when an engine's frame does not return in time.
///
/// An engine runs in the bench's process, and a frame that never returns
/// cannot be stopped from inside it; without the watchdog a CI job would
/// die at its own time limit with no clue. The harness marks every frame
/// (``mark()``, one counter written by the one measuring thread) and a
/// thread started by ``start(timeout:)`` looks at the counter: when it has
/// not moved for `timeout` seconds while a configuration's frames run, it
/// writes one line naming the configuration and the frame, and exits with
/// status 65.
package enum FrameWatchdog {
    /// Frames marked since the process started.
    private static let frames = AtomicInteger(0)
    /// The frames marked when the running configuration began; -1 between configurations.
    private static let first = AtomicInteger(-1)
    /// What runs: `soa-springs 10000 spring steady 60 Hz`.
    private static let label = Locked("")
    /// What a mark counts: nil for a bench's frames, warm-up included.
    private static let unit = Locked<String?>(nil)
    private static let started = AtomicInteger(0)

    /// Told, before the process ends, which frame stalled and how long it
    /// waited (an engine worker tells its parent).
    private static let stallHandler = Locked<(@Sendable (_ what: String, _ seconds: Double) -> Void)?>(nil)

    /// Calls `handler` with the stalled frame and the seconds waited before
    /// the watchdog ends the process.
    package static func onStall(_ handler: @escaping @Sendable (_ what: String, _ seconds: Double) -> Void) {
        stallHandler.withLock { $0 = handler }
    }

    /// Starts the watchdog with `timeout` seconds, set by `option` (once
    /// per process; later calls do nothing).
    package static func start(timeout: Double, option: String = "--frame-timeout") {
        guard timeout.isFinite, timeout > 0, started.exchange(1) == 0 else { return }
        let interval = min(1, timeout / 4)
        Thread.detachNewThread {
            var seen: Int64 = -1
            var since = Date()
            while true {
                Thread.sleep(forTimeInterval: interval)
                let now = frames.load()
                let begun = first.load()
                if begun < 0 || now != seen {
                    (seen, since) = (now, Date())
                    continue
                }
                let waited = Date().timeIntervalSince(since)
                guard waited >= timeout else { continue }
                let name = label.withLock { $0 }
                let counted = unit.withLock { $0 }.map { "\($0) \(now - begun + 1)" }
                let what =
                    now < begun ? "the engine's creation" : counted ?? "frame \(now - begun + 1) (warm-up included)"
                let handler = stallHandler.withLock { $0 }
                let ending =
                    handler == nil
                    ? "an engine cannot be stopped in-process, so the run ends here" : "the engine's worker ends here"
                let message =
                    "\(programName): error: \(name): \(what) has not returned after \(String(format: "%.0f", waited)) s (\(option) \(String(format: "%g", timeout))); \(ending)\n"
                // write(2), not FileHandle, which traps when stderr cannot be
                // written: the exit status below must survive that.
                _ = Array(message.utf8).withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
                handler?(what, waited)
                exit(65)
            }
        }
    }

    /// A configuration's frames begin; ``mark()`` counts them from here, as
    /// `counting` (`tick`) where given, as frames with the warm-up otherwise.
    package static func begin(_ name: String, counting: String? = nil) {
        label.withLock { $0 = name }
        unit.withLock { $0 = counting }
        first.store(frames.load() + 1)
    }

    /// The configuration's frames are over.
    package static func end() { first.store(-1) }

    /// A frame is about to run. Called by the one measuring thread only, so
    /// a plain load and store count without a locked instruction.
    @inline(__always)
    package static func mark() {
        frames.store(frames.load() &+ 1)
    }
}
