import Testing

@testable import Kinetics

/// An animation added without a key runs under `animation-N`, N the number
/// of its add, which the registry keeps as the number: the name must be
/// that string under every rule of string keys, and its hash that string's.
@Suite("Animator: animations added without a key")
struct GeneratedKeyTests {
    /// Numbers around the widths where the name changes length, and where
    /// it outgrows a string's inline room (`animation-100000`, 16 bytes).
    static let numbers: [UInt64] = [0, 1, 9, 10, 99, 12_345, 99_999, 100_000, 1 << 32, UInt64.max - 1, UInt64.max]

    @Test("the name of number N is \"animation-N\", hashed and compared as that string")
    func names() {
        let registry = KeyRegistry()
        for number in Self.numbers {
            let string = "animation-\(number)"
            #expect(GeneratedKey.name(number) == string)
            #expect(GeneratedKey.name(number, is: string))
            for other in ["animation-0\(number)", "animation-\(number)0", "animation-", "Animation-\(number)", ""] {
                #expect(!GeneratedKey.name(number, is: other), "\(number) is not \(other)")
            }
            for target: TargetID in [0, 1, 77] {
                #expect(registry.hash(target, generated: number) == registry.hash(target, string))
            }
        }
        // Every number of up to four digits, and numbers of every length.
        var state: UInt64 = 0x2545_F491_4F6C_DD1D
        let spread = (0 ..< 200).map { length -> UInt64 in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state >> UInt64(length % 64)
        }
        for number in Array(0 ..< 10_000) + spread {
            #expect(GeneratedKey.name(number) == "animation-\(number)")
        }
        // Equal to the name as `==` says, not only byte for byte: a key in
        // another normal form that `==` calls equal (none can be, for these
        // characters; the comparison still asks `==` of a key that is not ASCII).
        #expect(!GeneratedKey.name(7, is: "animation-7\u{301}"))
        #expect(!GeneratedKey.name(7, is: "animati\u{F6}n-7"))
    }

    @Test("the registry finds a number's entry under its name, and a name's entry under its number")
    func registry() {
        let registry = KeyRegistry()
        // (`UInt64.max` is no add's number: the count stops the process first.)
        let numbers = Self.numbers.dropLast()
        for (record, number) in numbers.enumerated() {
            let hash = registry.hash(3, generated: number)
            registry.insert(RecordIndex(record), target: 3, generated: number, hash: hash)
        }
        registry.insert(RecordIndex(numbers.count), target: 3, key: "animation-42")
        for (record, number) in numbers.enumerated() {
            #expect(registry.find(3, "animation-\(number)") == RecordIndex(record))
            let hash = registry.hash(3, generated: number)
            #expect(registry.find(3, generated: number, hash: hash) == RecordIndex(record))
            #expect(registry.find(4, "animation-\(number)") == nil, "another target's")
        }
        #expect(registry.find(3, generated: 42, hash: registry.hash(3, generated: 42)) == RecordIndex(numbers.count))
        #expect(registry.keys(on: 3) == numbers.map { "animation-\($0)" } + ["animation-42"])
        #expect(registry.key(of: RecordIndex(1)) == "animation-1" && registry.violations() == [])
    }

    @Test("an animation added without a key is listed, found, replaced and removed under its name")
    func rules() throws {
        let animator = Animator()
        let target = animator.makeTarget()
        let x = animator.property("x", of: target, initial: 0.0)
        let y = animator.property("y", of: target, initial: 0.0)
        let first = try animator.add(.spring(.popDefault, method: .pop, to: 1), to: x)
        try animator.add(.spring(.popDefault, method: .pop, to: 1), to: y, forKey: "y")
        let third = try animator.add(.spring(.popDefault, method: .pop, to: 1), to: y)
        let keys = animator.keys(on: target)
        #expect(keys.count == 3 && keys[1] == "y" && keys[0] != keys[2])
        #expect(keys[0].hasPrefix("animation-") && keys[2].hasPrefix("animation-"))
        #expect(animator.animation(forKey: keys[0], on: target) == first)
        #expect(animator.animation(forKey: AnimationKey(keys[2]), on: target) == third)
        // Added again under its name, as a string or a key made once: replaced.
        let again = try animator.add(.spring(.popDefault, method: .pop, to: 2), to: x, forKey: keys[0])
        #expect(!animator.contains(first) && animator.animation(forKey: keys[0], on: target) == again)
        animator.removeAnimation(forKey: AnimationKey(keys[2]), on: target)
        #expect(!animator.contains(third) && animator.keys(on: target) == [keys[1], keys[0]])
        // Events name it by its key.
        let tracer = AnimationTracer(traceAll: true)
        animator.tracer = tracer
        let traced = try animator.add(.spring(.popDefault, method: .pop, to: 3), to: y)
        let name = try #require(animator.keys(on: target).last)
        animator.remove(traced)
        #expect(!tracer.events.isEmpty && tracer.events.allSatisfy { $0.key == name })
    }

    @Test("an add without a key replaces what runs under its name: the name is the key's in every rule")
    func nameTaken() throws {
        let animator = Animator()
        let target = animator.makeTarget()
        let x = animator.property("x", of: target, initial: 0.0)
        // The first add is number 0; the second, without a key, number 1.
        let taken = try animator.add(.spring(.popDefault, method: .pop, to: 1), to: x, forKey: "animation-1")
        let unkeyed = try animator.add(.spring(.popDefault, method: .pop, to: 2), to: x)
        #expect(!animator.contains(taken) && animator.contains(unkeyed))
        #expect(animator.keys(on: target) == ["animation-1"] && animator.animationCount == 1)
    }
}
