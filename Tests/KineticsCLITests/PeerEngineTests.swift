import Foundation
import KineticsTestSupport
import Testing

/// The adapters of real physics engines (Examples/engines/peers/), built by
/// scripts/engines/build-peers.sh against their Debian packages, benched for
/// a few frames and verified on a few cases through the C interface.
@Suite("CLI: real engines behind the C interface")
struct PeerEngineTests {
    /// The libraries, built once into a fresh folder.
    static let libraries: Result<[String: String], PeerBuildFailure> = {
        do {
            let folder = try temporaryFolder("peers")
            let script = BenchEngineLibraryTests.root.appendingPathComponent("scripts/engines/build-peers.sh").path
            let built = try shell("'\(script)' '\(folder.path)'")
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

    @Test(
        "Chipmunk2D's cpDampedSpring is benched through the library: its values checked against GSL, nothing allocated per frame"
    )
    func chipmunkBench() throws {
        let library = try Self.library("chipmunk_springs")
        let result = try kinetics(
            "bench", "--engine-library", library, "--engine", "chipmunk2d", "--animations", "500", "--frames", "3",
            "--warmup", "1", "--no-bezier", "--format", "json")
        #expect(result.status == 0, "\(result.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let results = try #require(report["results"] as? [[String: Any]])
        let row = try #require(
            results.first { ($0["configuration"] as? [String: Any])?["engine"] as? String == "chipmunk2d" })
        #expect((row["configuration"] as? [String: Any])?["animations"] as? Int == 500)
        #expect(row["allocationsPerFrame"] as? Double == 0)
        // The value check against GSL: Chipmunk2D's one step per frame is
        // within a few percent of the exact motion at 60 Hz, as Pop's is
        // (5.8e-2 here; Pop's RK4 at 1 ms, 6.6e-2), and no closer than 1e-4.
        let check = try #require(row["valueCheck"] as? [String: Any])
        let error = try #require(check["error"] as? Double)
        #expect(error > 1e-4 && error < 0.2, "\(error)")
    }

    @Test(
        "Chipmunk2D is verified through the library: its springs named position-first symplectic Euler with exponential damping, as its source says"
    )
    func chipmunkVerify() throws {
        let library = try Self.library("chipmunk_springs")
        let result = try kinetics(
            "verify", "--suite", "spring", "--suite", "decay", "--shard", "1/9", "--engine-library", library)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stdout.contains("Engine: chipmunk2d, 102 of 132 cases answered, 30 refused (decay), shard 1/9."),
            "\(result.stdout)")
        let scheme = try #require(result.lines.first { $0.hasPrefix("spring  chipmunk2d  scheme at 60 Hz") })
        #expect(
            scheme.contains(
                "position-first symplectic Euler, damping as an exponential factor e^(-c·h), 1 step per frame (Chipmunk2D's DampedSpring) in"
            ), "\(scheme)")
    }
}
