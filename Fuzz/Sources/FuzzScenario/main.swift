import Foundation
import FuzzDriver
import KineticsScenario

/// The scenario parser on any bytes: it returns a scenario or throws a
/// ScenarioError; it never traps or hangs.
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzScenario(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let bytes else { return 0 }
    let data = Data(bytes: bytes, count: count)
    do {
        _ = try Scenario.parse(data)
    } catch {
        precondition(!error.description.isEmpty, "an error without a message")
    }
    return 0
}

runFuzzer(fuzzScenario)
