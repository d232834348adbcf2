/// The springs of one lane that share a method, in structure-of-arrays form.
///
/// State is the displacement from the target and the velocity (for `fixed`,
/// the grid state below the current time). Each spring belongs to a
/// ``SpringGroups`` group whose frame (a few 2×2 matrices, computed once
/// per tick) maps its state to the next; ``SpringStepper`` does the same
/// steps one at a time and is the reference this path is tested against.
final class SpringBatch<V: AnimatableVector>: ElementBatch {
    let method: SpringMethod
    let common = ElementColumns<V>()
    /// Displacement and velocity side by side: one load per spring (for a
    /// scalar, one 16-byte SIMD register).
    let state = Column<SpringState<V>>()
    let group = Column<GroupIndex>()
    /// `pop`: the last step's velocity slope, for Pop's rest test, of a
    /// vector spring; a scalar spring's is in ``slopeTerms`` (this column
    /// is then empty). Read and set through ``storedSlope(_:_:)`` and
    /// ``storeSlope(_:_:_:)``.
    let slope = Column<V>()
    /// `pop`, scalar springs: the slope as its two terms, the products of
    /// the displacement and the velocity with the frame's weights, stored
    /// unsummed, so that the straight path stores them as it computes them
    /// (no shuffle, no add) and only a rest test sums them, rounding as the
    /// slope itself does. A slope kept from an earlier frame is stored as
    /// itself and zero.
    let slopeTerms = Column<SIMD2<Double>>()
    /// Whether the slope is stored as its terms (scalar springs).
    @inline(__always)
    static var storesSlopeTerms: Bool { V.self == Double.self }
    /// `fixed`: the blended output.
    let outputValue = Column<V>()
    let outputVelocity = Column<V>()

    /// `pop`: the frame of length 0 for the last new spring's rest threshold
    /// (``SpringGroups/immediatePopFrame(threshold:)``), kept for the next
    /// new spring's first frame: springs added together mostly share a
    /// threshold, and the frame is 256 bytes to fill.
    private let firstFrame = Column<SpringGroups.Frame>(capacity: 1)

    init(method: SpringMethod) {
        self.method = method
        firstFrame.append(SpringGroups.Frame())
    }

    /// Appends a spring at `value` with `velocity` in `group`; its common
    /// columns are appended by the caller through ``common``.
    func appendState(value: V, to target: V, velocity initial: V, group index: GroupIndex) {
        state.append(SpringState(displacement: .zero, velocity: .zero))
        group.append(index)
        switch method {
        case .pop:
            if Self.storesSlopeTerms { slopeTerms.append(.zero) } else { slope.append(.zero) }
        case .fixed:
            outputValue.append(value)
            outputVelocity.append(initial)
        case .rk4, .analytic:
            break
        }
        restartState(state.count - 1, value: value, to: target, velocity: initial, group: index)
    }

    /// Makes element `element` a spring at `value` with `velocity` in
    /// `group`, as ``appendState`` makes a new one.
    func restartState(_ element: Int, value: V, to target: V, velocity initial: V, group index: GroupIndex) {
        state[element] = SpringState(displacement: value - target, velocity: initial)
        group[element] = index
        switch method {
        case .pop:
            if Self.storesSlopeTerms { slopeTerms[element] = .zero } else { slope[element] = .zero }
        case .fixed:
            outputValue[element] = value
            outputVelocity[element] = initial
        case .rk4, .analytic:
            break
        }
    }

    /// Appends the element of `owner`'s spring, which writes `slot`, from
    /// `start` in `group`, with the given settings and `flags` set beyond
    /// those the settings imply; returns its index.
    func appendSpring(
        owner: AnimationHandle, slot: PropertySlot, _ start: SpringStart<V>, group index: GroupIndex, clamp: ClampMode,
        roundingFactor: Double, additive: Bool, wantsEvents: Bool, flags: UInt8
    ) -> ElementIndex {
        appendState(value: start.from, to: start.to, velocity: start.velocity, group: index)
        let element = common.count
        common.append(
            owner: owner, slot: slot, from: start.from, to: start.to, clamp: clamp, roundingFactor: roundingFactor,
            additive: additive, threshold: start.threshold, wantsEvents: wantsEvents)
        common.flags[element] |= flags
        return ElementIndex(element)
    }

