import Foundation
import Kinetics
import KineticsTestSupport
import Testing

@testable import KineticsVerify

@Suite("Verifier")
struct VerifierTests {
    /// The whole quick grid's report, run once for the tests that read it.
    static let quick = Result { try Verifier.run(VerificationRequest(grid: .quick, tolerances: Tolerances())) }

    @Test("every suite passes on the quick grid, with a row for every mode")
    func quickGrid() throws {
        let report = try Self.quick.get()
        #expect(report.passed, "\(report.failures)")
        let modes = Set(report.rows.map { "\($0.suite) \($0.mode)" })
        for expected in [
            "spring pop", "spring fixed", "spring rk4", "spring analytic", "decay pop", "decay exact",
            "decay continuous", "bezier webkit", "bezier precise", "bezier fast", "conversions pop",
            "conversions settling duration",
        ] {
            #expect(modes.contains(expected), "\(expected)")
        }
        // Pop's fraction feedback: about 0.98 of real time at 60 Hz, 0.96 at 120 Hz.
        let scale60 = try #require(report.rows.first { $0.check == "time scale 60 Hz" })
        let scale120 = try #require(report.rows.first { $0.check == "time scale 120 Hz" })
        #expect(abs(scale60.value - 0.98) < 0.002)
        #expect(abs(scale120.value - 0.96) < 0.002)
        // Per-case data for plots: every spring case at six frame rates.
        #expect(report.springCases.count == VerificationGrids.springs(.quick).count * 6)
        #expect(report.bezierCases.count == VerificationGrids.curves(.quick).count)
    }

    @Test("the shards of a run merge into the unsharded run's report, conversions and all")
    func shardsMerge() throws {
        // Every suite, with the methods that take least time (rk4 and fixed
        // step in 1 ms or less, which the debug build makes slow).
        func request(_ shard: VerificationShard?) throws -> VerificationRequest {
            VerificationRequest(
                grid: .quick, methods: ["pop", "analytic", "exact", "continuous", "webkit", "precise", "fast"],
                tolerances: try Tolerances(), shard: shard)
        }
        let whole = try Verifier.run(try request(nil))
        let shards = try (1 ... 2).map { try Verifier.run(try request(try VerificationShard(index: $0, count: 2))) }
        #expect(whole.methodMeasures == nil, "a whole run keeps no measures")
        #expect(shards[1].rows.allSatisfy { $0.suite != "conversions" }, "conversions run in the first shard")
        let merged = try Verifier.merge([shards[1], shards[0]])
        #expect(merged.rows == whole.rows)
        #expect(merged.springCases == whole.springCases)
        #expect(merged.decayCases == whole.decayCases && merged.bezierCases == whole.bezierCases)
        // A tightened tolerance travels with the shards and fails the merged run.
        let tight = try Tolerances(overrides: ["spring.analytic": 1e-20])
        let strict = try (1 ... 2).map {
            try Verifier.run(
                VerificationRequest(
                    suites: [.spring], grid: .quick, methods: ["analytic"], tolerances: tight,
                    shard: VerificationShard(index: $0, count: 2)))
        }
        let mergedStrict = try Verifier.merge(strict)
        #expect(!mergedStrict.passed && mergedStrict.failures.map(\.check) == ["error"])
        #expect(throws: VerificationError.self) { try Verifier.merge([strict[0], shards[1]]) }
    }

