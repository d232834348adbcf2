import CGSL

/// One sample of a reference trajectory.
public struct ReferenceSample: Equatable, Sendable {
    /// The time, in seconds.
    public let time: Double
    /// The position (for a spring, the displacement from the target).
    public let position: Double
    /// The velocity, in units per second.
    public let velocity: Double
}

/// The integrator settings of a reference trajectory.
public struct ODETolerance: Equatable, Sendable {
    /// GSL's absolute error bound per step (`epsabs`).
    public var absolute: Double
    /// GSL's relative error bound per step (`epsrel`).
    public var relative: Double
    /// The most steps the driver may take for one output time before it
    /// reports `GSL_EMAXITER`.
    public var maxSteps: Int

    /// Creates integrator settings.
    public init(absolute: Double, relative: Double, maxSteps: Int = 10_000_000) {
        self.absolute = absolute
        self.relative = relative
        self.maxSteps = maxSteps
    }

    /// `epsabs = epsrel = 1e-13`, the reference setting.
    public static let reference = ODETolerance(absolute: 1e-13, relative: 1e-13)
}

/// GSL's ODE integrators on the two linear systems behind the solvers:
/// `x' = v`, `v' = a·x + b·v`.
///
/// A spring is `a = -k/m`, `b = -c/m` (x the displacement from the target);
/// a decay is `a = 0`, `b = -λ` with `λ = -1000·ln(deceleration)`.
/// Integration uses `gsl_odeiv2_driver` with the Runge–Kutta Prince–Dormand
/// (8, 9) stepper `rk8pd`, one driver per trajectory, sampled at each
/// requested time; every status code is checked.
public enum ReferenceODE {
    /// The trajectory of `x' = v, v' = a·x + b·v` from `(position, velocity)`
    /// at time 0, sampled at `times` (non-decreasing, >= 0).
    ///
    /// A state beyond 2^512 in magnitude is integrated divided by a power
    /// of two that brings it to 2^100 and multiplied back (exact: the
    /// system is linear and homogeneous): GSL's rk8pd comes to NaN from
    /// about 1e306, where its error estimates overflow. At 2^100 the
    /// absolute tolerance still counts for nothing against the relative one,
    /// so the scaled problem is held to the same relative accuracy.
    ///
    /// - Throws: ``GSLError`` when GSL cannot allocate the driver or a step
    ///   fails (for example `GSL_EMAXITER` when `maxSteps` is exceeded), and
    ///   for times that are negative, decreasing or not finite.
    public static func linear(
        a: Double, b: Double, position: Double, velocity: Double,
        times: [Double], tolerance: ODETolerance = .reference
    ) throws(GSLError) -> [ReferenceSample] {
        let largest = max(abs(position), abs(velocity))
        if largest.isFinite && largest.exponent > 512 {
            let scale = Double(sign: .plus, exponent: largest.exponent - 100, significand: 1)
            return try linear(
                a: a, b: b, position: position / scale, velocity: velocity / scale, times: times, tolerance: tolerance
            ).map { ReferenceSample(time: $0.time, position: $0.position * scale, velocity: $0.velocity * scale) }
        }
        GSL.prepare()
        var coefficients = (a, b)
        var state = [position, velocity]
        var samples: [ReferenceSample] = []
        samples.reserveCapacity(times.count)
        var failure: GSLError?
        withUnsafeMutablePointer(to: &coefficients) { parameters in
            var system = gsl_odeiv2_system(
                function: linearSystem, jacobian: nil, dimension: 2,
                params: UnsafeMutableRawPointer(parameters))
            guard
                let driver = gsl_odeiv2_driver_alloc_y_new(
                    &system, kinetics_gsl_rk8pd(), 1e-6, tolerance.absolute, tolerance.relative)
            else {
                failure = GSLError(function: "gsl_odeiv2_driver_alloc_y_new", status: GSL.noMemory)
                return
            }
            defer { gsl_odeiv2_driver_free(driver) }
            gsl_odeiv2_driver_set_nmax(driver, UInt(tolerance.maxSteps))
            var t = 0.0
            for time in times {
                guard time.isFinite, time >= t else {
                    failure = GSLError(
                        function: "ReferenceODE.linear", status: GSL.invalid,
                        reason: "sample times must be finite, >= 0 and non-decreasing (got \(time) after \(t))")
                    return
                }
                if time > t {
                    let status = gsl_odeiv2_driver_apply(driver, &t, time, &state)
                    guard status == GSL.success else {
                        failure = GSLError(function: "gsl_odeiv2_driver_apply", status: status)
                        return
                    }
                }
                samples.append(ReferenceSample(time: time, position: state[0], velocity: state[1]))
            }
        }
        if let failure { throw failure }
        return samples
    }

    /// A spring's displacement and velocity (tension k, friction c, mass m).
    public static func spring(
        tension: Double, friction: Double, mass: Double,
        displacement: Double, velocity: Double,
        times: [Double], tolerance: ODETolerance = .reference
    ) throws(GSLError) -> [ReferenceSample] {
        try linear(
            a: -tension / mass, b: -friction / mass, position: displacement, velocity: velocity,
            times: times, tolerance: tolerance)
    }

    /// A decay's position and velocity in continuous time, with rate
    /// `λ = -1000·ln(deceleration)`.
    public static func decay(
        deceleration: Double, position: Double, velocity: Double,
        times: [Double], tolerance: ODETolerance = .reference
    ) throws(GSLError) -> [ReferenceSample] {
        try linear(
            a: 0, b: 1000 * log(deceleration), position: position, velocity: velocity,
            times: times, tolerance: tolerance)
    }
}

/// `dy/dt` of `x' = v, v' = a·x + b·v`, with (a, b) behind `parameters`.
private let linearSystem:
    @convention(c) (
        Double, UnsafePointer<Double>?, UnsafeMutablePointer<Double>?, UnsafeMutableRawPointer?
    ) -> Int32 = { _, y, dydt, parameters in
        guard let y, let dydt, let parameters else { return GSL.badFunction }
        let (a, b) = parameters.load(as: (Double, Double).self)
        dydt[0] = y[1]
        dydt[1] = a * y[0] + b * y[1]
        return GSL.success
    }
