/// Why a bench could not measure: an engine refused its workload (its own
/// reason, or a library's), left animations running where all should have
/// finished, or its value check failed.
public struct BenchError: Error, Equatable, Sendable, CustomStringConvertible {
    /// One line naming the engine.
    public var description: String
}
