import KineticsBench
import KineticsReference

extension MotionReference {
    /// GSL's trajectories (`gsl_odeiv2` rk8pd at 1e-13): what the `kinetics`
    /// tool checks every engine's values with, so that the check rests on
    /// code nobody here wrote.
    static let gsl = MotionReference(
        name: "GSL's motion",
        spring: { parameters, displacement, velocity, time in
            try ReferenceODE.spring(
                tension: parameters.tension, friction: parameters.friction, mass: parameters.mass,
                displacement: displacement, velocity: velocity, times: [time])[0].position
        },
        decay: { parameters, position, velocity, time in
            try ReferenceODE.decay(
                deceleration: parameters.deceleration, position: position, velocity: velocity, times: [time])[0]
                .position
        })
}
