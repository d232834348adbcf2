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

    func keeps(_ name: String) -> Bool { methods.isEmpty || methods.contains(name) }
}

extension Verifier {
    /// Measures every case of `request`'s suites (of its shard), in parallel.
    static func measure(_ request: VerificationRequest, progress: @escaping Progress) throws -> MethodMeasures {
        var measures = MethodMeasures(
            shard: request.shard, methods: request.methods.sorted(), overrides: request.tolerances.overrides)
        let shard = request.shard
        let springs = VerificationGrids.springs(request.grid)
        func kept(_ count: Int) -> [Int] { (0 ..< count).filter { shard?.keeps($0) ?? true } }
        for suite in request.suites {
            switch suite {
            case .spring:
                let methods = SpringMethod.allCases.filter { request.keeps($0.rawValue) }
                guard !methods.isEmpty else { continue }
                // Time scales and RK4's order on a few well-conditioned springs at rest.
                let sample = Set(
                    springs.indices.filter { isTimeScaleSample(springs[$0]) }.prefix(request.grid == .full ? 12 : 4))
                let positions = kept(springs.count)
                let samplePositions = positions.filter(sample.contains)
                let total = positions.count + samplePositions.count
                let fault = request.fault
                measures.springs = try parallelMap(
                    count: positions.count, jobs: request.jobs, progress: { progress("spring", $0, total) }
                ) {
                    let position = positions[$0]
                    return .init(
                        position: position,
                        value: try SpringSuite.measure(
                            springs[position], methods: methods, fault: fault?.at(.spring, position)))
                }
                measures.samples = try parallelMap(
                    count: samplePositions.count, jobs: request.jobs,
                    progress: { progress("spring", positions.count + $0, total) }
                ) {
                    let springCase = springs[samplePositions[$0]]
                    return .init(
                        position: samplePositions[$0],
                        value: MethodMeasures.Sample(
                            scales: SpringSuite.timeScales(springCase, methods: methods),
                            rk4Order: methods.contains(.rk4) ? SpringSuite.rk4Order(springCase.parameters) : nil))
                }
            case .decay:
                let methods = DecayMethod.allCases.filter { request.keeps($0.rawValue) }
                guard !methods.isEmpty else { continue }
                let decays = VerificationGrids.decays(request.grid)
                let positions = kept(decays.count)
                measures.decays = try parallelMap(
                    count: positions.count, jobs: request.jobs, progress: { progress("decay", $0, positions.count) }
                ) {
                    let position = positions[$0]
                    return .init(
                        position: position,
                        value: try DecaySuite.measure(
                            decays[position], methods: methods, fault: request.fault?.at(.decay, position)))
                }
            case .bezier:
                let methods = BezierMethod.allCases.filter { request.keeps($0.rawValue) }
                guard !methods.isEmpty else { continue }
                let curves = VerificationGrids.curves(request.grid)
                let samples = VerificationGrids.bezierSamples(request.grid)
                let positions = kept(curves.count)
                measures.curves = try parallelMap(
                    count: positions.count, jobs: request.jobs, progress: { progress("bezier", $0, positions.count) }
                ) {
                    let position = positions[$0]
                    return .init(
                        position: position,
                        value: try BezierSuite.measure(
                            curves[position], samples: samples, methods: methods, tolerances: request.tolerances,
                            fault: request.fault?.at(.bezier, position)))
                }
            case .conversions:
                if (shard?.index ?? 1) == 1 { measures.conversions = try conversionRows(springs, request, progress) }
            }
        }
        return measures
    }
}
