/// How a spring is advanced from one frame to the next.
///
/// | method | what it computes | frame-rate dependent? |
/// | --- | --- | --- |
/// | ``pop`` | Pop's loop: RK4 steps of `0.001f` s, the leftover fraction blended and fed back | yes: ≈ 0.979 of real time at 60 Hz, ≈ 0.92 at 120 Hz |
/// | ``fixed`` | RK4 on an absolute 1 ms grid; the output is the blend of the two grid states around the frame time, never fed back | no (to rounding) |
/// | ``rk4`` | RK4 in equal steps of at most 1 ms that land exactly on each frame time | only through RK4's own error, O(h⁴) |
/// | ``analytic`` | the closed form, exact to rounding | no |
public enum SpringMethod: String, CaseIterable, Sendable, Codable {
    /// Pop's stepping, reproduced operation for operation, including its
    /// fraction feedback (the spring loses about `(1 - α)·h` of simulated time
    /// every frame).
    case pop
    /// RK4 on an absolute grid of 1 ms steps from the start, blended at each
    /// frame time without feeding the blend back.
    case fixed
    /// RK4 in `⌈dt/h⌉` equal steps per frame, landing exactly on the frame
    /// time, with `h` 1 ms or, for stiff or lightly damped springs, the
    /// smaller step that keeps the error near 1e-9 of the amplitude
    /// (``SpringParameters/rk4MaximumStep``).
    case rk4
    /// The exact closed form (``SpringPropagator/exact(_:time:)``).
    case analytic
}

extension SpringMethod {
    /// Pop's step: the single-precision literal `0.001f` widened to double,
    /// exactly 0.0010000000474974513 s. (Written as that float's bits, a
    /// constant: as `Double(Float(0.001))` it was computed on first use, and
    /// every read went through the lazy initialiser, a call each add.)
    public static let popStep = 0x1.0624dep-10

    /// The step of the `fixed` grid and the largest step of `rk4`: 1 ms.
    public static let gridStep = 0.001

    /// Pop's longest frame, 30 s: a longer frame shuts Pop's solver down and
    /// the animation finishes at its target.
    public static let maxFrameInterval = 30.0
}

extension SpringMethod {
    /// The growth per step of the method's fixed RK4 step for `spring`: the
    /// spectral radius of one 1 ms step for `pop` and `fixed`, 1 for `rk4`
    /// and `analytic` (which choose their steps, or take none).
    public func growthPerStep(for spring: SpringParameters) -> Double {
        switch self {
        case .pop: SpringPropagator.rk4Step(spring, step: SpringMethod.popStep).spectralRadius
        case .fixed: SpringPropagator.rk4Step(spring, step: SpringMethod.gridStep).spectralRadius
        case .rk4, .analytic: 1
        }
    }

    /// Whether the method stays bounded for `spring`. RK4 with a fixed 1 ms
    /// step is stable only while every rate of the spring times the step is
    /// within RK4's stability region (|λ|·h up to about 2.8 on the real
    /// axis): `pop` and `fixed` diverge for stiffer or more heavily damped
    /// springs, as Pop's solver does. `rk4` and `analytic` are stable for
    /// every spring.
    public func isStable(for spring: SpringParameters) -> Bool {
        isSurelyStable(spring) || growthPerStep(for: spring) <= 1
    }

    /// A cheap sufficient test, so that adding an animation does not build
    /// a step matrix: every eigenvalue λ of a spring has Re λ <= 0 and
    /// |λ| <= max(ω, c/m), and RK4's growth |R(hλ)| is at most 1 in the left
    /// half-disk |hλ| <= 2.5 (on its imaginary axis up to 2√2, on its real
    /// axis up to about 2.785).
    @inline(__always)
    private func isSurelyStable(_ spring: SpringParameters) -> Bool {
        let h = self == .pop ? SpringMethod.popStep : SpringMethod.gridStep
        return self == .rk4 || self == .analytic
            || (h * h * spring.stiffnessPerMass <= 6.25 && h * spring.frictionPerMass <= 2.5)
    }

    /// Throws unless the method stays bounded for `spring` (see
    /// ``isStable(for:)``): the check the animator and the command line make
    /// before running a spring, so that Pop's divergence never shows up as
    /// infinities or NaN in their output. ``SpringStepper`` itself follows
    /// Pop and does not check.
    ///
    /// - Throws: ``ParameterError`` for `method`, with the growth per step as its value.
    @inline(__always)
    public func checkStable(for spring: SpringParameters) throws(ParameterError) {
        if isSurelyStable(spring) { return }
        try checkGrowth(for: spring)
    }

    /// ``checkStable(for:)`` past the cheap test: out of line, so that the
    /// test alone is inlined into every add.
    @inline(never)
    private func checkGrowth(for spring: SpringParameters) throws(ParameterError) {
        let growth = growthPerStep(for: spring)
        guard growth <= 1 else {
            throw ParameterError(
                parameter: "method", value: growth,
                accepted:
                    "rk4 or analytic for this spring (tension \(spring.tension), friction \(spring.friction), mass \(spring.mass)): \(rawValue)'s 1 ms RK4 step diverges for it (too stiff or too damped; the value is its growth per step)"
            )
        }
    }
}

extension SpringMethod {
    /// The method's position in `allCases`, the index of its batch.
    var index: Int {
        switch self {
        case .pop: 0
        case .fixed: 1
        case .rk4: 2
        case .analytic: 3
        }
    }
}

extension SpringMethod {
    /// `1 / popStep`, by which a clock is multiplied to count its steps.
    static var inversePopStep: Double { 1 / popStep }

    /// How many of Pop's steps fit in `accumulated` and what is left, as Pop's
    /// loop of subtractions counts them: by division, with the loop itself
    /// where the quotient is within rounding of a whole number.
    @inline(__always)
    static func popSteps(_ accumulated: Double) -> (steps: Int, left: Double) {
        let h = popStep
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
