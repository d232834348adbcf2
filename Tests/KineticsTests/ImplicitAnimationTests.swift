import Kinetics
import Testing

/// Core Animation's action model on Kinetics' values: the lookup order and
/// its three answers, transactions, completion, spring retargeting.
@Suite("Implicit animations: action lookup and transactions")
struct ImplicitAnimationTests {
    static func layer() throws -> (Animator, ImplicitLayer) {
        let animator = Animator()
        let layer = ImplicitLayer(animator: animator)
        for key in ["x", "opacity"] { try layer.set(key, to: 0.0) }
        return (animator, layer)
    }

    @Test("outside a transaction: opacity's default fades over 0.25 s ease-in-out; a key without one jumps")
    func defaults() throws {
        let (animator, layer) = try Self.layer()
        try layer.set("opacity", to: 1.0)
        try layer.set("x", to: 100.0)
        #expect(
            layer.modelValue(forKey: "opacity", as: Double.self) == 1
                && layer.presentationValue(forKey: "opacity", as: Double.self) == 0)
        #expect(layer.presentationValue(forKey: "x", as: Double.self) == 100)
        animator.tick(at: 0.125)
        // Halfway through a symmetric curve: exactly half.
        #expect(abs(layer.presentationValue(forKey: "opacity", as: Double.self)! - 0.5) < 1e-7)
        animator.tick(at: 0.25)
        #expect(layer.presentationValue(forKey: "opacity", as: Double.self) == 1)
    }

    @Test("the lookup order and each answer: delegate, own table, transaction, per-key default, none")
    func lookupOrder() throws {
        let (animator, layer) = try Self.layer()
        let delegateAction = ImplicitAction.basic(duration: 2, timing: .linear)
        let tableAction = ImplicitAction.basic(duration: 3, timing: .linear)
        layer.actions["x"] = .action(tableAction)
        var delegateAnswer = ActionAnswer.action(delegateAction)
        layer.delegate = { key in key == "x" ? delegateAnswer : .keepSearching }
        try animator.transaction(duration: 0.5) {
            #expect(layer.action(forKey: "x") == delegateAction)  // the delegate answers first
            delegateAnswer = .keepSearching
            #expect(layer.action(forKey: "x") == tableAction)  // then the table
            delegateAnswer = .noAction
            #expect(layer.action(forKey: "x") == nil)  // "no action" stops the search
            delegateAnswer = .keepSearching
            layer.actions["x"] = .noAction
            #expect(layer.action(forKey: "x") == nil)  // in the table too
            layer.actions["x"] = nil
            #expect(layer.action(forKey: "x") == .basic(duration: 0.5, timing: .default))  // the transaction
            #expect(layer.action(forKey: "opacity") == .basic(duration: 0.5, timing: .default))  // before the defaults
        }
        #expect(layer.action(forKey: "opacity") == .basic(duration: 0.25, timing: .easeInEaseOut))  // per-key default
        #expect(layer.action(forKey: "x") == nil)  // nothing: jumps
        try animator.transaction(disableActions: true) {
            layer.actions["x"] = .action(tableAction)
            #expect(layer.action(forKey: "x") == nil && layer.action(forKey: "opacity") == nil)
        }
    }

    @Test("nested transactions inherit what they do not set and override what they do")
    func nesting() throws {
        let (animator, layer) = try Self.layer()
        let spring = try SpringParameters(response: 0.4, dampingFraction: 0.8)
        try animator.transaction(duration: 1, timing: .linear, delay: 0.1) {
            try animator.transaction(timing: .easeIn) {
                #expect(layer.action(forKey: "x") == .basic(duration: 1, timing: .easeIn))
                try animator.transaction(spring: spring) {
                    #expect(layer.action(forKey: "x") == .spring(spring, method: .rk4))
                    try animator.transaction(duration: 0.2) {
                        // A duration given inside overrides the outer spring.
                        #expect(layer.action(forKey: "x") == .basic(duration: 0.2, timing: .easeIn))
                    }
                }
            }
            #expect(layer.action(forKey: "x") == .basic(duration: 1, timing: .linear))
            // The delay is inherited: x starts moving at 0.1 s.
            try layer.set("x", to: 10.0)
        }
        animator.tick(at: 0.1)
        #expect(layer.presentationValue(forKey: "x", as: Double.self) == 0)
        animator.tick(at: 0.6)
        #expect(abs(layer.presentationValue(forKey: "x", as: Double.self)! - 5) < 1e-12)
    }

    @Test("completion runs once after the last animation stops; finished is false when one was removed")
    func completion() throws {
        let (animator, layer) = try Self.layer()
        var results: [Bool] = []
        try animator.transaction(duration: 0.2, completion: { results.append($0) }) {
            try layer.set("x", to: 1.0)
            try animator.transaction(duration: 0.4) { try layer.set("opacity", to: 1.0) }
        }
        animator.tick(at: 0.2)
        #expect(results.isEmpty, "the inner animation still runs")
        animator.tick(at: 0.4)
        #expect(results == [true])
        animator.tick(at: 1)
        #expect(results == [true])

        var cancelled: [Bool] = []
        try animator.transaction(duration: 0.5, completion: { cancelled.append($0) }) {
            try layer.set("x", to: 2.0)
            try layer.set("opacity", to: 0.0)
        }
        animator.tick(at: 1.1)
        animator.removeAnimation(forKey: "x", on: layer.target)
        #expect(cancelled.isEmpty)
        animator.tick(at: 1.6)
        #expect(cancelled == [false])

        var empty: [Bool] = []
        try animator.transaction(completion: { empty.append($0) }) {}
        #expect(empty == [true], "no animation: completes when the body ends")
    }

    @Test("a spring set again mid-flight is retargeted: value and velocity stay continuous")
    func springRetarget() throws {
        let (animator, layer) = try Self.layer()
        let spring = try SpringParameters(response: 0.5, dampingFraction: 0.7)
        try animator.transaction(spring: spring) { try layer.set("x", to: 100.0) }
        for frame in 1 ... 12 { animator.tick(at: Double(frame) / 60) }
        let handle = try #require(animator.animation(forKey: "x", on: layer.target))
        let before = (
            layer.presentationValue(forKey: "x", as: Double.self)!, animator.velocity(of: handle, as: Double.self)!
        )
        #expect(before.1 > 100, "moving fast")
        var done: [Bool] = []
        try animator.transaction(spring: spring, completion: { done.append($0) }) { try layer.set("x", to: -50.0) }
        // The same animation, retargeted: nothing jumped.
        #expect(animator.animation(forKey: "x", on: layer.target) == handle)
        #expect(
            layer.presentationValue(forKey: "x", as: Double.self) == before.0
                && animator.velocity(of: handle, as: Double.self) == before.1)
        // The next frame continues the exact motion from that state towards -50.
        animator.tick(at: 13.0 / 60)
        let exact = SpringPropagator.exact(spring, time: 1.0 / 60).apply(
            displacement: before.0 + 50, velocity: before.1)
        #expect(abs(layer.presentationValue(forKey: "x", as: Double.self)! - (-50 + exact.displacement)) < 1e-6)
        for frame in 14 ... 400 { animator.tick(at: Double(frame) / 60) }
        #expect(done == [true] && layer.presentationValue(forKey: "x", as: Double.self) == -50)
    }

    @Test("vectors, bad values and the first set")
    func values() throws {
        let animator = Animator()
        let layer = ImplicitLayer(animator: animator)
        try layer.set("position", to: SIMD2(1.0, 2.0))
        #expect(
            layer.presentationValue(forKey: "position", as: SIMD2<Double>.self) == SIMD2(1, 2),
            "the first set creates the key at its value")
        try animator.transaction(duration: 1, timing: .linear) { try layer.set("position", to: SIMD2(3.0, 6.0)) }
        animator.tick(at: 0.5)
        #expect(layer.presentationValue(forKey: "position", as: SIMD2<Double>.self) == SIMD2(2, 4))
        #expect(throws: ParameterError.self) { try layer.set("position", to: SIMD2(Double.nan, 0)) }
        #expect(throws: ParameterError.self) { try animator.transaction(duration: -1) {} }
        #expect(layer.modelValue(forKey: "missing", as: Double.self) == nil)
    }

    @Test(
        "a keyframe block captures each value's sets: the attention pop pushes out on an aggressive curve and eases back"
    )
    func attentionPop() throws {
        let animator = Animator()
        let layer = ImplicitLayer(animator: animator)
        try layer.set("scale", to: 1.0)
        try layer.set("opacity", to: 1.0)
        let aggressive = try UnitBezier(x1: 0.2, y1: 0, x2: 0, y2: 1)
        var finished: [Bool] = []
        try animator.keyframes(duration: 1, completion: { finished.append($0) }) { block in
            try block.keyframe(relativeStart: 0, relativeDuration: 0.3, timing: .bezier(aggressive)) {
                try layer.set("scale", to: 1.5)
            }
            try block.keyframe(relativeStart: 0.3, relativeDuration: 0.7, timing: .easeInEaseOut) {
                try layer.set("scale", to: 1.0)
            }
            try block.keyframe(relativeStart: 0.5, relativeDuration: 0.25) { try layer.set("opacity", to: 0.5) }
        }
        // Captured, not applied: the model holds the last set, the presentation has not moved.
        #expect(
            layer.modelValue(forKey: "scale", as: Double.self) == 1
                && layer.presentationValue(forKey: "scale", as: Double.self) == 1)
        func expectedScale(_ t: Double) -> Double {
            t <= 0.3
                ? 1 + 0.5 * aggressive.solvePrecise(t / 0.3)
                : 1.5 - 0.5 * UnitBezier.easeInEaseOut.solvePrecise((t - 0.3) / 0.7)
        }
        func expectedOpacity(_ t: Double) -> Double { t <= 0.5 ? 1 : t >= 0.75 ? 0.5 : 1 - 0.5 * (t - 0.5) / 0.25 }
        for frame in 1 ... 60 {
            let t = Double(frame) / 60
            animator.tick(at: t)
            // Keyframe segments use the fast bezier: within 1e-7 of precise.
            #expect(
                abs(layer.presentationValue(forKey: "scale", as: Double.self)! - expectedScale(t)) < 1e-6, "t = \(t)")
            #expect(
                abs(layer.presentationValue(forKey: "opacity", as: Double.self)! - expectedOpacity(t)) < 1e-12,
                "t = \(t)")
        }
        #expect(finished == [true])
        #expect(throws: ParameterError.self) {
            try animator.keyframes(duration: 1) { block in
                try block.keyframe(relativeStart: 0.8, relativeDuration: 0.5) {}
            }
        }
    }
}

