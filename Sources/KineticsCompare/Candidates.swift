import Foundation
import Kinetics

/// How a candidate reads the clock.
public enum ClockForm: Hashable, Sendable, CustomStringConvertible {
    /// The trace's times, in seconds, as they are.
    case seconds
    /// Whole milliseconds: `⌊t·1000 + phase⌋ + offset` ms, as an engine
    /// that keeps time in integer milliseconds sees the trace's times
    /// (`phase` in [0, 1) places the trace's clock against the engine's).
    case wholeMilliseconds(offset: Int, phase: Double)

    /// `t` as the candidate sees it, in seconds.
    func time(_ t: Double) -> Double {
        switch self {
        case .seconds: t
        case .wholeMilliseconds(let offset, let phase): ((t * 1_000 + phase).rounded(.down) + Double(offset)) / 1_000
        }
    }

    /// The variants tried around a candidate: offsets of -5 to 5 ms, phases
    /// in quarters.
    static let millisecondVariants: [ClockForm] = (-5 ... 5).flatMap { offset in
        [0, 0.25, 0.5, 0.75].map { ClockForm.wholeMilliseconds(offset: offset, phase: $0) }
    }

    public var description: String {
        switch self {
        case .seconds: "time in seconds"
        case .wholeMilliseconds(let offset, _):
            "time in whole milliseconds"
                + (offset == 0 ? "" : ", \(offset > 0 ? "+" : "")\(offset) ms from the trace's clock")
        }
    }
}

/// A way engines advance a spring, to replay at a trace's frame times.
public enum SpringFamily: Hashable, Sendable {
    /// The closed form, at each frame's time.
    case closedForm
    /// RK4 in 1 ms steps with Pop's fraction feedback (Pop; Rebound's
    /// RK4 differs in its first stage, its blend and its 64 ms clamp).
    case pop
    /// RK4 on an absolute 1 ms grid, the output blended between grid states
    /// and never fed back (Kinetics' `fixed`).
    case rk4Grid
    /// An integrator stepped on a schedule.
    case stepped(Integrator, DampingForm, StepSchedule)

    /// Every family tried.
    public static let all: [SpringFamily] =
        [.closedForm, .pop, .rk4Grid]
        + Integrator.allCases.flatMap { integrator in
            integrator.dampingForms.flatMap { damping in
                StepSchedule.tried.map { SpringFamily.stepped(integrator, damping, $0) }
            }
        }

    /// How much the family assumes of its schedule: one step per frame
    /// (or none) is the plainest; among families that explain a trace
    /// equally, the plainest is named.
    var complexity: Int {
        if case .stepped(_, _, let schedule) = self, schedule != .perFrame(1) { return 1 }
        return 0
    }

    /// The family in words.
    public var title: String {
        switch self {
        case .closedForm: "exact closed form"
        case .pop: "RK4 on a 1 ms grid with Pop's fraction feedback"
        case .rk4Grid: "RK4 on a 1 ms grid, blended (no feedback)"
        case .stepped(let integrator, let damping, let schedule):
            integrator.rawValue + (integrator.dampingForms.count > 1 ? ", " + damping.rawValue : "") + ", \(schedule)"
        }
    }
}

/// One candidate for a spring trace: a family in a precision, on a clock,
/// and perhaps snapping to the target from a sample on.
public struct SpringCandidate: Hashable, Sendable, CustomStringConvertible {
    public var family: SpringFamily
    public var arithmetic: Arithmetic
    public var clock: ClockForm
    /// The sample from which the value is the target exactly, if the
    /// engine snaps (at a rest threshold or an estimated end).
    public var snap: Int?

    public init(_ family: SpringFamily, arithmetic: Arithmetic = .double, clock: ClockForm = .seconds, snap: Int? = nil)
    {
        self.family = family
        self.arithmetic = arithmetic
        self.clock = clock
        self.snap = snap
    }

