import Testing

@testable import Kinetics

/// Which springs run bare (without a box), when they get one, and the
/// record layout that churn at 100,000 springs depends on. That bare and
/// boxed springs behave alike is BareSpringPropertyTests' part.
@Suite("Animator: bare springs")
struct BareSpringTests {
    @Test("a record is 64 bytes and its status 12: what an in-place replacement touches")
    func layout() {
        #expect(MemoryLayout<AnimationRecord>.stride == 64)
        #expect(MemoryLayout<RecordStatus>.stride == 12)
    }

    @Test("callbacks and markers are values: a copy's changes are its own, and cleared ones leave it quiet")
    func observersAreValues() throws {
        var observed = Animation<Double>.spring(.popDefault, method: .pop, to: 10)
        var stops: [String] = []
        var markers: [Double] = []
        observed.callbacks.onStop = { _, _, _ in stops.append("observed") }
        observed.callbacks.onProgressMarker = { _, _, marker in markers.append(marker) }
        observed.progressMarkers = [0.5]
        var cleared = observed
        cleared.callbacks.onStop = { _, _, _ in stops.append("copy") }
        cleared.callbacks = AnimationCallbacks()
        cleared.progressMarkers = []
        #expect(observed.callbacks.onStop != nil && observed.callbacks.onProgressMarker != nil)
        #expect(observed.progressMarkers == [0.5] && !observed.isUnobserved)
        #expect(cleared.callbacks.onStop == nil && cleared.progressMarkers.isEmpty && cleared.isUnobserved)

        let animator = Animator()
        let target = animator.makeTarget()
        let x = animator.property("x", of: target, initial: 0.0)
        let y = animator.property("y", of: target, initial: 0.0)
        try animator.add(observed, to: x, forKey: "x")
        try animator.add(cleared, to: y, forKey: "y")
        #expect(animator.bareSpringCount == 1, "the cleared copy runs bare, the observed one in a box")
        for frame in 1 ... 300 { animator.tick(at: Double(frame) / 60) }
        #expect(animator.animationCount == 0)
        #expect(stops == ["observed"] && markers == [0.5])
    }

    @Test("only a quiet spring that starts now, of the animator's own value types, runs bare")
    func which() throws {
        let animator = Animator()
        let target = animator.makeTarget()
        let x = animator.property("x", of: target, initial: 0.0)
        let p = animator.property("p", of: target, initial: SIMD2<Double>.zero)
        let c = animator.property("c", of: target, initial: SIMD3<Double>.zero)
        try animator.add(.spring(to: 10), to: x, forKey: "x")
        try animator.add(.spring(to: SIMD2(1, 2)), to: p, forKey: "p")
        try animator.add(.spring(to: SIMD3(1, 2, 3)), to: c, forKey: "c")
        #expect(animator.bareSpringCount == 3)

        // Observed, waiting, repeating or kept when finished: boxes.
        var observed = Animation<Double>.spring(to: 20)
        observed.callbacks.onStop = { _, _, _ in }
        var later = Animation<Double>.spring(to: 20)
        later.beginTime = 1
        var repeating = Animation<Double>.spring(to: 20)
        repeating.repeatCount = 2
        var kept = Animation<Double>.spring(to: 20)
        kept.removedOnCompletion = false
        for (index, animation) in [observed, later, repeating, kept].enumerated() {
            let y = animator.property("y\(index)", of: target, initial: 0.0)
            try animator.add(animation, to: y, forKey: "y\(index)")
        }
        // A decay is not a spring.
        try animator.add(.decay(velocity: 100), to: animator.property("d", of: target, initial: 0.0), forKey: "d")
        #expect(animator.bareSpringCount == 3)

        // A tracer observes everything added after it.
        animator.tracer = AnimationTracer()
        try animator.add(.spring(to: 5), to: animator.property("z", of: target, initial: 0.0), forKey: "z")
        #expect(animator.bareSpringCount == 3)
    }

    @Test("a new pop spring's first frame tests rest with its own threshold, not the last new spring's")
    func firstFrameThreshold() throws {
        let animator = Animator()
        let target = animator.makeTarget()
        // 0.3 from its target: at rest at once under a threshold of 1 (Pop's
        // bound is half of it), not under 0.1. Each add's first frame keeps
        // the batch's frame of length 0 for the next add with its threshold.
        func add(_ name: String, threshold: Double) throws -> PropertyHandle<Double> {
            let property = animator.property(name, of: target, initial: 0.0)
            var spring = Animation<Double>.spring(method: .pop, from: 0, to: 0.3)
            spring.threshold = threshold
            try animator.add(spring, to: property, forKey: name)
            return property
        }
        // Thresholds in turn, so that each add finds the other's frame kept:
        // the spring, then how many run after its add and where it is.
        let adds: [(name: String, threshold: Double, running: Int, value: Double)] = [
            ("loose", 1, 0, 0.3), ("tight", 0.1, 1, 0), ("loose again", 1, 1, 0.3), ("tight again", 0.1, 2, 0),
        ]
        for spring in adds {
            let property = try add(spring.name, threshold: spring.threshold)
            #expect(animator.animationCount == spring.running, "\(spring.name)")
            #expect(animator[property] == spring.value, "\(spring.name)")
        }
        #expect(animator.invariantViolations().isEmpty)
    }

    @Test("pausing a bare spring gives it a box; a retarget and a velocity query do not")
    func boxMadeWhenNeeded() throws {
        let animator = Animator()
        let target = animator.makeTarget()
        let x = animator.property("x", of: target, initial: 0.0)
        let handle = try animator.add(.spring(to: 10), to: x, forKey: "x")
        animator.tick(at: 1.0 / 60)
        #expect(animator.retarget(handle, to: 20.0))
        #expect(animator.velocity(of: handle, as: Double.self)! > 0)
        #expect(animator.bareSpringCount == 1)
        #expect(animator.pause(handle))
        #expect(animator.bareSpringCount == 0)
        #expect(animator.invariantViolations().isEmpty)
        #expect(animator.resume(handle))
        for frame in 2 ... 600 { animator.tick(at: Double(frame) / 60) }
        #expect(animator[x] == 20)
        #expect(animator.animationCount == 0)
    }
}
