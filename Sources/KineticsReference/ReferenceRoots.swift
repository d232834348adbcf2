import CGSL

/// GSL's polynomial root finders.
public enum ReferenceRoots {
    /// The real roots of `a·x² + b·x + c = 0`, ascending, by
    /// `gsl_poly_solve_quadratic` (which avoids the cancellation of the
    /// textbook formula). Empty when there are none.
    public static func quadratic(a: Double, b: Double, c: Double) -> [Double] {
        var x0 = 0.0
        var x1 = 0.0
        let count = gsl_poly_solve_quadratic(a, b, c, &x0, &x1)
        return Array([x0, x1].prefix(Int(count)))
    }

    /// The real roots of `x³ + a·x² + b·x + c = 0`, ascending, by
    /// `gsl_poly_solve_cubic`.
    public static func monicCubic(a: Double, b: Double, c: Double) -> [Double] {
        var x0 = 0.0
        var x1 = 0.0
        var x2 = 0.0
        let count = gsl_poly_solve_cubic(a, b, c, &x0, &x1, &x2)
        return Array([x0, x1, x2].prefix(Int(count)))
    }
}
