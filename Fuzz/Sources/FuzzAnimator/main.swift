import FuzzDriver
import Kinetics

/// The animator under any sequence of its public operations, read from the
/// input a byte at a time: adds of every kind of animation (springs of each
/// method, decays, basic and keyframe animations, custom steps, groups, the
/// direct spring add), removals by handle, key, target and all, retargets,
/// new spring parameters, pauses, resumes, reserved room and ticks of any
/// length (backwards, NaN, a 30 s jump), some of them from inside callbacks.
///
/// scripts/fuzz.sh builds it with AddressSanitizer and with
/// `KINETICS_INTERNAL_CHECKS`, so the animator checks its bookkeeping after
/// every operation and stops on the first inconsistency; an access outside
/// a column, a use after free and a leak stop it too. This target checks
/// besides that every value stays finite (every parameter it draws is
/// finite and in range) and that nothing is left after removing all.
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzAnimator(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let bytes else { return 0 }
    let run = AnimatorRun(UnsafeBufferPointer(start: bytes, count: count))
    while !run.input.isEmpty { run.operation(insideCallback: false) }
    run.animator.removeAllAnimations()
    precondition(run.animator.animationCount == 0, "\(run.animator.animationCount) animations left after removing all")
    return 0
}

/// The input, read from the front; zeros once it is used up.
struct Input {
    private var bytes: UnsafeBufferPointer<UInt8>.SubSequence

    init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes[...] }

    var isEmpty: Bool { bytes.isEmpty }

    mutating func byte() -> UInt8 { bytes.popFirst() ?? 0 }

    /// A number below `bound` (at most 256).
    mutating func below(_ bound: Int) -> Int { Int(byte()) % bound }

    /// A number in [0, 1] from the next two bytes.
    mutating func unit() -> Double { Double(UInt16(byte()) << 8 | UInt16(byte())) / 65_535 }
}

