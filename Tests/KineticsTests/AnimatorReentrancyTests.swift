import Foundation
import Kinetics
import KineticsTestSupport
import Testing

/// Callbacks that change the animator during a tick, and groups.
@Suite("Animator: callbacks, reentrancy and groups")
struct AnimatorReentrancyTests {
    @Test("an animation added from a callback writes its first value at once and advances from the next tick")
    func addFromCallback() throws {
        let (animator, x, y) = animatorWithXY()
        var added: AnimationHandle?
        var first = Animation<Double>.basic(duration: 0.1, timing: .linear, from: 0, to: 1)
        first.callbacks.onStop = { animator, _, finished in
            guard finished else { return }
            added = try? animator.add(.basic(duration: 0.1, timing: .linear, from: 5, to: 6), to: y, forKey: "y")
        }
        try animator.add(first, to: x, forKey: "x")
        for frame in 1 ... 6 { animator.tick(at: Double(frame) / 60) }
        #expect(added != nil && animator[y] == 5)
        animator.tick(at: 7.0 / 60)
        #expect(abs(animator[y] - (5 + 1.0 / 6)) < 1e-12)
    }

    @Test("an animation that removes itself from its apply callback is not advanced again")
    func removeSelf() throws {
        let (animator, x) = animatorWithX()
        var applies = 0
        var stops: [Bool] = []
        var animation = Animation<Double>.spring(.popDefault, to: 10)
        animation.callbacks.onApply = { animator, handle, _ in
            applies += 1
            if applies == 3 { animator.remove(handle) }
        }
        animation.callbacks.onStop = { _, _, finished in stops.append(finished) }
        try animator.add(animation, to: x, forKey: "x")
        for frame in 1 ... 10 { animator.tick(at: Double(frame) / 60) }
        #expect(applies == 3 && stops == [false] && animator.animationCount == 0)
    }

    @Test("a callback may remove every animation, replace others and retarget, in the same tick")
    func removeAllFromCallback() throws {
        let (animator, tracer, target) = tracedAnimator()
        let properties = (0 ..< 20).map { animator.property("p\($0)", of: target, initial: 0.0) }
        var handles: [AnimationHandle] = []
        for (index, property) in properties.enumerated() {
            var animation = Animation<Double>.spring(.popDefault, to: 10)
            if index == 7 {
                animation.callbacks.onApply = { animator, _, _ in
                    if animator.time >= 0.1 { animator.removeAllAnimations() }
                }
            }
            if index == 3 {
                animation.callbacks.onApply = { animator, handle, _ in
                    _ = animator.retarget(handle, to: 20.0)
                    _ = try? animator.add(.spring(to: 1.0), to: properties[4], forKey: "p4")
                }
            }
            handles.append(try animator.add(animation, to: property, forKey: "p\(index)"))
        }
        for frame in 1 ... 30 { animator.tick(at: Double(frame) / 60) }
        #expect(animator.animationCount == 0 && animator.keys(on: target).isEmpty)
        // Every animation that started stopped exactly once.
        var starts: [String: Int] = [:]
        var stops: [String: Int] = [:]
        for event in tracer.events {
            if case .start = event.kind { starts["\(event.handle)", default: 0] += 1 }
            if case .stop = event.kind { stops["\(event.handle)", default: 0] += 1 }
        }
        #expect(starts == stops && starts.values.allSatisfy { $0 == 1 })
        #expect(handles.allSatisfy { !animator.contains($0) })
    }

    @Test("a stop callback may add a new animation under its own key (chaining)")
    func chainSameKey() throws {
        let (animator, x) = animatorWithX()
        var chained = 0
        func next(_ to: Double) -> Animation<Double> {
            var animation = Animation<Double>.basic(duration: 0.05, timing: .linear, to: to)
            animation.callbacks.onStop = { animator, _, finished in
                guard finished, chained < 3 else { return }
                chained += 1
                _ = try? animator.add(next(to + 1), to: x, forKey: "x")
            }
            return animation
        }
        try animator.add(next(1), to: x, forKey: "x")
        for frame in 1 ... 60 { animator.tick(at: Double(frame) / 60) }
        #expect(chained == 3 && animator[x] == 4 && animator.keys(on: x.target).isEmpty)
    }

