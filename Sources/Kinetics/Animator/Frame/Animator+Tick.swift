// The tick: advancing the batches, starting, completing and retiring
// animations, and the events and callbacks between.

extension Animator {
    /// Advances every running animation to `time`.
    ///
    /// The frame length is the difference from the last tick. A time earlier
    /// than the last one, or not finite, is ignored (``ignoredTicks`` counts
    /// it); the same time again changes nothing; a gap over 30 s finishes
    /// every running animation at its target.
    ///
    /// - Precondition: not called from a callback of this animator.
    public func tick(at time: Double) {
        precondition(state.phase == .idle, "tick(at:) cannot be called from a callback or an animation step")
        defer { checkInternally(after: "tick") }
        guard time.isFinite, time >= self.time else {
            state.ignoredTicks += 1
            return
        }
        guard time > self.time else { return }
        let dt = time - self.time
        state.time = time
        outputs.output.reset()
        if dt > SpringMethod.maxFrameInterval {
            collectRunning(into: &outputs.output.finished)
        } else {
            state.phase = .advancing
            shared.prepare(dt: dt)
            let context = FrameContext(time: time, dt: dt)
            lane1.advance(context, shared: shared, output: &outputs.output)
            lane2.advance(context, shared: shared, output: &outputs.output)
            lane4.advance(context, shared: shared, output: &outputs.output)
            retireQuietlyFinished()
        }
        state.phase = .events
        startWaiting(at: time)
        // Events, then completions. The lists are walked by index: callbacks
        // that add animations render them at once, outside these lists.
        var index = 0
        while index < outputs.output.events.count {
            let handle = outputs.output.events[index]
            if let record = liveIndex(handle), status[record].phase == .running, let box = box(record) {
                box.frameEvents(self, handle)
            }
            index += 1
        }
        index = 0
        while index < outputs.output.finished.count {
            complete(outputs.output.finished[index], at: time)
            index += 1
        }
        state.phase = .idle
        recycleRetiredBoxes()
    }

    /// Frees the records of the quiet animations that finished in this
    /// tick's advance (their batches wrote their targets and removed their
    /// elements), and points the records of elements those removals moved
    /// (or their spring batches grouped) at their new places. No callback has run yet in the tick, so none
    /// sees them half-finished.
    ///
    /// A quiet animation's box stays in its freed record (it holds no
    /// callbacks) and is reused with the record or pooled then.
    ///
    /// Out of line, so that a profile of a frame (perf, callgrind) shows
    /// the retirement as a function of its own, apart from the tick.
    @inline(never)
    func retireQuietlyFinished() {
        let quiet = outputs.output.quiet
        let moved = outputs.output.moved
        guard quiet.count > 0 || moved.count > 0 else { return }
        let statuses = ColumnPointer(status)
        for element in moved.elements { statuses[element.owner.record.index].element = element.element }
        // One pass over the list: each record leaves the registry, its
        // status is set and it joins the free list.
        freeRecords.append(count: quiet.count) { free in
            registry.remove(quiet.elements) { position, index in
                statuses[index.index].live = false
                statuses[index.index].phase = .finished
                statuses[index.index].element = .none
                free[position] = index
            }
        }
    }

    /// Every running element's owner, for the 30 s shutdown.
    func collectRunning(into list: inout [AnimationHandle]) {
        for index in 0 ..< records.count where status[index].live && status[index].phase == .running {
            // A bare spring runs in its element.
            if records[index].box?.hasElement ?? (status[index].spring != .none) {
                list.append(AnimationHandle(record: RecordIndex(index), generation: status[index].generation))
            }
        }
    }

    func startWaiting(at time: Double) {
        guard !state.waiting.isEmpty else { return }
        // Swap the list out: starting may queue more (a group's children).
        var due: [AnimationHandle] = []
        swap(&due, &state.waiting)
        for handle in due {
            guard let index = liveIndex(handle), status[index].phase == .waiting else { continue }
            if records[index].life.beginTime <= time {
                start(handle, at: time)
            } else {
                state.waiting.append(handle)
            }
        }
    }

