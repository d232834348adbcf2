import Foundation
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

    @Test("a bezier method's count: the calls into its function, summed over call sites, named or compressed")
    func bezierCalls() throws {
        // Shaped as callgrind writes it: a function named once with its id,
        // then by id alone; each `calls=` line followed by the call's
        // position and inclusive events; self costs and other callees between.
        let methods = BezierBench.countedFunctions
        var text = """
            events: Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw
            fn=(1) $s13KineticsBench06BezierB0O7measureSaySdGyF
            5 100
            """
        for (index, (_, name)) in methods.enumerated() {
            let id = 10 + index
            text += """

                cfn=(\(id)) $s13KineticsBench06\(name)0A00cE0V_SaySdGSrySdGtFZ
                calls=16 0
                +3 \(1_000 * (index + 1)) 0 0 8
                cfn=(\(id))
                calls=8 0
                * \(500 * (index + 1)) 0 0 4 0 0 1
                """
        }
        text += """

            cfn=(99) $s8Kinetics11BezierTableV5solveyS2dF
            calls=4 0
            0 777777
            fn=(10)
            2 31
            """
        let counts = try #require(BezierBench.instructions(callgrindOutput: text, samples: 10, valgrind: "v"))
        #expect(counts.map(\.method) == methods.map(\.method))
        for (index, count) in counts.enumerated() {
            #expect(count.evaluations == 240)
            #expect(count.instructionsPerEvaluation == Double(1_500 * (index + 1)) / 240)
            #expect(count.l1MissesPerEvaluation == 12.0 / 240)
            #expect(count.lastLevelMissesPerEvaluation == 1.0 / 240)
            #expect(count.estimatedCyclesPerEvaluation == (Double(1_500 * (index + 1)) + 120 + 100) / 240)
        }
        // A method's function that is not called: no counts.
        let withoutLast = text.replacingOccurrences(of: methods.last!.name, with: "Renamed")
        #expect(BezierBench.instructions(callgrindOutput: withoutLast, samples: 10, valgrind: "v") == nil)
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
