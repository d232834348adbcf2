import Kinetics
import KineticsTestSupport
import Testing

@Suite("Frame clocks")
struct FrameClockTests {
    static func drain(_ clock: inout some FrameClock) -> [Double] {
        var times: [Double] = []
        while let time = clock.nextFrame() { times.append(time) }
        return times
    }

    @Test("a fixed rate gives k/fps up to the duration; a list gives its times")
    func manual() {
        var rate = ManualFrameClock(fps: 60, duration: 0.5)
        let times = Self.drain(&rate)
        #expect(times.count == 30 && times.first == 1.0 / 60 && times.last == 30.0 / 60)
        var list = ManualFrameClock(times: [0.1, 0.15, 0.4])
        #expect(Self.drain(&list) == [0.1, 0.15, 0.4])
    }

    @Test("jitter's random fractions need no 64-bit Int: the same doubles as 53 bits over 2^53, all in [0, 1)")
    func jitterFractionsOnAnyIntWidth() {
        // What the clock computed before, `Double(1 << 53)`, as a 32-bit
        // `Int` computes it: the shift leaves nothing, and every fraction
        // divided by it was infinite or NaN (wasm32, watchOS's arm64_32).
        #expect(Double(Int32(1) << 53) == 0)
        // The fraction now takes its scale from a `Double` literal; it must
        // equal the exact quotient (a power of two: no rounding) draw for
        // draw, so that the jittered frames are the same on 64 bits.
        var fractions = SplitMix64(seed: 5)
        var words = SplitMix64(seed: 5)
        for _ in 0 ..< 100_000 {
            let fraction = fractions.nextUnit()
            #expect(fraction == Double(words.next() >> 11) / 9_007_199_254_740_992)
            #expect(fraction >= 0 && fraction < 1)
        }
    }

    @Test("jitter: the same seed gives the same frames; frames move within the jitter and some are dropped")
    func jitter() {
        var a = ManualFrameClock.jittered(fps: 100, seed: 9, dropRate: 0.25, jitter: 0.3, duration: 20)
        var b = ManualFrameClock.jittered(fps: 100, seed: 9, dropRate: 0.25, jitter: 0.3, duration: 20)
        var c = ManualFrameClock.jittered(fps: 100, seed: 10, dropRate: 0.25, jitter: 0.3, duration: 20)
        let first = Self.drain(&a)
        #expect(first == Self.drain(&b))
        #expect(first != Self.drain(&c))
        // 2,000 frames, a quarter dropped: 1,500 ± 5 standard deviations (±97).
        #expect(abs(first.count - 1_500) < 100)
        #expect(zip(first, first.dropFirst()).allSatisfy { $0 < $1 })
        for time in first {
            let nearest = (time * 100).rounded()
            #expect(abs(time * 100 - nearest) <= 0.3 + 1e-9)
        }
        // The longest gap shows dropped frames.
        #expect(zip(first, first.dropFirst()).map { $1 - $0 }.max()! > 0.02)
    }

    @Test("the system clock ticks forward at frame boundaries and stops after its duration")
    func system() {
        var clock = SystemFrameClock(refreshRate: 200, duration: 0.05)
        let times = Self.drain(&clock)
        #expect(!times.isEmpty && times.count <= 10)
        #expect(zip(times, times.dropFirst()).allSatisfy { $0 < $1 })
        #expect(times.allSatisfy { $0 >= 0.005 - 1e-9 })
    }

    @Test("an animator runs on a clock until it runs out or is told to stop")
    func runOnClock() throws {
        let (animator, x) = animatorWithX()
        try animator.add(.basic(duration: 0.5, timing: .linear, from: 0, to: 1), to: x, forKey: "x")
        var clock = ManualFrameClock(fps: 60, duration: 10)
        animator.run(&clock) { $0.animationCount == 0 }
        #expect(animator.time == 0.5 && animator[x] == 1)
    }
}
