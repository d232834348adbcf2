import Foundation
import FuzzDriver
import KineticsCompare

/// The trace reader on any bytes, CSV or JSON, both column sets: it returns
/// a trace whose samples satisfy its promises, or throws a TraceError; it
/// never traps or hangs.
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzTrace(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let bytes else { return 0 }
    let data = Data(bytes: bytes, count: count)
    for columns in [TraceColumns.motion, .curve] {
        do {
            let trace = try MotionTrace.parse(data, columns: columns, timeDivisor: 1_000)
            precondition(trace.samples.count >= 2, "a trace of fewer than two samples")
            for sample in trace.samples {
                precondition(sample.time.isFinite && sample.value.isFinite, "a sample that is not finite")
            }
        } catch {
            precondition(!error.description.isEmpty, "an error without a message")
        }
    }
    return 0
}

runFuzzer(fuzzTrace)
