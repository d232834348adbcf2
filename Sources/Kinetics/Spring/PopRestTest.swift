/// Pop's two tests that decide when a spring animation is done.
///
/// A Pop spring animation finishes when either test passes: the solver's
/// (``solverHasConverged(displacement:velocity:slope:threshold:)``) or the
/// animation's (``animationHasConverged(previous2:previous:target:threshold:roundingFactor:)``).
public enum PopRestTest {
    /// Pop's default thresholds by property kind.
    public enum Threshold {
        /// Points, sizes and rectangles: 1.0.
        public static let point = 1.0
        /// Opacity: 0.01.
        public static let opacity = 0.01
        /// Scale: 0.005.
        public static let scale = 0.005
        /// Rotation: 0.01.
        public static let rotation = 0.01
        /// Colour components: 0.01.
        public static let color = 0.01
        /// Corner radius: 0.01.
        public static let radius = 0.01
    }

    /// Pop's `SpringSolver::hasConverged`: every component of the
    /// displacement below `threshold/2` in magnitude, the squared norm of the
    /// velocity below `25·threshold` and the squared norm of the last velocity
    /// slope below `625·threshold²`.
    @inlinable
    public static func solverHasConverged<Value: AnimatableVector>(
        displacement: Value, velocity: Value, slope: Value, threshold: Double
    ) -> Bool {
        solverHasConverged(displacement: displacement, velocity: velocity, slope: slope, bounds: Bounds(threshold))
    }

    /// The bounds of both tests for one threshold `t`, computed here and
    /// nowhere else: the animator's spring groups keep them per group
    /// (``SpringGroups/Frame``) instead of computing them per spring.
    @usableFromInline
    struct Bounds {
        /// `t/2`: each component of the displacement.
        @usableFromInline var position: Double
        /// `25·t`: the squared norm of the velocity.
        @usableFromInline var velocitySquared: Double
        /// `625·t²`: the squared norm of the slope.
        @usableFromInline var slopeSquared: Double
        /// `t/5`: the animation's test, each component.
        @usableFromInline var animation: Double

        @inlinable
        init(_ threshold: Double) {
            position = threshold / 2
            velocitySquared = 25.0 * threshold
            slopeSquared = 625.0 * threshold * threshold
            animation = Self.animation(threshold)
        }

        /// The animation test's bound alone, `t/5`.
        @inlinable @inline(__always)
        static func animation(_ threshold: Double) -> Double { threshold / 5 }

        @inlinable
        init(position: Double, velocitySquared: Double, slopeSquared: Double, animation: Double) {
            self.position = position
            self.velocitySquared = velocitySquared
            self.slopeSquared = slopeSquared
            self.animation = animation
        }
    }

    /// The solver's test against precomputed `bounds`: the one place it is
    /// written (the animator's springs call it with their group's bounds).
    @inlinable @inline(__always)
    static func solverHasConverged<Value: AnimatableVector>(
        displacement: Value, velocity: Value, slope: Value, bounds: Bounds
    ) -> Bool {
        solverHasConverged(
            displacement: displacement, velocity: velocity, slopeSettled: slope.squaredNorm < bounds.slopeSquared,
            bounds: bounds)
    }

    /// The same with the slope's part answered already (the animator keeps
    /// a spring's answer, not its slope).
    @inlinable @inline(__always)
    static func solverHasConverged<Value: AnimatableVector>(
        displacement: Value, velocity: Value, slopeSettled: Bool, bounds: Bounds
    ) -> Bool {
        for index in 0 ..< Value.componentCount
        where !(Swift.abs(displacement[component: index]) < bounds.position) {
            return false
        }
        return velocity.squaredNorm < bounds.velocitySquared && slopeSettled
    }

    /// Pop's animation-level test on the last two written values.
    ///
    /// Without rounding (`roundingFactor` 0): every component of both values
    /// within `threshold/5` of the target, and of each other. With rounding:
    /// both values equal to the target.
    @inlinable
    public static func animationHasConverged<Value: AnimatableVector>(
        previous2: Value, previous: Value, target: Value,
        threshold: Double, roundingFactor: Double = 0
    ) -> Bool {
        if roundingFactor != 0 {
            return previous2 == previous && previous == target
        }
        return animationHasConverged(
            previous2: previous2, previous: previous, target: target, bound: Bounds.animation(threshold))
    }

    /// The animation's test without rounding, against `bound` (`t/5`): the
    /// one place it is written (the animator's batches call it).
    @inlinable @inline(__always)
    static func animationHasConverged<Value: AnimatableVector>(
        previous2: Value, previous: Value, target: Value, bound: Double
    ) -> Bool {
        for index in 0 ..< Value.componentCount {
            let toTarget = Swift.abs(target[component: index] - previous[component: index])
            let between = Swift.abs(previous2[component: index] - previous[component: index])
            if !(toTarget < bound) || !(between < bound) { return false }
        }
        return true
    }
}
