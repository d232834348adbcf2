/// One classic RK4 step of a spring, stage by stage.
///
/// The operations and their order are Pop's (`SpringSolver::integrate` in
/// POPSpringSolver.h): the acceleration is `p·(-k/m) - v·(c/m)`; the stages
/// are `a = f(s)`, `b = f(s + a·h/2)`, `c = f(s + b·h/2)`, `d = f(s + c·h)`;
/// the slope is `(a + (b + c)·2 + d)·(1/6)`; the state moves by `slope·h`.
/// ``SpringStepper``'s `pop` method steps with it. The spring is linear, so
/// the result equals ``SpringPropagator/rk4Step(_:step:)`` applied to the
/// state, up to rounding: the `fixed` and `rk4` methods apply that matrix,
/// and a property test holds Pop's stages to it.
///
/// - Parameters:
///   - p: displacement (either sign convention), updated in place.
///   - v: velocity, updated in place.
///   - negativeStiffness: `-k/m`.
///   - frictionPerMass: `c/m`.
///   - h: the step size in seconds.
/// - Returns: the step's velocity slope `dv/dt`, which Pop's rest test reads.
@inlinable
@inline(__always)
func rk4Step<Value: AnimatableVector>(
    _ p: inout Value, _ v: inout Value,
    negativeStiffness: Double, frictionPerMass: Double, h: Double
) -> Value {
    let half = h * 0.5
    let aDp = v
    let aDv = p * negativeStiffness - v * frictionPerMass

    let bP = p + aDp * half
    let bV = v + aDv * half
    let bDv = bP * negativeStiffness - bV * frictionPerMass

    let cP = p + bV * half
    let cV = v + bDv * half
    let cDv = cP * negativeStiffness - cV * frictionPerMass

    let dP = p + cV * h
    let dV = v + cDv * h
    let dDv = dP * negativeStiffness - dV * frictionPerMass

    let sixth = 1.0 / 6.0
    let dpdt = (aDp + (bV + cV) * 2.0 + dV) * sixth
    let dvdt = (aDv + (bDv + cDv) * 2.0 + dDv) * sixth
    p = p + dpdt * h
    v = v + dvdt * h
    return dvdt
}
