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

    /// The root of `function` in [`lower`, `upper`] by
    /// `gsl_root_fsolver_brent`, iterated until the bracket is within
    /// `relativeWidth` of its ends (default two ulps) or the function is 0.
    ///
    /// - Throws: ``GSLError`` when the bracket does not straddle a sign change,
    ///   brent fails, or it does not converge in `maxIterations`.
    public static func brent(
        lower: Double, upper: Double, relativeWidth: Double = 4.5e-16, maxIterations: Int = 500,
        _ function: (Double) -> Double
    ) throws(GSLError) -> Double {
        GSL.prepare()
        guard let solver = gsl_root_fsolver_alloc(kinetics_gsl_brent()) else {
            throw GSLError(function: "gsl_root_fsolver_alloc", status: GSL.noMemory)
        }
        defer { gsl_root_fsolver_free(solver) }
        var failure: GSLError?
        var answer = Double.nan
        withoutActuallyEscaping(function) { function in
            let box = FunctionBox(function)
            let context = Unmanaged.passUnretained(box).toOpaque()
            var gslFunction = gsl_function(function: callBoxedFunction, params: context)
            let status = gsl_root_fsolver_set(solver, &gslFunction, lower, upper)
            guard status == GSL.success else {
                failure = GSLError(function: "gsl_root_fsolver_set", status: status)
                return
            }
            for _ in 0 ..< maxIterations {
                let iterate = gsl_root_fsolver_iterate(solver)
                guard iterate == GSL.success else {
                    failure = GSLError(function: "gsl_root_fsolver_iterate", status: iterate)
                    return
                }
                answer = gsl_root_fsolver_root(solver)
                let test = gsl_root_test_interval(
                    gsl_root_fsolver_x_lower(solver), gsl_root_fsolver_x_upper(solver), 1e-300, relativeWidth)
                if test == GSL.success || function(answer) == 0 { return }
            }
            failure = GSLError(function: "gsl_root_fsolver_brent", status: GSL.maxIterations)
        }
        if let failure { throw failure }
        return answer
    }
}

/// A Swift closure behind the `void *params` of a `gsl_function`.
private final class FunctionBox {
    let function: (Double) -> Double
    init(_ function: @escaping (Double) -> Double) { self.function = function }
}

private let callBoxedFunction: @convention(c) (Double, UnsafeMutableRawPointer?) -> Double = { x, context in
    guard let context else { return .nan }
    return Unmanaged<FunctionBox>.fromOpaque(context).takeUnretainedValue().function(x)
}
