/// The springs of one lane that share a method, in structure-of-arrays form.
///
/// State is the displacement from the target and the velocity (for `fixed`,
/// the grid state below the current time). A frame is one or two 2×2 matrix
/// products per spring with matrices shared through ``SpringConfigurations``;
/// ``SpringStepper`` does the same steps one at a time and is the reference
/// this path is tested against.
final class SpringBatch<V: AnimatableVector> {
    let method: SpringMethod
    let common = ElementColumns<V>()
    let displacement = Column<V>()
    let velocity = Column<V>()
    let configuration = Column<Int32>()
    /// `pop`: the time left over from the last frame. `fixed`: the time since the start.
    let clock = Column<Double>()
    /// `pop`: the last step's velocity slope, for Pop's rest test.
    let slope = Column<V>()
    /// `fixed`: the grid index of the state, and the blended output.
    let grid = Column<Int>()
    let outputValue = Column<V>()
    let outputVelocity = Column<V>()

    init(method: SpringMethod) { self.method = method }

    var count: Int { common.count }

    /// Appends a spring at `value` with `velocity`; its common columns are
    /// appended by the caller through ``common``.
    func appendState(value: V, to target: V, velocity initial: V, configuration index: Int32) {
        displacement.append(value - target)
        velocity.append(initial)
        configuration.append(index)
        switch method {
        case .pop:
            clock.append(0)
            slope.append(.zero)
        case .fixed:
            clock.append(0)
            grid.append(0)
            outputValue.append(value)
            outputVelocity.append(initial)
        case .rk4, .analytic:
            break
        }
    }

    /// Swap-removes element `index`; returns the owner moved into its place.
    func remove(at index: Int) -> AnimationHandle? {
        displacement.removeSwapping(at: index)
        velocity.removeSwapping(at: index)
        configuration.removeSwapping(at: index)
        switch method {
        case .pop:
            clock.removeSwapping(at: index)
            slope.removeSwapping(at: index)
        case .fixed:
            clock.removeSwapping(at: index)
            grid.removeSwapping(at: index)
            outputValue.removeSwapping(at: index)
            outputVelocity.removeSwapping(at: index)
        case .rk4, .analytic:
            break
        }
        return common.remove(at: index)
    }

    /// The current value of element `index`.
    func value(_ index: Int) -> V {
        method == .fixed ? outputValue[index] : common.to[index] + displacement[index]
    }

    /// The current velocity of element `index`.
    func currentVelocity(_ index: Int) -> V {
        method == .fixed ? outputVelocity[index] : velocity[index]
    }

    /// A new target: the state moves with it, so value and velocity do not jump.
    func retarget(_ index: Int, to target: V) {
        displacement[index] = displacement[index] + (common.to[index] - target)
        common.to[index] = target
    }

    /// The batch's columns as raw pointers, read once per frame so that the
    /// loop touches no class property.
    struct Pointers {
        let displacement: UnsafeMutablePointer<V>
        let velocity: UnsafeMutablePointer<V>
        let configuration: UnsafeMutablePointer<Int32>
        let clock: UnsafeMutablePointer<Double>
        let slope: UnsafeMutablePointer<V>
        let grid: UnsafeMutablePointer<Int>
        let outputValue: UnsafeMutablePointer<V>
        let outputVelocity: UnsafeMutablePointer<V>
        let slot: UnsafeMutablePointer<Int32>
        let to: UnsafeMutablePointer<V>
        let previous: UnsafeMutablePointer<V>
        let writes: UnsafeMutablePointer<UInt8>
        let threshold: UnsafeMutablePointer<Double>
        let flags: UnsafeMutablePointer<UInt8>
        let owner: UnsafeMutablePointer<AnimationHandle>

        init(_ batch: SpringBatch) {
            displacement = batch.displacement.base
            velocity = batch.velocity.base
            configuration = batch.configuration.base
            clock = batch.clock.base
            slope = batch.slope.base
            grid = batch.grid.base
            outputValue = batch.outputValue.base
            outputVelocity = batch.outputVelocity.base
            slot = batch.common.slot.base
            to = batch.common.to.base
            previous = batch.common.previous.base
            writes = batch.common.writes.base
            threshold = batch.common.threshold.base
            flags = batch.common.flags.base
            owner = batch.common.owner.base
        }
    }

    /// Advances every unpaused element by `context.dt` and writes its value,
    /// with the matrices prepared for this tick.
    func advance(
        _ context: FrameContext, configurations: SpringConfigurations, values: UnsafeMutablePointer<V>,
        output: inout FrameOutput
    ) {
        let maps = configurations.frameMaps.base
        let p = Pointers(self)
        for index in 0 ..< count where p.flags[index] & ElementFlag.paused == 0 {
            advanceElement(index, p, context: context, maps: maps + Int(p.configuration[index]),
                           configurations: configurations, values: values, output: &output)
        }
    }

