// swift-tools-version: 6.1
// libFuzzer targets for Kinetics' parsers, bezier solvers and animator. A
// package of its own so that `-sanitize=fuzzer` (which supplies `main`) never
// reaches the main package's build. Run them with scripts/fuzz.sh, which
// builds them with AddressSanitizer too. The scenario and
// trace readers are implementation modules of Kinetics, reached through the
// command-line product that uses them.
import PackageDescription

let package = Package(
    name: "KineticsFuzz",
    dependencies: [.package(name: "Kinetics", path: "..", traits: ["Tools"])],
    targets: [
        .target(name: "FuzzDriver"),
        .executableTarget(
            name: "FuzzBezier", dependencies: ["FuzzDriver", .product(name: "Kinetics", package: "Kinetics")]),
        .executableTarget(
            name: "FuzzAnimator", dependencies: ["FuzzDriver", .product(name: "Kinetics", package: "Kinetics")]),
        .executableTarget(
            name: "FuzzScenario",
            dependencies: ["FuzzDriver", .product(name: "KineticsCommandLine", package: "Kinetics")]),
        .executableTarget(
            name: "FuzzBaseline", dependencies: ["FuzzDriver", .product(name: "KineticsBench", package: "Kinetics")]),
        .executableTarget(
            name: "FuzzTrace", dependencies: ["FuzzDriver", .product(name: "KineticsCommandLine", package: "Kinetics")]),
    ],
    swiftLanguageModes: [.v6]
)