    /// Makes quiet element `element` (its slot kept) the new run of
    /// `owner`, a quiet spring from `start` in `group`, as removing it and
    /// ``appendSpring`` would.
    @inline(__always)
    func restartQuiet(
        _ element: Int, owner: AnimationHandle, _ start: SpringStart<V>, group index: GroupIndex, clamp: ClampMode
    ) {
        restartState(element, value: start.from, to: start.to, velocity: start.velocity, group: index)
        common.restart(
            element, owner: owner, from: start.from, to: start.to, clamp: clamp, roundingFactor: 0, additive: false,
            threshold: start.threshold, wantsEvents: false)
        common.flags[element] |= ElementFlag.unwritten | ElementFlag.quiet
    }

    /// The columns this spring's method uses (the others stay empty).
    func forEachColumn<Operation: ColumnOperation>(_ operation: Operation) {
        operation.apply(to: state)
        operation.apply(to: group)
        switch method {
        case .pop:
            if Self.storesSlopeTerms { operation.apply(to: slopeTerms) } else { operation.apply(to: slope) }
        case .fixed:
            operation.apply(to: outputValue)
            operation.apply(to: outputVelocity)
        case .rk4, .analytic:
            break
        }
    }

    /// Completes the quiet springs that finished in this advance
    /// (``ElementColumns/finishQuietly``), leaving their groups.
    func finishQuietly(_ groups: SpringGroups, configurations: SpringConfigurations, output: inout FrameOutput) {
        finishQuietly(
            output: &output, entry: { group.base[$0] },
            release: { entry, users in groups.release(entry, count: users, configurations: configurations) })
    }

    /// The current value of element `index`.
    @inline(__always)
    func value(_ index: Int) -> V {
        method == .fixed ? outputValue[index] : common.to[index] + state[index].displacement
    }

    /// The current velocity of element `index`.
    func currentVelocity(_ index: Int) -> V {
        method == .fixed ? outputVelocity[index] : state[index].velocity
    }

    /// A new target: the state moves with it, so value and velocity do not
    /// jump, and the run starts again from the current value (Pop's `from`,
    /// for progress and clamping). `armsEvents` makes the element report
    /// frame events again (its reached-to-value callback waits for the new
    /// target).
    ///
    /// One bounds check for the three columns it writes (a batch's columns
    /// have its count), then their pointers, which check in debug builds:
    /// each column's own subscript would check again.
    @inline(__always)
    func retarget(_ index: Int, to target: V, armsEvents: Bool = false) {
        precondition(UInt(bitPattern: index) < UInt(bitPattern: count), "spring element \(index) out of 0..<\(count)")
        let to = ColumnPointer(common.to)
        let from = ColumnPointer(common.from)
        let states = ColumnPointer(state)
        let old = to[index]
        let displacement = states[index].displacement
        // ``value(_:)``, from what was read.
        let current = method == .fixed ? outputValue[index] : old + displacement
        states[index].displacement = displacement + (old - target)
        to[index] = target
        from[index] = current
        if armsEvents { common.flags[index] |= ElementFlag.wantsEvents }
    }

    /// The batch's columns as raw pointers, read once per frame so that the
    /// loop touches no class property.
    struct Pointers {
        let state: ColumnPointer<SpringState<V>>
        let group: ColumnPointer<GroupIndex>
        let slope: ColumnPointer<V>
        let slopeTerms: ColumnPointer<SIMD2<Double>>
        let outputValue: ColumnPointer<V>
        let outputVelocity: ColumnPointer<V>
        let common: ElementColumns<V>.Pointers

        @inline(__always)
        init(_ batch: SpringBatch) {
            state = ColumnPointer(batch.state)
            group = ColumnPointer(batch.group)
            slope = ColumnPointer(batch.slope)
            slopeTerms = ColumnPointer(batch.slopeTerms)
            outputValue = ColumnPointer(batch.outputValue)
            outputVelocity = ColumnPointer(batch.outputVelocity)
            common = ElementColumns.Pointers(batch.common)
        }
    }

