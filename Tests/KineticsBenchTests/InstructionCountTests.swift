import Testing

@testable import KineticsBench

/// Reading callgrind's output: the events, the totals with their trailing
/// zeros left out, and the estimate of cycles.
@Suite("Bench: instruction counts from callgrind's output")
struct InstructionCountTests {
    @Test("totals per frame and per animation, misses summed, cycles estimated, trailing zeros read as 0")
    func parse() throws {
        let text = """
            version: 1
            creator: callgrind-3.19.0
            events: Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw
            fn=(1) frame
            summary: 69546540 31564680 4226460 97 960314 1068 2
            totals: 69546540 31564680 4226460 97 960314 1068 2
            """
        let count = try #require(
            InstructionCount.parse(callgrindOutput: text, frames: 210, animations: 10_000, valgrind: "valgrind-3.19.0"))
        let instructions: Double = 69_546_540
        let l1: Double = 97 + 960_314 + 1_068
        let frames: Double = 210
        #expect(count.instructionsPerFrame == instructions / frames)
        #expect(count.instructionsPerAnimation == instructions / frames / 10_000)
        #expect(count.l1MissesPerFrame == l1 / frames)
        #expect(count.lastLevelMissesPerFrame == 2 / frames)
        let cycles: Double = instructions + 10 * l1 + 100 * 2
        #expect(count.estimatedCyclesPerFrame == cycles / frames)
        // Without the cache simulation: instructions alone.
        let plain = try #require(
            InstructionCount.parse(
                callgrindOutput: "events: Ir\ntotals: 4200\n", frames: 2, animations: 7, valgrind: "v"))
        #expect(plain.instructionsPerFrame == 2_100 && plain.l1MissesPerFrame == 0)
        // Nothing counted, more totals than events, no frames: nil.
        #expect(InstructionCount.parse(callgrindOutput: "events: Ir\n", frames: 2, animations: 1, valgrind: "v") == nil)
        #expect(
            InstructionCount.parse(
                callgrindOutput: "events: Ir\ntotals: 1 2\n", frames: 2, animations: 1, valgrind: "v") == nil)
        #expect(
            InstructionCount.parse(callgrindOutput: "events: Ir\ntotals: 1\n", frames: 0, animations: 1, valgrind: "v")
                == nil)
    }

    @Test("the frames counted: every measured one, or one event frame a repetition")
    func frames() {
        let steady = BenchConfiguration(engine: .batch, animations: 10, frames: 30, repetitions: 7)
        #expect(InstructionCount.countedFrames(steady) == 210)
        var completion = steady
        completion.scenario = .massCompletion
        #expect(InstructionCount.countedFrames(completion) == 7)
    }
}
