import Foundation
import Kinetics

/// A part of a run: `index` of `count` (1-based), for spreading a large grid
/// over several machines. Each spring, decay and curve of the grid goes,
/// with all of its frame rates, to exactly one shard.
public struct VerificationShard: Sendable, Equatable, Codable, CustomStringConvertible {
    /// Which shard, 1 … `count`.
    public let index: Int
    /// How many shards.
    public let count: Int

    /// Shard `index` of `count`.
    ///
    /// - Throws: ``VerificationError/usage(_:)`` unless 1 ≤ index ≤ count ≤ 10,000.
    public init(index: Int, count: Int) throws(VerificationError) {
        guard count >= 1, count <= 10_000, index >= 1, index <= count else {
            throw .usage("a shard is i/n with 1 <= i <= n <= 10000, got \(index)/\(count)")
        }
        self.index = index
        self.count = count
    }

    /// Reads `i/n`.
    ///
    /// - Throws: ``VerificationError/usage(_:)`` for other text.
    public init(_ text: String) throws(VerificationError) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]) else {
            throw .usage("a shard is i/n with 1 <= i <= n <= 10000, for example 2/4, got '\(text)'")
        }
        try self.init(index: index, count: count)
    }

    /// `2/4`.
    public var description: String { "\(index)/\(count)" }

    /// Whether the grid's `position`-th entry (0-based) belongs to this shard.
    func keeps(_ position: Int) -> Bool { position % count == index - 1 }
}

/// The cases an engine is verified on: the grids of `kinetics verify`, each
/// spring and decay at every frame rate of ``verificationFrameRates``, each
/// curve at the grid's x samples, as ``EngineCase`` values.
///
/// Springs move from 0 to 1 (decays start at 0), exactly as the built-in
/// methods do in their suites, so that an engine that computes what a
/// built-in method computes gets the same numbers.
public struct EngineCaseSet: Sendable {
    /// The grid.
    public let grid: VerificationGrid
    /// The suites: some of `spring`, `decay`, `bezier`.
    public let suites: [VerificationSuite]
    /// The shard, if the run is one part of a larger one.
    public let shard: VerificationShard?
    /// The region the cases were restricted to (``restricted(to:)``), if any.
    public let region: VerificationRegion?
    /// The cases, in order: springs (each at every frame rate of the
    /// region), decays, curves.
    public let cases: [EngineCase]

    /// The grid's springs that this set holds, with their grid positions.
    let springs: [(position: Int, springCase: SpringCase)]
    /// The grid's decays that this set holds, with their grid positions.
    let decays: [(position: Int, decayCase: DecayCase)]
    /// The grid's curves that this set holds, with their grid positions.
    let curves: [(position: Int, curve: UnitBezier)]
    /// The x samples of every curve.
    let samples: Int

    /// The cases of `suites` on `grid`, or of one shard of them.
    ///
    /// - Throws: ``VerificationError/usage(_:)`` for the `conversions`
    ///   suite, which checks Kinetics' own parameter mappings, not an engine.
    public init(
        grid: VerificationGrid, suites: [VerificationSuite] = [.spring, .decay, .bezier],
        shard: VerificationShard? = nil
    ) throws(VerificationError) {
        if suites.contains(.conversions) {
            throw .usage("the conversions suite checks Kinetics' own mappings; an engine runs spring, decay and bezier")
        }
        self.grid = grid
        self.suites = suites
        self.shard = shard
        region = nil
        func kept<T>(_ all: [T]) -> [(position: Int, T)] {
            all.enumerated().filter { shard?.keeps($0.offset) ?? true }.map { ($0.offset, $0.element) }
        }
        springs = suites.contains(.spring) ? kept(VerificationGrids.springs(grid)).map { ($0.0, $0.1) } : []
        decays = suites.contains(.decay) ? kept(VerificationGrids.decays(grid)).map { ($0.0, $0.1) } : []
        curves = suites.contains(.bezier) ? kept(VerificationGrids.curves(grid)).map { ($0.0, $0.1) } : []
        let samples = VerificationGrids.bezierSamples(grid)
        self.samples = samples
        var cases: [EngineCase] = []
        /// One case per frame rate of a spring or decay at `position`.
        func atEveryRate(_ kind: String, _ position: Int, seconds: Double, _ problem: ([Double]) -> EngineCase.Problem)
        {
            for fps in verificationFrameRates {
                cases.append(
                    EngineCase(
                        id: Self.id(kind, position, fps: fps), problem: problem(frameTimes(fps: fps, seconds: seconds)))
                )
            }
        }
        for (position, springCase) in springs {
            atEveryRate("spring", position, seconds: springCase.seconds) {
                .spring(
                    SpringProblem(
                        parameters: springCase.parameters, from: 0, to: 1, velocity: springCase.velocity, times: $0))
            }
        }
        for (position, decayCase) in decays {
            atEveryRate("decay", position, seconds: decayCase.seconds) {
                .decay(DecayProblem(parameters: decayCase.parameters, from: 0, velocity: decayCase.velocity, times: $0))
            }
        }
        let x = (0 ..< samples).map { Double($0) / Double(samples - 1) }
        for (position, curve) in curves {
            cases.append(
                EngineCase(id: Self.id("bezier", position), problem: .bezier(BezierProblem(curve: curve, x: x))))
        }
        self.cases = cases
    }

    /// A set of these parts (``restricted(to:)``).
    init(
        grid: VerificationGrid, suites: [VerificationSuite], shard: VerificationShard?, region: VerificationRegion?,
        cases: [EngineCase], springs: [(position: Int, springCase: SpringCase)],
        decays: [(position: Int, decayCase: DecayCase)], curves: [(position: Int, curve: UnitBezier)], samples: Int
    ) {
        (self.grid, self.suites, self.shard, self.region, self.cases) = (grid, suites, shard, region, cases)
        (self.springs, self.decays, self.curves, self.samples) = (springs, decays, curves, samples)
    }

    /// `spring/17/60`: the kind, the grid position and the frame rate.
    static func id(_ kind: String, _ position: Int, fps: Double? = nil) -> String {
        fps.map { "\(kind)/\(position)/\(Int($0))" } ?? "\(kind)/\(position)"
    }
}
