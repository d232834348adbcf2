/// Facts about this build, for reports and baselines.
package enum KineticsBuildInfo {
    /// The tool's version.
    package static let version = "0.1.0"

    /// The Swift language version the tool was built with.
    package static var swift: String {
        #if compiler(>=6.4)
            "6.4 or later"
        #elseif compiler(>=6.3)
            "6.3"
        #elseif compiler(>=6.2)
            "6.2"
        #else
            "6.1"
        #endif
    }

    /// `debug` or `release`.
    package static var buildConfiguration: String {
        #if DEBUG
            "debug"
        #else
            "release"
        #endif
    }
}
