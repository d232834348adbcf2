import Foundation

/// What the measured frames of a configuration execute, counted by
/// valgrind's callgrind with its cache simulation (`--count instructions`):
/// unlike times, these repeat run after run for the same binary.
///
/// Only the timed frames are counted (callgrind collects inside
/// `BenchRunner.countedFrame` alone): not the engine's creation, the
/// warm-up, the clock reads, the calibration or the value check.
public struct InstructionCount: Codable, Sendable, Equatable {
    /// How many frames were counted: every measured frame (for mass
    /// completion and bursts, the event frame of each repetition).
    public var frames: Int
    /// Instructions executed per frame.
    public var instructionsPerFrame: Double
    /// Instructions per frame per animation.
    public var instructionsPerAnimation: Double
    /// Simulated first-level misses per frame: instruction fetches, data
    /// reads and data writes (I1mr + D1mr + D1mw).
    public var l1MissesPerFrame: Double
    /// Simulated last-level misses per frame (ILmr + DLmr + DLmw).
    public var lastLevelMissesPerFrame: Double
    /// Estimated cycles per frame: instructions + 10 × first-level misses +
    /// 100 × last-level misses, the estimate KCachegrind and Cachegrind's
    /// documentation use; a model, not this machine's cycles.
    public var estimatedCyclesPerFrame: Double
    /// `valgrind --version`.
    public var valgrind: String

    /// The counts of a callgrind output file (the `events:` and `totals:`
    /// or `summary:` lines, with the cache simulation's events; a missing
    /// trailing value is 0, as callgrind writes them) over
    /// `frames` frames of `animations` animations; nil when the file has
    /// no instruction total.
    public static func parse(callgrindOutput text: String, frames: Int, animations: Int, valgrind: String)
        -> InstructionCount?
    {
        var names: [Substring] = []
        var totals: [Double] = []
        for line in text.split(separator: "\n") {
            if line.hasPrefix("events:") {
                names = line.dropFirst("events:".count).split(separator: " ")
            } else if line.hasPrefix("totals:") || (totals.isEmpty && line.hasPrefix("summary:")) {
                totals = line.drop { $0 != ":" }.dropFirst().split(separator: " ").compactMap { Double($0) }
            }
        }
        // Callgrind leaves out trailing zeros: `totals: 695 316 42` for nine events.
        guard frames > 0, animations > 0, !totals.isEmpty, totals.count <= names.count else { return nil }
        totals += [Double](repeating: 0, count: names.count - totals.count)
        let event = Dictionary(zip(names.map(String.init), totals), uniquingKeysWith: { first, _ in first })
        guard let instructions = event["Ir"] else { return nil }
        func sum(_ keys: [String]) -> Double { keys.reduce(0) { $0 + (event[$1] ?? 0) } }
        let l1 = sum(["I1mr", "D1mr", "D1mw"])
        let lastLevel = sum(["ILmr", "DLmr", "DLmw"])
        let perFrame = instructions / Double(frames)
        return InstructionCount(
            frames: frames, instructionsPerFrame: perFrame, instructionsPerAnimation: perFrame / Double(animations),
            l1MissesPerFrame: l1 / Double(frames), lastLevelMissesPerFrame: lastLevel / Double(frames),
            estimatedCyclesPerFrame: (instructions + 10 * l1 + 100 * lastLevel) / Double(frames),
            valgrind: valgrind)
    }

    /// The frames a configuration's run counts: every measured frame, or
    /// one event frame a repetition.
    public static func countedFrames(_ configuration: BenchConfiguration) -> Int {
        switch configuration.scenario {
        case .massCompletion, .burst: configuration.repetitions
        case .steady, .jitter, .churn, .retargetStorm: configuration.repetitions * configuration.frames
        }
    }

    /// The change of `current` from `baseline` in instructions per frame,
    /// in percent.
    public static func change(_ current: InstructionCount, from baseline: InstructionCount) -> Double {
        (current.instructionsPerFrame / baseline.instructionsPerFrame - 1) * 100
    }
}
