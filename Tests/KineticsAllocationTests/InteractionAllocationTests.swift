import Kinetics
import KineticsAllocations
import KineticsTestSupport
import Testing

@testable import KineticsBench

/// Frames with interaction allocate nothing once the engine has grown:
/// every frame counted on its own, with the bench's own workloads.
@Suite("Animator and batches: allocations under churn, retarget storms and mass completion")
struct InteractionAllocationTests {
    /// Frames run before counting: three full rounds of churn (a tenth of
    /// the animations replaced per frame), so every table has grown.
    static let growthFrames = 30
    /// The last frame: 400 frames (6.7 s) reach the late events of churn,
    /// when replaced springs have come to rest at their targets and begin
    /// to finish quietly, or to be added already at rest. (Two allocations
    /// hid there, in frames 320–360: box pools and the list of a first
    /// frame's finishes growing late. A gate at p90 let them through.)
    static let frames = 400

    /// Animations of a counted run: 2,000 at full size (CI), 500 otherwise
    /// (a tenth of them still replaced per frame, over the same frames);
    /// fewer under AddressSanitizer, which counts nothing and checks every
    /// access (nor does it need the warm-up run, which is there for the
    /// counts).
    static let animations = sanitized ? 250 : sized(500, full: 2_000)

    @Test("the bench counts allocations in the test process (not under AddressSanitizer)")
    func benchCounts() {
        #expect(BenchRunner.countsAllocations == !sanitized)
    }

    @Test(
        "every frame of churn and of a retarget storm allocates nothing once grown",
        arguments: [BenchEngine.animator, .batch], [BenchMix.spring, .mixed, .keyframe])
    func interaction(engine: BenchEngine, mix: BenchMix) {
        for scenario in [BenchScenario.churn, .retargetStorm] {
            // A first, small run over the same frames warms the runtime's
            // lazy state (generic metadata that paths taken late instantiate
            // once, in unoptimised builds); then every frame of a second run
            // is counted on its own.
            func run(_ animations: Int, counting: Bool) -> [(frame: Int, allocations: Int)] {
                let configuration = BenchConfiguration(
                    engine: engine, animations: animations, mix: mix, scenario: scenario)
                let running = makeBuiltInEngine(configuration)
                let times = Workload(configuration).frameTimes(Self.frames)
                var allocating: [(frame: Int, allocations: Int)] = []
                for frame in times.indices {
                    guard counting && frame >= Self.growthFrames else {
                        running.frame(frame, at: times[frame])
                        continue
                    }
                    let allocations = AllocationCounter.count { running.frame(frame, at: times[frame]) }
                    if allocations != 0 { allocating.append((frame, allocations)) }
                }
                #expect(running.running > 0, "\(engine) \(mix) \(scenario): animations still run")
                return allocating
            }
            if !sanitized { _ = run(200, counting: false) }
            let allocating = run(Self.animations, counting: true)
            #expect(allocating.isEmpty, "\(engine) \(mix) \(scenario): frames that allocated \(allocating)")
        }
    }

    @Test(
        "the frame in which every animation finishes allocates nothing, and neither do the frames before it",
        arguments: [BenchEngine.animator, .batch], [BenchMix.spring, .mixed])
    func massCompletion(engine: BenchEngine, mix: BenchMix) {
        // A first, small run through its completion warms the runtime's lazy
        // state (generic metadata that the removal paths instantiate once);
        // then every frame of a second run is counted, the completing one
        // included.
        func run(_ animations: Int, counting: Bool) -> (frames: Int, allocating: [(frame: Int, allocations: Int)]) {
            let configuration = BenchConfiguration(
                engine: engine, animations: animations, mix: mix, scenario: .massCompletion)
            let running = makeBuiltInEngine(configuration)
            let times = Workload(configuration).frameTimes(Int(configuration.fps * 30))
            var allocating: [(frame: Int, allocations: Int)] = []
            var frame = 0
            while running.running > 0 && frame < times.count {
                let index = frame
                if counting {
                    let allocations = AllocationCounter.count { running.frame(index, at: times[index]) }
                    if allocations != 0 { allocating.append((frame, allocations)) }
                } else {
                    running.frame(index, at: times[index])
                }
                frame += 1
            }
            #expect(running.running == 0, "\(engine) \(mix): every animation finished")
            return (frame, allocating)
        }
        if !sanitized { _ = run(50, counting: false) }
        let measured = run(Self.animations, counting: true)
        #expect(measured.frames > 10, "\(engine) \(mix): the completion came after some steady frames")
        #expect(measured.allocating.isEmpty, "\(engine) \(mix): frames that allocated \(measured.allocating)")
    }
}