    /// Advances every unpaused element by the tick's frame of its group and
    /// writes its value.
    ///
    /// Elements with any flag set (paused, clamping, rounding, additive,
    /// wanting events, not written yet) take the general path; the rest take
    /// the straight path below, whose only branch on the element's state is
    /// the rare one that reports it done.
    ///
    /// Pop's animation rest test compares the value written with the one
    /// written the frame before. That one is not stored: it is the target
    /// plus the state's displacement before this frame (the blended output
    /// for `fixed`), which a retarget keeps (it moves the state with the
    /// target) and a clamp resets (it moves the state to the bound).
    func advance(_ groups: SpringGroups, values: ColumnPointer<V>, output: inout FrameOutput) {
        // One loop per method, so that the method's tests are constants in it.
        switch method {
        // Pop stores every slope; it reads the stored one only in a frame
        // where some group took no step.
        case .pop where groups.keepsAnySlope:
            advance(groups, values: values, output: &output, PopKeepingSlope.self)
        case .pop:
            advance(groups, values: values, output: &output, PopStepping.self)
        case .fixed:
            advance(groups, values: values, output: &output, FixedGrid.self)
        case .rk4, .analytic:
            advance(groups, values: values, output: &output, ExactMap.self)
        }
    }

    @inline(__always)
    private func advance<Path: StraightPath>(
        _ groups: SpringGroups, values: ColumnPointer<V>, output: inout FrameOutput, _ path: Path.Type
    ) {
        precondition(output.collectsQuiet, "the straight path runs in a tick's advance")
        let frames = groups.frames.base
        let p = Pointers(self)
        if let scalars = self as? SpringBatch<Double> {
            let scalarValues = values.assumingMemoryBound(to: Double.self)
            let q = SpringBatch<Double>.Pointers(scalars)
            scalars.advanceInRuns(frames, q, values: scalarValues, output: &output) { index in
                scalars.scalarStep(index, frames, q, values: scalarValues, path)
            }
            return
        }
        advanceInRuns(frames, p, values: values, output: &output) { index in
            straightStep(index, p, frames, values: values, path)
        }
    }

    /// Advances every unpaused element in runs of straight elements: a run
    /// ends at an element with a flag other than quiet, which takes the
    /// general path, or at one that `step` (which advances an element on the
    /// straight path) finds at rest; the run resumes after it.
    ///
    /// A run makes no call (`step` is inlined), so it keeps the batch's
    /// pointers in registers; the calls of the general path and of a
    /// finish are outside it.
    @inline(__always)
    private func advanceInRuns(
        _ frames: UnsafeMutablePointer<SpringGroups.Frame>, _ p: Pointers, values: ColumnPointer<V>,
        output: inout FrameOutput, step: (Int) -> Bool
    ) {
        let end = count
        // A stop byte past the last element ends the last run (``run``).
        common.markEnd()
        var index = 0
        while true {
            let atRest: Bool
            (index, atRest) = run(from: index, p, step: step)
            guard index < end else { return }
            let bits = p.common.flags[index]
            if atRest {
                if bits != 0 {
                    // Quiet, the one flag a run lets through; a tick's
                    // advance collects quiet elements (its precondition).
                    common.noteQuietFinish(
                        index, target: p.common.to[index], slot: p.common.slot[index], values: values)
                } else {
                    common.reportFinished(index, bits: bits, values: values, output: &output)
                }
            } else if bits & ElementFlag.paused == 0 {
                advanceElement(index, p, frame: frames + p.group[index].index, values: values, output: &output)
            }
            index &+= 1
        }
    }

    /// Advances elements `start`, `start + 1`, … with `step` until one has
    /// a flag other than quiet (returned not advanced) or `step` finds it at
    /// rest (returned advanced, `atRest`); ``count`` when none does.
    ///
    /// The loop tests no bound: the stop byte at ``count``
    /// (``ElementColumns/markEnd()``) has every flag set, so the flag test
    /// ends the last run there.
    @inline(__always)
    private func run(from start: Int, _ p: Pointers, step: (Int) -> Bool) -> (index: Int, atRest: Bool) {
        var index = start
        while true {
            if p.common.flags[index] & ~ElementFlag.quiet != 0 { return (index, false) }
            if step(index) { return (index, true) }
            index &+= 1
        }
    }

