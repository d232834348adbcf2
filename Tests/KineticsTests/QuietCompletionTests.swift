import KineticsTestSupport
import Testing

@testable import Kinetics

/// Animations that nothing observes finish inside their batches
/// (`ElementFlag.quiet`); the same animations with a stop callback finish
/// through the animator's general completion. Both must give the same
/// values on every frame, bit for bit.
@Suite("Animator: quiet completions")
struct QuietCompletionTests {
    /// A workload of `count` animations of every kind, with ends spread over
    /// frames so that most completions leave survivors to move; `observe`
    /// gives every animation whose index it accepts a stop callback.
    static func animator(count: Int, observe: (Int) -> Bool) throws -> (
        Animator, [PropertyHandle<Double>], [PropertyHandle<SIMD2<Double>>]
    ) {
        let animator = Animator()
        let target = animator.makeTarget()
        var scalars: [PropertyHandle<Double>] = []
        var points: [PropertyHandle<SIMD2<Double>>] = []
        let keyframes = try Keyframes<Double>(
            values: [0, 40, 25, 100], timingFunctions: [.easeOut, .linear, .easeIn], duration: 0.45)
        let stop: (Animator, AnimationHandle, Bool) -> Void = { _, _, _ in }
        for index in 0 ..< count {
            let spread = Double(index % 13)
            switch index % 6 {
            case 0, 1:
                let x = animator.property("s\(index)", of: target, initial: spread)
                var animation = Animation<Double>.spring(
                    try SpringParameters(tension: 200 + 20 * spread, friction: 12 + spread),
                    method: index % 2 == 0 ? .pop : .analytic,
                    to: 100 - spread)
                if observe(index) { animation.callbacks.onStop = stop }
                try animator.add(animation, to: x, forKey: "k\(index)")
                scalars.append(x)
            case 2:
                let p = animator.property("p\(index)", of: target, initial: SIMD2(spread, -spread))
                var animation = Animation<SIMD2<Double>>.spring(.popDefault, to: SIMD2(50, 20 + spread))
                if observe(index) { animation.callbacks.onStop = stop }
                try animator.add(animation, to: p, forKey: "k\(index)")
                points.append(p)
            case 3:
                let x = animator.property("d\(index)", of: target, initial: spread)
                var animation = Animation<Double>.decay(velocity: 300 + 40 * spread, parameters: .popDefault)
                if observe(index) { animation.callbacks.onStop = stop }
                try animator.add(animation, to: x, forKey: "k\(index)")
                scalars.append(x)
            case 4:
                let x = animator.property("b\(index)", of: target, initial: 0.0)
                var animation = Animation<Double>.basic(
                    duration: 0.2 + 0.05 * spread, timing: .easeInEaseOut, bezier: index % 12 == 4 ? .fast : .webkit,
                    to: 10 + spread)
                if observe(index) { animation.callbacks.onStop = stop }
                try animator.add(animation, to: x, forKey: "k\(index)")
                scalars.append(x)
            default:
                let x = animator.property("f\(index)", of: target, initial: 0.0)
                var animation = Animation<Double>.keyframes(keyframes)
                animation.beginTime = spread / 60
                if observe(index) { animation.callbacks.onStop = stop }
                try animator.add(animation, to: x, forKey: "k\(index)")
                scalars.append(x)
            }
        }
        return (animator, scalars, points)
    }

    @Test(
        "quiet and observed animations write the same values on every frame, and leave the same keys",
        arguments: [0, 1, 2])
    func sameFrames(pattern: Int) throws {
        // All quiet against all observed, and half of each against all observed.
        let quiet: (Int) -> Bool = pattern == 0 ? { _ in false } : pattern == 1 ? { $0 % 2 == 0 } : { $0 % 3 == 0 }
        let (a, scalarsA, pointsA) = try Self.animator(count: 600, observe: quiet)
        let (b, scalarsB, pointsB) = try Self.animator(count: 600, observe: { _ in true })
        let target = TargetID(1)
        var frame = 1
        while b.animationCount > 0 && frame < 600 {
            // A jittered clock: the frame length changes every frame.
            let time = Double(frame) / 60 + (frame % 3 == 0 ? 0.004 : 0)
            a.tick(at: time)
            b.tick(at: time)
            for index in scalarsA.indices where a[scalarsA[index]] != b[scalarsB[index]] {
                Issue.record("frame \(frame): scalar \(index) is \(a[scalarsA[index]]), observed \(b[scalarsB[index]])")
                return
            }
            for index in pointsA.indices where a[pointsA[index]] != b[pointsB[index]] {
                Issue.record("frame \(frame): point \(index) is \(a[pointsA[index]]), observed \(b[pointsB[index]])")
                return
            }
            #expect(a.animationCount == b.animationCount, "frame \(frame)")
            #expect(a.keys(on: target) == b.keys(on: target), "frame \(frame)")
            if frame % 7 == 0 {
                #expect(a.invariantViolations() == [], "frame \(frame)")
            }
            frame += 1
        }
        #expect(b.animationCount == 0 && a.animationCount == 0, "everything finished in \(frame) frames")
        #expect(a.invariantViolations() == [])
    }

