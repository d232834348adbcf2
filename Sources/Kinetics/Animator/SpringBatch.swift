/// The springs of one lane that share a method, in structure-of-arrays form.
///
/// State is the displacement from the target and the velocity (for `fixed`,
/// the grid state below the current time). A frame is one or two 2×2 matrix
/// products per spring with matrices shared through ``SpringConfigurations``;
/// ``SpringStepper`` does the same steps one at a time and is the reference
/// this path is tested against.
final class SpringBatch<V: AnimatableVector> {
    let method: SpringMethod
    var state: [ElementState<V>] = []
    var displacement: [V] = []
    var velocity: [V] = []
    var configuration: [Int32] = []
    /// `pop`: the time left over from the last frame. `fixed`: the time since the start.
    var clock: [Double] = []
    /// `pop`: the last step's velocity slope, for Pop's rest test.
    var slope: [V] = []
    /// `fixed`: the grid index of the state, and the blended output.
    var grid: [Int] = []
    var outputValue: [V] = []
    var outputVelocity: [V] = []

    init(method: SpringMethod) { self.method = method }

    var count: Int { state.count }

    /// Appends a spring at `value` with `velocity` heading for `state.to`.
    func append(_ element: ElementState<V>, value: V, velocity initial: V, configuration index: Int32) -> Int32 {
        state.append(element)
        displacement.append(value - element.to)
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
        return Int32(state.count - 1)
    }

    /// Removes element `index` by moving the last one into its place; returns
    /// the owner of the moved element, if one moved.
    func remove(at index: Int) -> AnimationHandle? {
        let last = state.count - 1
        let moved: AnimationHandle? = index == last ? nil : state[last].owner
        state.swapAt(index, last)
        state.removeLast()
        displacement.swapAt(index, last)
        displacement.removeLast()
        velocity.swapAt(index, last)
        velocity.removeLast()
        configuration.swapAt(index, last)
        configuration.removeLast()
        switch method {
        case .pop:
            clock.swapAt(index, last)
            clock.removeLast()
            slope.swapAt(index, last)
            slope.removeLast()
        case .fixed:
            clock.swapAt(index, last)
            clock.removeLast()
            grid.swapAt(index, last)
            grid.removeLast()
            outputValue.swapAt(index, last)
            outputValue.removeLast()
            outputVelocity.swapAt(index, last)
            outputVelocity.removeLast()
        case .rk4, .analytic:
            break
        }
        return moved
    }

    /// The current value of element `index`.
    func value(_ index: Int) -> V {
        method == .fixed ? outputValue[index] : state[index].to + displacement[index]
    }

    /// The current velocity of element `index`.
    func currentVelocity(_ index: Int) -> V {
        method == .fixed ? outputVelocity[index] : velocity[index]
    }

    /// A new target: the state moves with it, so value and velocity do not jump.
    func retarget(_ index: Int, to target: V) {
        let shift = state[index].to - target
        displacement[index] = displacement[index] + shift
        state[index].to = target
    }

    /// Advances every unpaused element by `context.dt` and writes its value.
    func advance(
        _ context: FrameContext, configurations: SpringConfigurations, values: UnsafeMutablePointer<V>,
        output: inout FrameOutput
    ) {
        var cachedIndex: Int32 = -1
        var maps = SpringConfigurations.FrameMaps()
        for index in 0 ..< state.count where !state[index].paused {
            let config = configuration[index]
            if config != cachedIndex {
                maps = configurations.maps(config, dt: context.dt, serial: context.serial)
                cachedIndex = config
            }
            advanceElement(index, context: context, maps: maps, configurations: configurations, values: values, output: &output)
        }
    }

    /// Advances one element (also used for the immediate first frame of a
    /// new animation, with `dt` 0).
    func advanceElement(
        _ index: Int, context: FrameContext, maps: SpringConfigurations.FrameMaps,
        configurations: SpringConfigurations, values: UnsafeMutablePointer<V>, output: inout FrameOutput
    ) {
        var d = displacement[index]
        var v = velocity[index]
        var current: V
        var restSlope: V
        switch method {
        case .analytic, .rk4:
            (d, v) = maps.main.apply(displacement: d, velocity: v)
            current = state[index].to + d
            let parameters = configurations.entries[Int(configuration[index])].key.parameters
            restSlope = d * (-parameters.stiffnessPerMass) - v * parameters.frictionPerMass
        case .pop:
            let h = SpringMethod.popStep
            let (steps, left) = Self.popSteps(clock[index] + context.dt)
            clock[index] = left
            if steps > 0 {
                let toPrevious: SpringPropagator
                if steps == maps.base { toPrevious = maps.main }
                else if steps == maps.base + 1 { toPrevious = maps.second }
                else { toPrevious = configurations.entries[Int(configuration[index])].step.power(steps - 1) }
                let previous = toPrevious.apply(displacement: d, velocity: v)
                let next = maps.single.apply(displacement: previous.displacement, velocity: previous.velocity)
                let alpha = left / h
                d = next.displacement * alpha + previous.displacement * (1 - alpha)
                v = next.velocity * alpha + previous.velocity * (1 - alpha)
                slope[index] = (next.velocity - previous.velocity) * (1 / h)
            }
            current = state[index].to + d
            restSlope = slope[index]
        case .fixed:
            let h = SpringMethod.gridStep
            let time = clock[index] + context.dt
            clock[index] = time
            var target = Int((time / h).rounded(.down))
            if Double(target + 1) * h <= time { target += 1 }
            let steps = target - grid[index]
            if steps > 0 {
                let map: SpringPropagator
                if steps == maps.base { map = maps.main }
                else if steps == maps.base + 1 { map = maps.second }
                else { map = configurations.entries[Int(configuration[index])].step.power(steps) }
                (d, v) = map.apply(displacement: d, velocity: v)
                grid[index] = target
            }
            let step = configurations.entries[Int(configuration[index])].step
            let upper = step.apply(displacement: d, velocity: v)
            let alpha = (time - Double(grid[index]) * h) / h
            let outD = d * (1 - alpha) + upper.displacement * alpha
            let outV = v * (1 - alpha) + upper.velocity * alpha
            current = state[index].to + outD
            outputVelocity[index] = outV
            let parameters = configurations.entries[Int(configuration[index])].key.parameters
            restSlope = outD * (-parameters.stiffnessPerMass) - outV * parameters.frictionPerMass
        }
        // Pop clamps the state itself: a clamped spring restarts from the bound.
        if !state[index].clamp.isEmpty {
            let clamped = state[index].clamped(current)
            if clamped != current {
                current = clamped
                if method != .fixed { d = current - state[index].to }
            }
        }
        displacement[index] = d
        velocity[index] = v
        if method == .fixed { outputValue[index] = current }
        state[index].write(current, into: values)
        let restDisplacement = current - state[index].to
        let restVelocity = method == .fixed ? outputVelocity[index] : v
        let done = PopRestTest.solverHasConverged(
            displacement: restDisplacement, velocity: restVelocity, slope: restSlope, threshold: state[index].threshold)
            || state[index].animationConverged
        if done {
            output.finished.append(state[index].owner)
        } else if state[index].wantsEvents {
            output.events.append(state[index].owner)
        }
    }

    /// How many of Pop's steps fit in `accumulated` and what is left, as Pop's
    /// loop of subtractions counts them: by division, with the loop itself
    /// where the quotient is within rounding of a whole number.
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
