import RealModule

/// A step of an engine's integrator for `x'' = -k·x - c·x'` (a spring, x its
/// displacement from the target) or `x'' = -c·x'` (a decay, k = 0), per
/// unit mass.
public enum Integrator: String, CaseIterable, Sendable {
    /// Explicit (forward) Euler: position and velocity from the old state.
    case explicitEuler = "explicit Euler"
    /// Symplectic Euler, velocity first: the new velocity moves the position.
    case velocityFirstEuler = "velocity-first symplectic Euler"
    /// Symplectic Euler, position first: the old velocity moves the
    /// position, then the force at the new position changes the velocity.
    case positionFirstEuler = "position-first symplectic Euler"
    /// Backward (implicit) Euler: force and damping at the new state.
    case backwardEuler = "backward (implicit) Euler"
    /// Semi-implicit Euler with the damping integrated implicitly: the
    /// spring force at the old position, the damping at the new velocity,
    /// then the position with the new velocity.
    case implicitDampingEuler = "semi-implicit Euler with implicit damping"
    /// Velocity Verlet (half-step velocities).
    case verlet = "velocity Verlet"
    /// Classic fourth-order Runge–Kutta.
    case rk4 = "RK4"

    /// The damping forms an integrator can be written with: Euler-type
    /// steps take the damping as a force or as a factor on the velocity;
    /// the others as a force.
    public var dampingForms: [DampingForm] {
        switch self {
        case .explicitEuler, .velocityFirstEuler, .positionFirstEuler: DampingForm.allCases
        case .backwardEuler, .implicitDampingEuler, .verlet, .rk4: [.force]
        }
    }
}

/// How a step applies the damping.
public enum DampingForm: String, CaseIterable, Sendable {
    /// As the force `-c·v`, inside the step.
    case force = "damping as a force"
    /// As the exact factor `e^(-c·h)` on the velocity, after the spring's impulse.
    case exponential = "damping as an exponential factor e^(-c·h)"
    /// As the linear factor `1 - c·h` on the velocity (clamped at 0).
    case linear = "damping as a linear factor (1 - c·h)"
}

/// When steps are taken.
public enum StepSchedule: Hashable, Sendable, CustomStringConvertible {
    /// `n` equal steps per frame.
    case perFrame(Int)
    /// Equal steps of at most 1 ms in each frame.
    case perMillisecond
    /// Steps of a fixed length, the leftover of each frame carried to the
    /// next (a game loop's fixed time step), the state after the last whole
    /// step shown.
    case fixed(Double)

    /// The schedules tried.
    public static let tried: [StepSchedule] = [
        .perFrame(1), .perFrame(2), .perFrame(4), .perFrame(8), .perMillisecond, .fixed(0.001), .fixed(1.0 / 120),
        .fixed(1.0 / 60), .fixed(0.016),
    ]

    public var description: String {
        switch self {
        case .perFrame(1): "1 step per frame"
        case .perFrame(let n): "\(n) steps per frame"
        case .perMillisecond: "steps of at most 1 ms"
        case .fixed(let h):
            "fixed steps of "
                + (h == 0.001 ? "1 ms" : h == 0.016 ? "16 ms" : "1/\(Int((1 / h).rounded())) s") + ", leftover carried"
        }
    }
}

/// The precision an engine computes in.
public enum Arithmetic: String, CaseIterable, Sendable {
    case double = "double precision"
    case single = "single precision (float32)"
}

/// Replays an integrator over frame times: the state `(x, v)` per unit mass
/// with stiffness `k` and damping `c`, in arithmetic `T`.
struct IntegratorReplay<T: Real & BinaryFloatingPoint> {
    let integrator: Integrator
    let damping: DampingForm
    let schedule: StepSchedule
    let k: T
    let c: T

    /// The most steps a replay takes in all (200 s in steps of 1 ms);
    /// beyond it the replay gives up, its remaining values NaN, and the
    /// candidate ranks last. Bounds the work of a trace with a long gap or
    /// times in the wrong unit.
    static var maximumSteps: Int { 200_000 }