    /// Starts `handle` now if its begin time has come, else queues it.
    func startIfDue(_ handle: AnimationHandle, at time: Double) {
        guard let index = liveIndex(handle) else { return }
        if records[index].life.beginTime <= time {
            start(handle, at: time)
        } else {
            state.waiting.append(handle)
        }
    }

    /// Starts a waiting animation: start event, first frame written at once.
    func start(_ handle: AnimationHandle, at time: Double) {
        guard let index = liveIndex(handle), let box = records[index].box else { return }
        status[index].phase = .running
        records[index].startTime = time
        withCallbacks {
            box.fireStart(self, handle)
            guard liveIndex(handle) != nil, status[index].phase == .running else { return }
            box.start(self, handle, time: time)
            render(handle, at: time)
        }
    }

    /// Runs `body`, which may call callbacks, with ticking forbidden.
    func withCallbacks(_ body: () -> Void) {
        let previous = state.phase
        if state.phase == .idle { state.phase = .events }
        body()
        state.phase = previous
    }

    /// Renders the first frame of a just-started element (frame length 0) and
    /// handles what it reports at once.
    func render(_ handle: AnimationHandle, at time: Double) {
        guard let index = liveIndex(handle) else { return }
        // A spring's element from its lane, without its box (which renders
        // the other kinds).
        let spring = status[index].spring
        if spring != .none {
            renderFirstFrame(handle, at: time) { renderFirstSpringFrame(index, width: spring.width, &$0) }
            return
        }
        guard let box = records[index].box, box.hasElement else { return }
        renderFirstFrame(handle, at: time) { output in
            box.renderFirstFrame(self, handle, context: FrameContext(time: time, dt: 0), output: &output)
        }
    }

    /// Renders the first frame of record `index`'s quiet spring (`handle`),
    /// in the lane `width` wide. Nothing observes it, so its frame reports
    /// no events, only its end when it starts at rest: it needs none of the
    /// nested outputs of ``renderFirstFrame(_:at:_:)``, whose upkeep cost a
    /// replacement more than the frame itself.
    func renderQuietSpring(_ handle: AnimationHandle, index: Int, width: Int) {
        renderFirstSpringFrame(index, width: width, &outputs.quietOutput)
        completeIfAtRest(handle)
    }

    /// Completes quiet spring `handle` if its first frame, just rendered
    /// into the quiet output, found it at rest.
    @inline(__always)
    func completeIfAtRest(_ handle: AnimationHandle) {
        assert(outputs.quietOutput.events.isEmpty, "a quiet spring reported an event")
        guard !outputs.quietOutput.finished.isEmpty else { return }
        // Emptied before completing, which may call out and render more.
        outputs.quietOutput.finished.removeAll(keepingCapacity: true)
        complete(handle, at: time)
    }

    /// Renders the first frame of record `index`'s spring element, in the
    /// lane `width` wide.
    @inline(__always)
    func renderFirstSpringFrame(_ index: Int, width: Int, _ output: inout FrameOutput) {
        onLane(width: width, RenderFirstSpringFrame(index: index, animator: self), &output)
    }

    private struct RenderFirstSpringFrame: LaneOperation {
        let index: Int
        let animator: Animator

        @inline(__always)
        func callAsFunction<V: AnimatableVector>(_ lane: Lane<V>, _ output: inout FrameOutput) {
            lane.renderFirstSpringFrame(index, animator: animator, output: &output)
        }
    }

