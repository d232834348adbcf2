import Kinetics
import KineticsBench
import KineticsVerify

/// The answers of an engine in a shared library (`kinetics verify
/// --engine-library`, the C interface of `kinetics_engine.h`) to a set's
/// cases, in batches as ``EngineBatches`` runs them (one instance per
/// batch, halved on a refusal). A version 1 library cannot start a spring
/// moving, so its spring cases are refused unless every one starts at rest.
struct LibraryAnswers {
    /// Answers by case id.
    var answers: [String: EngineAnswer] = [:]
    /// Refusals by case id: the message.
    var refusals: [String: String] = [:]

    /// The answers of `library`'s engine to `cases`, in batches
    /// (``EngineBatches``); `progress` is called with how many cases are
    /// answered or refused so far.
    init(_ cases: [EngineCase], library: EngineLibrary, progress: (Int) -> Void) {
        let batches = EngineBatches(
            cases,
            refuse: { members in
                guard library.version < 2, case .spring = members[0].problem,
                    let moving = members.first(where: { Self.startVelocity($0) != 0 })
                else { return nil }
                return
                    "an engine library of interface version 1 starts springs at rest, and case \(moving.id) starts with velocity \(Self.startVelocity(moving)); build it against kinetics_engine.h version 2"
            },
            make: { members throws(EngineBatches.Refusal) in
                do throws(EngineCreateError) {
                    return LibraryBatch(instance: try library.instance(members.map(Self.animation)))
                } catch {
                    throw EngineBatches.Refusal(error.reason)
                }
            }, progress: progress)
        (answers, refusals) = (batches.answers, batches.refusals)
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

/// An engine library's instance running a batch; each tick is marked for
/// the watchdog of a verify worker.
private struct LibraryBatch: BatchInstance {
    let instance: EngineInstance

    func tick(_ time: Double) {
        FrameWatchdog.mark()
        instance.tick(time)
    }

    func value(_ index: Int) -> Double { instance.value(index) }
}
