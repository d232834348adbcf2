import Foundation
import Kinetics
import KineticsTestSupport
import Testing

@testable import KineticsVerify

@Suite("Verifier: engines")
struct EngineVerificationTests {
    /// The built-in rows that an engine computing the same values must
    /// reproduce exactly (not within a tolerance: the same doubles go
    /// through the same code), by check, for each method combination.
    @Test(
        "Kinetics' own methods as an engine reproduce the built-in verify numbers exactly",
        arguments: [
            // Each set of methods on an eighth of the grid (the rows of the
            // same shard, both ways; only the sixth holds flat curves); with
            // KINETICS_LONG_TESTS, the whole grid.
            (SpringMethod.rk4, DecayMethod.exact, BezierMethod.precise, "error vs discrete law", 6),
            (SpringMethod.analytic, DecayMethod.continuous, BezierMethod.webkit, "error vs continuous law", 3),
        ])
    func reproducesBuiltIn(
        spring: SpringMethod, decay: DecayMethod, bezier: BezierMethod, decayCheck: String, eighth: Int
    ) throws {
        let shard = longTests ? nil : try VerificationShard(index: eighth, count: 8)
        let builtIn = try Verifier.run(
            VerificationRequest(
                suites: [.spring, .decay, .bezier], grid: .quick,
                methods: [spring.rawValue, decay.rawValue, bezier.rawValue], tolerances: Tolerances(), shard: shard))
        // The scheme rows are another test's (namingSchemes).
        let engine = try Verifier.run(
            MethodEngine(spring: spring, decay: decay, bezier: bezier), named: "own",
            on: EngineCaseSet(grid: .quick, shard: shard), tolerances: Tolerances(), namingSchemes: false)
        #expect(engine.fault == nil && engine.engineMeasures?.casesAnswered == engine.engineMeasures?.casesAsked)
        func row(_ report: VerificationReport, _ suite: String, _ mode: String, _ check: String) throws
            -> VerificationRow
        {
            try #require(report.rows.first { $0.suite == suite && $0.mode == mode && $0.check == check })
        }
        var checks = [
            ("spring", spring.rawValue, "error"), ("spring", spring.rawValue, "frame-rate dependence"),
            ("decay", decay.rawValue, decayCheck), ("bezier", bezier.rawValue, BezierSuite.regularCheck),
        ]
        if shard == nil || eighth == 6 { checks.append(("bezier", bezier.rawValue, "error where x(t) is flat")) }
        for (suite, mode, check) in checks {
            let expected = try row(builtIn, suite, mode, check)
            let actual = try row(engine, suite, "own", check)
            #expect(actual.value == expected.value, "\(suite) \(check)")
            #expect(actual.rms == expected.rms, "\(suite) \(check)")
            #expect(actual.cases == expected.cases, "\(suite) \(check)")
            #expect(actual.location == expected.location, "\(suite) \(check)")
            #expect(actual.parameters == expected.parameters, "\(suite) \(check)")
        }
        // Per-case errors, for plots, are the built-in method's too.
        #expect(engine.springCases.map { $0.errors["own"] } == builtIn.springCases.map { $0.errors[spring.rawValue] })
    }

    /// Kinetics' exact springs, and decays whose every value is NaN.
    struct NaNDecays: VerifiableEngine {
        func answer(_ engineCase: EngineCase) throws -> EngineAnswer {
            guard case .decay = engineCase.problem else { return MethodEngine(spring: .analytic).answer(engineCase) }
            return EngineAnswer(values: Array(repeating: .nan, count: engineCase.valueCount))
        }
    }

