// swift-tools-version: 6.2
//
// Kinetics: animation physics solvers (spring, decay, unit bezier) in the style
// of Facebook's Pop, cross-checked against GSL.
//
// The library users link, `Kinetics`, depends on nothing but the standard
// library and the C math library. GSL is linked only by the reference module,
// its tests and the `kinetics` command-line tool.
//
// Packages that only the tooling uses come with the package's traits, so
// that a package depending on Kinetics resolves only what its products use
// (SwiftPM clones every dependency of any product a package has, unless a
// trait that is off leaves it out):
//
//     .package(url: "https://github.com/OWNER/kinetics", from: "0.2.0")                        // Kinetics: nothing
//     .package(url: "https://github.com/OWNER/kinetics", from: "0.2.0", traits: ["Verify"])    // + swift-numerics, CSV.swift
//     .package(url: "https://github.com/OWNER/kinetics", from: "0.2.0", traits: ["Bench"])     // + malloc-interposer, hdrhistogram-swift
//     .package(url: "https://github.com/OWNER/kinetics", from: "0.2.0", traits: ["Tools"])     // all of it, and argument-parser, Plot
//
// This package's own builds enable Tools (scripts/test.sh, scripts/kinetics.sh).

import PackageDescription

let swiftSettings: [SwiftSetting] = [
    .swiftLanguageMode(.v6)
]

