import Foundation
import KineticsTestSupport
import Testing

/// The adapters of real physics engines (Examples/engines/peers/), built by
/// scripts/engines/build-peers.sh against their Debian packages, benched for
/// a few frames and verified on a few cases through the C interface.
@Suite("CLI: real engines behind the C interface")
struct PeerEngineTests {
    /// The libraries, built by the script into .build/peers, where the test
    /// command has just built them (then the script keeps them: each is
    /// newer than its sources).
    static let libraries: Result<[String: String], PeerBuildFailure> = {
        do {
            let root = BenchEngineLibraryTests.root
            let script = root.appendingPathComponent("scripts/engines/build-peers.sh").path
            let built = try shell("'\(script)' '\(root.appendingPathComponent(".build/peers").path)'")
            guard built.status == 0 else { return .failure(PeerBuildFailure(message: built.stderr)) }
            let paths = built.stdout.split(separator: "\n").map(String.init)
            return .success(
                Dictionary(
                    uniqueKeysWithValues: paths.map { path in
                        (URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent, path)
                    }))
        } catch {
            return .failure(PeerBuildFailure(message: "\(error)"))
        }
    }()

    struct PeerBuildFailure: Error, CustomStringConvertible {
        let message: String
        var description: String {
            "scripts/engines/build-peers.sh failed (it installs the engines' Debian packages as root): \(message)"
        }
    }

    static func library(_ name: String) throws -> String {
        try #require(try libraries.get()["lib\(name)"], "build-peers.sh built no lib\(name).so")
    }

    /// Each adapter: its library, its table's name, the value check's
    /// bounds and the scheme its engine's source says it steps.
    struct Peer: CustomTestStringConvertible, Sendable {
        let library: String
        let name: String
        let errorBounds: ClosedRange<Double>
        let scheme: String
        var testDescription: String { name }
    }

    /// The bounds of the value check against GSL at 60 Hz, one step per
    /// frame: within a few percent of the exact motion for the explicit
    /// schemes, as Pop's is (Chipmunk2D 5.8e-2, Bullet 7.7e-2; Pop's RK4 at
    /// 1 ms, 6.6e-2), and a quarter for backward Euler, whose damping of its
    /// own slows every spring (2.37e-1 for Box2D and ODE alike); never
    /// within 1e-4, which would mean the engine's own stepping was bypassed.
    static let peers = [
        Peer(
            library: "chipmunk_springs", name: "chipmunk2d", errorBounds: 1e-4 ... 0.2,
            scheme:
                "position-first symplectic Euler, damping as an exponential factor e^(-c·h), 1 step per frame (Chipmunk2D's DampedSpring) in"
        ),
        Peer(
            library: "box2d_springs", name: "box2d", errorBounds: 1e-4 ... 0.4,
            scheme:
                "backward (implicit) Euler, 1 step per frame, single precision (float32) (Box2D's soft distance joint) in 17 of 17"
        ),
        Peer(
            library: "bullet_springs", name: "bullet", errorBounds: 1e-4 ... 0.2,
            scheme:
                "velocity-first symplectic Euler, damping as a force, 1 step per frame, single precision (float32) (Bullet's 6DofSpring2 spring) in"
        ),
        Peer(
            library: "ode_springs", name: "ode", errorBounds: 1e-4 ... 0.4,
            scheme: "backward (implicit) Euler, 1 step per frame (ODE's spring by ERP and CFM) in 17 of 17"
        ),
    ]

    @Test(
        "each engine's springs are benched through its library: values checked against GSL, nothing allocated per frame",
        arguments: peers)
    func bench(_ peer: Peer) throws {
        let library = try Self.library(peer.library)
        let result = try kinetics(
            "bench", "--engine-library", library, "--engine", peer.name, "--animations", "500", "--frames", "3",
            "--warmup", "1", "--no-bezier", "--format", "json")
        #expect(result.status == 0, "\(result.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let results = try #require(report["results"] as? [[String: Any]])
        let row = try #require(
            results.first { ($0["configuration"] as? [String: Any])?["engine"] as? String == peer.name })
        #expect((row["configuration"] as? [String: Any])?["animations"] as? Int == 500)
        #expect(row["allocationsPerFrame"] as? Double == 0)
        let check = try #require(row["valueCheck"] as? [String: Any])
        let error = try #require(check["error"] as? Double)
        #expect(peer.errorBounds.contains(error), "\(error)")
    }

    @Test(
        "each engine is verified through its library: its springs named the scheme its source says, its decays refused",
        arguments: peers)
    func verify(_ peer: Peer) throws {
        let library = try Self.library(peer.library)
        let result = try kinetics(
            "verify", "--suite", "spring", "--suite", "decay", "--shard", "1/9", "--engine-library", library)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stdout.contains("Engine: \(peer.name), 102 of 132 cases answered, 30 refused (decay), shard 1/9."),
            "\(result.stdout)")
        let scheme = try #require(
            result.lines.first { $0.hasPrefix("spring  \(peer.name)") && $0.contains("scheme at 60 Hz") })
        #expect(scheme.contains(peer.scheme), "\(scheme)")
    }
}