    @Test("tick may not be called from a callback")
    func tickFromCallbackTraps() async {
        await #expect(processExitsWith: .failure) {
            let (animator, x) = animatorWithX()
            var animation = Animation<Double>.basic(to: 1)
            animation.callbacks.onApply = { animator, _, _ in animator.tick(at: animator.time + 1) }
            _ = try? animator.add(animation, to: x, forKey: "x")
            animator.tick(at: 0.1)
        }
    }

    @Test("a custom animation's step may not make a new property in its first frame (the values are written in place)")
    func propertyFromFirstCustomStepTraps() async {
        await #expect(processExitsWith: .failure) { Self.makePropertiesInCustomStep(inTick: false) }
    }

    @Test("nor in a tick's frame")
    func propertyFromCustomStepInTickTraps() async {
        await #expect(processExitsWith: .failure) { Self.makePropertiesInCustomStep(inTick: true) }
    }

    /// Adds a custom animation whose step makes 64 new properties (enough
    /// to move the values, were it allowed): in its first frame, or with
    /// `inTick` in the frames after it; then ticks once.
    static func makePropertiesInCustomStep(inTick: Bool) {
        let (animator, x) = animatorWithX()
        let target = animator.makeTarget()
        let animation = Animation<Double>.custom { frame in
            if !inTick || frame.elapsed > 0 {
                for index in 0 ..< 64 { _ = animator.property("p\(index)", of: target, initial: 0.0) }
            }
            frame.value = 1
            return false
        }
        _ = try? animator.add(animation, to: x, forKey: "x")
        animator.tick(at: 0.1)
    }

    @Test("a sequence runs its children one after another; a concurrent group ends with its last child")
    func groups() throws {
        let (animator, tracer, target) = tracedAnimator()
        let x = animator.property("x", of: target, initial: 0.0)
        let y = animator.property("y", of: target, initial: 0.0)
        var groupStop: Bool?
        var inner = AnimationGroup(
            .concurrent,
            [
                .animation(.basic(duration: 0.2, timing: .linear, to: 3), on: x),
                .animation(.basic(duration: 0.4, timing: .linear, to: 4), on: y),
            ])
        inner.onStop = { _, _, finished in groupStop = finished }
        let sequence = AnimationGroup(
            .sequence,
            [
                .animation(.basic(duration: 0.1, timing: .linear, from: 0, to: 1), on: x),
                .group(inner),
                .animation(.basic(duration: 0.1, timing: .linear, to: 0), on: x),
            ])
        let handle = try animator.add(sequence, on: target, forKey: "g")
        #expect(animator[x] == 0 && animator[y] == 0)
        animator.tick(at: 0.1)
        #expect(animator[x] == 1)  // first child done, the concurrent group just started
        animator.tick(at: 0.2)
        #expect(abs(animator[x] - 2) < 1e-12 && abs(animator[y] - 1) < 1e-12)
        for frame in 1 ... 40 { animator.tick(at: 0.2 + Double(frame) / 60) }
        #expect(groupStop == true && animator[x] == 0 && animator[y] == 4 && !animator.contains(handle))
        let groupEvents = tracer.events.filter { $0.key == "g" }.map(\.kind)
        #expect(groupEvents == [.start, .stop(finished: true)])
    }

    @Test("removing a group cancels its running children")
    func removeGroup() throws {
        let (animator, tracer, target) = tracedAnimator()
        let x = animator.property("x", of: target, initial: 0.0)
        let group = AnimationGroup(
            .sequence,
            [
                .animation(.basic(duration: 1, to: 1), on: x), .animation(.basic(duration: 1, to: 2), on: x),
            ])
        let handle = try animator.add(group, on: target, forKey: "g")
        animator.tick(at: 0.5)
        animator.remove(handle)
        let stops = tracer.events.filter { if case .stop = $0.kind { return true } else { return false } }
        #expect(stops.map(\.key) == ["x", "g"] && stops.allSatisfy { $0.kind == .stop(finished: false) })
        #expect(animator.animationCount == 0)
    }

    @Test("a custom animation writes what its closure returns until it says it is done")
    func custom() throws {
        let (animator, x) = animatorWithX()
        try animator.add(
            .custom { frame in
                frame.value = frame.elapsed * 10
                return frame.elapsed >= 0.5
            }, to: x, forKey: "x")
        animator.tick(at: 0.25)
        #expect(animator[x] == 2.5)
        animator.tick(at: 0.5)
        #expect(animator[x] == 5 && animator.animationCount == 0)
    }

    // Found by the random-operation property tests (KineticsPropertyTests).

    @Test(
        "replacing an animation whose stop callback adds another under the same key: the caller's animation wins, each stops once"
    )
    func replaceWhileStopAdds() throws {
        let (animator, x) = animatorWithX()
        var stops: [String] = []
        var first = Animation<Double>.spring(to: 10)
        first.callbacks.onStop = { animator, _, _ in
            stops.append("first")
            var intruder = Animation<Double>.spring(to: -10)
            intruder.callbacks.onStop = { _, _, _ in stops.append("intruder") }
            _ = try? animator.add(intruder, to: x, forKey: "k")
        }
        try animator.add(first, to: x, forKey: "k")
        let second = try animator.add(.spring(to: 20), to: x, forKey: "k")
        #expect(animator.animation(forKey: "k", on: x.target) == second)
        #expect(stops == ["first", "intruder"] && animator.animationCount == 1)
        #expect(animator.invariantViolations().isEmpty)
    }

    @Test("a group child's stop callback that removes its group and adds an animation leaves that animation running")
    func childRemovesGroup() throws {
        let (animator, x, y) = animatorWithXY()
        var groupHandle: AnimationHandle?
        var added: AnimationHandle?
        var child = Animation<Double>.basic(duration: 1, to: 1)
        child.callbacks.onStop = { animator, _, _ in
            guard let group = groupHandle else { return }
            animator.remove(group)
            added = try? animator.add(.basic(duration: 1, to: 5), to: y, forKey: "k")
        }
        let group = AnimationGroup(
            .concurrent, [.animation(child, on: x), .animation(.basic(duration: 2, to: 1), on: x)])
        groupHandle = try animator.add(group, on: x.target, forKey: "g")
        animator.tick(at: 0.5)
        animator.removeAnimation(forKey: "g", on: x.target)
        let handle = try #require(added)
        #expect(animator.phase(of: handle) == .running && animator.animation(forKey: "k", on: x.target) == handle)
        #expect(animator.invariantViolations().isEmpty)
        animator.tick(at: 1.0)
        // Added at 0.5 s, half-way at 1.0 s along Core Animation's default
        // curve: within the fast table's 1e-7 of the exact curve.
        #expect(abs(animator[y] - 5 * UnitBezier.default.solvePrecise(0.5)) <= 5e-7, "\(animator[y])")
    }
}