    /// One element's frame on the straight path; whether it came to rest.
    @inline(__always)
    private func straightStep<Path: StraightPath>(
        _ index: Int, _ p: Pointers, _ frames: UnsafeMutablePointer<SpringGroups.Frame>,
        values: ColumnPointer<V>, _ path: Path.Type
    ) -> Bool {
        let f = frames + p.group[index].index
        let d0 = p.state[index].displacement
        let v0 = p.state[index].velocity
        let step = f.pointee.step(
            displacement: d0, velocity: v0, blendsOutput: Path.blendsOutput, keepsSlope: Path.keepsSlope,
            storedSlope: Self.storedSlope(p, index))
        p.state[index] = step.state
        let outD = step.displacement
        let outV = step.velocity
        let restSlope = step.slope
        if Path.storesSlope { Self.storeSlope(p, index, restSlope) }
        let target = p.common.to[index]
        let current = target + outD
        let before: V
        if Path.blendsOutput {
            before = p.outputValue[index]
            p.outputValue[index] = current
            p.outputVelocity[index] = outV
        } else {
            before = target + d0
        }
        values[p.common.slot[index].index] = current
        return Self.isNear(current[component: 0], target[component: 0], f)
            && Self.atRest(before: before, current: current, target: target, velocity: outV, slope: restSlope, f)
    }

    /// Element `index`'s stored slope (``slope``, or the sum of its
    /// ``slopeTerms``).
    @inline(__always)
    static func storedSlope(_ p: Pointers, _ index: Int) -> V {
        guard storesSlopeTerms else { return p.slope[index] }
        let terms = p.slopeTerms[index]
        return unsafeBitCast(terms[0] + terms[1], to: V.self)
    }

    /// Stores element `index`'s slope (in ``slopeTerms``: as itself and zero).
    @inline(__always)
    static func storeSlope(_ p: Pointers, _ index: Int, _ slope: V) {
        guard storesSlopeTerms else {
            p.slope[index] = slope
            return
        }
        p.slopeTerms[index] = SIMD2(unsafeBitCast(slope, to: Double.self), 0)
    }

    /// Whether a value's first component is near enough its target's for
    /// either rest test to pass: farther than the frame's `nearBound`,
    /// neither can. NaN passes (and fails the tests).
    @inline(__always)
    static func isNear(_ value: Double, _ target: Double, _ f: UnsafeMutablePointer<SpringGroups.Frame>) -> Bool {
        // Not `<`: this form compares with the bound in memory, without loading it.
        !(abs(value - target) >= f.pointee.nearBound)
    }

    /// Pop's two rest tests: the animation's (the last two written values
    /// within `t/5` of the target and of each other) or the solver's
    /// (displacement within `t/2`, squared velocity below `25·t`, squared
    /// slope below `625·t²`). NaN before the first write fails the first.
    ///
    /// The one copy of ``PopRestTest``'s law, kept for speed: the two tests
    /// fused into one pass over the components, with the group's bounds.
    /// `RestTestTests.fusedIsPops` holds it equal to the two on cases at and
    /// around every bound.
    @inline(__always)
    static func atRest(
        before: V, current: V, target: V, velocity: V, slope: V, _ f: UnsafeMutablePointer<SpringGroups.Frame>
    ) -> Bool {
        atRest(before: before, current: current, target: target, velocity: velocity, slope: slope, f.pointee)
    }

    @inline(__always)
    static func atRest(before: V, current: V, target: V, velocity: V, slope: V, _ f: SpringGroups.Frame) -> Bool {
        var settled = true
        var written = true
        for component in 0 ..< V.componentCount {
            let x = abs(current[component: component] - target[component: component])
            settled = settled && x < f.positionBound
            written =
                written && x < f.restBound
                && abs(before[component: component] - current[component: component]) < f.restBound
        }
        return written || (settled && velocity.squaredNorm < f.velocityBound && slope.squaredNorm < f.slopeBound)
    }

    /// The first frame (length 0) of `pop` element `index`, which a new
    /// spring renders at once: with its group's frame of length 0, which
    /// needs only the element's threshold (its group's), so that the group
    /// table is not read.
    func renderFirstPopFrame(_ index: Int, values: ColumnPointer<V>, output: inout FrameOutput) {
        precondition(method == .pop, "a \(method) spring's first frame needs its group's")
        let threshold = common.threshold[index]
        if threshold != firstFrame.base.pointee.threshold {
            firstFrame[0] = SpringGroups.immediatePopFrame(threshold: threshold)
        }
        advanceElement(index, Pointers(self), frame: firstFrame.base, values: values, output: &output)
    }

    /// One element's frame with its group's `frame` (also the immediate
    /// first frame of a new animation, with the group's frame of length 0),
    /// honouring clamping, rounding, additive writes and events.
    func advanceOne(_ index: Int, frame: SpringGroups.Frame, values: ColumnPointer<V>, output: inout FrameOutput) {
        var frame = frame
        advanceElement(index, Pointers(self), frame: &frame, values: values, output: &output)
    }

