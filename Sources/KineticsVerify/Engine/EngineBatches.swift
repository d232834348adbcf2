import Foundation
import Kinetics
@_exported import KineticsEngine

/// An engine instance running a batch of cases, one animation each, in the
/// order of the batch's members: an engine library's (`verify
/// --engine-library`) or a Swift engine's (`BenchableEngine`).
package protocol BatchInstance {
    /// Advances every animation to `time` (seconds).
    func tick(_ time: Double)
    /// Member `index`'s value.
    func value(_ index: Int) -> Double
}

/// The answers of an engine that runs many animations at once to a set's
/// cases, run in batches: the cases of one kind whose frame times are
/// prefixes of one sequence (the grid's cases at one frame rate) are the
/// animations of one engine instance, ticked through the longest sequence
/// and read at every time, each case until its own last.
///
/// A spring case is a spring from its start to its target with its
/// velocity; a decay case a decay; a curve a basic animation from 0 to 1
/// over one second along the curve, read at its x values as times. Every
/// animation has rest threshold 0. When the engine refuses a batch of more
/// than one animation, the batch is halved and tried again (an engine may
/// take only so many at once); a case it refuses alone is a refusal, with
/// the engine's reason.
package struct EngineBatches {
    /// Answers by case id.
    package var answers: [String: EngineAnswer] = [:]
    /// Refusals by case id: the message.
    package var refusals: [String: String] = [:]

    /// Why an engine refused a batch.
    package struct Refusal: Error {
        package var reason: String
        package init(_ reason: String) { self.reason = reason }
    }

    /// The answers to `cases` of the instances `make` makes, one per batch
    /// (or half batch); `refuse` may refuse a whole batch before it is made
    /// (its message); `progress` is called with how many cases are answered
    /// or refused so far.
    package init(
        _ cases: [EngineCase], refuse: ([EngineCase]) -> String? = { _ in nil },
        make: ([EngineCase]) throws(Refusal) -> any BatchInstance, progress: (Int) -> Void = { _ in }
    ) {
        var done = 0
        for batch in Self.batches(cases) {
            let members = batch.members.map { cases[$0] }
            if let message = refuse(members) {
                for member in members { refusals[member.id] = message }
            } else {
                run(members[...], times: batch.times, make: make)
            }
            done += members.count
            progress(done)
        }
    }

    /// Runs `members` in one instance (halving on a refusal), ticked at `times`.
    private mutating func run(
        _ members: ArraySlice<EngineCase>, times: [Double], make: ([EngineCase]) throws(Refusal) -> any BatchInstance
    ) {
        let instance: any BatchInstance
        do {
            instance = try make(Array(members))
        } catch {
            guard members.count > 1 else {
                let reason = error.reason.isEmpty ? "create returned NULL without a reason" : error.reason
                refusals[members[members.startIndex].id] = "create refused it: \(reason)"
                return
            }
            let middle = members.startIndex + members.count / 2
            run(members[..<middle], times: times, make: make)
            run(members[middle...], times: times, make: make)
            return
        }
        // Longest first (see batches(_:)): the cases still being read are
        // always a prefix of the members.
        let counts = members.map(\.valueCount)
        var values = counts.map { count -> [Double] in
            var column: [Double] = []
            column.reserveCapacity(count)
            return column
        }
        var reading = members.count
        for (step, time) in times.enumerated() {
            while reading > 0 && counts[reading - 1] <= step { reading -= 1 }
            guard reading > 0 else { break }
            if step > 0 || time > 0 { instance.tick(time) }
            for member in 0 ..< reading { values[member].append(instance.value(member)) }
        }
        for (member, engineCase) in zip(values.indices, members) {
            answers[engineCase.id] = EngineAnswer(values: values[member])
        }
    }

    /// A batch: the cases of one kind whose times are prefixes of `times`,
    /// longest first.
    package struct Batch {
        package var times: [Double]
        package var members: [Int]
    }

    /// The batches of `cases`, in the order of each batch's first case.
    package static func batches(_ cases: [EngineCase]) -> [Batch] {
        var batches: [(kind: String, batch: Batch)] = []
        let longestFirst = cases.indices.sorted { cases[$0].valueCount > cases[$1].valueCount }
        for index in longestFirst {
            let engineCase = cases[index]
            let times = Self.times(engineCase)
            if let found = batches.firstIndex(where: {
                $0.kind == engineCase.kind && $0.batch.times.starts(with: times)
            }) {
                batches[found].batch.members.append(index)
            } else {
                batches.append((engineCase.kind, Batch(times: times, members: [index])))
            }
        }
        return batches.map(\.batch).sorted { $0.members.min()! < $1.members.min()! }
    }

    /// The times a case is read at: its frame times, or a curve's x values
    /// (a one-second animation).
    static func times(_ engineCase: EngineCase) -> [Double] {
        switch engineCase.problem {
        case .spring(let spring): spring.times
        case .decay(let decay): decay.times
        case .bezier(let bezier): bezier.x
        }
    }
}

