// swift-tools-version: 6.2
//
// Kinetics: animation physics solvers (spring, decay, unit bezier) in the style
// of Facebook's Pop, cross-checked against GSL.
//
// The library users link, `Kinetics`, depends on nothing but the standard
// library and the C math library. GSL is linked only by the reference module,
// its tests and the `kinetics` command-line tool.

import PackageDescription

let swiftSettings: [SwiftSetting] = [
    .swiftLanguageMode(.v6)
]

/// The numerical modules' settings. `scripts/test.sh` sets
/// KINETICS_OPTIMIZED_TESTS: its debug build then optimises these modules
/// (`-O`) but keeps every check a debug build makes (`-assert-config Debug`:
/// asserts, preconditions, the bounds of unsafe buffers), so that the tests
/// run their grids in about a third of the time, with line tables only for
/// debug information. Without the variable (a package that depends on this
/// one, a plain `swift build`) there are no such flags.
///
/// `KineticsReference` and `KineticsCompare` are also compiled whole
/// (`wholeModule`), so that calls across their files are
/// inlined as in a release build: `-num-threads 2` keeps one object file
/// per source file, as SwiftPM's debug build and its index store expect,
/// and `-disable-incremental-llvm-codegen` rewrites every one of them each
/// time (without it, a rebuild after an edit kept object files whose
/// symbols had moved to another file, and the link failed with duplicate
/// definitions). `Kinetics` is not: compiled whole it took about 70 s on
/// the build's critical path, file by file on two cores far less, for
/// tests about a sixth slower (CONTRIBUTING.md has the measurements).
/// `KineticsVerify`, which arranges the grids that the others compute, is
/// not optimised: at `-O` it took 25 s more to build, on the critical path
/// (the command line and its tests wait for it), for tests about 9 s faster.
func numericalSettings(wholeModule: Bool) -> [SwiftSetting] {
    guard Context.environment["KINETICS_OPTIMIZED_TESTS"] != nil else { return swiftSettings }
    let whole = ["-wmo", "-num-threads", "2", "-Xfrontend", "-disable-incremental-llvm-codegen"]
    return swiftSettings + [
        .unsafeFlags(
            ["-O", "-assert-config", "Debug", "-gline-tables-only"] + (wholeModule ? whole : []),
            .when(configuration: .debug))
    ]
}

