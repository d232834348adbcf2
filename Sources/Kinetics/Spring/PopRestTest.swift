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
        let positionBound = threshold / 2
        for index in 0 ..< Value.componentCount
        where !(Swift.abs(displacement[component: index]) < positionBound) {
            return false
        }
        return velocity.squaredNorm < 25.0 * threshold
            && slope.squaredNorm < 625.0 * threshold * threshold
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
        let bound = threshold / 5
        for index in 0 ..< Value.componentCount {
            let toTarget = Swift.abs(target[component: index] - previous[component: index])
            let between = Swift.abs(previous2[component: index] - previous[component: index])
            if !(toTarget < bound) || !(between < bound) { return false }
        }
        return true
    }
}