    private func advanceElement(
        _ index: Int, _ p: Pointers, frame f: UnsafeMutablePointer<SpringGroups.Frame>, values: ColumnPointer<V>,
        output: inout FrameOutput
    ) {
        let d0 = p.state[index].displacement
        let v0 = p.state[index].velocity
        let target = p.common.to[index]
        let step = f.pointee.step(
            displacement: d0, velocity: v0, blendsOutput: method == .fixed, keepsSlope: method == .pop,
            storedSlope: Self.storedSlope(p, index))
        var d = step.state.displacement
        let v = step.state.velocity
        var outD = step.displacement
        let outV = step.velocity
        let restSlope = step.slope
        if method == .pop { Self.storeSlope(p, index, restSlope) }
        var current = target + outD
        let bits = p.common.flags[index]
        // Pop clamps the state itself: a clamped spring restarts from the bound.
        if bits & ElementFlag.clamps != 0 {
            let clamped = common.clamped(index, current)
            if clamped != current {
                current = clamped
                outD = current - target
                if method != .fixed { d = outD }
            }
        }
        p.state[index] = SpringState(displacement: d, velocity: v)
        // The value written last frame (see ``advance(_:values:output:)``).
        var before = method == .fixed ? p.outputValue[index] : target + d0
        if bits & ElementFlag.unwritten != 0 {
            before = .unwritten
            p.common.flags[index] = bits & ~ElementFlag.unwritten
        }
        if method == .fixed {
            p.outputValue[index] = current
            p.outputVelocity[index] = outV
        }
        let done: Bool
        if bits & (ElementFlag.rounds | ElementFlag.additive) != 0 {
            done =
                common.writeSpecial(index, current, into: values)
                || Self.solverSettled(current - target, outV, restSlope, f)
        } else {
            values[p.common.slot[index].index] = current
            done = Self.atRest(before: before, current: current, target: target, velocity: outV, slope: restSlope, f)
        }
        common.report(index, done: done, flags: bits, owner: p.common.owner, values: values, output: &output)
    }

    /// The solver's rest test alone.
    @inline(__always)
    static func solverSettled(
        _ displacement: V, _ velocity: V, _ slope: V, _ f: UnsafeMutablePointer<SpringGroups.Frame>
    ) -> Bool {
        PopRestTest.solverHasConverged(
            displacement: displacement, velocity: velocity, slope: slope,
            bounds: PopRestTest.Bounds(
                position: f.pointee.positionBound, velocitySquared: f.pointee.velocityBound,
                slopeSquared: f.pointee.slopeBound, animation: f.pointee.restBound))
    }

    static var inversePopStep: Double { 1 / SpringMethod.popStep }

    /// How many of Pop's steps fit in `accumulated` and what is left, as Pop's
    /// loop of subtractions counts them: by division, with the loop itself
    /// where the quotient is within rounding of a whole number.
    @inline(__always)
    static func popSteps(_ accumulated: Double) -> (steps: Int, left: Double) {
        let h = SpringMethod.popStep
        // Truncation is the floor here (the clock is never negative); the
        // product rounds differently from a quotient only next to a whole
        // number of steps, where the loop below decides.
        var steps = Int(accumulated * inversePopStep)
        var left = accumulated - Double(steps) * h
        if left < 1e-12 || h - left < 1e-12 {
            steps = 0
            left = accumulated
            while left >= h {
                left -= h
                steps += 1
            }
        }
        return (steps, left)
    }
}

/// A spring's displacement from its target and its velocity.
/// Where a spring's run starts: its ends and velocity resolved against the
/// property's current value, and its rest threshold.
struct SpringStart<V: AnimatableVector> {
    var from: V
    var to: V
    var velocity: V
    var threshold: Double

    init(from: V, to: V, velocity: V, threshold: Double) {
        self.from = from
        self.to = to
        self.velocity = velocity
        self.threshold = threshold
    }