/// An animator, its properties and the handles it gave, driven by the input.
final class AnimatorRun {
    let animator = Animator()
    var input: Input
    private var scalars: [PropertyHandle<Double>] = []
    private var points: [PropertyHandle<SIMD2<Double>>] = []
    private var targets: [TargetID] = []
    private var handles: [AnimationHandle] = []
    private var clock = 0.0
    private var depth = 0

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        input = Input(bytes)
        targets = (0 ..< 3).map { _ in animator.makeTarget() }
        for target in targets {
            scalars.append(animator.property("x", of: target, initial: 0.0))
            scalars.append(animator.property("alpha", of: target, initial: 1.0))
            points.append(animator.property("position", of: target, initial: SIMD2<Double>(0, 0), kind: .point))
        }
    }

    private var someHandle: AnimationHandle? { handles.isEmpty ? nil : handles[input.below(handles.count)] }
    private var someTarget: TargetID { targets[input.below(targets.count)] }
    private var someKey: String { "k\(input.below(4))" }

    /// A spring that every method integrates stably at the frame rates
    /// this run ticks at (RK4's limit is the tightest, docs/errors.md).
    private func spring() -> SpringParameters {
        try! SpringParameters(
            tension: 1 + 900 * input.unit(), friction: 40 * input.unit(), mass: 0.5 + 2 * input.unit())
    }

    private func observed<Value>(_ animation: Animation<Value>) -> Animation<Value> {
        var animation = animation
        if input.below(4) == 0 {
            animation.callbacks.onStop = { [unowned self] _, _, _ in reenter() }
        }
        if input.below(8) == 0 {
            animation.callbacks.onApply = { [unowned self] _, _, value in
                precondition(value.isFinite, "an animation applied \(value)")
                if input.below(64) == 0 { reenter() }
            }
        }
        return animation
    }

    /// From a callback: one more operation, nested at most three deep.
    private func reenter() {
        guard depth < 3, !input.isEmpty else { return }
        depth += 1
        operation(insideCallback: true)
        depth -= 1
    }

    private func scalarAnimation() -> Animation<Double> {
        let to = 200 * input.unit() - 100
        var animation: Animation<Double>
        switch input.below(6) {
        case 0:
            animation = .spring(
                spring(), method: SpringMethod.allCases[input.below(SpringMethod.allCases.count)], to: to)
        case 1:
            let method = DecayMethod.allCases[input.below(DecayMethod.allCases.count)]
            animation = .decay(velocity: 4_000 * input.unit() - 2_000, method: method)
        case 2: animation = .basic(duration: 0.01 + input.unit(), timing: .easeInEaseOut, from: 0, to: to)
        case 3:
            let keyframes = try! Keyframes(
                values: [0, to, -to], calculation: input.below(2) == 0 ? .linear : .discrete,
                duration: 0.05 + input.unit())
            animation = .keyframes(keyframes)
        case 4:
            let frames = 1 + input.below(20)
            var seen = 0
            animation = .custom { frame in
                frame.value += 1
                seen += 1
                return seen >= frames
            }
        default: animation = .spring(spring(), method: .pop, from: 0, to: to, velocity: 200 * input.unit() - 100)
        }
        switch input.below(8) {
        case 0: animation.removedOnCompletion = false
        case 1: animation.repeatCount = 1 + input.below(3)
        case 2: animation.autoreverses = true
        case 3: animation.beginTime = clock + 0.2 * input.unit()
        case 4: animation.additive = true
        default: break
        }
        return observed(animation)
    }

    private func add() {
        let key: String? = input.below(3) == 0 ? nil : someKey
        let scalar = scalars[input.below(scalars.count)]
        do {
            switch input.below(8) {
            case 0:
                let children = (0 ..< 1 + input.below(3)).map { _ in
                    GroupChild.animation(scalarAnimation(), on: scalars[input.below(scalars.count)])
                }
                let group = AnimationGroup(input.below(2) == 0 ? .sequence : .concurrent, children)
                handles.append(try animator.add(group, on: someTarget, forKey: key))
            case 1:
                let to = SIMD2(input.unit(), input.unit()) * 100
                let method = SpringMethod.allCases[input.below(SpringMethod.allCases.count)]
                let animation = observed(Animation<SIMD2<Double>>.spring(spring(), method: method, to: to))
                handles.append(try animator.add(animation, to: points[input.below(points.count)], forKey: key))
            case 2:
                let method = SpringMethod.allCases[input.below(SpringMethod.allCases.count)]
                handles.append(
                    try animator.addSpring(
                        to: 100 * input.unit(), of: scalar, forKey: AnimationKey(someKey), parameters: spring(),
                        method: method))
            default:
                handles.append(try animator.add(scalarAnimation(), to: scalar, forKey: key))
            }
        } catch {
            preconditionFailure("a valid animation was refused: \(error)")
        }
        if handles.count > 256 { handles.removeFirst(128) }
    }

    private func tick() {
        switch input.below(32) {
        case 0: animator.tick(at: clock - 0.01)
        case 1: animator.tick(at: .nan)
        case 2: animator.tick(at: clock)
        case 3:
            clock += 30.1
            animator.tick(at: clock)
        default:
            clock += [1.0 / 60, 1.0 / 120, 0.05, 0.0005][input.below(4)] * (0.5 + input.unit())
            animator.tick(at: clock)
        }
        for scalar in scalars { precondition(animator[scalar].isFinite, "a value became \(animator[scalar])") }
    }

    /// One operation; ticks only from outside callbacks.
    func operation(insideCallback: Bool) {
        switch input.below(16) {
        case 0 ..< 5: add()
        case 5: if let handle = someHandle { animator.remove(handle) }
        case 6: animator.removeAnimation(forKey: someKey, on: someTarget)
        case 7: if input.below(4) == 0 { animator.removeAllAnimations(on: someTarget) }
        case 8: if input.below(16) == 0 { animator.removeAllAnimations() }
        case 9: if let handle = someHandle { _ = animator.retarget(handle, to: 200 * input.unit() - 100) }
        case 10: if let handle = someHandle { _ = animator.setSpringParameters(handle, spring()) }
        case 11: if let handle = someHandle { _ = animator.pause(handle) }
        case 12: if let handle = someHandle { _ = animator.resume(handle) }
        case 13:
            if !insideCallback {
                try! animator.reserveCapacity(input.below(64), springsOf: Double.self, settings: input.below(4))
            }
        default: if !insideCallback { tick() } else { add() }
        }
    }
}

runFuzzer(fuzzAnimator)
