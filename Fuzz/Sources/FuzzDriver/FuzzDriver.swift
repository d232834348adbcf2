#if canImport(Glibc)
    import Glibc
#endif

/// One fuzz input: its bytes and their count; returns 0.
public typealias FuzzTarget = @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt

@_silgen_name("LLVMFuzzerRunDriver")
private func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ target: FuzzTarget
) -> CInt

/// Hands the command line to libFuzzer's driver with `target` and exits
/// with its status. SwiftPM gives every executable its own `main`, so the
/// fuzz targets start libFuzzer through `LLVMFuzzerRunDriver` (its API for
/// programs with a main of their own) rather than through libFuzzer's `main`.
public func runFuzzer(_ target: FuzzTarget) -> Never {
    var argc = CommandLine.argc
    var argv = CommandLine.unsafeArgv
    exit(LLVMFuzzerRunDriver(&argc, &argv, target))
}