    /// Advances one element with the matrices at `maps` (also the immediate
    /// first frame of a new animation, with identity matrices).
    func advanceOne(
        _ index: Int, context: FrameContext, maps: SpringConfigurations.FrameMaps,
        configurations: SpringConfigurations, values: UnsafeMutablePointer<V>, output: inout FrameOutput
    ) {
        withUnsafePointer(to: maps) { pointer in
            advanceElement(index, Pointers(self), context: context, maps: pointer, configurations: configurations,
                           values: values, output: &output)
        }
    }

    @inline(__always)
    private func advanceElement(
        _ index: Int, _ p: Pointers, context: FrameContext, maps: UnsafePointer<SpringConfigurations.FrameMaps>,
        configurations: SpringConfigurations, values: UnsafeMutablePointer<V>, output: inout FrameOutput
    ) {
        let d0 = p.displacement[index]
        let v0 = p.velocity[index]
        let target = p.to[index]
        var d = d0
        var v = v0
        var current: V
        var restVelocity: V
        var restSlope: V
        switch method {
        case .analytic, .rk4:
            (d, v) = maps.pointee.main.apply(displacement: d0, velocity: v0)
            current = target + d
            restVelocity = v
            restSlope = d * (-maps.pointee.stiffness) - v * maps.pointee.friction
        case .pop:
            let h = SpringMethod.popStep
            let (steps, left) = Self.popSteps(p.clock[index] + context.dt)
            p.clock[index] = left
            if steps > 0 {
                let toPrevious: SpringPropagator
                if steps == maps.pointee.base {
                    toPrevious = maps.pointee.main
                } else if steps == maps.pointee.base + 1 {
                    toPrevious = maps.pointee.second
                } else {
                    toPrevious = configurations.step(p.configuration[index]).power(steps - 1)
                }
                let previous = toPrevious.apply(displacement: d0, velocity: v0)
                let next = maps.pointee.single.apply(displacement: previous.displacement, velocity: previous.velocity)
                let alpha = left / h
                d = next.displacement * alpha + previous.displacement * (1 - alpha)
                v = next.velocity * alpha + previous.velocity * (1 - alpha)
                p.slope[index] = (next.velocity - previous.velocity) * (1 / h)
            }
            current = target + d
            restVelocity = v
            restSlope = p.slope[index]
        case .fixed:
            let h = SpringMethod.gridStep
            let time = p.clock[index] + context.dt
            p.clock[index] = time
            var gridTarget = Int((time / h).rounded(.down))
            if Double(gridTarget + 1) * h <= time { gridTarget += 1 }
            let steps = gridTarget - p.grid[index]
            if steps > 0 {
                let map: SpringPropagator
                if steps == maps.pointee.base {
                    map = maps.pointee.main
                } else if steps == maps.pointee.base + 1 {
                    map = maps.pointee.second
                } else {
                    map = configurations.step(p.configuration[index]).power(steps)
                }
                (d, v) = map.apply(displacement: d0, velocity: v0)
                p.grid[index] = gridTarget
            }
            let upper = maps.pointee.single.apply(displacement: d, velocity: v)
            let alpha = (time - Double(p.grid[index]) * h) / h
            let outD = d * (1 - alpha) + upper.displacement * alpha
            let outV = v * (1 - alpha) + upper.velocity * alpha
            current = target + outD
            p.outputVelocity[index] = outV
            restVelocity = outV
            restSlope = outD * (-maps.pointee.stiffness) - outV * maps.pointee.friction
        }
        let bits = p.flags[index]
        // Pop clamps the state itself: a clamped spring restarts from the bound.
        if bits & ElementFlag.clamps != 0 {
            let clamped = common.clamped(index, current)
            if clamped != current {
                current = clamped
                if method != .fixed { d = current - target }
            }
        }
        p.displacement[index] = d
        p.velocity[index] = v
        if method == .fixed { p.outputValue[index] = current }
        let converged = common.write(
            index, current, flags: bits, values: values, slots: p.slot, previous: p.previous, writes: p.writes,
            to: p.to, threshold: p.threshold)
        if converged
            || PopRestTest.solverHasConverged(
                displacement: current - target, velocity: restVelocity, slope: restSlope, threshold: p.threshold[index])
        {
            output.finished.append(p.owner[index])
        } else if bits & ElementFlag.wantsEvents != 0 {
            output.events.append(p.owner[index])
        }
    }

    /// How many of Pop's steps fit in `accumulated` and what is left, as Pop's
    /// loop of subtractions counts them: by division, with the loop itself
    /// where the quotient is within rounding of a whole number.
    @inline(__always)
    static func popSteps(_ accumulated: Double) -> (steps: Int, left: Double) {
        let h = SpringMethod.popStep
        var steps = Int((accumulated / h).rounded(.down))
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