/// Fill modes before, during and after an animation, and additive changes.
@Suite("Implicit animations: fill modes and additive changes")
struct FillAndAdditiveTests {
    /// A layer whose "x" has model value 0 at time 0.
    static func layer() throws -> (Animator, ImplicitLayer) {
        let animator = Animator()
        let layer = ImplicitLayer(animator: animator)
        try layer.set("x", to: 0.0)
        return (animator, layer)
    }

    static func x(_ layer: ImplicitLayer) -> Double { layer.presentationValue(forKey: "x", as: Double.self)! }

    @Test(
        "an explicit animation from 10 to 20 on a model of 0: before, during and after, for each fill mode",
        arguments: FillMode.allCases)
    func explicitFill(mode: FillMode) throws {
        let (animator, layer) = try Self.layer()
        var animation = Animation<Double>.basic(duration: 1, timing: .linear, from: 10, to: 20)
        animation.beginTime = 0.5
        var stops: [Bool] = []
        animation.callbacks.onStop = { _, _, finished in stops.append(finished) }
        try layer.add(animation, forKey: "x", fillMode: mode)
        animator.tick(at: 0.25)
        #expect(Self.x(layer) == (mode.fillsBackwards ? 10 : 0), "before")
        animator.tick(at: 0.5)  // Pop's clock: an animation starts at the first frame at or after its begin time
        animator.tick(at: 1)
        #expect(abs(Self.x(layer) - 15) < 1e-12, "during")
        animator.tick(at: 1.5)
        animator.tick(at: 2)
        #expect(Self.x(layer) == (mode.fillsForwards ? 20 : 0), "after")
        #expect(stops == [true] && layer.modelValue(forKey: "x", as: Double.self) == 0)
        // The next change of the key starts from what shows.
        try layer.set("x", to: 5.0)
        #expect(Self.x(layer) == 5)
    }

