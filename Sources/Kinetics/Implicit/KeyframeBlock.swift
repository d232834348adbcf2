/// Collects the sets made inside ``Animator/keyframes(duration:delay:fillMode:completion:_:)``
/// and turns each value's sequence of sets into one keyframe animation, as
/// UIKit's keyframe blocks do.
public final class KeyframeBlock {
    /// One captured set: where in the block it moves, to what, along what.
    struct Step {
        let start: Double
        let end: Double
        let value: SIMD4<Double>
        let timing: TimingFunction
    }

    /// One layer's key: its steps and how to make its animation.
    final class Track {
        var steps: [Step] = []
        let start: SIMD4<Double>
        let make:
            (_ values: [SIMD4<Double>], _ keyTimes: [Double], _ timings: [TimingFunction]) throws(ParameterError) ->
                Void

        init(
            start: SIMD4<Double>,
            make: @escaping ([SIMD4<Double>], [Double], [TimingFunction]) throws(ParameterError) -> Void
        ) {
            self.start = start
            self.make = make
        }
    }

    private var current: (start: Double, end: Double, timing: TimingFunction)?
    var tracks: [(layer: ObjectIdentifier, key: String, track: Track)] = []

    init() {}

    /// Sets made in `body` move their values during `[relativeStart,
    /// relativeStart + relativeDuration]` of the block (fractions of its
    /// duration), along `timing`; before, each value holds where the
    /// previous keyframe left it.
    ///
    /// - Throws: ``ParameterError`` for a start or duration outside [0, 1]
    ///   or ending after 1, or whatever `body` throws.
    public func keyframe(
        relativeStart: Double, relativeDuration: Double, timing: TimingFunction = .linear, _ body: () throws -> Void
    ) throws {
        try Check.within(relativeStart, 0 ... 1, "relativeStart")
        try Check.within(relativeDuration, 0 ... 1, "relativeDuration")
        guard relativeStart + relativeDuration <= 1 + 1e-12 else {
            throw ParameterError(
                parameter: "relativeDuration", value: relativeDuration, accepted: "at most 1 - relativeStart")
        }
        let outer = current
        current = (relativeStart, min(1, relativeStart + relativeDuration), timing)
        defer { current = outer }
        try body()
    }

    /// Records a set of `key` on `layer` inside a keyframe; false outside one.
    func record(
        layer: ImplicitLayer, key: String, value: SIMD4<Double>, start: @autoclosure () -> SIMD4<Double>,
        make: @escaping ([SIMD4<Double>], [Double], [TimingFunction]) throws(ParameterError) -> Void
    ) -> Bool {
        guard let current else { return false }
        let id = ObjectIdentifier(layer)
        let track: Track
        if let found = tracks.first(where: { $0.layer == id && $0.key == key }) {
            track = found.track
        } else {
            track = Track(start: start(), make: make)
            tracks.append((id, key, track))
        }
        track.steps.append(Step(start: current.start, end: current.end, value: value, timing: current.timing))
        return true
    }

    /// A track's key frames: the value holds between steps and moves along
    /// each step's timing during it; overlapping steps start where the
    /// previous one ended.
    static func frames(_ track: Track) -> (values: [SIMD4<Double>], keyTimes: [Double], timings: [TimingFunction]) {
        var values = [track.start]
        var keyTimes = [0.0]
        var timings: [TimingFunction] = []
        for step in track.steps.sorted(by: { $0.start < $1.start }) {
            let start = max(step.start, keyTimes.last!)
            if start > keyTimes.last! {
                // Hold until the step starts.
                values.append(values.last!)
                keyTimes.append(start)
                timings.append(.linear)
            }
            values.append(step.value)
            keyTimes.append(max(step.end, start))
            timings.append(step.timing)
        }
        if keyTimes.last! < 1 {
            values.append(values.last!)
            keyTimes.append(1)
            timings.append(.linear)
        }
        return (values, keyTimes, timings)
    }
}

extension Animator {
    /// Runs `body` as a keyframe block of `duration` seconds: the values that
    /// ``ImplicitLayer/set(_:to:)`` sets inside ``KeyframeBlock/keyframe(relativeStart:relativeDuration:timing:_:)``
    /// calls are captured, and each one's sequence becomes one keyframe
    /// animation from its presentation value, starting after `delay`, with
    /// `fillMode` (each the current transaction's unless given).
    /// `completion` runs once all of them have stopped (`false` if one was
    /// cancelled), at once if none was made.
    ///
    /// - Throws: ``ParameterError`` for a duration or delay out of range, or
    ///   whatever `body` throws (then nothing is animated).
    public func keyframes(
        duration: Double, delay: Double? = nil, fillMode: FillMode? = nil,
        completion: ((_ finished: Bool) -> Void)? = nil,
        _ body: (KeyframeBlock) throws -> Void
    ) throws {
        try Check.positive(duration, "duration")
        if let delay, !(delay.isFinite && delay >= 0) {
            throw ParameterError(parameter: "delay", value: delay, accepted: "a finite number >= 0")
        }
        let block = KeyframeBlock()
        state.implicit.keyframeBlocks.append(block)
        do {
            try body(block)
        } catch {
            state.implicit.keyframeBlocks.removeLast()
            throw error
        }
        state.implicit.keyframeBlocks.removeLast()
        // One transaction carries the block's delay and completion.
        try transaction(duration: duration, delay: delay, fillMode: fillMode, completion: completion) {
            // As one layer operation: completions of the animations these
            // replace run once all of them have started.
            try self.implicitOperation { () throws(ParameterError) in
                for (_, _, track) in block.tracks {
                    let frames = KeyframeBlock.frames(track)
                    try track.make(frames.values, frames.keyTimes, frames.timings)
                }
            }
        }
    }

    /// The innermost keyframe block being captured.
    var currentKeyframeBlock: KeyframeBlock? { state.implicit.keyframeBlocks.last }
}
