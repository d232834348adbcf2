// swift-tools-version: 6.2
// A Swift spring engine's own package, verified by Kinetics in its tests:
// the manifest lines of the README for KineticsVerify (the Verify trait).
// scripts/consumers.sh runs its tests against a tagged clone of this
// repository (KINETICS_URL, KINETICS_VERSION), and fails if resolving it
// clones any package but Kinetics and what KineticsVerify uses
// (swift-numerics, CSV.swift).
import PackageDescription

let kinetics = Context.environment["KINETICS_URL"] ?? "https://github.com/OWNER/kinetics"
let version = Version(Context.environment["KINETICS_VERSION"] ?? "0.2.0")!

let package = Package(
    name: "ExactSprings",
    platforms: [.macOS(.v14), .iOS(.v17)],
    products: [.library(name: "ExactSprings", targets: ["ExactSprings"])],
    dependencies: [
        .package(url: kinetics, from: version, traits: ["Verify"])
    ],
    targets: [
        // The engine needs nothing from Kinetics: its tests do.
        .target(name: "ExactSprings"),
        .testTarget(
            name: "ExactSpringsTests",
            dependencies: ["ExactSprings", .product(name: "KineticsVerify", package: "kinetics")]
        ),
    ]
)
