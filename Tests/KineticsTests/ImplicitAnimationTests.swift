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
        #expect(layer.modelValue(forKey: "opacity", as: Double.self) == 1 && layer.presentationValue(forKey: "opacity", as: Double.self) == 0)
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
        let before = (layer.presentationValue(forKey: "x", as: Double.self)!, animator.velocity(of: handle, as: Double.self)!)
        #expect(before.1 > 100, "moving fast")
        var done: [Bool] = []
        try animator.transaction(spring: spring, completion: { done.append($0) }) { try layer.set("x", to: -50.0) }
        // The same animation, retargeted: nothing jumped.
        #expect(animator.animation(forKey: "x", on: layer.target) == handle)
        #expect(layer.presentationValue(forKey: "x", as: Double.self) == before.0 && animator.velocity(of: handle, as: Double.self) == before.1)
        // The next frame continues the exact motion from that state towards -50.
        animator.tick(at: 13.0 / 60)
        let exact = SpringPropagator.exact(spring, time: 1.0 / 60).apply(displacement: before.0 + 50, velocity: before.1)
        #expect(abs(layer.presentationValue(forKey: "x", as: Double.self)! - (-50 + exact.displacement)) < 1e-6)
        for frame in 14 ... 400 { animator.tick(at: Double(frame) / 60) }
        #expect(done == [true] && layer.presentationValue(forKey: "x", as: Double.self) == -50)
    }

    @Test("vectors, bad values and the first set")
    func values() throws {
        let animator = Animator()
        let layer = ImplicitLayer(animator: animator)
        try layer.set("position", to: SIMD2(1.0, 2.0))
        #expect(layer.presentationValue(forKey: "position", as: SIMD2<Double>.self) == SIMD2(1, 2), "the first set creates the key at its value")
        try animator.transaction(duration: 1, timing: .linear) { try layer.set("position", to: SIMD2(3.0, 6.0)) }
        animator.tick(at: 0.5)
        #expect(layer.presentationValue(forKey: "position", as: SIMD2<Double>.self) == SIMD2(2, 4))
        #expect(throws: ParameterError.self) { try layer.set("position", to: SIMD2(Double.nan, 0)) }
        #expect(throws: ParameterError.self) { try animator.transaction(duration: -1) {} }
        #expect(layer.modelValue(forKey: "missing", as: Double.self) == nil)
    }

    @Test("a keyframe block captures each value's sets: the attention pop pushes out on an aggressive curve and eases back")
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
        #expect(layer.modelValue(forKey: "scale", as: Double.self) == 1 && layer.presentationValue(forKey: "scale", as: Double.self) == 1)
        func expectedScale(_ t: Double) -> Double {
            t <= 0.3 ? 1 + 0.5 * aggressive.solvePrecise(t / 0.3) : 1.5 - 0.5 * UnitBezier.easeInEaseOut.solvePrecise((t - 0.3) / 0.7)
        }
        func expectedOpacity(_ t: Double) -> Double { t <= 0.5 ? 1 : t >= 0.75 ? 0.5 : 1 - 0.5 * (t - 0.5) / 0.25 }
        for frame in 1 ... 60 {
            let t = Double(frame) / 60
            animator.tick(at: t)
            // Keyframe segments use the fast bezier: within 1e-7 of precise.
            #expect(abs(layer.presentationValue(forKey: "scale", as: Double.self)! - expectedScale(t)) < 1e-6, "t = \(t)")
            #expect(abs(layer.presentationValue(forKey: "opacity", as: Double.self)! - expectedOpacity(t)) < 1e-12, "t = \(t)")
        }
        #expect(finished == [true])
        #expect(throws: ParameterError.self) {
            try animator.keyframes(duration: 1) { block in try block.keyframe(relativeStart: 0.8, relativeDuration: 0.5) {} }
        }
    }
}