    @Test(
        "a fault in one case of a checked method fails its row and names that case",
        arguments: [
            InjectedFault(suite: .spring, method: "rk4", caseIndex: 17, kind: .nan),
            InjectedFault(suite: .spring, method: "analytic", caseIndex: 3, kind: .offset(1e-3)),
            InjectedFault(suite: .spring, method: "rk4", caseIndex: 40, kind: .offset(1e-3)),
            InjectedFault(suite: .decay, method: "exact", caseIndex: 5, kind: .nan),
            InjectedFault(suite: .decay, method: "continuous", caseIndex: 2, kind: .offset(1e-3)),
            InjectedFault(suite: .bezier, method: "precise", caseIndex: 4, kind: .nan),
            InjectedFault(suite: .bezier, method: "fast", caseIndex: 6, kind: .offset(1e-3)),
        ])
    func faultFails(fault: InjectedFault) throws {
        // The quarter of the grid that holds the spoilt case.
        var request = VerificationRequest(
            suites: [fault.suite], methods: [fault.method], tolerances: try Tolerances(),
            shard: try VerificationShard(index: fault.caseIndex % 4 + 1, count: 4))
        request.fault = fault
        let report = try Verifier.run(request)
        // The error row fails, and with a NaN at 60 Hz the frame-rate check
        // too; each names the spoilt case (the worst of the grid: NaN, or an
        // error of 1e-3 of the scale, far above every checked tolerance).
        let failures = report.failures
        #expect(failures.allSatisfy { $0.mode == fault.method && $0.suite == fault.suite.rawValue }, "\(failures)")
        let failure = try #require(failures.first { $0.check.hasPrefix("error") })
        let label: String =
            switch fault.suite {
            case .spring: VerificationGrids.springs(.quick)[fault.caseIndex].label
            case .decay: VerificationGrids.decays(.quick)[fault.caseIndex].label
            case .bezier: Verifier.curveLabel(VerificationGrids.curves(.quick)[fault.caseIndex])
            case .conversions: ""
            }
        for failure in failures { #expect(failure.location.hasPrefix(label), "\(failure.location) names \(label)") }
        if fault.kind == .nan { #expect(failure.value.isNaN) }
        // Without the fault the same request passes: `quickGrid` runs every
        // suite and method of the grid unspoilt and expects every row to hold.
    }

    @Test("pop and fixed leave out, by their parameters alone, the springs a 1 ms RK4 step cannot hold")
    func leftOutByParameters() throws {
        let report = try Self.quick.get()
        let springs = VerificationGrids.springs(.quick)
        for method in [SpringMethod.pop, .fixed, .rk4, .analytic] {
            let unstable = springs.filter { !method.isStable(for: $0.parameters) }.count
            let row = try #require(report.rows.first { $0.mode == method.rawValue && $0.check == "error" })
            #expect(row.cases == (springs.count - unstable) * 6, "\(method)")
            #expect(
                (row.note?.contains("\(unstable * 6) trajectories left out") ?? false) == (unstable > 0),
                "\(method): \(row.note ?? "")")
            if method == .rk4 || method == .analytic { #expect(unstable == 0) }
        }
        #expect(
            springs.contains { !SpringMethod.pop.isStable(for: $0.parameters) }, "the grid has springs Pop cannot hold")
    }

    @Test("a checked row that compared nothing fails")
    func nothingChecked() throws {
        // As when every spring of a grid is outside `fixed`'s stability
        // region: its frame-rate check then compares nothing.
        let row = Verifier.row(
            "spring", "fixed", "frame-rate dependence", 0, 0, location: "", toleranceName: "spring.frame-rate",
            tolerances: try Tolerances())
        #expect(row.passed == false && row.location == "nothing was checked" && row.value.isNaN)
        let reported = Verifier.row(
            "spring", "pop", "error", 0, 0, location: "", toleranceName: nil, tolerances: try Tolerances())
        #expect(reported.passed == nil, "a row without a tolerance is reported, not checked")
    }

    @Test("a tightened tolerance fails its row and only its row")
    func tightenedTolerance() throws {
        let tolerances = try Tolerances(overrides: ["conversions.swiftui": 1e-20])
        let report = try Verifier.run(VerificationRequest(suites: [.conversions], tolerances: tolerances))
        #expect(!report.passed)
        #expect(report.failures.count == 2)
        #expect(report.failures.allSatisfy { $0.toleranceName == "conversions.swiftui" && $0.tolerance == 1e-20 })
        #expect(report.failures.allSatisfy { !$0.location.isEmpty && !$0.parameters.isEmpty })
    }

    @Test("method filters keep the named methods only")
    func methodFilter() throws {
        let report = try Verifier.run(
            VerificationRequest(suites: [.decay, .bezier], methods: ["exact", "fast"], tolerances: Tolerances()))
        #expect(Set(report.rows.map(\.mode)) == ["exact", "fast", "reference"])
        #expect(throws: VerificationError.self) {
            try Verifier.run(VerificationRequest(suites: [.decay], methods: ["euler"], tolerances: Tolerances()))
        }
    }

    @Test("tolerances: names, values and the NAME=VALUE form")
    func tolerances() throws {
        #expect(try Tolerances.parse("spring.rk4=1e-8") == ("spring.rk4", 1e-8))
        #expect(throws: VerificationError.self) { try Tolerances.parse("spring.rk4") }
        #expect(throws: VerificationError.self) { try Tolerances(overrides: ["spring.euler": 1]) }
        #expect(throws: VerificationError.self) { try Tolerances(overrides: ["spring.rk4": -1]) }
        #expect(throws: VerificationError.self) { try Tolerances(overrides: ["spring.rk4": .nan]) }
        #expect(try Tolerances(overrides: ["spring.rk4": 1e-8])["spring.rk4"] == 1e-8)
        #expect(Tolerances.defaults.allSatisfy { !$0.reason.isEmpty && $0.value > 0 })
    }

    @Test("the grids are the same every time and span the promised ranges")
    func grids() {
        let full = VerificationGrids.springs(.full)
        #expect(full.count >= 10_000)
        #expect(full == VerificationGrids.springs(.full))
        let ratios = full.map(\.parameters.dampingRatio)
        #expect(ratios.contains { $0 <= 0.011 } && ratios.contains { $0 >= 90 })
        #expect(ratios.filter { $0 != 1 && abs($0 - 1) <= 1e-6 }.count >= 500)
        #expect(full.allSatisfy { (1 ... 10_000).contains($0.parameters.tension) && $0.parameters.friction <= 500 })
        #expect(full.allSatisfy { (0.1 ... 10).contains($0.parameters.mass) })
        #expect(full.filter { $0.velocity != 0 }.count >= 4_000)
        let decays = VerificationGrids.decays(.full)
        #expect(
            decays.allSatisfy {
                (0.99 ... 0.9999).contains($0.parameters.deceleration) && (1 ... 20_000).contains(abs($0.velocity))
            })
        #expect(decays.contains { $0.velocity < 0 })
        #expect(VerificationGrids.curves(.full).count >= 1_005)
        #expect(VerificationGrids.bezierSamples(.full) == 10_001)
    }
}