    @Test(
        "a report a package's test can read and keep: its text, the failed rows alone, JSON with NaN read back, merge of a whole run"
    )
    func readableReport() throws {
        // A whole run (merge takes it): the decays alone.
        let set = try EngineCaseSet(grid: .quick, suites: [.decay])
        let report = try Verifier.run(
            NaNDecays(), named: "mine", on: set, tolerances: Tolerances(overrides: ["engine": 1e-6]),
            namingSchemes: false)
        #expect(!report.passed)
        // print(report) is the table kinetics verify prints, not a dump of every case.
        #expect(report.description == report.text)
        #expect(
            report.text.contains("suite  mode  check") && report.text.hasSuffix(report.verdict + "\n"), "\(report.text)"
        )
        #expect(report.text.utf8.count < 5_000, "\(report.text.utf8.count) bytes")
        // The failed rows, one line each, and nothing else.
        let lines = report.failureSummary.split(separator: "\n")
        #expect(lines.count == report.failures.count && !lines.isEmpty)
        #expect(lines.allSatisfy { $0.hasPrefix("decay mine ") }, "\(report.failureSummary)")
        #expect(lines.first?.contains("nan exceeds engine = 1.00e-06") == true, "\(report.failureSummary)")
        // JSON has no number for NaN: the report writes it as "nan", as the CLI does.
        #expect(throws: EncodingError.self) { try JSONEncoder().encode(report) }
        let data = try report.json()
        #expect(String(decoding: data, as: UTF8.self).contains("\"nan\""))
        let read = try VerificationReport(json: data)
        #expect(read.rows.count == report.rows.count && read.failures.count == report.failures.count)
        #expect(read.text == report.text)
        // A whole run (no shard), merged with nothing, is itself: kinetics verify merge reads it.
        #expect(try Verifier.merge([read]).text == report.text)
        #expect(report.markdown.contains("| decay | mine |") && report.csv.hasPrefix("suite,mode,check,"))
    }

    @Test("an engine's scheme is named per case: Kinetics' analytic springs are the exact closed form")
    func schemes() throws {
        let report = try Verifier.run(
            MethodEngine(spring: .analytic, decay: .exact, bezier: .precise), named: "own",
            on: EngineCaseSet(grid: .quick, suites: [.spring, .decay], shard: VerificationShard(index: 2, count: 8)),
            tolerances: Tolerances())
        let springs = try #require(report.rows.first { $0.suite == "spring" && $0.check == "scheme at 60 Hz" })
        #expect(springs.location.hasPrefix("exact closed form in "), "\(springs.location)")
        // The rest are overdamped springs (ζ up to 790) that compare's own
        // closed form evaluates with other rounding, above the noise these
        // smooth traces show (4 of this eighth's 19); none of them is a
        // different scheme.
        #expect(springs.value > 0.75, "\(springs.location)")
        let measures = try #require(report.engineMeasures)
        for spring in measures.springs where spring.scheme != "exact closed form" {
            #expect(spring.scheme == "none")
            #expect(spring.errors.allSatisfy { ($0?.maxError ?? 1) < 1e-12 }, "spring \(spring.position)")
        }
        let decays = try #require(report.rows.first { $0.suite == "decay" && $0.check == "scheme at 60 Hz" })
        #expect(decays.value == 1, "\(decays.location)")
    }

    @Test("--tolerance engine= gates every suite; engine.SUITE overrides it; without either nothing is checked")
    func gates() throws {
        // A quarter of the grid keeps the test short; the gates are per row.
        let set = try EngineCaseSet(
            grid: .quick, suites: [.spring, .decay], shard: VerificationShard(index: 1, count: 4))
        // Analytic springs are within 1e-10 of GSL; Pop's decay is its
        // discrete law, about 1e-3 of the throw from the continuous one.
        let engine = MethodEngine(spring: .analytic, decay: .pop)
        let gated = try Verifier.run(
            engine, named: "own", on: set, tolerances: Tolerances(overrides: ["engine": 1e-6]), namingSchemes: false)
        #expect(!gated.passed)
        #expect(gated.failures.map(\.suite) == ["decay"], "\(gated.failures)")
        // The same measures reported under other tolerances, as `verify merge` does.
        let measures = try #require(gated.engineMeasures)
        func report(_ tolerances: Tolerances) -> VerificationReport {
            Verifier.report(measures, grid: .quick, suites: [.spring, .decay], tolerances: tolerances)
        }
        let open = report(try Tolerances())
        #expect(open.passed && open.rows.allSatisfy { $0.passed == nil })
        let loose = report(try Tolerances(overrides: ["engine": 1e-6, "engine.decay": 0.1]))
        #expect(loose.passed, "\(loose.failures)")
        #expect(
            loose.rows.first { $0.suite == "decay" && $0.check == "error vs continuous law" }?.toleranceName
                == "engine.decay")
        #expect(loose.rows.first { $0.suite == "spring" && $0.check == "error" }?.toleranceName == "engine")
    }

    @Test("an engine that throws stops at that case: a fault naming it, the other answers still reported")
    func throwingEngine() throws {
        struct Failing: VerifiableEngine {
            func answer(_ engineCase: EngineCase) throws -> EngineAnswer {
                if engineCase.id == "spring/4/60" { throw CocoaError(.featureUnsupported) }
                return MethodEngine().answer(engineCase)
            }
        }
        // The eighth of the grid that holds spring 4.
        let set = try EngineCaseSet(grid: .quick, suites: [.spring], shard: VerificationShard(index: 5, count: 8))
        let report = try Verifier.run(
            Failing(), named: "failing", on: set, tolerances: Tolerances(), namingSchemes: false)
        let fault = try #require(report.fault)
        #expect(fault.kind == .threw && fault.message.contains("case spring/4/60"))
        #expect(!report.passed)
        #expect(report.engineMeasures?.casesAnswered == set.cases.count - 1)
        #expect(report.rows.first { $0.check == "error" }?.cases == set.cases.count - 1)
    }

    @Test("shards split the grid: every case in exactly one of n shards, all frame rates of a spring together")
    func shards() throws {
        let whole = try EngineCaseSet(grid: .quick)
        var seen: [String] = []
        for index in 1 ... 3 {
            let part = try EngineCaseSet(grid: .quick, shard: VerificationShard(index: index, count: 3))
            seen += part.cases.map(\.id)
            let springs = Set(part.cases.filter { $0.kind == "spring" }.map { $0.id.split(separator: "/")[1] })
            #expect(part.cases.count { $0.kind == "spring" } == springs.count * verificationFrameRates.count)
        }
        #expect(seen.sorted() == whole.cases.map(\.id).sorted())
        #expect(throws: VerificationError.self) { try VerificationShard("0/3") }
        #expect(throws: VerificationError.self) { try VerificationShard("4/3") }
        #expect(throws: VerificationError.self) { try VerificationShard("a/b") }
        #expect(throws: VerificationError.self) { try EngineCaseSet(grid: .quick, suites: [.conversions]) }
    }

    @Test("merged shards give the report of the unsharded run, and only complete shards of one run merge")
    func mergeShards() throws {
        // Without scheme naming, for time: `kinetics verify merge`'s test
        // merges named schemes.
        let engine = MethodEngine(spring: .rk4, decay: .pop, bezier: .webkit)
        let tolerances = try Tolerances(overrides: ["engine": 1e-3])
        func run(_ shard: VerificationShard?, named name: String = "own", namingSchemes: Bool = false) throws
            -> VerificationReport
        {
            try Verifier.run(
                engine, named: name, on: EngineCaseSet(grid: .quick, suites: [.decay, .bezier], shard: shard),
                tolerances: tolerances, namingSchemes: namingSchemes)
        }
        let whole = try run(nil)
        let shards = try (1 ... 3).map { try run(VerificationShard(index: $0, count: 3)) }
        let merged = try Verifier.merge([shards[2], shards[0], shards[1]])
        #expect(merged.rows == whole.rows)
        #expect(merged.decayCases == whole.decayCases && merged.bezierCases == whole.bezierCases)
        #expect(merged.engineMeasures == whole.engineMeasures)
        #expect(merged.passed == whole.passed)
        #expect(throws: VerificationError.self) { try Verifier.merge([shards[0], shards[1]]) }
        #expect(throws: VerificationError.self) { try Verifier.merge([shards[0], shards[0], shards[1], shards[2]]) }
        // A whole run with a shard is refused; alone, it is itself.
        #expect(throws: VerificationError.self) { try Verifier.merge([whole, shards[0]]) }
        #expect(try Verifier.merge([whole]).rows == whole.rows)
        let other = try run(VerificationShard(index: 2, count: 3), named: "other")
        #expect(throws: VerificationError.self) { try Verifier.merge([shards[0], other, shards[2]]) }
        let named = try run(VerificationShard(index: 2, count: 3), namingSchemes: true)
        #expect(throws: VerificationError.self) { try Verifier.merge([shards[0], named, shards[2]]) }
    }

    @Test("without scheme naming, the report is the named one without its scheme rows")
    func withoutSchemes() throws {
        let set = try EngineCaseSet(grid: .quick, shard: VerificationShard(index: 3, count: 16))
        let engine = MethodEngine(spring: .rk4, decay: .pop, bezier: .fast)
        let named = try Verifier.run(engine, named: "own", on: set, tolerances: Tolerances())
        let plain = try Verifier.run(engine, named: "own", on: set, tolerances: Tolerances(), namingSchemes: false)
        let schemeRows = named.rows.filter { $0.check.hasPrefix("scheme") }
        #expect(schemeRows.map(\.suite) == ["spring", "decay", "bezier"])
        #expect(schemeRows.allSatisfy { $0.cases > 0 })
        #expect(plain.rows == named.rows.filter { !$0.check.hasPrefix("scheme") })
        #expect(plain.engineMeasures?.schemesNamed == false && named.engineMeasures?.schemesNamed == nil)
        #expect(plain.engineMeasures?.springs.allSatisfy { $0.scheme == nil } == true)
        #expect(named.engineMeasures?.springs.allSatisfy { $0.scheme != nil } == true)
        // The time fit is measured either way.
        #expect(
            plain.engineMeasures?.springs.map(\.timeScale) == named.engineMeasures?.springs.map(\.timeScale))
    }

    @Test("a case reads back from its line unchanged, every number to the bit")
    func caseRoundTrip() throws {
        let set = try EngineCaseSet(grid: .quick)
        for engineCase in set.cases.prefix(50) + set.cases.suffix(5) {
            let read = try JSONDecoder().decode(EngineCase.self, from: Data(engineCase.line().utf8))
            #expect(read == engineCase)
        }
        let line = set.cases[0].line()
        #expect(
            line.hasPrefix("{\"bounce\":") && line.contains("\"protocol\":1") && line.contains("\"id\":\"spring/0/30\"")
        )
        let future = line.replacingOccurrences(of: "\"protocol\":1", with: "\"protocol\":2")
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(EngineCase.self, from: Data(future.utf8)) }
    }

    @Test("data/schema/engine-case.schema.json lists exactly the keys of each kind's lines, and requires them")
    func caseSchema() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let data = try Data(contentsOf: root.appendingPathComponent("data/schema/engine-case.schema.json"))
        let schema = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let common = try #require(schema["properties"] as? [String: Any]).keys
        let branches = try #require(schema["oneOf"] as? [[String: Any]])
        let set = try EngineCaseSet(grid: .quick)
        for kind in ["spring", "decay", "bezier"] {
            let engineCase = try #require(set.cases.first { $0.kind == kind })
            let line = try #require(
                try JSONSerialization.jsonObject(with: Data(engineCase.line().utf8)) as? [String: Any])
            let branch = try #require(
                branches.first {
                    (($0["properties"] as? [String: Any])?["kind"] as? [String: Any])?["const"] as? String == kind
                })
            let properties = Set(try #require(branch["properties"] as? [String: Any]).keys).union(common)
            let required = Set(try #require(branch["required"] as? [String]))
            #expect(Set(line.keys) == properties, "\(kind)")
            #expect(required.isSubset(of: Set(line.keys)), "\(kind)")
        }
    }

    @Test(
        "answer lines: each fault is named, with the case",
        arguments: [
            (#"{"id":"spring/0/30","values":[1,2]}"#, "the engine gave 2 values for"),
            (#"{"id":"nope","values":[]}"#, "unknown case 'nope'"),
            (
                #"{"id":"spring/0/30","values":["a"]}"#,
                "line 1, case spring/0/30: at values[0]: a string, where a number belongs"
            ),
            (
                #"{"id":"spring/0/30","values":[1e400]}"#,
                "line 1, case spring/0/30: the number 1e400 is beyond a double's range (±1.8e308) (column 31)"
            ),
            (
                #"{"id":"spring/0/30","values":[1],"values":[2]}"#,
                #"line 1, case spring/0/30: the key "values" appears twice in one object (column 34)"#
            ),
            (#"{"id":"nope","error":"cannot"}"#, "the engine refused an unknown case 'nope'"),
            (#"{"id":"spring/0/30"}"#, "has neither values nor an error"),
            ("not json", "line 1 of the engine's output is not an answer"),
            (#"["id"]"#, "is not an answer"),
        ])
    func answerFaults(line: String, message: String) throws {
        let set = try EngineCaseSet(grid: .quick, suites: [.spring])
        var answers = EngineAnswers(for: set.cases)
        #expect {
            try answers.take(line: line, number: 1)
        } throws: { error in
            (error as? EngineFault)?.message.contains(message) == true
        }
        #expect(answers.answers.isEmpty)
    }

    @Test("an error answer is a refusal: kept, counted as neither answered nor missing, once per case")
    func refusal() throws {
        let set = try EngineCaseSet(grid: .quick, suites: [.bezier])
        var answers = EngineAnswers(for: set.cases)
        try answers.take(line: #"{"id":"bezier/0","error":"no curves here"}"#, number: 1)
        #expect(answers.refusals == ["bezier/0": "no curves here"] && answers.answers.isEmpty)
        #expect(answers.missingCount == set.cases.count - 1 && answers.firstMissing == "bezier/1")
        #expect(throws: EngineFault.self) { try answers.take(line: #"{"id":"bezier/0","error":"again"}"#, number: 2) }
        #expect(
            EngineRefusal.grouped(
                ["spring/0/30", "bezier/0", "bezier/1"], refusals: ["bezier/1": "b", "bezier/0": "a"])
                == [EngineRefusal(suite: "bezier", cases: 2, firstCase: "bezier/0", message: "a")])
    }

    @Test("null, NaN, Infinity (bare, as Python writes them, or quoted) read as values that are not numbers")
    func nonFiniteValues() throws {
        let set = try EngineCaseSet(grid: .quick, suites: [.bezier])
        let count = set.cases[0].valueCount
        var answers = EngineAnswers(for: set.cases)
        let values = ["null", "NaN", "Infinity", "-Infinity", "\"NaN\""] + Array(repeating: "0.5", count: count - 5)
        try answers.take(line: "{\"id\":\"bezier/0\",\"values\":[\(values.joined(separator: ","))]}", number: 1)
        let read = try #require(answers.answers["bezier/0"]).values
        #expect(read[0].isNaN && read[1].isNaN && read[2] == .infinity && read[3] == -.infinity && read[4].isNaN)
        #expect(read[5] == 0.5)
        // A case answered twice is a fault, the first answer kept.
        #expect(throws: EngineFault.self) {
            try answers.take(line: "{\"id\":\"bezier/0\",\"values\":[\(values.joined(separator: ","))]}", number: 2)
        }
        #expect(
            EngineAnswers.quotingNonFiniteTokens(#"{"id":"NaN","values":[NaN]}"#) == #"{"id":"NaN","values":["NaN"]}"#)
    }
}

/// A Swift engine of exact springs behind ``BenchableEngine``, the calls the
/// bench makes: each spring moved by its exact transition over each frame.
/// It takes at most 100 animations at once, as engines with fixed pools
/// do, so that verify halves its batches.
private final class ExactSprings: BenchableEngine {
    static let name = "exact-swift"
    private var springs: [SpringParameters]
    private var offset: [Double]
    private var velocity: [Double]
    private let target: [Double]
    private var last = 0.0

    struct Refused: Error, CustomStringConvertible { var description: String }

    init(workload: BenchWorkload) throws {
        guard workload.count <= 100 else { throw Refused(description: "at most 100 animations") }
        guard let other = workload.animations.first(where: { $0.kind != .spring }) else {
            springs = workload.animations.map(\.spring)
            target = workload.animations.map(\.to)
            offset = zip(workload.initial, target).map { $0 - $1 }
            velocity = workload.animations.map(\.velocity)
            return
        }
        throw Refused(description: "springs only, not \(other.kind)")
    }

    func replace(_ index: Int, with animation: BenchAnimation) {}
    func retarget(_ index: Int, to target: Double) {}
    func tick(to time: Double) {
        for index in springs.indices {
            let step = SpringPropagator.exact(springs[index], time: time - last)
            (offset[index], velocity[index]) = (
                step.dd * offset[index] + step.dv * velocity[index], step.vd * offset[index] + step.vv * velocity[index]
            )
        }
        last = time
    }
    func value(_ index: Int) -> Double { offset[index] + target[index] }
    var running: Int { springs.count }
}

@Suite("Verifier: a Swift engine through the bench's calls")
struct BenchableVerificationTests {
    @Test(
        "a BenchableEngine verified as verify --engine-library runs a C engine: exact springs within GSL's own error, the other kinds refused, batches halved to the engine's size"
    )
    func benchable() throws {
        let set = try EngineCaseSet(
            grid: .quick, suites: [.spring, .decay], shard: VerificationShard(index: 1, count: 4))
        let report = try Verifier.run(
            engine: ExactSprings.self, on: set, tolerances: Tolerances(overrides: ["engine.spring": 1e-9]),
            namingSchemes: false)
        let measures = try #require(report.engineMeasures)
        #expect(report.engine == "exact-swift" && report.fault == nil)
        // Every spring answered (the grid's batches hold hundreds, halved
        // down to 100), every decay refused with the engine's reason.
        let springs = set.cases.filter { $0.kind == "spring" }.count
        #expect(measures.casesAnswered == springs && springs > 100, "\(measures.casesAnswered) of \(springs)")
        let refusal = try #require(measures.refusals?.first)
        #expect(refusal.suite == "decay" && refusal.message == "create refused it: springs only, not decay")
        // The exact transition frame after frame stays within GSL's own
        // error of the motion (1e-9 of the travel holds it with room: the
        // closed form's error is about 2.4e-11), starting springs moving.
        let error = try #require(report.rows.first { $0.suite == "spring" && $0.check == "error" })
        #expect(error.passed == true && error.value < 1e-9, "\(error.value)")
        #expect(set.cases.contains { if case .spring(let s) = $0.problem { s.velocity != 0 } else { false } })
    }
}

/// One step of semi-implicit Euler a frame (the velocity first, the damping
/// as a force), the commonest engine design; `regressed` updates the
/// position before the velocity instead (explicit Euler), as a bad change
/// to such an engine would.
private struct OneStepEuler: VerifiableEngine {
    var regressed = false

    func answer(_ engineCase: EngineCase) throws -> EngineAnswer {
        guard case .spring(let spring) = engineCase.problem else { throw CancellationError() }
        let p = spring.parameters
        var (x, v, last) = (spring.from, spring.velocity, 0.0)
        var values: [Double] = []
        for time in spring.times {
            let h = time - last
            let force = (-p.tension * (x - spring.to) - p.friction * v) / p.mass
            if regressed {
                x += v * h
                v += force * h
            } else {
                v += force * h
                x += v * h
            }
            last = time
            values.append(x)
        }
        return EngineAnswer(values: values)
    }
}

@Suite("Verifier: a region of the grid")
struct VerificationRegionTests {
    static let scheme = "velocity-first symplectic Euler, damping as a force, 1 step per frame"

    @Test(
        "a one-step Euler engine diverges on the grid's stiff springs, stays bounded inside its scheme's stability region, and a gate there at the error it shows fails on a real regression"
    )
    func gatedInItsRegion() throws {
        let whole = try EngineCaseSet(grid: .quick, suites: [.spring])
        let everywhere = try Verifier.run(
            OneStepEuler(), named: "euler", on: whole, tolerances: Tolerances(), namingSchemes: false)
        let wild = try #require(everywhere.rows.first { $0.check == "error" })
        // Diverged: growing without bound over the case, or overflowing to NaN.
        #expect(!(wild.value < 1e6), "the whole grid: \(wild.value)")

        #expect(VerificationRegion.schemeNames.contains(Self.scheme))
        let region = try VerificationRegion(frameRates: [60, 120], stableUnder: Self.scheme)
        let set = whole.restricted(to: region)
        #expect(set.cases.count < whole.cases.count / 3 && !set.cases.isEmpty, "\(set.cases.count)")
        let inside = try Verifier.run(OneStepEuler(), named: "euler", on: set, tolerances: Tolerances())
        let error = try #require(inside.rows.first { $0.check == "error" })
        // Stable there: bounded, though a step near the stability limit is
        // far from the exact motion (its phase runs off within the case).
        #expect(error.value.isFinite && error.value < 10, "inside the region: \(error.value)")
        #expect(inside.text.contains("Region: frame rates 60, 120; springs that \(Self.scheme) steps stably"))
        #expect(inside.engineMeasures?.casesAnswered == set.cases.count && inside.fault == nil)
        // The scheme row names the engine's scheme for most of its springs.
        let named = try #require(inside.rows.first { $0.check == "scheme at 60 Hz" })
        #expect(named.location.hasPrefix(Self.scheme), "\(named.location)")

        // Gated at the error it shows there (10% over): it passes, and a
        // regressed build (explicit Euler) fails in the same region.
        let gate = try Tolerances(overrides: ["engine.spring": error.value * 1.1])
        #expect(
            try Verifier.run(OneStepEuler(), named: "euler", on: set, tolerances: gate, namingSchemes: false).passed)
        let regressed = try Verifier.run(
            OneStepEuler(regressed: true), named: "euler", on: set, tolerances: gate, namingSchemes: false)
        #expect(!regressed.passed, "\(regressed.text)")
        // The region is kept in the measures, so that shards of two regions do not merge.
        #expect(inside.engineMeasures?.region == region)
    }

    @Test("a region's bad values are usage errors naming the accepted values")
    func badRegion() {
        #expect(throws: VerificationError.self) { try VerificationRegion(frameRates: [50]) }
        #expect(throws: VerificationError.self) { try VerificationRegion(dampingRatio: -1 ... 2) }
        #expect(throws: VerificationError.self) { try VerificationRegion(naturalFrequency: 0 ... .infinity) }
        #expect(throws: VerificationError.self) { try VerificationRegion(stableUnder: "Euler") }
    }
}