    /// The start of `animation` on a property whose value is `current`:
    /// its missing ends are the current value, a missing velocity zero, a
    /// missing threshold `defaultThreshold()` (the property kind's).
    @inline(__always)
    init<Value: AnimatableVector>(
        _ animation: borrowing Animation<Value>, current: V, defaultThreshold: () -> Double
    ) {
        from = animation.packedFrom.map { V(packed: $0) } ?? current
        to = animation.packedTo.map { V(packed: $0) } ?? current
        velocity = animation.packedVelocity.map { V(packed: $0) } ?? .zero
        threshold = animation.threshold ?? defaultThreshold()
    }
}

struct SpringState<V: AnimatableVector> {
    var displacement: V
    var velocity: V
}

extension SpringBatch where V == Double {
    /// The straight step of a scalar spring, with the state (d, v) in one
    /// SIMD register: the frame's map is `x·(dd, vv) + x.swapped·(dv, vd)`;
    /// whether it came to rest.
    ///
    /// The one second copy of the law of
    /// ``SpringGroups/Frame/step(displacement:velocity:blendsOutput:keepsSlope:storedSlope:)``,
    /// kept for speed: the generic step loads, multiplies and stores d and v
    /// apart (docs/performance.md, "The scalar spring step", has the
    /// counts). Its products and sums are the generic step's, so
    /// the results are identical: `ScalarPathTests` holds every value and
    /// every end equal to those of the generic step (a 2-vector lane, whose
    /// components take it) for every method.
    @inline(__always)
    fileprivate func scalarStep<Path: StraightPath>(
        _ index: Int, _ frames: UnsafeMutablePointer<SpringGroups.Frame>, _ p: Pointers,
        values: ColumnPointer<Double>, _ path: Path.Type
    ) -> Bool {
        typealias Pair = SIMD2<Double>
        p.state.check(index)
        let states = UnsafeMutableRawPointer(p.state.base)
        let f = frames + p.group[index].index
        let x = states.loadUnaligned(fromByteOffset: index &* 16, as: Pair.self)
        // (d·dd + v·dv, v·vv + d·vd): each sum of the generic path's two
        // products, in the other order for v (exact either way).
        let swapped = Pair(x[1], x[0])
        let next = x * f.pointee.stateDiagonal + swapped * f.pointee.stateCross
        states.storeBytes(of: next, toByteOffset: index &* 16, as: Pair.self)
        var out = next
        if Path.blendsOutput { out = x * f.pointee.outputDiagonal + swapped * f.pointee.outputCross }
        // The slope's two terms, summed only for the rest test (and stored
        // as they are: one store, no shuffle).
        var terms = x * f.pointee.slopeWeights
        if Path.keepsSlope && f.pointee.keep != 0 {
            terms = Pair(terms[0] + terms[1] + Self.storedSlope(p, index) * f.pointee.keep, 0)
        }
        if Path.storesSlope {
            p.slopeTerms[index] = terms
        }
        let target = p.common.to[index]
        let current = target + out[0]
        let before: Double
        if Path.blendsOutput {
            before = p.outputValue[index]
            p.outputValue[index] = current
            p.outputVelocity[index] = out[1]
        } else {
            before = target + x[0]
        }
        values[p.common.slot[index].index] = current
        return Self.isNear(current, target, f)
            && Self.atRest(
                before: before, current: current, target: target, velocity: out[1], slope: terms[0] + terms[1], f)
    }
}

/// What a method's straight path does besides the state's map, fixed when
/// the path is specialised for it (so each method's loop tests none of it);
/// each is false unless a path says otherwise.
protocol StraightPath {
    /// Adds `keep` times the stored slope to the rest test's slope (Pop, in
    /// a frame where some group takes no step).
    static var keepsSlope: Bool { get }
    /// Stores the rest test's slope (Pop).
    static var storesSlope: Bool { get }
    /// Writes the blend between grid states, not the state (`fixed`).
    static var blendsOutput: Bool { get }
}

extension StraightPath {
    static var keepsSlope: Bool { false }
    static var storesSlope: Bool { false }
    static var blendsOutput: Bool { false }
}

/// `pop` in a frame where some group takes no step.
enum PopKeepingSlope: StraightPath {
    static var keepsSlope: Bool { true }
    static var storesSlope: Bool { true }
}

/// `pop` in a frame where every group steps.
enum PopStepping: StraightPath {
    static var storesSlope: Bool { true }
}

/// `fixed`: the grid's state, and a blend of it written.
enum FixedGrid: StraightPath {
    static var blendsOutput: Bool { true }
}

/// `rk4` and `analytic`: the state is what is written.
enum ExactMap: StraightPath {}