    /// The first candidates tried: every family, in double and (where
    /// an engine might compute in floats) single precision, on the trace's clock.
    public static let base: [SpringCandidate] = SpringFamily.all.flatMap { family -> [SpringCandidate] in
        switch family {
        case .pop, .rk4Grid: [SpringCandidate(family)]
        default: [SpringCandidate(family), SpringCandidate(family, arithmetic: .single)]
        }
    }

    public var description: String {
        var parts = [family.title]
        if arithmetic == .single { parts.append(arithmetic.rawValue) }
        if clock != .seconds { parts.append(clock.description) }
        if snap != nil { parts.append("snapped to the target at its end") }
        return parts.joined(separator: ", ")
    }

    /// The engine known to use this scheme, where one is: an engine whose
    /// recorded traces it explains (data/traces/engines); "among others"
    /// where the scheme is the plain one many engines may share.
    public var engine: String? {
        switch (family, arithmetic) {
        case (.pop, _): "Pop"
        case (.stepped(.positionFirstEuler, .exponential, .perFrame(1)), .double): "Chipmunk2D's DampedSpring"
        case (.stepped(.backwardEuler, .force, .perFrame(1)), .single): "Box2D's soft distance joint"
        case (.stepped(.backwardEuler, .force, .perFrame(1)), .double): "ODE's spring by ERP and CFM"
        case (.stepped(.velocityFirstEuler, .force, .perFrame(1)), .single): "Bullet's 6DofSpring2 spring"
        case (.stepped(.velocityFirstEuler, .force, .fixed(0.016)), .double): "Qt Quick's SpringAnimation, Qt 6.4"
        case (.closedForm, .double) where snap != nil && clock != .seconds:
            "libadwaita's AdwSpringAnimation, among others"
        default: nil
        }
    }

    /// The candidate's values at `times` (seconds from the start), starting
    /// at `from` with `velocity` towards `to`.
    public func values(
        _ spring: SpringParameters, from: Double, to: Double, velocity: Double, times: [Double]
    ) -> [Double] {
        let clocked = times.map(clock.time)
        let k = spring.tension / spring.mass
        let c = spring.friction / spring.mass
        var values: [Double]
        switch family {
        case .closedForm:
            values = clocked.map { t in
                to
                    + (arithmetic == .single
                        ? closedForm(Float.self, k: k, c: c, x0: from - to, v0: velocity, t: t)
                        : closedForm(Double.self, k: k, c: c, x0: from - to, v0: velocity, t: t))
            }
        case .pop, .rk4Grid:
            var stepper = SpringStepper(
                parameters: spring, method: family == .pop ? .pop : .fixed, value: from, velocity: velocity, target: to)
            var last = 0.0
            // Pop's loop takes a step per millisecond of a frame (up to 30 s
            // long; a longer one shuts it down): bounded as the integrators'
            // replays are, the values NaN beyond. The grid jumps long frames
            // with a matrix power.
            let limit = Double(IntegratorReplay<Double>.maximumSteps) * SpringMethod.gridStep
            var stepped = 0.0
            values = clocked.map { time in
                // Pop finishes an animation at its target after a frame over 30 s.
                if stepper.isShutDown { return to }
                let dt = time - last
                if family == .pop && dt > 0 && dt <= SpringMethod.maxFrameInterval { stepped += dt }
                guard stepped <= limit else { return .nan }
                if time != last { stepper.advance(by: dt) }
                last = time
                return stepper.isShutDown ? to : stepper.value
            }
        case .stepped(let integrator, let damping, let schedule):
            values = replayPositions(
                integrator, damping, schedule, k: k, c: c, arithmetic: arithmetic, x: from - to, v: velocity,
                times: clocked
            ).map { to + $0 }
        }
        if let snap, snap < values.count {
            for index in snap ..< values.count { values[index] = to }
        }
        return values
    }
}

/// A way engines advance a decay (a throw slowed by friction, `v' = -λv`
/// with `λ = -1000·ln d`), to replay at a trace's frame times.
public enum DecayFamily: Hashable, Sendable {
    /// `v·d^(1000·t)` summed exactly (Kinetics' `exact`).
    case discreteLaw
    /// The discrete law with its factors in single precision (Pop).
    case popLaw
    /// `v·e^(-λt)` integrated exactly (Kinetics' `continuous`).
    case continuousLaw
    /// An integrator stepped on a schedule, the damping its velocity factor.
    case stepped(Integrator, DampingForm, StepSchedule)

