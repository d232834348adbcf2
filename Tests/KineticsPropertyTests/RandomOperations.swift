import Kinetics
import PropertyBased
import Testing

/// A driver of random operations on an animator, one per ``step()``.
protocol RandomOperations: AnyObject {
    /// A driver whose operations `words` choose.
    init(words: Words)
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

    /// The property tests' shape: `count` random lists of `lengths` words,
    /// each driving a new driver through `1/share` of its words with the
    /// animator checked after each operation, then `check` on the driver.
    /// A failing list is shrunk to a minimal one.
    static func checkRandomLists(
        count: Int, lengths: ClosedRange<Int>, stepping share: Int,
        sourceLocation: SourceLocation = #_sourceLocation, _ check: (Self) -> Void
    ) async {
        await propertyCheck(
            count: count, input: Gen.uint64().array(of: lengths),
            perform: { list in
                let driver = Self(words: Words(list))
                guard driver.stepChecked(until: list.count / share) else { return }
                check(driver)
            }, sourceLocation: sourceLocation)
    }
}
