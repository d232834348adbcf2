import Foundation
import Kinetics
import Testing

@testable import KineticsBench

/// A Swift engine through `BenchableEngine`: driven as the C engines are,
/// checked against GSL, and refused with its reason.
@Suite("Bench: Swift engines")
struct SwiftEngineTests {
    /// Pop's reference model behind the protocol: the same frames as the
    /// `reference` engine, so its values must be that engine's exactly.
    final class Wrapped: BenchableEngine {
        static let name = "wrapped-reference"
        private let inner: MeasuredEngine
        private var frame = 0
        private(set) var replaced: [Int] = []
        private(set) var retargeted = 0

        init(workload: BenchWorkload) throws {
            inner = makeBuiltInEngine(
                BenchConfiguration(engine: .reference, animations: workload.count, mix: .spring))
        }

        func replace(_ index: Int, with animation: BenchAnimation) { replaced.append(index) }
        func retarget(_ index: Int, to target: Double) { retargeted += 1 }
        func tick(to time: Double) {
            inner.frame(frame, at: time)
            frame += 1
        }
        func value(_ index: Int) -> Double { inner.sampleValues(index + 1)[index] }
        var running: Int { inner.running }
    }

    final class Refusing: BenchableEngine {
        static let name = "refusing"
        struct NoSprings: Error, CustomStringConvertible {
            var description: String { "no springs here" }
        }
        init(workload: BenchWorkload) throws { throw NoSprings() }
        func replace(_ index: Int, with animation: BenchAnimation) {}
        func retarget(_ index: Int, to target: Double) {}
        func tick(to time: Double) {}
        func value(_ index: Int) -> Double { 0 }
        var running: Int { 0 }
    }

    final class Misnamed: BenchableEngine {
        static let name = "batch"
        init(workload: BenchWorkload) throws {}
        func replace(_ index: Int, with animation: BenchAnimation) {}
        func retarget(_ index: Int, to target: Double) {}
        func tick(to time: Double) {}
        func value(_ index: Int) -> Double { 0 }
        var running: Int { 0 }
    }

    @Test("a registered Swift engine is made, driven and checked like any other")
    func registered() throws {
        let engine = try BenchEngine.register(Wrapped.self)
        #expect(engine.rawValue == "wrapped-reference" && !engine.isBuiltIn)
        #expect(BenchEngine.registered.contains(engine))
        let configuration = BenchConfiguration(engine: engine, animations: 100, mix: .spring)
        let result = try BenchRunner.measure(configuration)
        #expect(result.configuration.engine == engine && result.p50 > 0)
        // It is Pop's model: its values are the reference engine's, to the bit.
        let check = try #require(result.valueCheck)
        let reference = try #require(
            try BenchRunner.checkValues(BenchConfiguration(engine: .reference, animations: 100, mix: .spring)))
        #expect(check == reference)
        // Churn replaces through the protocol; a storm retargets every spring.
        let churn = try makeEngine(BenchConfiguration(engine: engine, animations: 100, scenario: .churn))
        churn.frame(0, at: 0)
        churn.frame(1, at: 1.0 / 60)
        let wrapped = try #require((churn as? SwiftEngine)?.engine as? Wrapped)
        #expect(wrapped.replaced == Array(0 ..< 20))
    }

    @Test("create's error and a taken or malformed name are refused, each naming the engine")
    func refused() throws {
        try BenchEngine.register(Refusing.self)
        #expect {
            try BenchRunner.measure(BenchConfiguration(engine: BenchEngine(rawValue: "refusing")!, animations: 10))
        } throws: { error in
            (error as? BenchError)?.description == "refusing: create failed: no springs here"
        }
        #expect {
            try BenchEngine.register(Misnamed.self)
        } throws: { error in
            "\(error)".contains("its engine is named 'batch', which is a built-in engine's name")
        }
        #expect(throws: BenchError.self) {
            try BenchRunner.measure(BenchConfiguration(engine: BenchEngine(rawValue: "nowhere")!, animations: 10))
        }
    }
}
