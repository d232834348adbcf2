// A spring and a basic animation on a manual frame clock: one second of
// frames at 60 Hz, the values and what still runs printed at the end.
import Kinetics

@MainActor
func run() throws {
    let animator = Animator()
    let card = animator.makeTarget()
    let x = animator.property("x", of: card, initial: 0.0, kind: .point)
    let opacity = animator.property("opacity", of: card, initial: 1.0, kind: .opacity)
    try animator.add(Kinetics.Animation<Double>.spring(.popDefault, method: .analytic, to: 100), to: x, forKey: "slide")
    try animator.add(.basic(duration: 0.5, to: 0.0), to: opacity, forKey: "fade")
    for frame in 0 ... 60 { animator.tick(at: Double(frame) / 60) }
    print("x \(animator[x]) opacity \(animator[opacity]) running \(animator.animationCount)")
}

try MainActor.assumeIsolated { try run() }
