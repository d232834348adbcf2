import Foundation
import Kinetics
import KineticsTestSupport
import Testing

/// The animator against the reference steppers, frame by frame.
@Suite("Animator: parity with the reference steppers")
struct AnimatorParityTests {
    /// Runs `animation` of a scalar property from `from` at `fps` and returns
    /// the value after every frame until it stops (at most `seconds`).
    static func animate(
        _ animation: Animation<Double>, from: Double = 0, fps: Double = 60, seconds: Double = 3, times: [Double]? = nil
    ) throws -> [Double] {
        let animator = Animator()
        let target = animator.makeTarget()
        let property = animator.property("x", of: target, initial: from)
        let handle = try animator.add(animation, to: property, forKey: "x")
        var values = [animator[property]]
        for time in times ?? frameTimes(fps: fps, seconds: seconds).dropFirst().map({ $0 }) {
            guard animator.phase(of: handle) == .running else { break }
            animator.tick(at: time)
            values.append(animator[property])
        }
        return values
    }

    @Test("a spring through the animator equals the stepper to 1e-12 of the amplitude, every method, 60/120/144 Hz")
    func springMatchesStepper() throws {
        for method in SpringMethod.allCases {
            for fps in [60.0, 120.0, 144.0] {
                for (parameters, to, velocity) in [
                    (SpringParameters.popDefault, 100.0, 0.0),
                    (try SpringParameters(tension: 40, friction: 7), -250.0, 800.0),
                ] {
                    var animation = Animation<Double>.spring(parameters, method: method, to: to, velocity: velocity)
                    // So small that only exact equality with the target ends the
                    // run: the whole window is compared, no final snap.
                    animation.threshold = 1e-30
                    let animated = try Self.animate(animation, fps: fps, seconds: 2)
                    let reference = run(
                        parameters, method, times: frameTimes(fps: fps, seconds: 2), from: 0, to: to, velocity: velocity
                    )
                    let amplitude = reference.values.map { abs($0 - to) }.max()!
                    #expect(
                        animated.count == reference.values.count, "\(method) \(fps) Hz ran \(animated.count) frames")
                    let error = maxDifference(animated, reference.values) / amplitude
                    #expect(error <= 1e-12, "\(method) at \(fps) Hz: \(error)")
                }
            }
        }
    }

    /// The clocks Pop's whole-frame path must match its step-by-step loop on.
    static let popClocks: [(name: String, times: [Double])] = {
        var clocks = [30.0, 60, 90, 120, 144, 240].map { fps in ("\(Int(fps)) Hz", frameTimes(fps: fps, seconds: 2)) }
        // Frames under a step (0.67 ms): most frames take no step at all.
        clocks.append(("1500 Hz", frameTimes(fps: 1_500, seconds: 1)))
        // Frames of exactly 17 of Pop's steps: the leftover is 0 every frame.
        clocks.append(("17 steps", (0 ... 120).map { Double($0) * 17 * SpringMethod.popStep }))
        // Frames of several seconds, under the 30 s shutdown.
        clocks.append(("long frames", [0, 2.5, 5, 12.25, 20, 27.5]))
        var jittered = ManualFrameClock.jittered(fps: 60, seed: 2_026, dropRate: 0.15, jitter: 0.4, duration: 10)
        var times = [0.0]
        while let time = jittered.nextFrame() { times.append(time) }
        clocks.append(("10 s jittered", times))
        return clocks
    }()

    @Test(
        "pop: the animator's whole frames equal Pop's step-by-step loop to 1e-12 of the amplitude, on every clock",
        arguments: [
            (SpringParameters.popDefault, 100.0, 0.0),
            (try! SpringParameters(tension: 40, friction: 7), -250.0, 800.0),
            // |λ|·h = 2.825 against RK4's bound of 2√2 ≈ 2.828 on the
            // imaginary axis: each step shrinks the state by only 1.4%.
            (try! SpringParameters(tension: 7.98e6, friction: 5), 100.0, 0.0),
        ])
    func popClocks(parameters: SpringParameters, to: Double, velocity: Double) throws {
        #expect(SpringMethod.pop.isStable(for: parameters))
        for (name, times) in Self.popClocks {
            var animation = Animation<Double>.spring(parameters, method: .pop, to: to, velocity: velocity)
            animation.threshold = 1e-30  // runs to the end of the clock: no snap to the target
            let animated = try Self.animate(animation, times: Array(times.dropFirst()))
            let reference = run(parameters, .pop, times: times, from: 0, to: to, velocity: velocity)
            // It may come to rest (Pop's tests at threshold 1e-30) before the
            // clock ends; every frame it ran is compared.
            #expect(animated.count >= 3, "\(name): ran \(animated.count) of \(times.count) frames")
            let amplitude = reference.values.map { abs($0 - to) }.max()!
            let error = maxDifference(animated, reference.values) / amplitude
            #expect(error <= 1e-12, "\(name), k = \(parameters.tension): \(error)")
        }
    }

    @Test("pop mode on a jittered clock equals the stepper to 1e-12 of the amplitude")
    func popJittered() throws {
        var clock = ManualFrameClock.jittered(fps: 60, seed: 42, dropRate: 0.2, jitter: 0.3, duration: 10)
        var times: [Double] = []
        while let time = clock.nextFrame() { times.append(time) }
        var animation = Animation<Double>.spring(.popDefault, method: .pop, to: 1)
        animation.threshold = 1e-30
        let animated = try Self.animate(animation, times: times)
        let reference =
            [0.0]
            + SpringStepper(parameters: .popDefault, method: .pop, value: 0.0, target: 1.0)
            .values(at: Array(times.prefix(animated.count - 1)), start: 0)
        #expect(maxDifference(animated, reference) <= 1e-12)
    }

    @Test("springs sharing a group, joining later, paused and resumed each equal their own stepper")
    func groupedSprings() throws {
        // Springs with the same settings started in the same tick share a
        // group (one clock, one set of matrices). Here three start together,
        // one starts two frames later, and one of the first three is paused
        // for a while: each must still follow its own stepper, which only
        // sees the frames during which its spring ran.
        var clock = ManualFrameClock.jittered(fps: 60, seed: 7, dropRate: 0.1, jitter: 0.3, duration: 3)
        var times: [Double] = []
        while let time = clock.nextFrame() { times.append(time) }
        for method in SpringMethod.allCases {
            let animator = Animator()
            let target = animator.makeTarget()
            var handles: [AnimationHandle] = []
            var properties: [PropertyHandle<Double>] = []
            var steppers: [SpringStepper<Double>] = []
            var lastTimes: [Double] = []
            func start(_ index: Int) throws {
                var animation = Animation<Double>.spring(.popDefault, method: method, from: 0, to: 100)
                animation.threshold = 1e-30
                properties.append(animator.property("p\(index)", of: target, initial: 0.0))
                handles.append(try animator.add(animation, to: properties[index], forKey: "p\(index)"))
                steppers.append(SpringStepper(parameters: .popDefault, method: method, value: 0.0, target: 100.0))
                lastTimes.append(animator.time)
            }
            for index in 0 ..< 3 { try start(index) }
            var worst = 0.0
            for (frame, time) in times.enumerated() {
                if frame == 2 { try start(3) }
                if frame == 20 { #expect(animator.pause(handles[1])) }
                if frame == 45 { #expect(animator.resume(handles[1])) }
                animator.tick(at: time)
                for index in handles.indices where animator.phase(of: handles[index]) == .running {
                    // A paused spring's clock stands still: its stepper skips
                    // the paused frames and takes the first one after resuming.
                    if index == 1 && frame >= 20 && frame < 45 { continue }
                    let dt = index == 1 && frame == 45 ? time - times[44] : time - lastTimes[index]
                    steppers[index].advance(by: dt)
                    lastTimes[index] = time
                    worst = max(worst, abs(animator[properties[index]] - steppers[index].value) / 100)
                }
            }
            #expect(worst <= 1e-12, "\(method): \(worst)")
        }
    }

    @Test("a decay through the animator equals the stepper bit for bit until its end clamp")
    func decayMatchesStepper() throws {
        for method in DecayMethod.allCases {
            let animation = Animation<Double>.decay(velocity: 2_500, method: method, from: 10)
            let animated = try Self.animate(animation, from: 10, seconds: 8)
            let reference = DecayStepper(parameters: .popDefault, method: method, value: 10.0, velocity: 2_500.0)
                .values(at: animated.indices.map { Double($0) / 60 })
            let end = DecayParameters.popDefault.endValue(
                from: 10.0, velocity: 2_500.0, threshold: 0.01, method: method)
            for (index, value) in animated.enumerated().dropFirst() {
                #expect(value == min(reference[index], end), "\(method) frame \(index)")
            }
            #expect(animated.last == end, "\(method) lands on its end value")
        }
    }

    @Test("a basic animation with the webkit method equals Pop's formula frame for frame")
    func basicMatchesPop() throws {
        let curve = UnitBezier.easeInEaseOut
        let animation = Animation<Double>.basic(
            duration: 0.5, timing: .easeInEaseOut, bezier: .webkit, from: 20, to: 120)
        let animated = try Self.animate(animation, from: 20)
        #expect(animated.count == 31)
        for (index, value) in animated.enumerated() {
            let t = min(Double(index) / 60, 0.5) / 0.5
            let p = curve.solveWebKit(t, epsilon: 1 / (1000 * 0.5))
            let expected = index == 30 ? 120 : 20 + (120 - 20) * p
            #expect(value == expected, "frame \(index)")
        }
    }

    @Test("keyframes: linear segments with their own curves, and discrete holds")
    func keyframes() throws {
        let linear = try Keyframes<Double>(
            values: [0, 10, 5], keyTimes: [0, 0.25, 1], timingFunctions: [.linear, .easeIn], duration: 1)
        let values = try Self.animate(.keyframes(linear))
        #expect(values[15] == 10)  // t = 0.25
        #expect(abs(values[6] - 4) < 1e-12)  // t = 0.1: 10·0.1/0.25
        let t = (45.0 / 60 - 0.25) / 0.75
        // The animator's fast bezier is the curve's table; it agrees with
        // the iteration to the table's certified 1e-8.
        #expect(abs(values[45] - (10 - 5 * BezierTable(.easeIn).solve(t))) < 1e-12)
        #expect(abs(values[45] - (10 - 5 * UnitBezier.easeIn.solveFast(t))) < 5 * BezierTable.certifiedError)
        #expect(values.last == 5 && values.count == 61)
        let discrete = try Keyframes<Double>(
            values: [1, 2, 3], keyTimes: [0, 0.5, 0.9, 1], calculation: .discrete, duration: 1)
        let held = try Self.animate(.keyframes(discrete))
        #expect(held[10] == 1 && held[30] == 2 && held[55] == 3 && held.last == 3)
    }
}

/// The straight paths of decays, basic and keyframe animations (an
/// animation neither observed, clamped, rounded nor additive) against their
/// general path, which an animation with an `onApply` callback takes: the
/// same law written out twice for speed, so every value and every end must
/// be identical. Each animation runs on a property of its own, and an
/// observed copy of it on a twin property.
private struct Twins {
    let animator = Animator()
    private(set) var scalars: [(plain: PropertyHandle<Double>, observed: PropertyHandle<Double>)] = []
    private(set) var points: [(plain: PropertyHandle<SIMD2<Double>>, observed: PropertyHandle<SIMD2<Double>>)] = []
    private(set) var handles: [(plain: AnimationHandle, observed: AnimationHandle)] = []

    /// Adds `scalar` and `point`, each with its observed twin.
    mutating func add(_ scalar: Animation<Double>, _ point: Animation<SIMD2<Double>>) throws {
        let target = animator.makeTarget()
        let x = (animator.property("x", of: target, initial: 0.0), animator.property("y", of: target, initial: 0.0))
        let p = (
            animator.property("p", of: target, initial: SIMD2<Double>.zero),
            animator.property("q", of: target, initial: SIMD2<Double>.zero)
        )
        scalars.append(x)
        points.append(p)
        handles.append(try Self.addTwice(scalar, x, animator))
        handles.append(try Self.addTwice(point, p, animator))
    }

    private static func addTwice<Value: AnimatableVector>(
        _ animation: Animation<Value>, _ properties: (PropertyHandle<Value>, PropertyHandle<Value>),
        _ animator: Animator
    ) throws -> (plain: AnimationHandle, observed: AnimationHandle) {
        var observed = animation
        observed.callbacks.onApply = { _, _, _ in }
        return (try animator.add(animation, to: properties.0), try animator.add(observed, to: properties.1))
    }

    /// Ticks at a jittered 60 Hz clock of `seconds`, and at a frame 1.5e-6
    /// of each of `ends` before it (between Pop's end threshold, 1e-6, and
    /// twice it, where a wrong end test ends one frame early); after each
    /// frame, every plain property must hold its twin's bits and every
    /// plain animation run or have ended as its twin. Returns how many
    /// plain animations ended.
    func expectAgree(seed: UInt64, seconds: Double, ends: [Double] = [], _ label: String) -> Int {
        var clock = ManualFrameClock.jittered(fps: 60, seed: seed, dropRate: 0.1, jitter: 0.3, duration: seconds)
        var times: [Double] = []
        while let time = clock.nextFrame() { times.append(time) }
        times += ends.map { $0 * (1 - 1.5e-6) }
        for time in times.sorted() {
            animator.tick(at: time)
            for (plain, observed) in scalars where animator[plain].bitPattern != animator[observed].bitPattern {
                Issue.record("\(label) at \(time): \(animator[plain]) against \(animator[observed])")
                return 0
            }
            for (plain, observed) in points
            where unsafeBitCast(animator[plain], to: SIMD2<UInt64>.self)
                != unsafeBitCast(animator[observed], to: SIMD2<UInt64>.self)
            {
                Issue.record("\(label) at \(time): \(animator[plain]) against \(animator[observed])")
                return 0
            }
            for (plain, observed) in handles where animator.phase(of: plain) != animator.phase(of: observed) {
                Issue.record("\(label) at \(time): an animation and its observed twin end in different frames")
                return 0
            }
        }
        return handles.count { animator.phase(of: $0.plain) == nil }
    }
}

@Suite("Straight paths held to the general one: decays, basic and keyframe animations")
struct StraightPathTests {
    @Test(
        "300 decays a method, scalar and 2-vector, jittered clock: plain and observed write the same bits and end in the same frame",
        arguments: DecayMethod.allCases)
    func decays(method: DecayMethod) throws {
        var random = SplitMix64(seed: 29)
        var twins = Twins()
        for index in 0 ..< 300 {
            let parameters = try DecayParameters(deceleration: random.uniform(0.99, 0.9995))
            let from = random.uniform(-500, 500)
            let velocity = random.uniform(-3_000, 3_000)
            var scalar: Animation<Double> = .decay(
                velocity: velocity, parameters: parameters, method: method, from: from)
            var point: Animation<SIMD2<Double>> = .decay(
                velocity: SIMD2(velocity, velocity / 2), parameters: parameters, method: method,
                from: SIMD2(from, -from))
            scalar.threshold = [0.01, 0.5][index % 2]
            point.threshold = scalar.threshold
            try twins.add(scalar, point)
        }
        let ended = twins.expectAgree(seed: 31, seconds: 12, "\(method)")
        // Most came to rest within the 12 s, so ends were compared too.
        #expect(ended > twins.handles.count / 2, "\(ended) of \(twins.handles.count) ended")
    }

    @Test(
        "200 basics a bezier method, scalar and 2-vector, five curves, jittered clock: plain and observed write the same bits and end in the same frame",
        arguments: BezierMethod.allCases)
    func basics(bezier: BezierMethod) throws {
        var random = SplitMix64(seed: 37)
        let curves: [TimingFunction] = [.linear, .easeIn, .easeOut, .easeInEaseOut, .default]
        var twins = Twins()
        var durations: [Double] = []
        for index in 0 ..< 200 {
            let duration = random.uniform(0.05, 3)
            durations.append(duration)
            let timing = curves[index % curves.count]
            let from = random.uniform(-500, 500)
            let to = random.uniform(-500, 500)
            try twins.add(
                .basic(duration: duration, timing: timing, bezier: bezier, from: from, to: to),
                .basic(duration: duration, timing: timing, bezier: bezier, from: SIMD2(from, to), to: SIMD2(to, from)))
        }
        let ended = twins.expectAgree(seed: 41, seconds: 4, ends: Array(durations.prefix(20)), "\(bezier)")
        // Every one ran its whole duration (at most 3 s) within the 4 s.
        #expect(ended == twins.handles.count)
    }

    @Test(
        "120 keyframe animations, linear and discrete, scalar and 2-vector, jittered clock: plain and observed write the same bits and end in the same frame"
    )
    func keyframes() throws {
        var random = SplitMix64(seed: 43)
        var twins = Twins()
        var durations: [Double] = []
        for index in 0 ..< 120 {
            let duration = random.uniform(0.05, 3)
            durations.append(duration)
            let values = (0 ..< 4).map { _ in random.uniform(-500, 500) }
            let keyTimes = [0, random.uniform(0.05, 0.45), random.uniform(0.55, 0.95), 1]
            let scalar =
                index % 4 == 3
                ? try Keyframes<Double>(
                    values: Array(values.prefix(3)), keyTimes: keyTimes, calculation: .discrete, duration: duration)
                : try Keyframes<Double>(
                    values: values, keyTimes: keyTimes, timingFunctions: [.easeOut, .linear, .easeInEaseOut],
                    duration: duration)
            let point = try Keyframes<SIMD2<Double>>(
                values: values.map { SIMD2($0, -$0) }, keyTimes: keyTimes,
                timingFunctions: [.easeIn, .easeOut, .linear], duration: duration)
            try twins.add(.keyframes(scalar), .keyframes(point))
        }
        let ended = twins.expectAgree(seed: 47, seconds: 4, ends: Array(durations.prefix(20)), "keyframes")
        #expect(ended == twins.handles.count)
    }
}

extension SplitMix64 {
    /// A number in [low, high] on a grid of a millionth of the range.
    fileprivate mutating func uniform(_ low: Double, _ high: Double) -> Double {
        low + (high - low) * Double(next() % 1_000_001) / 1_000_000
    }
}
