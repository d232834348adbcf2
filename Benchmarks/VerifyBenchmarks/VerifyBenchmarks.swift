// The cost of verifying an outside engine through the line protocol, next
// to the built-in verification of the same grid, in one process:
//   swift package --package-path Benchmarks benchmark --target VerifyBenchmarks
// The engine route writes every case to the Python example engine, reads
// its answers as they stream back, and measures them (scheme naming
// included); the built-in route runs Kinetics' own methods. Both cover the
// quick grid's spring, decay and bezier suites on every core.

import Benchmark
import Foundation
import KineticsVerify

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock], warmupIterations: 1, maxDuration: .seconds(60), maxIterations: 5)
    let suites: [VerificationSuite] = [.spring, .decay, .bezier]
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    let example = root.appendingPathComponent("Examples/engines/semi_implicit_euler.py").path

    Benchmark("verify.quick.built-in") { _ in
        blackHole(try Verifier.run(VerificationRequest(suites: suites, grid: .quick, tolerances: Tolerances())))
    }

    Benchmark("verify.quick.engine-command.python") { _ in
        let set = try EngineCaseSet(grid: .quick, suites: suites)
        let run = try EngineCommand("python3 '\(example)'").run(set.cases)
        guard run.fault == nil else { throw run.fault! }
        blackHole(
            try Verifier.report(
                set, answers: run.answers.answers, engine: "python", tolerances: Tolerances(), fault: nil))
    }
}
