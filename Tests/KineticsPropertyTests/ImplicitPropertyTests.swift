import Kinetics
import PropertyBased
import Testing

/// Drives an ``ImplicitLayer`` with random changes: plain, additive,
/// delayed with every fill mode, springs and curves, jumps, keyframe
/// blocks, explicit animations and removals, with ticks in between, some
/// of them from inside transaction completions.
final class LayerChurn: RandomOperations {
    let animator = Animator()
    let layer: ImplicitLayer
    private var words: Words
    private var time = 0.0
    private let keys = ["x", "y", "opacity"]
    /// Completions per transaction (by serial): each must run exactly once.
    private(set) var completions: [Int] = []
    /// Keys whose last change was an explicit animation with a forwards
    /// fill: they may rest away from their model value.
    private var held: Set<String> = []
    private(set) var operations = 0

    init(words: Words) {
        self.words = words
        layer = ImplicitLayer(animator: animator)
        // Linear curves: building a bezier table per animator costs a debug
        // build a good part of a second, too slow for thousands of cases.
        layer.defaultActions["opacity"] = .basic(duration: 0.25, timing: .linear)
        for key in keys { try! layer.set(key, to: 0.0) }
    }

    private func word(_ bound: Int) -> Int { Int(words.next() % UInt64(bound)) }
    private func value() -> Double { Double(word(2_001)) / 10 - 100 }

    private func completion() -> (Bool) -> Void {
        let serial = completions.count
        completions.append(0)
        return { [unowned self] _ in
            completions[serial] += 1
            // Sometimes change a value from inside the completion.
            if word(4) == 0 {
                let key = keys[word(keys.count)]
                try? layer.set(key, to: value())
                held.remove(key)
            }
        }
    }

    func step() {
        operations += 1
        let key = keys[word(keys.count)]
        switch word(9) {
        case 0, 1:
            time += [1.0 / 60, 1.0 / 120, 0.3, 0][word(4)]
            animator.tick(at: time)
        case 2:
            try! layer.set(key, to: value())
            held.remove(key)
        case 3, 4:
            let spring =
                word(2) == 0
                ? try! SpringParameters(
                    response: 0.2 + Double(word(5)) / 10, dampingFraction: 0.5 + Double(word(6)) / 10) : nil
            try! animator.transaction(
                duration: 0.1 + Double(word(5)) / 10, timing: spring == nil ? .linear : nil, spring: spring,
                delay: word(3) == 0 ? Double(word(4)) / 10 : nil, disableActions: word(8) == 0 ? true : nil,
                fillMode: FillMode.allCases[word(4)], additive: word(2) == 0, completion: completion()
            ) {
                try layer.set(key, to: value())
                held.remove(key)
                if word(3) == 0 {
                    let other = keys[word(keys.count)]
                    try layer.set(other, to: value())
                    held.remove(other)
                }
            }
        case 5:
            try! animator.keyframes(
                duration: 0.2 + Double(word(5)) / 10, delay: word(2) == 0 ? 0.1 : nil, completion: completion()
            ) { block in
                try block.keyframe(relativeStart: 0, relativeDuration: 0.5) { try layer.set(key, to: value()) }
                try block.keyframe(relativeStart: 0.5, relativeDuration: 0.5) { try layer.set(key, to: value()) }
            }
            held.remove(key)
        case 6:
            var animation = Animation<Double>.basic(duration: 0.2, timing: .linear, from: value(), to: value())
            animation.beginTime = time + Double(word(3)) / 10
            let mode = FillMode.allCases[word(4)]
            try! layer.add(animation, forKey: key, fillMode: mode)
            if mode.fillsForwards { held.insert(key) } else { held.remove(key) }
        case 7:
            layer.removeAnimation(forKey: key)
            held.remove(key)
        default:
            // Removed behind the layer's back: it shows the model value, as Core Animation does.
            // (A finished animation that holds its last value is gone from the animator: nothing to remove.)
            if let handle = animator.animation(forKey: key, on: layer.target) {
                animator.remove(handle)
                held.remove(key)
            }
        }
    }

    /// Ticks until nothing runs (at most 60 s of frames).
    func settle() {
        var frames = 0
        while animator.animationCount > 0 && frames < 3_600 {
            time += 1.0 / 60
            animator.tick(at: time)
            frames += 1
        }
    }

    /// Keys whose presentation value is not their model value at rest.
    var restProblems: [String] {
        keys.filter { key in
            guard !held.contains(key) else { return false }
            let model = layer.modelValue(forKey: key, as: Double.self)!
            let shown = layer.presentationValue(forKey: key, as: Double.self)!
            return shown != model
        }.map {
            "\($0): shows \(layer.presentationValue(forKey: $0, as: Double.self)!) for model \(layer.modelValue(forKey: $0, as: Double.self)!)"
        }
    }

    var valuesAreFinite: Bool { keys.allSatisfy { layer.presentationValue(forKey: $0, as: Double.self)!.isFinite } }
}

@Suite("Properties: implicit animations under random changes")
struct ImplicitPropertyTests {
    @Test(
        "random changes (plain, additive, delayed, keyframes, explicit, removed) keep the animator consistent, run every completion once and rest on the model values"
    )
    func randomChanges() async {
        await LayerChurn.checkRandomLists(count: 300, lengths: 1 ... 200, stepping: 2) { churn in
            churn.settle()
            #expect(churn.animator.animationCount == 0)
            #expect(churn.completions.allSatisfy { $0 == 1 }, "completions ran \(churn.completions) times")
            // Exact equality: every way an animation ends writes the model value
            // itself (additive sums are snapped to it when the last one finishes).
            #expect(churn.restProblems.isEmpty, "\(churn.restProblems)")
        }
    }
}
