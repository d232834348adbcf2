/// Where a batch reports what happened to its elements during a frame.
struct FrameOutput {
    /// Elements whose records want per-frame events.
    var events: [AnimationHandle] = []
    /// Elements that finished this frame.
    var finished: [AnimationHandle] = []

    mutating func reset() {
        events.removeAll(keepingCapacity: true)
        finished.removeAll(keepingCapacity: true)
    }
}

/// What a batch needs to know about the frame.
struct FrameContext {
    /// The frame's time.
    let time: Double
    /// The frame length (0 for an element's first, immediate frame).
    let dt: Double
}