    @Test("replacing quiet springs in place leaves the values, handles and keys that removing and adding leave")
    func replacementInPlace() throws {
        // `a` replaces quiet springs with quiet springs (in place); in `b`
        // every animation has a stop callback, so each replacement removes
        // and adds.
        let (a, _, _) = try Self.animator(count: 300, observe: { _ in false })
        let (b, _, _) = try Self.animator(count: 300, observe: { _ in true })
        let target = TargetID(1)
        let stop: (Animator, AnimationHandle, Bool) -> Void = { _, _, _ in }
        var inPlace = 0
        func replace(_ animator: Animator, _ index: Int, frame: Int, observed: Bool) throws -> AnimationHandle? {
            let key = "k\(index)"
            // Every seventh a method other than the running one's: not in place.
            let method: SpringMethod = frame % 7 == 0 ? .rk4 : index % 2 == 0 ? .pop : .analytic
            let parameters = try SpringParameters(tension: 300 + Double(frame), friction: 15)
            switch index % 6 {
            case 0, 1:
                let x = try #require(animator.existingProperty("s\(index)", of: target, as: Double.self))
                var animation = Animation<Double>.spring(parameters, method: method, to: Double(frame))
                if observed { animation.callbacks.onStop = stop }
                return try animator.add(animation, to: x, forKey: key)
            case 2:
                let p = try #require(animator.existingProperty("p\(index)", of: target, as: SIMD2<Double>.self))
                var animation = Animation<SIMD2<Double>>.spring(
                    parameters, method: index % 2 == 0 ? .rk4 : method, to: SIMD2(Double(frame), -1))
                if observed { animation.callbacks.onStop = stop }
                return try animator.add(animation, to: p, forKey: key)
            default:
                return nil
            }
        }
        for frame in 1 ..< 240 {
            let time = Double(frame) / 60
            a.tick(at: time)
            b.tick(at: time)
            for index in stride(from: frame % 5, to: 300, by: 5) {
                let before = a.animation(forKey: "k\(index)", on: target)
                let element = before.map { a.status[$0.record.index].element }
                let handleA = try replace(a, index, frame: frame, observed: false)
                let handleB = try replace(b, index, frame: frame, observed: true)
                #expect(handleA == handleB, "frame \(frame), key \(index)")
                if let before, let handleA, handleA.record == before.record,
                    a.status[before.record.index].element == element,
                    element != ElementIndex.none
                {
                    inPlace += 1
                    #expect(!a.contains(before))
                }
            }
            // Pausing and resuming, and new parameters while paused: a spring
            // restarted in place resumes with its own parameters, not those
            // of the animation it replaced.
            // (Resumed two frames on, before most are replaced again.)
            if frame % 13 == 0 || frame % 13 == 2 {
                let retuned = try SpringParameters(tension: 200 + Double(frame), friction: 12)
                for index in stride(from: 0, to: 300, by: 6) {
                    for animator in [a, b] {
                        guard let handle = animator.animation(forKey: "k\(index)", on: target) else { continue }
                        if frame % 13 == 2 {
                            _ = animator.resume(handle)
                        } else {
                            _ = animator.pause(handle)
                            if index % 12 == 0 { _ = animator.setSpringParameters(handle, retuned) }
                        }
                    }
                }
            }
            for info in a.state.propertyInfos[1]! {
                let x = PropertyHandle<Double>(target: target, slot: info.slot)
                if a[x] != b[x] { Issue.record("frame \(frame): \(info.name) is \(a[x]), removed and added \(b[x])") }
            }
            for info in a.state.propertyInfos[2]! {
                let p = PropertyHandle<SIMD2<Double>>(target: target, slot: info.slot)
                if a[p] != b[p] { Issue.record("frame \(frame): \(info.name) is \(a[p]), removed and added \(b[p])") }
            }
            #expect(a.animationCount == b.animationCount, "frame \(frame)")
            #expect(a.keys(on: target) == b.keys(on: target), "frame \(frame)")
            if frame % 10 == 0 { #expect(a.invariantViolations() == [], "frame \(frame)") }
        }
        #expect(inPlace > 1_000, "replacements made in place: \(inPlace)")
        #expect(a.invariantViolations() == [])
    }

    @Test(
        "a quiet spring added under the key of a quiet spring on another property of its type replaces that one and animates its own property",
        arguments: [false, true])
    func keyMovedToAnotherProperty(observed: Bool) throws {
        // Keys belong to a target, not to a property: the running spring
        // under "k" animates `a`, the new one `b`. (Observed, the
        // replacement removes and adds; quiet, it may not be made in place.)
        let animator = Animator()
        let target = animator.makeTarget()
        let a = animator.property("a", of: target, initial: 0.0, kind: .point)
        let b = animator.property("b", of: target, initial: 0.0, kind: .point)
        let p = animator.property("p", of: target, initial: SIMD2<Double>(0, 0), kind: .point)
        let q = animator.property("q", of: target, initial: SIMD2<Double>(0, 0), kind: .point)
        func spring<Value: AnimatableVector>(to value: Value) -> Animation<Value> {
            var animation = Animation<Value>.spring(.popDefault, to: value)
            if observed { animation.callbacks.onStop = { _, _, _ in } }
            return animation
        }
        let first = try animator.add(spring(to: 100.0), to: a, forKey: "k")
        let firstPoint = try animator.add(spring(to: SIMD2<Double>(100, 100)), to: p, forKey: "kp")
        animator.tick(at: 0)
        animator.tick(at: 1.0 / 60)
        let (left, leftPoint) = (animator[a], animator[p])
        #expect(left > 0 && left < 100)
        let second = try animator.add(spring(to: 50.0), to: b, forKey: "k")
        let secondPoint = try animator.add(spring(to: SIMD2<Double>(50, 50)), to: q, forKey: "kp")
        #expect(!animator.contains(first) && !animator.contains(firstPoint))
        #expect(animator.animation(forKey: "k", on: target) == second)
        #expect(animator.animation(forKey: "kp", on: target) == secondPoint)
        for frame in 2 ..< 60 { animator.tick(at: Double(frame) / 60) }
        // A cancelled animation leaves its property where it was.
        #expect(animator[a] == left, "a: \(animator[a])")
        #expect(animator[p] == leftPoint, "p: \(animator[p])")
        #expect(animator[b] == 50, "b: \(animator[b])")
        #expect(animator[q] == SIMD2(50, 50), "q: \(animator[q])")
        #expect(animator.invariantViolations() == [])
    }

    @Test("a quiet animation reaches its exact target and frees its key; a new animation reuses its record and box")
    func exactEndAndReuse() throws {
        let (animator, x) = animatorWithX()
        let first = try animator.add(.spring(.popDefault, to: 1.0 / 3), to: x, forKey: "x")
        var time = 0.0
        while animator.contains(first) {
            time += 1 / 60
            animator.tick(at: time)
        }
        #expect(animator[x] == 1.0 / 3)
        #expect(animator.animation(forKey: "x", on: x.target) == nil)
        #expect(animator.keys(on: x.target) == [])
        let second = try animator.add(.basic(duration: 0.1, timing: .linear, to: 2), to: x, forKey: "x")
        #expect(animator.animation(forKey: "x", on: x.target) == second)
        #expect(animator.phase(of: first) == nil, "the old handle stays dead when its record is reused")
        let third = try animator.add(.spring(.popDefault, to: 5), to: x, forKey: "y")
        #expect(animator.keys(on: x.target) == ["x", "y"])
        #expect(animator.invariantViolations() == [])
        while animator.contains(second) || animator.contains(third) {
            time += 1 / 60
            animator.tick(at: time)
        }
        #expect(animator[x] == 5 || animator[x] == 2)
        #expect(animator.invariantViolations() == [])
    }

    @Test("setting a tracer makes running animations report their stop")
    func tracerSeesQuietEnds() throws {
        let (animator, x) = animatorWithX()
        try animator.add(.basic(duration: 0.1, timing: .linear, to: 1), to: x, forKey: "x")
        animator.tick(at: 1 / 60)
        let tracer = AnimationTracer(traceAll: true)
        animator.tracer = tracer
        var time = 1 / 60.0
        while animator.animationCount > 0 {
            time += 1 / 60
            animator.tick(at: time)
        }
        #expect(tracer.events.contains { $0.key == "x" && $0.kind == .stop(finished: true) })
    }
}

/// The animator's key registry against a dictionary, under random
/// registrations and removals (with many keys per target and keys reused).
@Suite("Animator: key registry")
struct KeyRegistryTests {
    @Test("random inserts and removals agree with a dictionary; order per target is the insertion order")
    func againstDictionary() {
        let registry = KeyRegistry()
        var reference: [String: RecordIndex] = [:]  // "target/key" → record
        var order: [UInt64: [String]] = [:]
        var freeRecords = Array((0 ..< 300).map { RecordIndex($0) }.reversed())
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        for step in 0 ..< 20_000 {
            let target = UInt64(next(5))
            // Some keys are the names the animator gives animations added
            // without one (``GeneratedKey``), registered as strings or as
            // their numbers: either is found as either.
            let number = UInt64(next(80))
            let generated = next(2) == 0
            let key = generated ? "animation-\(number)" : "key-\(number)"
            let name = "\(target)/\(key)"
            if generated {
                let hash = registry.hash(TargetID(target), generated: number)
                #expect(registry.find(TargetID(target), generated: number, hash: hash) == reference[name])
            }
            if let record = reference[name] {
                #expect(registry.find(TargetID(target), key) == record)
                if next(3) > 0 {
                    registry.remove(record)
                    reference[name] = nil
                    order[target]?.removeAll { $0 == key }
                    freeRecords.append(record)
                }
            } else {
                #expect(registry.find(TargetID(target), key) == nil)
                guard let record = freeRecords.popLast() else { continue }
                if generated && next(2) == 0 {
                    let hash = registry.hash(TargetID(target), generated: number)
                    registry.insert(record, target: TargetID(target), generated: number, hash: hash)
                } else {
                    registry.insert(record, target: TargetID(target), key: key)
                }
                reference[name] = record
                order[target, default: []].append(key)
            }
            if step % 997 == 0 {
                #expect(registry.violations() == [], "step \(step)")
                for target in 0 ..< 5 {
                    #expect(registry.keys(on: TargetID(UInt64(target))) == order[UInt64(target)] ?? [])
                }
            }
        }
        #expect(registry.count == reference.count)
        #expect(registry.violations() == [])
        #expect(Set(registry.targets.map(\.rawValue)) == Set(order.filter { !$0.value.isEmpty }.keys))
    }