    /// Positions after each frame at `times` (seconds from the start, which
    /// is at 0), from `x` with velocity `v`.
    func positions(x start: Double, v velocity: Double, times: [Double]) -> [Double] {
        var x = T(start)
        var v = T(velocity)
        var last = 0.0
        var leftover = 0.0
        var budget = Self.maximumSteps
        var result: [Double] = []
        result.reserveCapacity(times.count)
        for (index, time) in times.enumerated() {
            let dt = time - last
            last = time
            if dt > 0 {
                let n: Int
                let h: Double
                switch schedule {
                case .perFrame(let count):
                    (n, h) = (count, dt / Double(count))
                case .perMillisecond:
                    let count = dt / 0.001 > Double(budget) ? budget + 1 : max(1, Int((dt / 0.001 - 1e-9).rounded(.up)))
                    (n, h) = (count, dt / Double(count))
                case .fixed(let length):
                    leftover += dt
                    let count =
                        leftover / length > Double(budget) ? budget + 1 : Int((leftover / length + 1e-9).rounded(.down))
                    leftover = max(0, leftover - Double(count) * length)
                    (n, h) = (count, length)
                }
                guard n <= budget else { return result + Array(repeating: .nan, count: times.count - index) }
                budget -= n
                for _ in 0 ..< n { step(&x, &v, T(h)) }
            }
            result.append(Double(x))
        }
        return result
    }

    /// The force per unit mass, without the damping when a factor applies it.
    @inline(__always)
    private func force(_ x: T, _ v: T) -> T {
        damping == .force ? -k * x - c * v : -k * x
    }

    @inline(__always)
    private func damp(_ v: inout T, _ h: T) {
        switch damping {
        case .force: break
        case .exponential: v *= T.exp(-c * h)
        case .linear: v *= max(0, 1 - c * h)
        }
    }

    @inline(__always)
    private func step(_ x: inout T, _ v: inout T, _ h: T) {
        switch integrator {
        case .explicitEuler:
            let a = force(x, v)
            x += h * v
            v += h * a
            damp(&v, h)
        case .velocityFirstEuler:
            v += h * force(x, v)
            damp(&v, h)
            x += h * v
        case .positionFirstEuler:
            x += h * v
            v += h * force(x, v)
            damp(&v, h)
        case .backwardEuler:
            // v' = v + h·(-k·(x + h·v') - c·v'), then x' = x + h·v'.
            v = (v - h * k * x) / (1 + h * c + h * h * k)
            x += h * v
        case .implicitDampingEuler:
            v = (v - h * k * x) / (1 + h * c)
            x += h * v
        case .verlet:
            let half = v + h / 2 * force(x, v)
            x += h * half
            v = half + h / 2 * force(x, half)
        case .rk4:
            // Stage by stage without tuples: in a debug build a tuple of a
            // generic type costs a metadata lookup.
            let half = h / 2
            let ax = v
            let av = force(x, v)
            let bx = v + half * av
            let bv = force(x + half * ax, bx)
            let cx = v + half * bv
            let cv = force(x + half * bx, cx)
            let dx = v + h * cv
            let dv = force(x + h * cx, dx)
            x += h / 6 * (ax + 2 * (bx + cx) + dx)
            v += h / 6 * (av + 2 * (bv + cv) + dv)
        }
    }
}

/// ``IntegratorReplay``'s positions in `arithmetic`: its state and its
/// coefficients `k` and `c` in single or double precision.
func replayPositions(
    _ integrator: Integrator, _ damping: DampingForm, _ schedule: StepSchedule, k: Double, c: Double,
    arithmetic: Arithmetic, x: Double, v: Double, times: [Double]
) -> [Double] {
    switch arithmetic {
    case .single:
        IntegratorReplay<Float>(integrator: integrator, damping: damping, schedule: schedule, k: Float(k), c: Float(c))
            .positions(x: x, v: v, times: times)
    case .double:
        IntegratorReplay<Double>(integrator: integrator, damping: damping, schedule: schedule, k: k, c: c)
            .positions(x: x, v: v, times: times)
    }
}

/// The closed form of `x'' = -k·x - c·x'` per unit mass at time `t`, from
/// `x0` with velocity `v0`, in arithmetic `T` (the three damping regimes,
/// as engines that use it write them).
func closedForm<T: Real & BinaryFloatingPoint>(_: T.Type, k: Double, c: Double, x0: Double, v0: Double, t: Double)
    -> Double
{
    let (k, c, x0, v0, t) = (T(k), T(c), T(x0), T(v0), T(t))
    let alpha = c / 2
    let omega2 = k - alpha * alpha
    let envelope = T.exp(-alpha * t)
    if omega2 > 0 {
        let omega = T.sqrt(omega2)
        return Double(envelope * (x0 * T.cos(omega * t) + (alpha * x0 + v0) / omega * T.sin(omega * t)))
    }
    if omega2 < 0 {
        let omega = T.sqrt(-omega2)
        return Double(envelope * (x0 * T.cosh(omega * t) + (alpha * x0 + v0) / omega * T.sinh(omega * t)))
    }
    return Double(envelope * (x0 + (alpha * x0 + v0) * t))
}
