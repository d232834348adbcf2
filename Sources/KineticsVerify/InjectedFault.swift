/// A deliberate fault in one method's results on one case of a suite: the
/// test hook that shows each check can fail. Test builds of the command line
/// read it from the environment variable `KINETICS_TEST_FAULT`; release
/// builds ignore that variable.
package struct InjectedFault: Sendable, Equatable {
    /// What the fault does to the value in the middle of the results.
    package enum Kind: Sendable, Equatable {
        /// Replaces it with NaN.
        case nan
        /// Adds this much to it.
        case offset(Double)
    }

    package var suite: VerificationSuite
    package var method: String
    /// The index of the case in the suite's grid (springs, decays or curves).
    package var caseIndex: Int
    package var kind: Kind
}

extension InjectedFault {
    /// Reads `suite:method:case:nan` or `suite:method:case:OFFSET`, for
    /// example `spring:rk4:12:nan` or `decay:exact:3:1e-3`; nil otherwise.
    package init?(_ text: String) {
        let parts = text.split(separator: ":").map(String.init)
        guard parts.count == 4, let suite = VerificationSuite(rawValue: parts[0]), let index = Int(parts[2]), index >= 0
        else { return nil }
        let kind: Kind
        if parts[3] == "nan" {
            kind = .nan
        } else if let offset = Double(parts[3]), offset.isFinite {
            kind = .offset(offset)
        } else {
            return nil
        }
        self.init(suite: suite, method: parts[1], caseIndex: index, kind: kind)
    }

    /// The fault for case `index` of `suite`, if this is it.
    func at(_ suite: VerificationSuite, _ index: Int) -> InjectedFault? {
        suite == self.suite && index == caseIndex ? self : nil
    }

    /// Spoils the value in the middle of `values`.
    func spoil(_ values: inout [Double]) {
        guard !values.isEmpty else { return }
        spoil(&values[values.count / 2])
    }

    /// Spoils `value`.
    func spoil(_ value: inout Double) {
        switch kind {
        case .nan: value = .nan
        case .offset(let offset): value += offset
        }
    }
}