    @Test(
        "a delayed implicit change: the fill decides whether the old or the new value shows during the delay",
        arguments: FillMode.allCases)
    func implicitFill(mode: FillMode) throws {
        let (animator, layer) = try Self.layer()
        try animator.transaction(duration: 1, timing: .linear, delay: 0.5, fillMode: mode) {
            try layer.set("x", to: 10.0)
        }
        #expect(Self.x(layer) == (mode.fillsBackwards ? 0 : 10), "at once")
        animator.tick(at: 0.25)
        #expect(Self.x(layer) == (mode.fillsBackwards ? 0 : 10), "before")
        animator.tick(at: 0.5)
        #expect(Self.x(layer) == 0, "the animation starts at its from value")
        animator.tick(at: 1)
        #expect(abs(Self.x(layer) - 5) < 1e-12, "during")
        animator.tick(at: 2)
        #expect(Self.x(layer) == 10, "after: the last value is the model value")
    }

    @Test("fill modes are inherited by inner transactions and keyframe blocks; removeAnimation shows the model value")
    func inheritance() throws {
        let (animator, layer) = try Self.layer()
        try animator.transaction(delay: 0.5, fillMode: .removed) {
            try animator.keyframes(duration: 1) { block in
                try block.keyframe(relativeStart: 0, relativeDuration: 1) { try layer.set("x", to: 8.0) }
            }
        }
        animator.tick(at: 0.25)
        #expect(Self.x(layer) == 8, "a removed fill shows the model value during the delay")
        animator.tick(at: 0.5)
        animator.tick(at: 1)
        #expect(abs(Self.x(layer) - 4) < 1e-12)
        layer.removeAnimation(forKey: "x")
        #expect(Self.x(layer) == 8 && animator.animation(forKey: "x", on: layer.target) == nil)
    }

