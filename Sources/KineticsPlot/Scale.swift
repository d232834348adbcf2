import Foundation

/// A map from data values to pixels along one axis, linear or logarithmic
/// (base 10), with tick marks at round values.
package struct Scale: Sendable, Equatable {
    /// How data values are spaced along the axis.
    package enum Kind: String, Sendable, Equatable {
        case linear
        case log
    }

    package let kind: Kind
    /// The data values at the two ends of the axis (for `log`, both > 0).
    package let domain: ClosedRange<Double>
    /// The pixel positions of `domain.lowerBound` and `domain.upperBound`
    /// (the second may be smaller: y grows downwards in SVG).
    package let pixels: (start: Double, end: Double)

    /// A scale over `domain` drawn from pixel `start` to pixel `end`.
    ///
    /// A degenerate domain (one value) is widened so that the map is defined;
    /// a log domain must be positive (non-positive ends are replaced by a
    /// decade below the other end).
    package init(_ kind: Kind, domain: ClosedRange<Double>, pixels start: Double, _ end: Double) {
        self.kind = kind
        var low = domain.lowerBound
        var high = domain.upperBound
        if !(low.isFinite && high.isFinite) { (low, high) = kind == .linear ? (0, 1) : (1, 10) }
        switch kind {
        case .linear:
            if low == high {
                let pad = low == 0 ? 1 : abs(low) * 0.1
                low -= pad
                high += pad
            }
            if low == high {
                low -= 1
                high += 1
            }
        case .log:
            if !(high > 0) { high = 1 }
            if !(low > 0) || low >= high { low = min(high / 10, low > 0 ? low : high / 10) }
            if low == high { low = high / 10 }
        }
        self.domain = low ... high
        pixels = (start, end)
    }

    package static func == (lhs: Scale, rhs: Scale) -> Bool {
        lhs.kind == rhs.kind && lhs.domain == rhs.domain && lhs.pixels == rhs.pixels
    }

    /// The pixel position of `value`, or nil when it cannot be drawn (not
    /// finite, or not positive on a log scale).
    package func pixel(_ value: Double) -> Double? {
        guard value.isFinite, kind == .linear || value > 0 else { return nil }
        let fraction: Double =
            switch kind {
            case .linear: (value - domain.lowerBound) / (domain.upperBound - domain.lowerBound)
            case .log: (log10(value) - log10(domain.lowerBound)) / (log10(domain.upperBound) - log10(domain.lowerBound))
            }
        return pixels.start + fraction * (pixels.end - pixels.start)
    }

    /// Tick marks at round values inside the domain: multiples of 1, 2 or 5
    /// times a power of ten (about five of them) for `linear`; powers of ten
    /// for `log` (every second or third one when there are many decades).
    package var ticks: [Double] {
        switch kind {
        case .linear:
            let step = Self.niceStep((domain.upperBound - domain.lowerBound) / 5)
            guard step.isNormal && step.isFinite else { return [] }
            var value = (domain.lowerBound / step).rounded(.up) * step
            var ticks: [Double] = []
            while value <= domain.upperBound + step * 1e-9, ticks.count < 50 {
                ticks.append(abs(value) < step * 1e-9 ? 0 : value)
                value += step
            }
            return ticks
        case .log:
            // The decades inside the domain (a hair of slack for rounding).
            let first = Int((log10(domain.lowerBound) - 1e-9).rounded(.up))
            let last = Int((log10(domain.upperBound) + 1e-9).rounded(.down))
            guard first <= last else { return [] }
            let every = max(1, (last - first) / 8 + 1)
            return stride(from: first, through: last, by: every).map { pow(10, Double($0)) }
        }
    }

    /// A domain that covers `values` and ends on tick marks.
    package static func niceDomain(_ kind: Kind, covering values: [Double]) -> ClosedRange<Double> {
        let usable = values.filter { $0.isFinite && (kind == .linear || $0 > 0) }
        guard var low = usable.min(), var high = usable.max() else { return kind == .linear ? 0 ... 1 : 1 ... 10 }
        switch kind {
        case .linear:
            if low == high {
                low -= low == 0 ? 1 : abs(low) * 0.1
                high += high == 0 ? 1 : abs(high) * 0.1
            }
            let step = niceStep((high - low) / 5)
            let lower = (low / step).rounded(.down) * step
            let upper = (high / step).rounded(.up) * step
            // Subnormal or overflowing spans have no usable step: plain ends.
            if step.isNormal && lower.isFinite && upper.isFinite && lower < upper { return lower ... upper }
            return low < high ? low ... high : low - 1 ... low + 1
        case .log:
            let lower = pow(10, log10(low).rounded(.down))
            var upper = pow(10, log10(high).rounded(.up))
            if upper <= lower { upper = lower * 10 }
            if lower > 0 && lower.isFinite && upper.isFinite && lower < upper { return lower ... upper }
            if low < high { return low ... high }
            return (low * 10).isFinite ? low / 10 ... low * 10 : low / 100 ... low
        }
    }

    /// 1, 2 or 5 times a power of ten, at least `rough`.
    static func niceStep(_ rough: Double) -> Double {
        guard rough > 0, rough.isFinite else { return 1 }
        let power = pow(10, log10(rough).rounded(.down))
        for multiple in [1.0, 2, 5, 10] where multiple * power >= rough * (1 - 1e-12) { return multiple * power }
        return 10 * power
    }

    /// A tick's label: plain for linear ticks; for log ticks plain from
    /// 0.001 to 1,000,000 and `1e-7` style beyond.
    package func label(_ value: Double) -> String {
        switch kind {
        case .linear:
            let step = ticks.count > 1 ? ticks[1] - ticks[0] : 1
            // Ticks near a double's ends are an infinite step apart.
            let decimals = step.isFinite && step > 0 ? max(0, Int(-log10(step).rounded(.down))) : 0
            return Self.format(value, decimals: decimals)
        case .log:
            guard value.isFinite && value > 0 else { return "\(value)" }
            let exponent = Int(log10(value).rounded())
            if exponent >= -3 && exponent <= 6 { return Self.format(value, decimals: max(0, -exponent)) }
            return "1e\(exponent)"
        }
    }

    static func format(_ value: Double, decimals: Int) -> String {
        var text = String(format: "%.\(min(decimals, 12))f", value)
        if text == "-0" { text = "0" }
        return text
    }
}
