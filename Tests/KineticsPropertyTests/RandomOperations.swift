import Kinetics
import Testing

/// A driver of random operations on an animator, one per ``step()``.
protocol RandomOperations: AnyObject {
    var animator: Animator { get }
    /// The operations done so far.
    var operations: Int { get }
    /// Whether every animated value is finite.
    var valuesAreFinite: Bool { get }
    /// Does one random operation.
    func step()
}

extension RandomOperations {
    /// Steps until `count` operations are done, expecting after each one the
    /// animator's invariants to hold and its values to be finite; false at
    /// the first broken invariant.
    func stepChecked(until count: Int) -> Bool {
        while operations < count {
            step()
            let problems = animator.invariantViolations()
            #expect(problems.isEmpty, "after \(operations) operations: \(problems.prefix(3))")
            #expect(valuesAreFinite, "after \(operations) operations")
            if !problems.isEmpty { return false }
        }
        return true
    }
}