    /// Every family tried. Without a spring some integrators coincide, and
    /// only one of each pair is tried: explicit Euler is position-first
    /// Euler, semi-implicit Euler with implicit damping is backward Euler,
    /// and a damping force `-λv` in an Euler step is the linear factor.
    public static let all: [DecayFamily] =
        [.discreteLaw, .popLaw, .continuousLaw]
        + [Integrator.velocityFirstEuler, .positionFirstEuler, .backwardEuler, .verlet, .rk4].flatMap { integrator in
            let forms: [DampingForm] = integrator.dampingForms.count > 1 ? [.exponential, .linear] : [.force]
            return forms.flatMap { damping in
                [StepSchedule.perFrame(1), .perFrame(2), .perFrame(4), .perMillisecond].map {
                    DecayFamily.stepped(integrator, damping, $0)
                }
            }
        }

    /// As ``SpringFamily``'s: 1 when the schedule is not one step per frame.
    var complexity: Int {
        if case .stepped(_, _, let schedule) = self, schedule != .perFrame(1) { return 1 }
        return 0
    }

    public var title: String {
        switch self {
        case .discreteLaw: "discrete law v·d^(1000t), double precision"
        case .popLaw: "discrete law in single precision (Pop)"
        case .continuousLaw: "continuous law v·e^(-λt)"
        case .stepped(let integrator, let damping, let schedule):
            integrator.rawValue
                + (integrator.dampingForms.count > 1
                    ? ", " + damping.rawValue.replacingOccurrences(of: "c·h", with: "λ·h") : "")
                + ", \(schedule)"
        }
    }
}

/// One candidate for a decay trace.
public struct DecayCandidate: Hashable, Sendable, CustomStringConvertible {
    public var family: DecayFamily
    public var arithmetic: Arithmetic
    public var clock: ClockForm

    public init(_ family: DecayFamily, arithmetic: Arithmetic = .double, clock: ClockForm = .seconds) {
        self.family = family
        self.arithmetic = arithmetic
        self.clock = clock
    }

    /// The first candidates tried.
    public static let base: [DecayCandidate] = DecayFamily.all.flatMap { family -> [DecayCandidate] in
        switch family {
        case .stepped: [DecayCandidate(family), DecayCandidate(family, arithmetic: .single)]
        default: [DecayCandidate(family)]
        }
    }

    public var description: String {
        var parts = [family.title]
        if arithmetic == .single { parts.append(arithmetic.rawValue) }
        if clock != .seconds { parts.append(clock.description) }
        return parts.joined(separator: ", ")
    }

    /// The engine known to use this scheme, where one is.
    public var engine: String? {
        switch (family, arithmetic) {
        case (.popLaw, _): "Pop"
        case (.stepped(.positionFirstEuler, .exponential, .perFrame(1)), .double): "Chipmunk2D's space damping"
        case (.stepped(.velocityFirstEuler, .linear, .perFrame(1)), .single): "Box2D 2.3's linear damping"
        default: nil
        }
    }

    /// The candidate's positions at `times`, thrown from `from` with `velocity`.
    public func values(_ decay: DecayParameters, from: Double, velocity: Double, times: [Double]) -> [Double] {
        let clocked = times.map(clock.time)
        let method: DecayMethod
        switch family {
        case .discreteLaw: method = .exact
        case .popLaw: method = .pop
        case .continuousLaw: method = .continuous
        case .stepped(let integrator, let damping, let schedule):
            return replayPositions(
                integrator, damping, schedule, k: 0, c: decay.rate, arithmetic: arithmetic, x: 0, v: velocity,
                times: clocked
            ).map { from + $0 }
        }
        return DecayStepper(parameters: decay, method: method, value: from, velocity: velocity)
            .values(at: clocked, start: 0)
    }
}
