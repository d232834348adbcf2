// package-benchmark suites for the hot path. Run them with
//   swift package benchmark
// and check allocations against the checked-in thresholds with
//   swift package benchmark thresholds check --metric mallocCountTotal
// (Thresholds/KineticsBenchmarks.<name>.p90.json; steady frames allocate exactly 0).

import Benchmark
import Kinetics

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .mallocCountTotal], warmupIterations: 5, maxDuration: .seconds(1), maxIterations: 500)

    // A steady animator frame per mix, at 1,000 and 10,000 animations.
    for mix in ["spring", "decay", "basic", "keyframe", "mixed"] {
        for count in [1_000, 10_000] {
            let scene = SteadyScene(mix: mix, count: count)
            Benchmark("animator.steady.\(mix).\(count)") { benchmark in
                for _ in benchmark.scaledIterations { scene.frame() }
            }
        }
    }

    // All 10,000 animations finishing in one frame; the setup runs each
    // iteration outside the measurement.
    let completion = CompletionScene(count: 10_000)
    Benchmark("animator.mass-completion.10000") { benchmark in
        completion.prepare()
        benchmark.startMeasurement()
        completion.finish()
        benchmark.stopMeasurement()
    }

    // A frame of churn: 10% of 10,000 animations replaced (same keys, so the
    // old ones are cancelled), then the tick. Once the animator has grown,
    // this allocates nothing.
    for mix in ["spring", "mixed"] {
        let churn = ChurnScene(mix: mix, count: 10_000)
        Benchmark("animator.churn.\(mix).10000") { benchmark in
            for _ in benchmark.scaledIterations { churn.frame() }
        }
    }

    // The fast bezier as the animator evaluates it: the curve's table.
    let table = BezierTable(.easeInEaseOut)
    Benchmark("bezier.solve.table", configuration: .init(scalingFactor: .kilo)) { benchmark in
        var sum = 0.0
        var x = 0.0005
        for _ in benchmark.scaledIterations {
            sum += table.solve(x)
            x += 0.001
            if x > 1 { x -= 1 }
        }
        blackHole(sum)
    }

    // The same table, 1,000 x at once into a buffer (its work buffer is on
    // the stack: no allocation).
    let many = (0 ..< 1_000).map { 0.0005 + Double($0) * 0.001 }
    let out = UnsafeMutableBufferPointer<Double>.allocate(capacity: many.count)
    out.initialize(repeating: 0)
    Benchmark("bezier.solve.table.many", configuration: .init(scalingFactor: .kilo)) { benchmark in
        for _ in 0 ..< benchmark.scaledIterations.count / many.count {
            many.withUnsafeBufferPointer { _ = table.solve($0, into: out) }
            blackHole(out[0])
        }
    }

    // Solving a bezier, per mode: 1,000 x values per iteration.
    let curve = UnitBezier.easeInEaseOut
    for method in BezierMethod.allCases {
        Benchmark("bezier.solve.\(method.rawValue)", configuration: .init(scalingFactor: .kilo)) { benchmark in
            var sum = 0.0
            var x = 0.0005
            for _ in benchmark.scaledIterations {
                sum += curve.solve(x, method: method, epsilon: 1.0 / 400)
                x += 0.001
                if x > 1 { x -= 1 }
            }
            blackHole(sum)
        }
    }

    // One 60 Hz frame of one spring with each method (the reference stepper).
    for method in SpringMethod.allCases {
        Benchmark("spring.frame.\(method.rawValue)", configuration: .init(scalingFactor: .kilo)) { benchmark in
            var stepper = SpringStepper(parameters: .popDefault, method: method, value: 0.0, target: 1.0)
            for _ in benchmark.scaledIterations {
                stepper.advance(by: 1.0 / 60)
                if abs(stepper.value - 1) < 1e-6 { stepper.target = stepper.target == 1 ? 0 : 1 }
            }
            blackHole(stepper.value)
        }
    }
}

/// An animator with `count` long-running animations of one mix, ticked at 60 Hz.
final class SteadyScene: @unchecked Sendable {
    private let animator = Animator()
    private var time = 0.0

