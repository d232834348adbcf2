// swift-tools-version: 6.2
// An app that depends on Kinetics by version and uses the animator, as a
// user's package would: the manifest lines of the README. scripts/consumers.sh
// builds and runs it in debug and release against a tagged clone of this
// repository (KINETICS_URL, KINETICS_VERSION), and fails if resolving it
// clones any package besides Kinetics.
import PackageDescription

let kinetics = Context.environment["KINETICS_URL"] ?? "https://github.com/OWNER/kinetics"
let version = Version(Context.environment["KINETICS_VERSION"] ?? "0.2.0")!

let package = Package(
    name: "App",
    platforms: [.macOS(.v14), .iOS(.v17)],
    dependencies: [
        .package(url: kinetics, from: version)
    ],
    targets: [
        .executableTarget(
            name: "App",
            dependencies: [.product(name: "Kinetics", package: "kinetics")]
        )
    ]
)
