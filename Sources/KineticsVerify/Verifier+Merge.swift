import Foundation

extension Verifier {
    /// Combines the reports of the shards of one engine run into the report
    /// the whole run would have given: the measures of every case gathered
    /// in grid order and the rows computed from them again, held to the
    /// gates the shards were held to. A fault in a shard is kept (the first,
    /// naming its shard).
    ///
    /// - Throws: ``VerificationError/usage(_:)`` unless the reports are
    ///   engine runs of the same engine, grid, suites and gates, and their
    ///   shards are 1 … n of the same n, each once.
    public static func merge(_ reports: [VerificationReport]) throws(VerificationError) -> VerificationReport {
        guard let first = reports.first else { throw .usage("merge needs the reports of a run's shards") }
        // A whole run (not a shard: Verifier.run in a package's tests, or
        // verify without --shard) merged with nothing is itself.
        if reports.count == 1 && first.engineMeasures?.shard == nil && first.methodMeasures?.shard == nil {
            return first
        }
        if first.methodMeasures != nil { return try mergeMethods(reports) }
        var parts: [(shard: VerificationShard, measures: EngineMeasures, fault: EngineFault?)] = []
        for (index, report) in reports.enumerated() {
            guard let measures = report.engineMeasures, let shard = measures.shard else {
                throw .usage(
                    "report \(index + 1) is not a shard of an engine run (verify --engine-command … --shard i/n)")
            }
            let firstMeasures = first.engineMeasures!
            try sameRun(
                index, report, first, shards: (shard, firstMeasures.shard),
                [
                    difference("engine", measures.engine, firstMeasures.engine),
                    difference("gates", measures.gates, firstMeasures.gates),
                    difference("region", measures.region, firstMeasures.region),
                    difference(
                        "scheme naming", measures.schemesNamed ?? true, firstMeasures.schemesNamed ?? true),
                ])
            parts.append((shard, measures, report.fault))
        }
        try checkComplete(parts.map(\.shard))
        let (grid, suites) = try gridAndSuites(first)
        var merged = EngineMeasures(
            engine: parts[0].measures.engine, shard: nil, gates: parts[0].measures.gates,
            casesAsked: parts.map(\.measures.casesAsked).reduce(0, +),
            casesAnswered: parts.map(\.measures.casesAnswered).reduce(0, +))
        merged.region = parts[0].measures.region
        var refusals: [EngineRefusal] = []
        for refusal in parts.sorted(by: { $0.shard.index < $1.shard.index }).flatMap({ $0.measures.refusals ?? [] }) {
            if let index = refusals.firstIndex(where: { $0.suite == refusal.suite }) {
                refusals[index].cases += refusal.cases
            } else {
                refusals.append(refusal)
            }
        }
        merged.refusals = refusals.isEmpty ? nil : refusals
        merged.schemesNamed = parts[0].measures.schemesNamed
        merged.springs = parts.flatMap(\.measures.springs).sorted { $0.position < $1.position }
        merged.decays = parts.flatMap(\.measures.decays).sorted { $0.position < $1.position }
        merged.curves = parts.flatMap(\.measures.curves).sorted { $0.position < $1.position }
        let fault = parts.sorted { $0.shard.index < $1.shard.index }.first { $0.fault != nil }.map { part in
            EngineFault(part.fault!.kind, "shard \(part.shard): \(part.fault!.message)")
        }
        return report(
            merged, grid: grid, suites: suites, tolerances: try Tolerances(overrides: merged.gates), fault: fault,
            seconds: reports.map(\.seconds).reduce(0, +))
    }

    /// Merges shards of a run of Kinetics' own methods.
    private static func mergeMethods(_ reports: [VerificationReport]) throws(VerificationError) -> VerificationReport {
        let first = reports[0]
        let firstMeasures = first.methodMeasures!
        var shards: [VerificationShard] = []
        for (index, report) in reports.enumerated() {
            guard let measures = report.methodMeasures, let shard = measures.shard else {
                throw .usage("report \(index + 1) is not a shard of a run of Kinetics' methods (verify --shard i/n)")
            }
            try sameRun(
                index, report, first, shards: (shard, firstMeasures.shard),
                [
                    difference("methods", measures.methods, firstMeasures.methods),
                    difference("tolerances", measures.overrides, firstMeasures.overrides),
                ])
            shards.append(shard)
        }
        try checkComplete(shards)
        let (grid, suites) = try gridAndSuites(first)
        let parts = reports.map { $0.methodMeasures! }
        var merged = MethodMeasures(shard: nil, methods: firstMeasures.methods, overrides: firstMeasures.overrides)
        merged.springs = parts.flatMap(\.springs).sorted { $0.position < $1.position }
        merged.samples = parts.flatMap(\.samples).sorted { $0.position < $1.position }
        merged.decays = parts.flatMap(\.decays).sorted { $0.position < $1.position }
        merged.curves = parts.flatMap(\.curves).sorted { $0.position < $1.position }
        merged.conversions = parts.compactMap(\.conversions).first
        var report = report(
            merged, grid: grid, suites: suites, tolerances: try Tolerances(overrides: merged.overrides))
        report.seconds = reports.map(\.seconds).reduce(0, +)
        return report
    }

    /// Throws unless report `index` is of the same run as the first: the
    /// same grid, suites and number of shards, and no `differences`.
    private static func sameRun(
        _ index: Int, _ report: VerificationReport, _ first: VerificationReport,
        shards: (VerificationShard, VerificationShard?), _ differences: [String?]
    ) throws(VerificationError) {
        let all =
            [
                difference("grid", report.grid, first.grid), difference("suites", report.suites, first.suites),
                difference("shards", shards.0.count, shards.1?.count ?? 0),
            ] + differences
        let found = all.compactMap { $0 }
        guard found.isEmpty else {
            throw .usage("report \(index + 1) is of another run than report 1: \(found.joined(separator: ", "))")
        }
    }

    /// `grid full vs quick`, or nil when the two are equal.
    private static func difference<Value: Equatable>(_ name: String, _ value: Value, _ first: Value) -> String? {
        value == first ? nil : "\(name) \(value) vs \(first)"
    }

    /// Shards 1 … n of one n, each once.
    private static func checkComplete(_ shards: [VerificationShard]) throws(VerificationError) {
        let count = shards[0].count
        let indices = shards.map(\.index)
        if let twice = Set(indices).first(where: { index in indices.count { $0 == index } > 1 }) {
            throw .usage("shard \(twice)/\(count) is given twice")
        }
        let missing = (1 ... count).filter { !indices.contains($0) }
        guard missing.isEmpty else {
            throw .usage(
                "the shards are incomplete: \(missing.map { "\($0)/\(count)" }.joined(separator: ", ")) missing")
        }
    }

    private static func gridAndSuites(
        _ report: VerificationReport
    ) throws(VerificationError) -> (VerificationGrid, [VerificationSuite]) {
        guard let grid = VerificationGrid(rawValue: report.grid) else {
            throw .usage("report 1 names an unknown grid '\(report.grid)'")
        }
        let suites = try report.suites.map { name throws(VerificationError) in
            guard let suite = VerificationSuite(rawValue: name) else {
                throw .usage("report 1 names an unknown suite '\(name)'")
            }
            return suite
        }
        return (grid, suites)
    }
}
