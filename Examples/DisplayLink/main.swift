// How an app drives an Animator from its display's frame callback: a
// main-actor owner ticks the animator at each frame's target time and reads
// values through property handles, and nothing on the main thread waits.
//
// On iOS, tvOS and visionOS the callback is CADisplayLink's (on macOS 14,
// NSView.displayLink(target:selector:)), and the time to tick at is
// `link.targetTimestamp`: the moment the frame will be shown, so that what
// is drawn is where the motion will be then. Sources/Kinetics/Kinetics.docc/
// DrivingTheAnimator.md shows that code. Here, with no display, a stand-in
// display link calls back from the main queue at 120 Hz, with one frame
// late and one delivered twice, as real links do under load.
//
//   swift run display-link-example

import Dispatch
import Foundation
import Kinetics

/// The view's state, owned by the main actor: an animator, the handles of
/// the properties it draws, and the frames it has seen.
@MainActor
final class CardMotion {
    private let animator = Animator()
    private let x: PropertyHandle<Double>
    private let opacity: PropertyHandle<Double>
    private(set) var frames = 0
    private(set) var drawn: [(time: Double, x: Double, opacity: Double)] = []

    init() throws {
        let card = animator.makeTarget()
        x = animator.property("x", of: card, initial: 0.0, kind: .point)
        opacity = animator.property("opacity", of: card, initial: 0.0, kind: .opacity)
        // Kinetics.Animation, spelled in full: SwiftUI, imported beside
        // Kinetics in an app, has an `Animation` too.
        let slide = Kinetics.Animation<Double>.spring(
            try SpringParameters(bounciness: 8, speed: 14), method: .pop, to: 320)
        try animator.add(slide, to: x, forKey: "slide")
        try animator.add(.basic(duration: 0.25, timing: .easeOut, to: 1.0), to: opacity, forKey: "fade")
    }

    /// Whether anything still moves: the display link can stop when not.
    var isMoving: Bool { animator.animationCount > 0 }

    /// The display link's callback. A late frame needs nothing special: the
    /// animator steps to the time it is given, however far. A frame
    /// delivered twice, or a time earlier than the last (a link restarted),
    /// changes nothing (`ignoredTicks` counts the latter).
    func frame(targetTimestamp: Double) {
        frames += 1
        animator.tick(at: targetTimestamp)
        // Reading through a handle is an array read: cheap enough for
        // every property of every view, every frame.
        drawn.append((targetTimestamp, animator[x], animator[opacity]))
    }

    var ignoredTicks: Int { animator.ignoredTicks }
}

/// A display link without a display: calls `callback` on the main queue at
/// `rate` frames a second with each frame's target time, from an origin of
/// 0. Frame 10 is late by three periods; frame 20 comes twice. It stops
/// itself when `callback` returns false.
@MainActor
final class StandInDisplayLink {
    private let period: Double
    private let callback: @MainActor (Double) -> Bool
    private var frame = 0

    init(rate: Double, _ callback: @escaping @MainActor (Double) -> Bool) {
        period = 1 / rate
        self.callback = callback
    }

    func start() { schedule(after: period) }

    private func schedule(after delay: Double) {
        DispatchQueue.main.asyncAfter(deadline: .now() + delay) { [self] in
            MainActor.assumeIsolated { fire() }
        }
    }

    private func fire() {
        frame += 1
        let late = frame == 10 ? 3.0 : 0
        let target = (Double(frame) + late) * period
        if late > 0 { frame += Int(late) }
        guard callback(target) else { return }
        if frame == 20, !callback(target) { return }
        schedule(after: period)
    }
}

@MainActor
func main() throws {
    let motion = try CardMotion()
    let link = StandInDisplayLink(rate: 120) { time in
        motion.frame(targetTimestamp: time)
        if motion.isMoving { return true }
        let last = motion.drawn.last!
        print("settled after \(motion.frames) frames at t = \(last.time) s: x = \(last.x), opacity = \(last.opacity)")
        print("frames ignored (the one delivered twice changes nothing, and is not an error): \(motion.ignoredTicks)")
        exit(0)
    }
    link.start()
}

try MainActor.assumeIsolated { try main() }
dispatchMain()
