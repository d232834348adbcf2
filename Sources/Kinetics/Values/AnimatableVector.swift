/// A value with one to four `Double` components that the solvers can move.
///
/// Kinetics animates scalars (`Double`), points and sizes (`SIMD2<Double>`),
/// 3-vectors (`SIMD3<Double>`) and rectangles or colours (`SIMD4<Double>`).
/// Every solver treats the components independently, exactly as Pop does with
/// its `Vector4d`; the rest tests combine them as Pop does (per component for
/// positions, squared norms for velocities).
///
/// The protocol is closed in practice: the four conformances above are the
/// ones the solvers are specialised for. Conforming another type is allowed
/// but gives no speed guarantee.
public protocol AnimatableVector: Sendable, Equatable {
    /// The number of components, from 1 to 4.
    static var componentCount: Int { get }

    /// The value whose components are all zero.
    static var zero: Self { get }

    /// A value whose components are all `scalar`.
    init(repeating scalar: Double)

    /// The component at `index`, which must be in `0 ..< componentCount`.
    subscript(component index: Int) -> Double { get set }

    /// Componentwise sum.
    static func + (lhs: Self, rhs: Self) -> Self
    /// Componentwise difference.
    static func - (lhs: Self, rhs: Self) -> Self
    /// Every component scaled by `rhs`.
    static func * (lhs: Self, rhs: Double) -> Self
}

extension AnimatableVector {
    /// The sum of the squares of the components (Pop's `squaredNorm`).
    @inlinable
    public var squaredNorm: Double {
        var sum = 0.0
        for index in 0 ..< Self.componentCount {
            let component = self[component: index]
            sum += component * component
        }
        return sum
    }

    /// The largest absolute value of a component.
    @inlinable
    public var maxMagnitude: Double {
        var result = 0.0
        for index in 0 ..< Self.componentCount {
            result = Swift.max(result, Swift.abs(self[component: index]))
        }
        return result
    }

    /// Whether every component is finite.
    @inlinable
    public var isFinite: Bool {
        for index in 0 ..< Self.componentCount where !self[component: index].isFinite {
            return false
        }
        return true
    }

    /// The components as an array, first to last.
    public var components: [Double] {
        (0 ..< Self.componentCount).map { self[component: $0] }
    }

    /// The components in the first lanes of a `SIMD4`, the rest zero.
    @inlinable
    public var packed: SIMD4<Double> {
        var result = SIMD4<Double>.zero
        for index in 0 ..< Self.componentCount { result[index] = self[component: index] }
        return result
    }

    /// A value made of the first `componentCount` lanes of `packed`.
    @inlinable
    public init(packed: SIMD4<Double>) {
        self.init(repeating: 0)
        for index in 0 ..< Self.componentCount { self[component: index] = packed[index] }
    }

    /// Applies `transform` to every component.
    @inlinable
    public func map(_ transform: (Double) -> Double) -> Self {
        var result = self
        for index in 0 ..< Self.componentCount {
            result[component: index] = transform(self[component: index])
        }
        return result
    }
}

extension Double: AnimatableVector {
    /// A scalar has one component.
    @inlinable public static var componentCount: Int { 1 }

    /// A scalar made of `scalar`.
    @inlinable
    public init(repeating scalar: Double) { self = scalar }

    /// The scalar itself; `index` must be 0.
    @inlinable
    public subscript(component index: Int) -> Double {
        get { self }
        set { self = newValue }
    }
}

extension AnimatableVector where Self: SIMD, Scalar == Double {
    /// As many components as lanes.
    @inlinable public static var componentCount: Int { scalarCount }

    /// The lane at `index`.
    @inlinable
    public subscript(component index: Int) -> Double {
        get { self[index] }
        set { self[index] = newValue }
    }
}

/// A point or size: component 0 is x or width, 1 is y or height.
extension SIMD2: AnimatableVector where Scalar == Double {}

/// A 3-vector.
extension SIMD3: AnimatableVector where Scalar == Double {}

/// A rectangle or a colour.
extension SIMD4: AnimatableVector where Scalar == Double {}