    @Test("additive changes: the value follows the sum of the changes, and nothing jumps when one arrives")
    func additiveSum() throws {
        let (animator, layer) = try Self.layer()
        var finished: [Bool] = []
        try animator.transaction(duration: 1, timing: .linear, additive: true, completion: { finished.append($0) }) {
            try layer.set("x", to: 100.0)
        }
        for frame in 1 ... 30 { animator.tick(at: Double(frame) / 60) }
        let before = Self.x(layer)
        try animator.transaction(duration: 1, timing: .linear, additive: true, completion: { finished.append($0) }) {
            try layer.set("x", to: 0.0)
        }
        #expect(Self.x(layer) == before, "no jump when the change arrives")
        // 100·t for the first change, −100·(t − 0.5) for the second.
        for frame in 31 ... 120 {
            let t = Double(frame) / 60
            animator.tick(at: t)
            let expected = 100 * min(t, 1) - 100 * min(max(t - 0.5, 0), 1)
            #expect(abs(Self.x(layer) - expected) < 1e-9, "t = \(t)")
        }
        #expect(Self.x(layer) == 0 && finished == [true, true], "the first change was not interrupted: it finished")
    }

    @Test("an additive change keeps the velocity: an ease-in-out change starts at rest on top of the running one")
    func additiveVelocity() throws {
        let step = 1.0 / 240
        // Sample both ways on one clock: x(t − h), x(t), then the change, then x(t + h).
        func slopes(additive: Bool) throws -> (before: Double, after: Double, jump: Double) {
            let (animator, layer) = try Self.layer()
            try animator.transaction(duration: 1, timing: .easeInEaseOut, additive: additive) {
                try layer.set("x", to: 100.0)
            }
            var previous = 0.0
            for frame in 1 ... 120 {
                previous = Self.x(layer)
                animator.tick(at: Double(frame) * step)
            }
            let now = Self.x(layer)
            try animator.transaction(duration: 1, timing: .easeInEaseOut, additive: additive) {
                try layer.set("x", to: 0.0)
            }
            let jump = Self.x(layer) - now
            animator.tick(at: 121 * step)
            return ((now - previous) / step, (Self.x(layer) - now) / step, jump)
        }
        let additive = try slopes(additive: true)
        let replaced = try slopes(additive: false)
        #expect(additive.before > 150 && replaced.before > 150, "moving fast at the change: \(additive.before)")
        // Over one 1/240 s step the ease-in-out curve's slope changes by at most
        // about 100 · 6 / 240 = 2.5 units per second; 5 allows for both curves.
        #expect(abs(additive.after - additive.before) < 5 && additive.jump == 0)
        #expect(abs(replaced.after) < 5, "replacing starts the new curve at rest: the velocity drops to zero")
    }

