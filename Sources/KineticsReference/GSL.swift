import CGSL

/// A GSL call that did not succeed: the function, GSL's status code and its
/// message.
public struct GSLError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The GSL function that failed, for example `gsl_odeiv2_driver_apply`.
    public let function: String
    /// GSL's status code (`GSL_EFAILED`, `GSL_EMAXITER`, …).
    public let status: Int32
    /// GSL's description of the status, or a note of this module's.
    public let reason: String

    /// Creates an error for `function` with `status`; the reason defaults to
    /// `gsl_strerror(status)`.
    public init(function: String, status: Int32, reason: String? = nil) {
        self.function = function
        self.status = status
        self.reason = reason ?? String(cString: gsl_strerror(status))
    }

    /// `gsl_odeiv2_driver_apply failed (status 11): exceeded max number of iterations`.
    public var description: String {
        "\(function) failed (status \(status)): \(reason)"
    }
}

/// Facts about the linked GSL and the one-time set-up every call relies on.
public enum GSL {
    /// The linked GSL's version, for example `2.7.1`.
    public static var version: String { String(cString: kinetics_gsl_version()) }

    /// Turns GSL's default error handler (which aborts the process) off, once,
    /// before the first GSL call; every wrapper then checks status codes.
    static func prepare() {
        _ = handlerIsOff
    }

    /// GSL's status codes, as the Int32 its functions return.
    static let success = Int32(GSL_SUCCESS)
    static let invalid = Int32(GSL_EINVAL)
    static let failed = Int32(GSL_EFAILED)
    static let noMemory = Int32(GSL_ENOMEM)
    static let maxIterations = Int32(GSL_EMAXITER)
    static let badFunction = Int32(GSL_EBADFUNC)

    /// Throws a ``GSLError`` for any status but `GSL_SUCCESS`.
    static func check(_ status: Int32, _ function: String) throws(GSLError) {
        guard status == GSL.success else { throw GSLError(function: function, status: status) }
    }
}

/// Swift initialises a global once, thread-safely, on first use.
private let handlerIsOff: Bool = {
    gsl_set_error_handler_off()
    return true
}()