/// The numerical modules' settings. With the package's `OptimizedTests`
/// trait (`swift build --traits OptimizedTests`, as `scripts/test.sh` builds)
/// a debug build optimises these modules (`-O`) and keeps every check a
/// debug build makes (`-assert-config Debug`: asserts, preconditions, the
/// bounds of unsafe buffers), so that the tests run their grids faster.
/// Without the trait (a package that depends on this one, a plain
/// `swift build`) there are no such flags.
///
/// A whole-module build (`wholeModule`) inlines calls across the module's
/// files as a release build does; `-num-threads 2` keeps one object file per
/// source file, as SwiftPM's debug build and its index store expect, and
/// `-disable-incremental-llvm-codegen` rewrites each of them every time, so
/// that no object file keeps a symbol that has moved to another file.
/// CONTRIBUTING.md says which modules are built whole, and why.
func numericalSettings(wholeModule: Bool) -> [SwiftSetting] {
    let whole = ["-wmo", "-num-threads", "2", "-Xfrontend", "-disable-incremental-llvm-codegen"]
    return swiftSettings + [
        .unsafeFlags(
            ["-O", "-assert-config", "Debug", "-gline-tables-only"] + (wholeModule ? whole : []),
            .when(configuration: .debug, traits: ["OptimizedTests"]))
    ]
}

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
    // What users import, one module each:
    products: [
        // Apps and UI frameworks: the solvers and the animator.
        .library(name: "Kinetics", targets: ["Kinetics"]),
        // Tests that want GSL's exact answers (springs, decay, bezier).
        .library(name: "KineticsReference", targets: ["KineticsReference"]),
        // A Swift engine's verification tests (Verifier; BenchableEngine).
        .library(name: "KineticsVerify", targets: ["KineticsVerify"]),
        // A Swift engine's package benchmarks: workloads, engines, reports
        // (Benchmarks/ imports it).
        .library(name: "KineticsBench", targets: ["KineticsBench"]),
        // The kinetics commands, for a package's own bench executable
        // (BenchSuite.main with its engines); Fuzz/ reaches the readers
        // it fuzzes through it.
        .library(name: "KineticsCommandLine", targets: ["KineticsCommandLine"]),
        .executable(name: "kinetics", targets: ["KineticsCLI"]),
    ],
    traits: [
        .trait(
            name: "Verify",
            description:
                "KineticsVerify and KineticsReference's users: the compare module's swift-numerics and CSV.swift"),
        .trait(
            name: "Bench",
            description:
                "KineticsBench's users: exact allocation counts (malloc-interposer) and percentiles (hdrhistogram)"),
        .trait(
            name: "Tools",
            description: "The kinetics command and BenchSuite: argument-parser and Plot, with Verify and Bench",
            enabledTraits: ["Verify", "Bench"]),
        .trait(
            name: "OptimizedTests",
            description: "Debug builds of the numerical modules at -O, with every debug check kept (scripts/test.sh)"),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/ordo-one/malloc-interposer", from: "1.6.1"),
        .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift", from: "0.2.0"),
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
        .package(url: "https://github.com/yaslab/CSV.swift", from: "2.5.2"),
        .package(url: "https://github.com/apple/swift-numerics", from: "1.1.1"),
        .package(url: "https://github.com/JohnSundell/Plot", from: "0.14.0"),
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        // MARK: - The library: the modules of the products above

        .target(
            name: "Kinetics",
            dependencies: ["CKineticsSupport"],
            swiftSettings: numericalSettings(wholeModule: false)
        ),
        .target(
            name: "KineticsReference",
            dependencies: ["CGSL"],
            swiftSettings: numericalSettings(wholeModule: true)
        ),
        .target(
            name: "KineticsVerify",
            dependencies: ["Kinetics", "KineticsEngine", "KineticsReference", "KineticsInput", "KineticsCompare"],
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
                "CCallgrind",
                "KineticsInput",
                .product(name: "Histogram", package: "hdrhistogram-swift", condition: .when(traits: ["Bench"])),
            ],
            swiftSettings: swiftSettings
        ),

        // MARK: - Tooling: the kinetics command, and a package's own bench executable

        // Every command of `kinetics`, and BenchSuite: a package's own bench
        // executable runs the bench command with its engines.
        .target(
            name: "KineticsCommandLine",
            dependencies: [
                "Kinetics",
                "KineticsReference",
                "KineticsVerify",
                "KineticsCompare",
                "KineticsScenario",
                "KineticsBench",
                "KineticsPlot",
                "KineticsReport",
                "KineticsInput",
                .product(name: "ArgumentParser", package: "swift-argument-parser", condition: .when(traits: ["Tools"])),
            ],
            swiftSettings: swiftSettings,
            plugins: ["BuildCommit"]
        ),
        // Writes the commit being built into KineticsCommandLine, for
        // `kinetics --version`.
        .plugin(name: "BuildCommit", capability: .buildTool(), path: "Plugins/BuildCommit"),
        // The `kinetics` executable: one call into KineticsCommandLine.
        .executableTarget(
            name: "KineticsCLI",
            dependencies: ["KineticsCommandLine"],
            swiftSettings: swiftSettings
        ),

        // MARK: - Implementation: what the modules above are built from

        // The platform's C, the same on every platform: its math library
        // and atomic integers (kinetics_support.h). An app that links
        // Kinetics gets libm from here: nothing else names it on Linux.
        .target(
            name: "CKineticsSupport",
            linkerSettings: [.linkedLibrary("m", .when(platforms: [.linux, .android, .openbsd]))]
        ),
        // GSL, through pkg-config.
        .systemLibrary(
            name: "CGSL",
            pkgConfig: "gsl",
            providers: [.apt(["libgsl-dev"]), .brew(["gsl"])]
        ),
        // The Swift engine interface that bench, gate and verify call
        // (exported by KineticsBench and KineticsVerify).
        .target(
            name: "KineticsEngine",
            dependencies: ["Kinetics"],
            swiftSettings: swiftSettings
        ),
        // Input files, read within a size limit; numbers and tables as text.
        // Optimised as the numerical modules are: the tests feed it files of
        // tens of MB, every byte of which its JSON scan looks at.
        .target(
            name: "KineticsInput",
            swiftSettings: numericalSettings(wholeModule: true)
        ),
        // Scenario files.
        .target(
            name: "KineticsScenario",
            dependencies: ["Kinetics", "KineticsInput"],
            swiftSettings: swiftSettings
        ),
        // Traces from other engines against GSL.
        .target(
            name: "KineticsCompare",
            dependencies: [
                "Kinetics", "KineticsReference", "KineticsInput",
                .product(name: "RealModule", package: "swift-numerics", condition: .when(traits: ["Verify"])),
                .product(name: "CSV", package: "CSV.swift", condition: .when(traits: ["Verify"])),
            ],
            swiftSettings: numericalSettings(wholeModule: true)
        ),
        // Callgrind's client requests (kinetics_callgrind.h): a counted run
        // turns instrumentation on where its measuring starts.
        .target(name: "CCallgrind"),
        // Exact allocation counts, through malloc-interposer's C interface:
        // its library, or its C source linked into the standalone binary
        // (scripts/build-release.sh).
        .target(
            name: "KineticsAllocations",
            dependencies: [
                "CMallocCounter",
                .product(
                    name: "MallocInterposerSwift", package: "malloc-interposer", condition: .when(traits: ["Bench"])),
            ],
            swiftSettings: swiftSettings
        ),
        // The calls of malloc-interposer's C interface that Kinetics makes,
        // declared: whichever copy of the interposer the binary links
        // defines them.
        .target(name: "CMallocCounter"),
        // The C interface of an outside engine (kinetics_engine.h), alone:
        // what an engine author reads and builds against.
        .target(name: "CKineticsEngine"),
        // The model of Pop's frame in C, behind that interface.
        .target(
            name: "CPopModel",
            dependencies: ["CKineticsEngine"]
        ),
        // Pictures and the report.
        .target(
            name: "KineticsPlot",
            swiftSettings: swiftSettings
        ),
        .target(
            name: "KineticsReport",
            dependencies: [
                "Kinetics", "KineticsReference", "KineticsVerify", "KineticsBench", "KineticsPlot",
                .product(name: "Plot", package: "Plot", condition: .when(traits: ["Tools"])),
            ],
            swiftSettings: swiftSettings
        ),

        // MARK: - Examples

        // A package benching its own Swift engine.
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
        tests("KineticsScenarioTests", ["Kinetics", "KineticsScenario", "KineticsInput"]),
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
