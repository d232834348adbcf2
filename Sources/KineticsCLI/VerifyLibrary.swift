import Kinetics
import KineticsBench
import KineticsVerify

/// The answers of an engine in a shared library (`kinetics verify
/// --engine-library`, the C interface of `kinetics_engine.h`) to a set's
/// cases, run in batches: the cases of one kind whose frame times are
/// prefixes of one sequence (the grid's cases at one frame rate) are the
/// animations of one engine instance, ticked through the longest sequence
/// and read at every time, each case until its own last.
///
/// A spring case is a spring from its start to its target with its
/// velocity; a decay case a decay; a curve a basic animation from 0 to 1
/// over one second along the curve, read at its x values as times. Every
/// animation has rest threshold 0. When the engine's create refuses a batch
/// of more than one animation, the batch is halved and tried again (an
/// engine may take only so many at once); a case it refuses alone is a
/// refusal, with create's reason. A version 1 library cannot start a spring
/// moving, so its spring cases are refused unless every one starts at rest.
struct LibraryAnswers {
    /// Answers by case id.
    var answers: [String: EngineAnswer] = [:]
    /// Refusals by case id: the message.
    var refusals: [String: String] = [:]

    /// The answers of `library`'s engine to `cases`; `progress` is called
    /// with how many cases are answered or refused so far.
    init(_ cases: [EngineCase], library: EngineLibrary, progress: (Int) -> Void) {
        var done = 0
        for batch in Self.batches(cases) {
            let members = batch.members.map { cases[$0] }
            if library.version < 2, case .spring = members[0].problem,
                let moving = members.first(where: { Self.startVelocity($0) != 0 })
            {
                let message =
                    "an engine library of interface version 1 starts springs at rest, and case \(moving.id) starts with velocity \(Self.startVelocity(moving)); build it against kinetics_engine.h version 2"
                for member in members { refusals[member.id] = message }
            } else {
                run(members[...], times: batch.times, library: library)
            }
            done += members.count
            progress(done)
        }
    }

    /// Runs `members` in one instance (halving on a refusal), ticked at `times`.
    private mutating func run(_ members: ArraySlice<EngineCase>, times: [Double], library: EngineLibrary) {
        let instance: EngineInstance
        do {
            instance = try library.instance(members.map(Self.animation))
        } catch {
            guard members.count > 1 else {
                let reason = error.reason.isEmpty ? "create returned NULL without a reason" : error.reason
                refusals[members[members.startIndex].id] = "create refused it: \(reason)"
                return
            }
            let middle = members.startIndex + members.count / 2
            run(members[..<middle], times: times, library: library)
            run(members[middle...], times: times, library: library)
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
            if step > 0 || time > 0 {
                FrameWatchdog.mark()
                instance.tick(time)
            }
            for member in 0 ..< reading { values[member].append(instance.value(member)) }
        }
        for (member, engineCase) in zip(values.indices, members) {
            answers[engineCase.id] = EngineAnswer(values: values[member])
        }
    }

    /// A batch: the cases of one kind whose times are prefixes of `times`,
    /// longest first.
    struct Batch {
        var times: [Double]
        var members: [Int]
    }

    /// The batches of `cases`, in the order of each batch's first case.
    static func batches(_ cases: [EngineCase]) -> [Batch] {
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

    /// The animation that answers `engineCase`.
    static func animation(_ engineCase: EngineCase) -> LibraryAnimation {
        switch engineCase.problem {
        case .spring(let spring):
            .spring(spring.parameters, from: spring.from, to: spring.to, velocity: spring.velocity)
        case .decay(let decay): .decay(decay.parameters, from: decay.from, velocity: decay.velocity)
        case .bezier(let bezier): .basic(bezier.curve, from: 0, to: 1, duration: 1)
        }
    }

    private static func startVelocity(_ engineCase: EngineCase) -> Double {
        if case .spring(let spring) = engineCase.problem { spring.velocity } else { 0 }
    }
}