    init(mix: String, count: Int) {
        let target = animator.makeTarget()
        let springs = [
            try! SpringParameters(tension: 300, friction: 3.5), try! SpringParameters(tension: 200, friction: 3),
        ]
        let keyframes = try! Keyframes<Double>(
            values: [0, 40, 25, 100], timingFunctions: [.easeOut, .linear, .easeInEaseOut], duration: 10_000)
        for index in 0 ..< count {
            let kind = mix == "mixed" ? ["spring", "spring", "decay", "basic", "keyframe"][index % 5] : mix
            let x = animator.property("p\(index)", of: target, initial: Double(index % 50))
            switch kind {
            case "spring":
                var animation = Animation<Double>.spring(springs[index % 2], method: .pop, to: 1_000)
                animation.threshold = 1e-9
                _ = try? animator.add(animation, to: x, forKey: "a\(index)")
            case "decay":
                var animation = Animation<Double>.decay(velocity: 1_000, parameters: try! DecayParameters(deceleration: 0.99995))
                animation.threshold = 1e-9
                _ = try? animator.add(animation, to: x, forKey: "a\(index)")
            case "basic":
                _ = try? animator.add(.basic(duration: 10_000, timing: .easeInEaseOut, to: 100), to: x, forKey: "a\(index)")
            default:
                _ = try? animator.add(.keyframes(keyframes), to: x, forKey: "a\(index)")
            }
        }
        for _ in 0 ..< 10 { frame() }
    }

    func frame() {
        time += 1.0 / 60
        animator.tick(at: time)
    }
}

/// An animator reused across iterations: each iteration adds `count` basic
/// animations that all end in the same frame and runs them to the frame before.
final class CompletionScene: @unchecked Sendable {
    private let animator = Animator()
    private let properties: [PropertyHandle<Double>]
    private let keys: [String]
    private var time = 0.0

    init(count: Int) {
        let animator = self.animator
        let target = animator.makeTarget()
        properties = (0 ..< count).map { animator.property("p\($0)", of: target, initial: 0.0) }
        keys = (0 ..< count).map { "a\($0)" }
        prepare()
        finish()
    }

    func prepare() {
        for (index, property) in properties.enumerated() {
            _ = try? animator.add(.basic(duration: 0.1, timing: .easeOut, from: 0, to: 1), to: property, forKey: keys[index])
        }
        for _ in 0 ..< 5 {
            time += 1.0 / 60
            animator.tick(at: time)
        }
    }

    func finish() {
        time += 1.0 / 60
        animator.tick(at: time)
        precondition(animator.animationCount == 0, "every animation finishes in this frame")
    }
}

/// An animator in which each frame replaces a tenth of its animations.
final class ChurnScene: @unchecked Sendable {
    private let animator = Animator()
    private let properties: [PropertyHandle<Double>]
    private let keys: [String]
    private let mix: String
    private let keyframes = try! Keyframes<Double>(
        values: [0, 40, 25, 100], timingFunctions: [.easeOut, .linear, .easeInEaseOut], duration: 10_000)
    private var cursor = 0
    private var time = 0.0

    init(mix: String, count: Int) {
        self.mix = mix
        let animator = self.animator
        let target = animator.makeTarget()
        properties = (0 ..< count).map { animator.property("p\($0)", of: target, initial: 0.0) }
        keys = (0 ..< count).map { "a\($0)" }
        for index in 0 ..< count { add(index) }
        // Grow every table and pool: a few full rounds of replacement.
        for _ in 0 ..< 30 { frame() }
    }

    private func add(_ index: Int) {
        let kind = mix == "mixed" ? index % 4 : 0
        switch kind {
        case 0: _ = try? animator.add(.spring(.popDefault, method: .pop, to: 1_000), to: properties[index], forKey: keys[index])
        case 1: _ = try? animator.add(.decay(velocity: 500), to: properties[index], forKey: keys[index])
        case 2: _ = try? animator.add(.basic(duration: 10, timing: .easeInEaseOut, to: 100), to: properties[index], forKey: keys[index])
        default: _ = try? animator.add(.keyframes(keyframes), to: properties[index], forKey: keys[index])
        }
    }

    func frame() {
        for _ in 0 ..< properties.count / 10 {
            add(cursor)
            cursor = (cursor + 1) % properties.count
        }
        time += 1.0 / 60
        animator.tick(at: time)
    }
}
