import Testing

@testable import Kinetics

/// `AnimationKey`: a key made once from a string, used for many adds. It
/// must be its name under every rule of string keys, and its hash, made
/// partly ahead, the hash of its name.
@Suite("Animator: keys made once")
struct AnimationKeyTests {
    @Test("a key made once is its name: replaces and is replaced, is found and removed under either")
    func rules() throws {
        let animator = Animator()
        let target = animator.makeTarget()
        let x = animator.property("x", of: target, initial: 0.0)
        let key = AnimationKey("opacity")
        #expect(key.name == "opacity" && key.description == "opacity")
        // Observed, so that a replacement reports its stop.
        var stops: [Bool] = []
        var first = Animation<Double>.spring(.popDefault, method: .pop, to: 10)
        first.callbacks.onStop = { _, _, finished in stops.append(finished) }
        let handle = try animator.add(first, to: x, forKey: key)
        #expect(animator.animation(forKey: "opacity", on: target) == handle)
        #expect(animator.animation(forKey: key, on: target) == handle)
        #expect(try animator.add(first, to: x, forKey: "opacity") == handle, "the same animation again: a no-op")
        // A quiet spring under the name replaces it, and one under the key replaces that one in place.
        let byName = try animator.add(.spring(.popDefault, method: .pop, to: 20), to: x, forKey: "opacity")
        #expect(byName != handle && !animator.contains(handle) && stops == [false])
        let byKey = try animator.add(.spring(.popDefault, method: .pop, to: 30), to: x, forKey: key)
        #expect(byKey != byName && !animator.contains(byName) && animator.contains(byKey))
        #expect(animator.animation(forKey: "opacity", on: target) == byKey)
        #expect(animator.keys(on: target) == ["opacity"] && animator.animationCount == 1)
        // Another target's key of the same name is another key.
        let other = animator.makeTarget()
        let y = animator.property("y", of: other, initial: 0.0)
        try animator.add(.spring(.popDefault, method: .pop, to: 1), to: y, forKey: key)
        #expect(animator.keys(on: other) == ["opacity"] && animator.animationCount == 2)
        animator.removeAnimation(forKey: key, on: target)
        #expect(animator.animation(forKey: "opacity", on: target) == nil && animator.keys(on: target).isEmpty)
        #expect(animator.animation(forKey: key, on: other) != nil)
        animator.removeAnimation(forKey: "opacity", on: other)
        #expect(animator.animationCount == 0)
    }

    @Test("keys equal as strings are one key, spelled either way, ASCII-equivalent or not")
    func equivalence() throws {
        // U+212A KELVIN SIGN is K canonically (hashed as ASCII); é composed
        // and decomposed are one key too (hashed by Hasher).
        for (spelling, other) in [("\u{212A}elvin", "Kelvin"), ("caf\u{E9}", "cafe\u{301}")] {
            let key = AnimationKey(spelling)
            #expect(key == AnimationKey(other) && Set([key, AnimationKey(other)]).count == 1)
            let animator = Animator()
            let target = animator.makeTarget()
            let x = animator.property("x", of: target, initial: 0.0)
            let handle = try animator.add(.spring(.popDefault, method: .pop, to: 1), to: x, forKey: key)
            #expect(animator.animation(forKey: other, on: target) == handle)
            #expect(animator.animation(forKey: AnimationKey(other), on: target) == handle)
            let replaced = try animator.add(.spring(.popDefault, method: .pop, to: 2), to: x, forKey: other)
            #expect(!animator.contains(handle) && animator.animation(forKey: key, on: target) == replaced)
            #expect(animator.keys(on: target).count == 1)
        }
    }

    @Test("animations under keys made once run as under their names, bit for bit")
    func sameValues() throws {
        func run(_ keyed: Bool) throws -> [Double] {
            let animator = Animator()
            let target = animator.makeTarget()
            let keys = (0 ..< 40).map { "p\($0)" }
            let made = keys.map { AnimationKey($0) }
            let properties = keys.map { animator.property($0, of: target, initial: 0.0) }
            var values: [Double] = []
            for frame in 0 ..< 90 {
                // Adds and replacements every few frames, spread over the properties.
                for index in properties.indices where (index + frame) % 15 == 0 {
                    let animation = Animation<Double>.spring(
                        .popDefault, method: .pop, to: Double(100 + 7 * index + frame))
                    if keyed {
                        try animator.add(animation, to: properties[index], forKey: made[index])
                    } else {
                        try animator.add(animation, to: properties[index], forKey: keys[index])
                    }
                }
                animator.tick(at: Double(frame) / 60)
                values += properties.map { animator[$0] }
            }
            #expect(animator.keys(on: target).sorted() == Array(Set(keys)).sorted())
            return values
        }
        let byName = try run(false)
        let byKey = try run(true)
        #expect(byName.elementsEqual(byKey) { $0.bitPattern == $1.bitPattern })
    }
}
