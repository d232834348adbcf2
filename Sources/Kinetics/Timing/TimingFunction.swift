/// Where the jumps of a CSS `steps()` function fall.
public enum StepPosition: String, CaseIterable, Sendable, Codable {
    /// The first jump happens at the start: `steps(n, jump-start)`.
    case jumpStart = "jump-start"
    /// The last jump happens at the end: `steps(n, jump-end)` (CSS's default).
    case jumpEnd = "jump-end"
    /// No jump at either end; needs at least 2 steps.
    case jumpNone = "jump-none"
    /// Jumps at both ends.
    case jumpBoth = "jump-both"
}

/// A timing function: how the fraction of elapsed time maps to the fraction
/// of the change applied.
///
/// Linear, Core Animation's named curves, any cubic bezier and CSS
/// `steps(n, position)`.
public struct TimingFunction: Hashable, Sendable, CustomStringConvertible {
    /// The shape of a timing function.
    public enum Shape: Hashable, Sendable {
        /// Output equals input.
        case linear
        /// A unit cubic bezier.
        ///
        /// Stored out of line: a curve with its seed table is 216 bytes,
        /// and inline it would make every timing function, every
        /// animation's kind and so every animation at least that size, in
        /// each of their copies.
        indirect case bezier(UnitBezier)
        /// CSS `steps(count, position)`.
        case steps(count: Int, position: StepPosition)
    }

    /// The shape.
    public let shape: Shape

    private init(_ shape: Shape) { self.shape = shape }

    /// Output equals input.
    public static let linear = TimingFunction(.linear)
    /// Core Animation's default curve, (0.25, 0.1, 0.25, 1): Pop's default.
    public static let `default` = TimingFunction(.bezier(.default))
    /// (0.42, 0, 1, 1).
    public static let easeIn = TimingFunction(.bezier(.easeIn))
    /// (0, 0, 0.58, 1).
    public static let easeOut = TimingFunction(.bezier(.easeOut))
    /// (0.42, 0, 0.58, 1).
    public static let easeInEaseOut = TimingFunction(.bezier(.easeInEaseOut))

    /// A cubic bezier timing function.
    public static func bezier(_ curve: UnitBezier) -> TimingFunction { TimingFunction(.bezier(curve)) }

    /// CSS `steps(count, position)`.
    ///
    /// - Throws: ``ParameterError`` unless `count` >= 1 (>= 2 for `jump-none`).
    public static func steps(_ count: Int, _ position: StepPosition = .jumpEnd) throws(ParameterError) -> TimingFunction
    {
        let minimum = position == .jumpNone ? 2 : 1
        guard count >= minimum else {
            throw ParameterError(
                parameter: "steps", value: Double(count),
                accepted: "a whole number >= \(minimum) for \(position.rawValue)")
        }
        return TimingFunction(.steps(count: count, position: position))
    }

    /// `linear`, `cubic-bezier(…)` or `steps(n, position)`.
    public var description: String {
        switch shape {
        case .linear: "linear"
        case .bezier(let curve): curve.description
        case .steps(let count, let position): "steps(\(count), \(position.rawValue))"
        }
    }

    /// The output fraction at input fraction `fraction`.
    ///
    /// Beziers are solved with `method` (`epsilon` is WebKit's x-tolerance,
    /// used by ``BezierMethod/webkit`` only). Steps follow the CSS Easing
    /// specification without its "before flag": `floor(fraction·n)`, plus one
    /// for jump-start and jump-both, clamped to [0, jumps] inside [0, 1],
    /// divided by the number of jumps (n, n - 1 for jump-none, n + 1 for
    /// jump-both).
    @inlinable
    public func transform(
        _ fraction: Double, method: BezierMethod = .precise, epsilon: Double = 1.0 / 400
    ) -> Double {
        switch shape {
        case .linear:
            return fraction
        case .bezier(let curve):
            return curve.solve(fraction, method: method, epsilon: epsilon)
        case .steps(let count, let position):
            return Self.steps(fraction, count: count, position: position)
        }
    }

    @usableFromInline
    static func steps(_ fraction: Double, count: Int, position: StepPosition) -> Double {
        guard fraction.isFinite else { return fraction.isNaN ? fraction : (fraction > 0 ? 1 : 0) }
        var step = (fraction * Double(count)).rounded(.down)
        if position == .jumpStart || position == .jumpBoth { step += 1 }
        if fraction >= 0 && step < 0 { step = 0 }
        let jumps: Double
        switch position {
        case .jumpStart, .jumpEnd: jumps = Double(count)
        case .jumpNone: jumps = Double(count - 1)
        case .jumpBoth: jumps = Double(count + 1)
        }
        if fraction <= 1 && step > jumps { step = jumps }
        return step / jumps
    }
}
