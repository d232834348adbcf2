// swift-tools-version: 6.1
// The package-benchmark suites of Kinetics: the hot path's frames (the
// allocation gate reads their maximum) and the engine protocol's cost.
// A package of their own, so that package-benchmark and what it brings
// (its plugins, swift-atomics, swift-system) are neither built by the
// test command nor resolved by a package that depends on Kinetics.
//
//   swift package --package-path Benchmarks benchmark --target KineticsBenchmarks
import PackageDescription

let package = Package(
    name: "KineticsBenchmarks",
    dependencies: [
        .package(name: "Kinetics", path: "..", traits: ["Bench", "Verify"]),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        .executableTarget(
            name: "KineticsBenchmarks",
            dependencies: [
                .product(name: "Kinetics", package: "Kinetics"),
                .product(name: "KineticsBench", package: "Kinetics"),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "KineticsBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "VerifyBenchmarks",
            dependencies: [
                .product(name: "KineticsVerify", package: "Kinetics"),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "VerifyBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
