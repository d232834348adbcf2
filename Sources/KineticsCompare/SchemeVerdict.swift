import Foundation
import Kinetics

/// How well one candidate reproduces a trace.
public struct CandidateFit: Sendable, Equatable {
    /// The candidate, in words.
    public var name: String
    /// The engine known to compute this way, where one is.
    public var engine: String?
    /// The RMS difference from the trace, over the amplitude.
    public var rms: Double
    /// The largest difference, over the amplitude.
    public var max: Double
    /// Whether the residual is consistent with the trace's own noise.
    public var explains: Bool
    /// How much the candidate assumes beyond the trace's clock and
    /// precision (whole milliseconds, a snap, another precision): among
    /// candidates that explain a trace, the simplest is named.
    var assumptions: Int
    /// Whether the candidate reads the clock in whole milliseconds.
    public var wholeMilliseconds: Bool

    /// The name, with the engine where one is known.
    public var title: String { engine.map { "\(name) (\($0))" } ?? name }

    /// Whether the replay left a double's range (or came to NaN): its
    /// ``rms`` and ``max`` are then infinite and say nothing more.
    public var diverges: Bool { !rms.isFinite }
}

/// A candidate to replay at a trace's times, and what it is. The values
/// are computed when the verdict measures the candidate, one candidate at a
/// time: a trace of a million samples and 400 candidates would otherwise
/// hold 3 GB of replays at once.
struct ReplayedCandidate {
    var name: String
    /// Variants of one scheme (clocks, snaps) share a group; the verdict
    /// keeps the best of each.
    var group: String
    var engine: String?
    /// What it assumes beyond the trace (see ``CandidateFit``).
    var assumptions: Int
    var wholeMilliseconds = false
    var values: () -> [Double]
}

/// Which scheme made a trace: candidates ranked against it, and the verdict
/// from the trace's own noise.
public struct SchemeVerdict: Sendable, Equatable {
    /// The trace's noise, estimated from the trace alone.
    public var noise: TraceNoise
    /// Every candidate tried, those that explain the trace first (simplest
    /// first), then by RMS.
    public var fits: [CandidateFit]
    /// The first candidate's values at the trace's times.
    public var bestValues: [Double]
    /// The sample from which the trace sits exactly on the target (a snap),
    /// and the time of that sample.
    public var snap: (index: Int, time: Double)?
    /// The other schemes that explain the trace as the named one does: as
    /// simple, and within twice its residual. The trace cannot tell them
    /// apart; the named one is first by its residual or by the order the
    /// candidates are tried in, not by anything the trace shows.
    public var alike: [CandidateFit] = []
    /// Why no candidate was tried, when the trace holds no motion that
    /// could tell schemes apart (it never left its start, or only jumped to
    /// its target); nil when candidates were ranked.
    public var unnamed: String?

    public static func == (lhs: SchemeVerdict, rhs: SchemeVerdict) -> Bool {
        lhs.noise == rhs.noise && lhs.fits == rhs.fits && lhs.bestValues == rhs.bestValues
            && lhs.unnamed == rhs.unnamed && lhs.alike == rhs.alike
    }

    /// The verdict on a trace that names no scheme, for `reason`.
    init(unnamed reason: String, noise: TraceNoise, amplitude: Double) {
        self.noise = noise
        self.amplitude = amplitude
        fits = []
        bestValues = []
        unnamed = reason
    }

    /// Whether a candidate explains the trace.
    public var explained: Bool { fits.first?.explains ?? false }

    /// The candidates that explain the trace, the named one first.
    public var explaining: [CandidateFit] { fits.filter(\.explains) }

    /// The verdict in one sentence: the scheme that explains the trace, or
    /// that none does and which came nearest.
    public var sentence: String {
        if let unnamed { return unnamed }
        guard let best = fits.first else { return "no candidate was tried" }
        if best.explains { return best.title }
        guard best.diverges == false else {
            return "no candidate explains this trace: every candidate's replay leaves a double's range"
        }
        let times = best.rms * amplitude / noise.deviation
        return
            "no candidate explains this trace; nearest: \(best.title), RMS \(Self.scientific(best.rms)) of the amplitude"
            + (times.isFinite ? ", \(Self.scientific(times))× the trace's noise" : "")
    }