/// swift-docc-plugin, for `swift package generate-documentation`; not in
/// the test command's build (KINETICS_OPTIMIZED_TESTS), where compiling its
/// two plugins took about 7 of the fresh build's seconds and nothing uses
/// them.
let documentationPlugin: [Package.Dependency] =
    Context.environment["KINETICS_OPTIMIZED_TESTS"] != nil
    ? [] : [.package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0")]

/// A test target with the package's settings.
func tests(_ name: String, _ dependencies: [Target.Dependency]) -> Target {
    .testTarget(name: name, dependencies: dependencies, swiftSettings: swiftSettings)
}

let package = Package(
    name: "Kinetics",
    // The floor: an app that adopts Kinetics supports at least the last two
    // iOS releases, and these are the oldest of each family that every
    // library product compiles for (scripts/apple-availability.sh checks it).
    platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .watchOS(.v10), .visionOS(.v1)],
    products: [
        .library(name: "Kinetics", targets: ["Kinetics"]),
        .library(name: "KineticsReference", targets: ["KineticsReference"]),
        .executable(name: "kinetics", targets: ["KineticsCLI"]),
        // For the fuzz targets in Fuzz/ (a package of their own).
        .library(name: "KineticsScenario", targets: ["KineticsScenario"]),
        .library(name: "KineticsBench", targets: ["KineticsBench"]),
        .library(name: "KineticsCompare", targets: ["KineticsCompare"]),
        // A package's own bench executable: BenchSuite.main with its BenchableEngine types.
        .library(name: "KineticsBenchSuite", targets: ["KineticsCommandLine", "KineticsBench"]),
        .library(name: "KineticsVerify", targets: ["KineticsVerify"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/ordo-one/malloc-interposer", from: "1.6.1"),
        .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift", from: "0.2.0"),
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
        .package(url: "https://github.com/yaslab/CSV.swift", from: "2.5.2"),
        .package(url: "https://github.com/apple/swift-numerics", from: "1.1.1"),
        .package(url: "https://github.com/JohnSundell/Plot", from: "0.14.0"),
    ] + documentationPlugin,
    targets: [
        // MARK: - The library

        // The platform's C, the same on every platform: its math library
        // and atomic integers (kinetics_support.h).
        .target(
            name: "CKineticsSupport"
        ),
        .target(
            name: "Kinetics",
            dependencies: ["CKineticsSupport"],
            swiftSettings: numericalSettings(wholeModule: false)
        ),

        // MARK: - The GSL reference

        .systemLibrary(
            name: "CGSL",
            pkgConfig: "gsl",
            providers: [.apt(["libgsl-dev"]), .brew(["gsl"])]
        ),
        .target(
            name: "KineticsReference",
            dependencies: ["CGSL"],
            swiftSettings: numericalSettings(wholeModule: true)
        ),

        // MARK: - Verification

        .target(
            name: "KineticsVerify",
            dependencies: ["Kinetics", "KineticsEngine", "KineticsReference", "KineticsInput", "KineticsCompare"],
            swiftSettings: swiftSettings
        ),

        // MARK: - Input files, read within a size limit; numbers and tables as text

        .target(
            name: "KineticsInput",
            dependencies: [.product(name: "CSV", package: "CSV.swift")],
            swiftSettings: swiftSettings
        ),

        // MARK: - Scenario files

        .target(
            name: "KineticsScenario",
            dependencies: ["Kinetics"],
            swiftSettings: swiftSettings
        ),

        // MARK: - Traces from other engines against GSL

        .target(
            name: "KineticsCompare",
            dependencies: [
                "Kinetics", "KineticsReference", "KineticsInput",
                .product(name: "RealModule", package: "swift-numerics"),
            ],
            swiftSettings: numericalSettings(wholeModule: true)
        ),

        // MARK: - Allocation counting

        .target(
            name: "KineticsAllocations",
            dependencies: [.product(name: "MallocInterposerSwift", package: "malloc-interposer")],
            swiftSettings: swiftSettings
        ),

        // MARK: - The bench harness, the C model of Pop's frame and the C engine interface
        // (the package-benchmark suites are a package of their own: Benchmarks/)

        // The C interface of an outside engine (kinetics_engine.h), alone:
        // what an engine author reads and builds against.
        .target(
            name: "CKineticsEngine"
        ),
        .target(
            name: "CPopModel",
            dependencies: ["CKineticsEngine"]
        ),
        // The Swift engine interface: what bench, gate and verify call.
        .target(
            name: "KineticsEngine",
            dependencies: ["Kinetics"],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "KineticsBench",
            dependencies: [
                "Kinetics",
                "KineticsEngine",
                "KineticsAllocations",
                "CPopModel",
                "CKineticsEngine",
                "KineticsInput",
                .product(name: "Histogram", package: "hdrhistogram-swift"),
            ],
            swiftSettings: swiftSettings
        ),
        // MARK: - Pictures and the report

        .target(
            name: "KineticsPlot",
            swiftSettings: swiftSettings
        ),
        .target(
            name: "KineticsReport",
            dependencies: [
                "Kinetics", "KineticsReference", "KineticsVerify", "KineticsBench", "KineticsPlot",
                .product(name: "Plot", package: "Plot"),
            ],
            swiftSettings: swiftSettings
        ),

        // MARK: - The command-line tool

        // What the `kinetics` command and a package's own bench executable
        // (BenchSuite) share: the bench command, errors and exit status, output.
        .target(
            name: "KineticsCommandLine",
            dependencies: [
                "Kinetics",
                "KineticsBench",
                "KineticsInput",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: swiftSettings
        ),
        // The example of a package benching its own Swift engine.
        .executableTarget(
            name: "swift-springs-bench",
            dependencies: ["Kinetics", "KineticsBench", "KineticsCommandLine"],
            path: "Examples/engines/SwiftSprings",
            swiftSettings: swiftSettings
        ),
        // An app's main-actor owner ticking the animator from a display
        // link's callback (a stand-in link here; the DocC article has
        // CADisplayLink's).
        .executableTarget(
            name: "display-link-example",
            dependencies: ["Kinetics"],
            path: "Examples/DisplayLink",
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "KineticsCLI",
            dependencies: [
                "KineticsCommandLine",
                "Kinetics",
                "KineticsReference",
                "KineticsVerify",
                "KineticsCompare",
                "KineticsScenario",
                "KineticsBench",
                "KineticsPlot",
                "KineticsReport",
                "KineticsInput",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: swiftSettings
        ),

        // MARK: - Tests

        // Helpers the test targets share; not a product.
        .target(
            name: "KineticsTestSupport",
            dependencies: ["Kinetics", "KineticsReference"],
            path: "Tests/KineticsTestSupport",
            swiftSettings: swiftSettings
        ),
        tests("KineticsTests", ["Kinetics", "KineticsReference", "KineticsTestSupport"]),
        tests("KineticsAllocationTests", ["Kinetics", "KineticsAllocations", "KineticsBench", "KineticsTestSupport"]),
        tests("KineticsScenarioTests", ["Kinetics", "KineticsScenario"]),
        tests("KineticsVerifyTests", ["KineticsVerify", "KineticsTestSupport"]),
        tests("KineticsReferenceTests", ["KineticsReference", "Kinetics"]),
        tests("KineticsCompareTests", ["KineticsCompare", "KineticsTestSupport"]),
        tests(
            "KineticsPropertyTests",
            ["Kinetics", "KineticsTestSupport", .product(name: "PropertyBased", package: "swift-property-based")]),
        tests("KineticsPlotTests", ["KineticsPlot", "KineticsTestSupport"]),
        tests("KineticsBenchTests", ["Kinetics", "KineticsBench", "KineticsTestSupport"]),
        // The CLI tests run the `kinetics` binary that the build makes beside
        // them; the executable target is not a dependency, so that they
        // compile while it does rather than after it.
        tests("KineticsCLITests", ["Kinetics", "KineticsVerify", "KineticsTestSupport"]),
    ]
)