// MARK: - Swift engines

/// A Swift engine running a batch.
private struct SwiftBatch: BatchInstance {
    let engine: any BenchableEngine

    func tick(_ time: Double) { engine.tick(to: time) }
    func value(_ index: Int) -> Double { engine.value(index) }
}

extension BenchAnimation {
    /// The animation that answers `engineCase` (rest threshold 0: it runs
    /// to the case's last time), and the value its property starts from.
    package static func answering(_ engineCase: EngineCase) -> (animation: BenchAnimation, start: Double) {
        switch engineCase.problem {
        case .spring(let spring):
            (
                BenchAnimation(kind: .spring, spring: spring.parameters, to: spring.to, velocity: spring.velocity),
                spring.from
            )
        case .decay(let decay):
            (BenchAnimation(kind: .decay, velocity: decay.velocity, deceleration: decay.parameters), decay.from)
        case .bezier(let bezier): (BenchAnimation(kind: .basic, to: 1, duration: 1, curve: bezier.curve), 0)
        }
    }
}

extension Verifier {
    /// Verifies the Swift engine `type` on the cases of `set` through the
    /// calls `kinetics bench` and `kinetics gate` make (`BenchableEngine`):
    /// the cases of one kind at one frame rate are one instance's
    /// animations, ticked through their times and read at each, as `verify
    /// --engine-library` runs a C engine. An `init` that throws refuses its
    /// batch, which is halved until the engine takes it; a case refused
    /// alone is reported as refused, with the error. The report is made as
    /// ``report(_:answers:refusals:engine:tolerances:fault:namingSchemes:jobs:start:progress:)``
    /// makes it, under `name` (default: the type's name).
    ///
    /// The instances run one after another, on the calling thread, as the
    /// bench runs them.
    ///
    /// - Throws: ``VerificationError/reference(_:)`` when GSL fails on a case.
    public static func run(
        engine type: any BenchableEngine.Type, named name: String? = nil, on set: EngineCaseSet, tolerances: Tolerances,
        namingSchemes: Bool = true, jobs: Int = ProcessInfo.processInfo.activeProcessorCount,
        progress: @escaping Progress = { _, _, _ in }
    ) throws -> VerificationReport {
        let start = Date()
        let cases = set.cases
        let batches = EngineBatches(cases) { members throws(EngineBatches.Refusal) in
            let made = members.map(BenchAnimation.answering)
            let workload = BenchWorkload(
                initial: made.map(\.start), animations: made.map(\.animation), keyframes: Self.noKeyframes)
            do {
                return SwiftBatch(engine: try type.init(workload: workload))
            } catch {
                throw EngineBatches.Refusal("\(error)")
            }
        } progress: {
            progress("engine", $0, cases.count)
        }
        return try report(
            set, answers: batches.answers, refusals: batches.refusals, engine: name ?? type.name,
            tolerances: tolerances, fault: nil, namingSchemes: namingSchemes, jobs: jobs, start: start,
            progress: progress)
    }

    /// The keyframe track of a workload without keyframe animations.
    private static let noKeyframes = try! Keyframes<Double>(values: [0], duration: 1)
}