    @Test("additive springs settle exactly on the last model value; a jump removes every additive animation")
    func additiveSpringsAndJumps() throws {
        let (animator, layer) = try Self.layer()
        let spring = try SpringParameters(response: 0.4, dampingFraction: 0.8)
        var results: [Bool] = []
        for (index, target) in [50.0, -20.0, 30.0].enumerated() {
            try animator.transaction(spring: spring, additive: true, completion: { results.append($0) }) {
                try layer.set("x", to: target)
            }
            for frame in 1 ... 6 { animator.tick(at: Double(index * 6 + frame) / 60) }
        }
        var frame = 18
        while animator.animationCount > 0, frame < 600 {
            frame += 1
            animator.tick(at: Double(frame) / 60)
        }
        #expect(Self.x(layer) == 30 && results == [true, true, true])

        try animator.transaction(duration: 1, additive: true, completion: { results.append($0) }) {
            try layer.set("x", to: 90.0)
        }
        try animator.transaction(duration: 1, additive: true, completion: { results.append($0) }) {
            try layer.set("x", to: 70.0)
        }
        animator.tick(at: Double(frame + 10) / 60)
        try animator.transaction(disableActions: true) { try layer.set("x", to: 7.0) }
        animator.tick(at: Double(frame + 20) / 60)
        #expect(Self.x(layer) == 7 && animator.animationCount == 0 && results.suffix(2) == [false, false])
    }

    @Test("an additive change over a running non-additive animation replaces it, from the presentation value")
    func additiveOverPlain() throws {
        let (animator, layer) = try Self.layer()
        var results: [Bool] = []
        try animator.transaction(duration: 1, timing: .linear, completion: { results.append($0) }) {
            try layer.set("x", to: 100.0)
        }
        animator.tick(at: 0.5)
        try animator.transaction(duration: 1, timing: .linear, additive: true) { try layer.set("x", to: 0.0) }
        #expect(results == [false] && Self.x(layer) == 50)
        animator.tick(at: 1)
        #expect(abs(Self.x(layer) - 25) < 1e-12)
        animator.tick(at: 1.5)
        #expect(Self.x(layer) == 0)
    }

    @Test("a completion brought about by a change runs after that change: a value it sets is not overwritten")
    func completionAfterChange() throws {
        // Found by the random-change property test: the jump below removes the
        // delayed animation, whose transaction completes cancelled and sets x
        // again; run inside the jump, that set was overwritten by the jump's own write.
        let (animator, layer) = try Self.layer()
        var results: [Bool] = []
        try animator.transaction(
            duration: 1, delay: 0.1,
            completion: { finished in
                results.append(finished)
                try? layer.set("x", to: -100.0)
            }
        ) { try layer.set("x", to: 50.0) }
        try layer.set("x", to: 7.0)
        #expect(results == [false])
        #expect(Self.x(layer) == -100 && layer.modelValue(forKey: "x", as: Double.self) == -100)
        #expect(animator.animationCount == 0)
    }

    @Test("a layer's animation removed through the animator gives way to the model value")
    func removedBehindTheLayer() throws {
        let (animator, layer) = try Self.layer()
        try animator.transaction(duration: 1, timing: .linear) { try layer.set("x", to: 10.0) }
        animator.tick(at: 0.5)
        #expect(abs(Self.x(layer) - 5) < 1e-12)
        animator.removeAnimation(forKey: "x", on: layer.target)
        #expect(Self.x(layer) == 10)
    }

    @Test("a delayed additive change without a backwards fill shows the new value during the delay")
    func additiveDelay() throws {
        let (animator, layer) = try Self.layer()
        try animator.transaction(duration: 1, timing: .linear, delay: 0.5, fillMode: .removed, additive: true) {
            try layer.set("x", to: 10.0)
        }
        #expect(Self.x(layer) == 10)
        animator.tick(at: 0.25)
        #expect(Self.x(layer) == 10)
        animator.tick(at: 0.5)
        #expect(Self.x(layer) == 0)
        animator.tick(at: 1)
        #expect(abs(Self.x(layer) - 5) < 1e-12)
        animator.tick(at: 1.5)
        #expect(Self.x(layer) == 10)
    }
}