    @Test("keys that == calls equal hash alike, however they are spelled; other keys spread over the table")
    func keyHashFollowsEquality() {
        // Pieces with their canonically equivalent spellings: the three
        // characters that decompose to ASCII, composed and decomposed
        // accents, and plain ASCII of every tail length.
        let pieces: [[String]] = [
            ["K", "\u{212A}"], [";", "\u{37E}"], ["`", "\u{1FEF}"], ["\u{E9}", "e\u{301}"],
            ["\u{C5}", "\u{212B}", "A\u{30A}"], ["a"], ["opacity"], ["-12345678"], ["\u{1F600}"], ["\u{0}"],
        ]
        let registry = KeyRegistry()
        var state: UInt64 = 0x2545_F491_4F6C_DD1D
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        var hashes: [String: Int] = [:]
        for _ in 0 ..< 5_000 {
            var first = ""
            var second = ""
            for _ in 0 ..< 1 + next(5) {
                let spellings = pieces[next(pieces.count)]
                first += spellings[next(spellings.count)]
                second += spellings[next(spellings.count)]
            }
            #expect(first == second)
            let target = TargetID(UInt64(next(3)))
            #expect(
                registry.hash(target, first) == registry.hash(target, second),
                "\(Array(first.unicodeScalars)) and \(Array(second.unicodeScalars))")
            // A key made once (``AnimationKey``) hashes as its name, from its prefix.
            #expect(
                registry.hash(target, second, prefix: AnimationKey(second).prefix) == registry.hash(target, first),
                "\(Array(second.unicodeScalars))")
            hashes["\(target)/\(first)"] = registry.hash(target, first)
        }
        // Distinct keys (as `==` tells them apart) almost never share a hash:
        // a 64-bit hash of a few thousand keys has no collision unless broken.
        #expect(Set(hashes.values).count == hashes.count)
        #expect(registry.hash(0, "a") != registry.hash(0, "a\u{0}"))
        #expect(registry.hash(0, "ab") != registry.hash(0, "ba"))
        #expect(registry.hash(0, "key") != registry.hash(1, "key"))
        // Found under any spelling.
        registry.insert(RecordIndex(0), target: 4, key: "Kelvin;`\u{E9}")
        #expect(registry.find(4, "\u{212A}elvin\u{37E}\u{1FEF}e\u{301}") == RecordIndex(0))
        #expect(registry.violations() == [])
    }

    @Test("removing many at once leaves nothing behind, and the table shrinks back when refilled")
    func bulkRemoval() {
        let registry = KeyRegistry()
        for record in 0 ..< 10_000 {
            registry.insert(RecordIndex(record), target: TargetID(UInt64(record % 3)), key: "a\(record)")
        }
        let records = (0 ..< 10_000).map { RecordIndex($0) }
        records.withUnsafeBufferPointer { registry.remove($0) }
        #expect(registry.count == 0 && registry.targets.isEmpty && registry.violations() == [])
        for record in 0 ..< 100 { registry.insert(RecordIndex(record), target: TargetID(7), key: "b\(record)") }
        #expect(registry.find(TargetID(7), "b42") == RecordIndex(42))
        #expect(registry.find(TargetID(0), "a0") == nil)
        #expect(registry.keys(on: TargetID(7)).count == 100 && registry.violations() == [])
    }
}
