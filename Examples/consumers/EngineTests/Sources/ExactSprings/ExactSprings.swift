import Foundation

/// A spring engine of its own: the displacement of a mass on a spring with
/// damping, in closed form (underdamped, critically damped or overdamped),
/// written without Kinetics.
public struct ExactSpring: Sendable {
    public let stiffness, damping, mass: Double

    public init(stiffness: Double, damping: Double, mass: Double) {
        self.stiffness = stiffness
        self.damping = damping
        self.mass = mass
    }

    /// The value at each of `times`, from `from` towards `to` with `velocity`.
    public func values(from: Double, to: Double, velocity: Double, at times: [Double]) -> [Double] {
        let omega = (stiffness / mass).squareRoot()
        let alpha = damping / (2 * mass)
        let d0 = from - to
        let q = omega * omega - alpha * alpha
        return times.map { t in
            let displacement: Double
            if q > 1e-12 * omega * omega {
                let w = q.squareRoot()
                displacement = exp(-alpha * t) * (d0 * cos(w * t) + (velocity + alpha * d0) / w * sin(w * t))
            } else if q < -1e-12 * omega * omega {
                // Two real roots, each exponential on its own: cosh and sinh
                // of (α - r)t would overflow where the motion does not.
                let w = (-q).squareRoot()
                let slow = -omega * omega / (alpha + w)
                let fast = -(alpha + w)
                let a = (velocity - fast * d0) / (slow - fast)
                displacement = a * exp(slow * t) + (d0 - a) * exp(fast * t)
            } else {
                displacement = exp(-alpha * t) * (d0 + (velocity + alpha * d0) * t)
            }
            return to + displacement
        }
    }
}
