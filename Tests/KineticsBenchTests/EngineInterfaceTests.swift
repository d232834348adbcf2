import CKineticsEngine
import CPopModel
import Kinetics
import Testing

/// The C interface's meaning, held on `pop-c`, its C model of Pop.
@Suite("Bench: the C engine interface")
struct EngineInterfaceTests {
    /// The values of one scalar spring under `pop-c`, from 0 towards 100
    /// with `velocity`, one per frame of 1/60 s.
    static func popC(velocity: Double, frames: Int) throws -> [Double] {
        let table = try #require(kinetics_pop_c_engine()?.pointee)
        var animation = kinetics_animation()
        animation.kind = Int32(KINETICS_KIND_SPRING.rawValue)
        (animation.tension, animation.friction, animation.mass) = (300, 20, 1)
        (animation.to, animation.velocity, animation.threshold) = (100, velocity, 0.01)
        var initial = 0.0
        var workload = kinetics_workload()
        workload.count = 1
        var reason = [CChar](repeating: 0, count: 256)
        let engine = try #require(
            withUnsafePointer(to: &initial) { initial in
                withUnsafePointer(to: &animation) { animation in
                    workload.initial = initial
                    workload.animations = animation
                    return table.create?(&workload, &reason, reason.count)
                }
            })
        defer { table.destroy?(engine) }
        return (1 ... frames).map { frame in
            table.tick?(engine, Double(frame) / 60)
            return table.value?(engine, 0) ?? .nan
        }
    }

    @Test("version 2: a spring starts with the animation's velocity, as Pop's solver run with it does")
    func springVelocity() throws {
        // Swift's model of Pop (SpringStepper's pop method) and pop-c do the
        // same operations in the same order, so they agree to rounding:
        // 1e-12 of the distance the spring covers (about 100), each frame,
        // for the 60 frames before Pop's rest test stops it and writes its
        // target (frame 64).
        let moving = try Self.popC(velocity: -800, frames: 60)
        var stepper = SpringStepper(
            parameters: try SpringParameters(tension: 300, friction: 20, mass: 1), method: .pop, value: 0.0,
            velocity: -800, target: 100)
        for (frame, value) in moving.enumerated() {
            // The frame's length as pop-c takes it: this tick's time less the last.
            stepper.advance(by: Double(frame + 1) / 60 - Double(frame) / 60)
            #expect(abs(value - stepper.value) <= 1e-12 * 100, "frame \(frame + 1): \(value) against \(stepper.value)")
        }
        // The velocity is not ignored: thrown away from the target, the
        // spring first moves away (0 - 800/60 is about -13 after a frame).
        let still = try Self.popC(velocity: 0, frames: 1)
        #expect(moving[0] < -5 && still[0] > 0, "\(moving[0]) with the velocity, \(still[0]) without")
    }
}
