/// The bound a measure is held to where a verdict is made: a tolerance, a
/// gate's regression threshold, an instruction ceiling. Every check in the
/// package that decides pass or fail goes through ``admits(_:)``, so that
/// a measure that is not a number fails it: written by hand as
/// `error > limit`, a NaN error would pass, since every ordered comparison
/// with NaN is false. A bound that is NaN admits nothing either.
package struct Limit: Sendable, Equatable {
    /// The bound itself.
    package let bound: Double
    /// Whether a measure equal to ``bound`` is admitted.
    package let inclusive: Bool

    /// Admits measures up to and including `bound`.
    package static func atMost(_ bound: Double) -> Limit { Limit(bound: bound, inclusive: true) }

    /// Admits measures strictly below `bound`.
    package static func below(_ bound: Double) -> Limit { Limit(bound: bound, inclusive: false) }

    /// Whether `measure` holds: a number no larger than the bound (below
    /// it, when not inclusive). False for NaN, and for every measure when
    /// the bound is NaN.
    package func admits(_ measure: Double) -> Bool { inclusive ? measure <= bound : measure < bound }

    /// Whether `measure` fails: beyond the bound, or not a number.
    package func isExceeded(by measure: Double) -> Bool { !admits(measure) }
}

extension Limit {
    /// A double's finite range in words, for the messages that refuse a
    /// value beyond it: `±1.8e308`.
    package static let doubleRange = "±1.8e308"
}
