import Foundation
import Kinetics

/// What a run of Kinetics' own methods measured, case by case: the rows of
/// ``VerificationReport`` are computed from it, and a sharded run keeps it
/// in its report (``VerificationReport/methodMeasures``) so that
/// ``Verifier/merge(_:)`` can compute the whole run's rows again. Its
/// contents are an implementation detail.
public struct MethodMeasures: Codable, Sendable, Equatable {
    /// A measure of the grid's entry at `position`.
    struct Positioned<Value: Codable & Sendable & Equatable>: Codable, Sendable, Equatable {
        var position: Int
        var value: Value
    }

    /// Time scales per method per frame rate, and RK4's order, on one of the
    /// well-conditioned springs that these are fitted on.
    struct Sample: Codable, Sendable, Equatable {
        var scales: [SpringMethod: [Double]]
        var rk4Order: Double?
    }

    var shard: VerificationShard?
    /// The method names the request kept; empty keeps all.
    var methods: [String]
    /// The tolerances that differ from the defaults.
    var overrides: [String: Double]
    var springs: [Positioned<SpringCaseMeasurement<SpringMethod>>] = []
    var samples: [Positioned<Sample>] = []
    var decays: [Positioned<[[DecayMethod: DecayTrajectoryError]]>] = []
    var curves: [Positioned<BezierCurveMeasurement<BezierMethod>>] = []
    /// The conversion rows, made whole in the first shard (or the only run).
    var conversions: [VerificationRow]?

    /// The methods of a kind that the run kept, in their order.
    func kept<Method: CaseIterable & RawRepresentable<String>>(_: Method.Type) -> [Method] {
        Method.allCases.filter { methods.isEmpty || methods.contains($0.rawValue) }
    }
}

extension Verifier {
    /// Measures every case of `request`'s suites (of its shard), in parallel.
    static func measure(_ request: VerificationRequest, progress: @escaping Progress) throws -> MethodMeasures {
        var measures = MethodMeasures(
            shard: request.shard, methods: request.methods.sorted(), overrides: request.tolerances.overrides)
        let shard = request.shard
        let springs = VerificationGrids.springs(request.grid)
        func kept(_ count: Int) -> [Int] { (0 ..< count).filter { shard?.keeps($0) ?? true } }
        /// `body` at each position, in parallel, progress told as `suite`
        /// from `done` of `total`.
        func each<Value: Sendable>(
            _ suite: String, _ positions: [Int], done: Int = 0, total: Int? = nil,
            _ body: @escaping @Sendable (Int) throws -> Value
        ) throws -> [MethodMeasures.Positioned<Value>] {
            try parallelMap(
                count: positions.count, jobs: request.jobs,
                progress: { progress(suite, done + $0, total ?? positions.count) }
            ) { .init(position: positions[$0], value: try body(positions[$0])) }
        }
        let fault = request.fault
        for suite in request.suites {
            switch suite {
            case .spring:
                let methods = request.kept(SpringMethod.self)
                guard !methods.isEmpty else { continue }
                // Time scales and RK4's order on a few well-conditioned springs at rest.
                let sample = Set(
                    springs.indices.filter { isTimeScaleSample(springs[$0]) }.prefix(request.grid == .full ? 12 : 4))
                let positions = kept(springs.count)
                let samplePositions = positions.filter(sample.contains)
                let total = positions.count + samplePositions.count
                measures.springs = try each("spring", positions, total: total) {
                    try SpringSuite.measure(springs[$0], methods: methods, fault: fault?.at(.spring, $0))
                }
                measures.samples = try each("spring", samplePositions, done: positions.count, total: total) {
                    MethodMeasures.Sample(
                        scales: SpringSuite.timeScales(springs[$0], methods: methods),
                        rk4Order: methods.contains(.rk4) ? SpringSuite.rk4Order(springs[$0].parameters) : nil)
                }
            case .decay:
                let methods = request.kept(DecayMethod.self)
                guard !methods.isEmpty else { continue }
                let decays = VerificationGrids.decays(request.grid)
                measures.decays = try each("decay", kept(decays.count)) {
                    try DecaySuite.measure(decays[$0], methods: methods, fault: fault?.at(.decay, $0))
                }
            case .bezier:
                let methods = request.kept(BezierMethod.self)
                guard !methods.isEmpty else { continue }
                let curves = VerificationGrids.curves(request.grid)
                let samples = VerificationGrids.bezierSamples(request.grid)
                let tolerances = request.tolerances
                measures.curves = try each("bezier", kept(curves.count)) {
                    try BezierSuite.measure(
                        curves[$0], samples: samples, methods: methods, tolerances: tolerances,
                        fault: fault?.at(.bezier, $0))
                }
            case .conversions:
                if (shard?.index ?? 1) == 1 { measures.conversions = try conversionRows(springs, request, progress) }
            }
        }
        return measures
    }
}