    /// Runs `advance`, which renders the first frame of `handle`'s element
    /// into an output list, and handles what it reports at once.
    @inline(__always)
    func renderFirstFrame(_ handle: AnimationHandle, at time: Double, _ advance: (inout FrameOutput) -> Void) {
        if state.renderDepth == outputs.immediateOutputs.count {
            // Room for what one element reports (an event, a finish), made
            // now rather than the first time an animation is added already
            // at rest, which can come long after the animator has grown.
            var fresh = FrameOutput()
            fresh.events.reserveCapacity(4)
            fresh.finished.reserveCapacity(4)
            outputs.immediateOutputs.append(fresh)
        }
        let depth = state.renderDepth
        state.renderDepth += 1
        defer { state.renderDepth -= 1 }
        outputs.immediateOutputs[depth].reset()
        advance(&outputs.immediateOutputs[depth])
        var position = 0
        while position < outputs.immediateOutputs[depth].events.count {
            let event = outputs.immediateOutputs[depth].events[position]
            if let record = liveIndex(event), status[record].phase == .running {
                box(record)?.frameEvents(self, event)
            }
            position += 1
        }
        position = 0
        while position < outputs.immediateOutputs[depth].finished.count {
            complete(outputs.immediateOutputs[depth].finished[position], at: time)
            position += 1
        }
    }

    /// A running animation finished: final value, then a repeat or a stop.
    func complete(_ handle: AnimationHandle, at time: Double) {
        guard let index = liveIndex(handle), status[index].phase == .running else { return }
        // A bare spring ends without a box while nothing observes it.
        if records[index].box == nil && state.tracer == nil {
            endBare(handle, index: index, finished: true)
            return
        }
        guard let box = box(index) else { return }
        box.finalFrame(self, handle)
        guard let index = liveIndex(handle), status[index].phase == .running else { return }
        records[index].life.repeatRemaining -= 1
        if records[index].life.switches.contains(.repeatForever) || records[index].life.repeatRemaining > 0 {
            trace(handle, .repeated)
            box.repeatRun(self, handle, time: time)
            return
        }
        box.removeElement(self, handle)
        status[index].phase = .finished
        // As Pop does: out of the registry first, then the stop event, so a
        // stop callback may add a new animation under the same key.
        let parent = places[index].parent
        let removing = records[index].life.switches.contains(.removedOnCompletion) || parent != nil
        if removing { unregister(index) }
        withCallbacks { box.fireStop(self, handle, finished: true) }
        if removing { free(handle) }
        if let parent, let parentIndex = liveIndex(parent), let group = records[parentIndex].box as? GroupBox {
            group.childFinished(self, parent, time: time)
        }
    }

    /// Records `kind` for `handle` when it is traced.
    @inline(__always)
    func trace(_ handle: AnimationHandle, _ kind: TraceEvent.Kind) {
        guard let tracer = state.tracer, let index = liveIndex(handle),
            tracer.traceAll || records[index].life.switches.contains(.traced)
        else {
            return
        }
        if case .valueWritten = kind, !tracer.recordsValues { return }
        tracer.record(TraceEvent(time: time, handle: handle, key: eventKey(index), kind: kind))
    }

    /// The key events of record `index` report: its registry key, or its
    /// property's name for a group's child (which has no key) and for an
    /// animation under the empty key.
    func eventKey(_ index: Int) -> String {
        let key = places[index].parent == nil ? registry.key(of: RecordIndex(index)) : ""
        return key.isEmpty ? (records[index].box?.propertyName(self) ?? "") : key
    }

    /// Whether per-frame events of `handle` should be produced.
    @inline(__always)
    func wantsTracing(_ handle: AnimationHandle) -> Bool {
        // The tracer first: without one (the usual case) no lookup is due.
        state.tracer != nil && tracerWants(handle)
    }

    /// ``wantsTracing(_:)`` with a tracer set: out of line, so that the
    /// usual case is one test where it is asked.
    @inline(never)
    private func tracerWants(_ handle: AnimationHandle) -> Bool {
        guard let index = liveIndex(handle) else { return false }
        return wantsTracing(index: index)
    }

    /// Whether per-frame events of live record `index` should be produced.
    func wantsTracing(index: Int) -> Bool {
        guard let tracer = state.tracer else { return false }
        return tracer.traceAll || records[index].life.switches.contains(.traced)
    }
}
