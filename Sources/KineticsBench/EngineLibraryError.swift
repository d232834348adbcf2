/// Why an engine library cannot be benched.
public enum EngineLibraryError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Nothing is at the path.
    case missing(path: String)
    /// The file is there but is not a library the loader accepts, does not
    /// export the interface's functions, speaks another version, or its
    /// table is incomplete or misnamed.
    case unusable(path: String, reason: String)

    /// One line naming the library and the problem.
    public var description: String {
        switch self {
        case .missing(let path): "\(path): no such file"
        case .unusable(let path, let reason): "\(path): \(reason)"
        }
    }
}