    /// What residuals are divided by.
    public var amplitude: Double

    /// Ranks `candidates` (name, engine, assumptions, values at the trace's
    /// times) against the trace's `values`, with `noise` deciding which
    /// explain it.
    init(
        values: [Double], candidates: [ReplayedCandidate],
        noise: TraceNoise, amplitude: Double
    ) {
        self.noise = noise
        self.amplitude = amplitude
        var fits: [(fit: CandidateFit, group: String)] = []
        let bound = Limit.atMost(noise.explainingBound / amplitude)
        for candidate in candidates {
            // Differences over the amplitude, so that the squares stay
            // finite whatever the trace's units. Indices rather than zip: the
            // loop runs for every candidate and sample, and a debug build does
            // not specialise zip's iterator.
            var squares = 0.0
            var largest = 0.0
            let replayed = candidate.values()
            for index in 0 ..< Swift.min(values.count, replayed.count) {
                let difference = abs(values[index] - replayed[index]) / amplitude
                squares += difference * difference
                largest = difference.isNaN || largest.isNaN ? .nan : Swift.max(largest, difference)
            }
            let rms = (squares / Double(Swift.max(values.count, 1))).squareRoot()
            // A replay that left a double's range (or came to NaN) diverges.
            let finite = rms.isFinite && largest.isFinite
            fits.append(
                (
                    CandidateFit(
                        name: candidate.name, engine: candidate.engine, rms: finite ? rms : .infinity,
                        max: finite ? largest : .infinity, explains: finite && bound.admits(rms),
                        assumptions: candidate.assumptions, wholeMilliseconds: candidate.wholeMilliseconds),
                    candidate.group
                ))
        }
        // The candidates that explain the trace nearly as closely as the
        // closest one does rank first: the noise bound is an upper bound, and
        // a scheme ten times farther from the trace than another that also
        // explains it is not named for assuming less.
        let closest = fits.filter(\.fit.explains).map(\.fit.rms).min() ?? 0
        let near = fits.map { $0.fit.explains && $0.fit.rms <= Self.nearFactor * closest }
        // A stable order: among equals, the order the candidates were tried.
        let order = fits.indices.sorted { a, b in
            if near[a] != near[b] { return near[a] }
            return Self.precedes(fits[a].fit, fits[b].fit) || (!Self.precedes(fits[b].fit, fits[a].fit) && a < b)
        }
        var seen = Set<String>()
        let kept = order.filter { seen.insert(fits[$0].group).inserted }
        self.fits = kept.map { fits[$0].fit }
        // The named candidate's values, replayed again: only one replay is
        // ever kept.
        bestValues = kept.first.map { candidates[$0].values() } ?? []
        if let first = self.fits.first, first.explains {
            alike = self.fits.dropFirst().filter { fit in
                fit.explains && fit.assumptions == first.assumptions && fit.rms <= Self.alikeFactor * first.rms
            }
        }
    }

    /// How much farther from the trace than the closest explaining
    /// candidate a candidate may be and still rank with it.
    static let nearFactor = 10.0
    /// How close two explaining candidates' residuals must be (as a ratio)
    /// for the second to give the trace's values alike.
    static let alikeFactor = 2.0

    /// Whether `a` ranks before `b`: explaining first, then (among those
    /// that explain) fewer assumptions, then a smaller RMS.
    private static func precedes(_ a: CandidateFit, _ b: CandidateFit) -> Bool {
        if a.explains != b.explains { return a.explains }
        if a.explains && a.assumptions != b.assumptions { return a.assumptions < b.assumptions }
        return a.rms < b.rms
    }

    static func scientific(_ value: Double) -> String { String(format: "%.1e", value) }
}
