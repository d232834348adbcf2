import Foundation
import FuzzDriver
import KineticsBench

/// The bench baseline reader on any bytes: it returns a report or throws a
/// BaselineError; it never traps or hangs. A report it accepts can be
/// compared with itself, with no regression.
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzBaseline(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let bytes else { return 0 }
    let data = Data(bytes: bytes, count: count)
    guard let report = try? BaselineGate.baseline(from: data, name: "fuzz.json") else { return 0 }
    let regressions = BaselineGate.regressions(report, baseline: report, maxRegression: 0)
    precondition(regressions.isEmpty, "a baseline regresses against itself: \(regressions)")
    return 0
}

runFuzzer(fuzzBaseline)
