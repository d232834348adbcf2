/// A solver that moves frame by frame: ``SpringStepper`` and ``DecayStepper``.
public protocol MotionStepper<Value> {
    associatedtype Value: AnimatableVector
    /// The current value.
    var value: Value { get }
    /// The current velocity, per second.
    var velocity: Value { get }
    /// Moves on by a frame of `dt` seconds.
    mutating func advance(by dt: Double)
}

/// A stepper's value and velocity at a time.
public struct MotionState<Value: AnimatableVector>: Sendable {
    /// Seconds, on the clock of the times asked for.
    public var time: Double
    /// The value at ``time``.
    public var value: Value
    /// The velocity at ``time``, per second.
    public var velocity: Value
}

extension MotionStepper {
    /// The states at `times`, replayed on a copy of this stepper (this one
    /// does not move): each time advances it by the frame since the previous
    /// time, the first by the frame since `start`.
    ///
    /// `start` is the time of the stepper's present state; by default the
    /// first of `times`, whose state is then the present one. A time before
    /// the previous gives a negative frame, which the steppers ignore (and
    /// count); the next frame is measured from it all the same, as an
    /// engine's clock would.
    @_specialize(exported:true,where Self == SpringStepper<Double>)
    @_specialize(exported:true,where Self == DecayStepper<Double>)
    public func trajectory(at times: [Double], start: Double? = nil) -> [MotionState<Value>] {
        var stepper = self
        var states: [MotionState<Value>] = []
        states.reserveCapacity(times.count)
        var previous = start ?? times.first ?? 0
        for time in times {
            if time != previous { stepper.advance(by: time - previous) }
            previous = time
            states.append(MotionState(time: time, value: stepper.value, velocity: stepper.velocity))
        }
        return states
    }

    /// The values at `times`: ``trajectory(at:start:)`` without the velocities.
    @_specialize(exported:true,where Self == SpringStepper<Double>)
    @_specialize(exported:true,where Self == DecayStepper<Double>)
    public func values(at times: [Double], start: Double? = nil) -> [Value] {
        trajectory(at: times, start: start).map(\.value)
    }
}

extension SpringStepper: MotionStepper {}
extension DecayStepper: MotionStepper {}

/// The frame times `k/fps` for k = `first` … ⌊seconds·fps⌋ (a relative
/// 1e-12 of slack, so that 1.5 s at 60 Hz ends on frame 90 whatever the
/// rounding of 1.5·60).
public func frameTimes(fps: Double, seconds: Double, from first: Int = 0) -> [Double] {
    let last = Int((seconds * fps * (1 + 1e-12)).rounded(.down))
    return (first ... last).map { Double($0) / fps }
}
