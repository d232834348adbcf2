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
        var totals: [Substring] = []
        for line in text.split(separator: "\n") {
            if line.hasPrefix("events:") {
                names = line.dropFirst("events:".count).split(separator: " ")
            } else if line.hasPrefix("totals:") || (totals.isEmpty && line.hasPrefix("summary:")) {
                totals = line.drop { $0 != ":" }.dropFirst().split(separator: " ")
            }
        }
        guard frames > 0, animations > 0, let events = CallgrindEvents(names: names, values: totals) else {
            return nil
        }
        let perFrame = events.instructions / Double(frames)
        return InstructionCount(
            frames: frames, instructionsPerFrame: perFrame, instructionsPerAnimation: perFrame / Double(animations),
            l1MissesPerFrame: events.l1Misses / Double(frames),
            lastLevelMissesPerFrame: events.lastLevelMisses / Double(frames),
            estimatedCyclesPerFrame: events.estimatedCycles / Double(frames), valgrind: valgrind)
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

/// The events of one callgrind total or cost line, with the cache
/// simulation's misses summed as ``InstructionCount`` reports them.
struct CallgrindEvents {
    var instructions: Double
    var l1Misses: Double
    var lastLevelMisses: Double

    /// Instructions + 10 × first-level misses + 100 × last-level misses.
    var estimatedCycles: Double { instructions + 10 * l1Misses + 100 * lastLevelMisses }

    /// The values of `names` in order; callgrind leaves out trailing zeros
    /// (`695 316 42` for nine events), so missing ones are 0. Nil without
    /// an `Ir` value or with a value that is not a number.
    init?(names: [Substring], values: [Substring]) {
        let numbers = values.compactMap { Double($0) }
        guard !numbers.isEmpty, numbers.count == values.count, numbers.count <= names.count,
            let instructionIndex = names.firstIndex(of: "Ir"), instructionIndex < numbers.count
        else { return nil }
        func sum(_ keys: [Substring]) -> Double {
            keys.reduce(0) { total, key in
                guard let index = names.firstIndex(of: key), index < numbers.count else { return total }
                return total + numbers[index]
            }
        }
        instructions = numbers[instructionIndex]
        l1Misses = sum(["I1mr", "D1mr", "D1mw"])
        lastLevelMisses = sum(["ILmr", "DLmr", "DLmw"])
    }

    init() {
        instructions = 0
        l1Misses = 0
        lastLevelMisses = 0
    }

    static func += (lhs: inout CallgrindEvents, rhs: CallgrindEvents) {
        lhs.instructions += rhs.instructions
        lhs.l1Misses += rhs.l1Misses
        lhs.lastLevelMisses += rhs.lastLevelMisses
    }

    /// The calls into each function whose name contains one of
    /// `functions` in a callgrind output file, and their inclusive events
    /// summed over every call site: with collection toggled on inside
    /// those functions alone, that is what each of them executed.
    static func calls(in text: String, to functions: [String]) -> [String: (calls: Int, events: CallgrindEvents)] {
        var names: [Substring] = []
        var compressed: [Substring: Substring] = [:]
        var found: [String: (calls: Int, events: CallgrindEvents)] = [:]
        var callee: String?
        var pendingCalls: Int?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("events:") {
                names = line.dropFirst("events:".count).split(separator: " ")
            } else if line.hasPrefix("cfn=") {
                // `cfn=(12) name` names id 12; a later `cfn=(12)` refers to it.
                let rest = line.dropFirst("cfn=".count)
                var name = rest
                if rest.hasPrefix("("), let close = rest.firstIndex(of: ")") {
                    let id = rest[...close]
                    name = rest[rest.index(after: close)...].drop { $0 == " " }
                    if name.isEmpty { name = compressed[id] ?? "" } else { compressed[id] = name }
                }
                callee = functions.first { name.contains($0) }
            } else if line.hasPrefix("fn=") {
                let rest = line.dropFirst("fn=".count)
                if rest.hasPrefix("("), let close = rest.firstIndex(of: ")") {
                    let name = rest[rest.index(after: close)...].drop { $0 == " " }
                    if !name.isEmpty { compressed[rest[...close]] = name }
                }
                callee = nil
            } else if line.hasPrefix("calls=") {
                pendingCalls = callee == nil ? nil : Int(line.dropFirst("calls=".count).split(separator: " ")[0])
            } else if let calls = pendingCalls, let function = callee {
                // The line after `calls=`: the call's position, then its inclusive events.
                pendingCalls = nil
                callee = nil
                let values = line.split(separator: " ").dropFirst()
                guard let events = CallgrindEvents(names: names, values: Array(values)) else { continue }
                var entry = found[function] ?? (0, CallgrindEvents())
                entry.calls += calls
                entry.events += events
                found[function] = entry
            }
        }
        return found
    }
}
