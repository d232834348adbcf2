import Foundation
import Kinetics
import Testing

/// The parameterisations of other engines, each against its formula written
/// out here from the engine's source, or against a second formula that must
/// give the same spring.
@Suite("Spring and decay parameters in other engines' forms")
struct EngineParameterTests {
    /// `a` within `relative` of `b`, relative to |b|.
    static func near(_ a: Double, _ b: Double, _ relative: Double = 1e-13) -> Bool {
        abs(a - b) <= relative * abs(b)
    }

    @Test(
        "Origami tension and friction: Rebound's default (40, 7) is tension 230.2, friction 22; the inverse returns them"
    )
    func origamiDefault() throws {
        let spring = try SpringParameters(origamiTension: 40, origamiFriction: 7)
        // (40 - 30)·3.62 + 194 and (7 - 8)·3 + 25; 3.62 is not a double, so 1e-15 of rounding.
        #expect(Self.near(spring.tension, 230.2, 1e-15) && spring.friction == 22 && spring.mass == 1, "\(spring)")
        let back = spring.origamiTensionAndFriction
        #expect(Self.near(back.tension, 40) && Self.near(back.friction, 7), "\(back)")
    }

    @Test(
        "Pop's bounciness and speed are Origami values by the same line: Pop's spring equals the Origami spring of its QC values",
        arguments: [(4.0, 12.0), (0, 0.5), (12, 5), (20, 20), (34, 3)])
    func popIsOrigami(bounciness: Double, speed: Double) throws {
        // Pop's 194 + (qcTension - 30)/50·(375 - 194) is (qcTension - 30)·3.62 + 194, and
        // 25 + (qcFriction - 8)/2·(25 - 19) is (qcFriction - 8)·3 + 25: equal but for rounding.
        let pop = try SpringParameters(bounciness: bounciness, speed: speed)
        let origami = pop.origamiTensionAndFriction
        let again = try SpringParameters(origamiTension: origami.tension, origamiFriction: origami.friction)
        #expect(
            Self.near(again.tension, pop.tension, 1e-12) && abs(again.friction - pop.friction) <= 1e-12 * pop.tension)
    }

    @Test("Origami values whose tension is not positive or whose friction is negative are refused, naming the value")
    func origamiRange() {
        #expect(throws: ParameterError.self) { try SpringParameters(origamiTension: -24, origamiFriction: 7) }
        do {
            _ = try SpringParameters(origamiTension: 40, origamiFriction: -1)
            Issue.record("friction (-1 - 8)·3 + 25 = -2 was accepted")
        } catch {
            #expect(error.parameter == "origamiFriction" && error.value == -1, "\(error)")
        }
        // At 8 - 25/3 the friction is 0 (to rounding): an undamped spring.
        #expect((try? SpringParameters(origamiTension: 40, origamiFriction: 8 - 25.0 / 3 + 1e-12)) != nil)
    }

    @Test("stiffness with a damping ratio: ζ comes back, and the damping is 2ζ√(km)", arguments: [0.0, 0.3, 1, 2.5])
    func dampingRatio(ratio: Double) throws {
        let spring = try SpringParameters(stiffness: 1500, dampingRatio: ratio, mass: 0.5)
        #expect(Self.near(spring.friction, 2 * ratio * (1500 * 0.5).squareRoot()) || ratio == 0 && spring.friction == 0)
        #expect(abs(spring.dampingRatio - ratio) <= 1e-15 * max(1, ratio), "\(spring.dampingRatio)")
        #expect(throws: ParameterError.self) { try SpringParameters(stiffness: 1500, dampingRatio: -0.1) }
    }

    @Test(
        "Motion's visual duration: ω₀ = 2π/(1.2·visualDuration), ζ = 1 − bounce clamped to [0.05, 1]",
        arguments: [(0.3, 0.3, 0.7), (0.5, 0, 1), (1.2, 0.25, 0.75), (0.3, 1.5, 0.05), (0.3, -2, 1)])
    func motionVisualDuration(visualDuration: Double, bounce: Double, ratio: Double) throws {
        let spring = try SpringParameters(motionVisualDuration: visualDuration, bounce: bounce)
        #expect(Self.near(spring.naturalFrequency, 2 * Double.pi / (1.2 * visualDuration)))
        #expect(Self.near(spring.dampingRatio, ratio, 1e-14) && spring.mass == 1, "\(spring.dampingRatio)")
    }

    @Test(
        "Motion's duration, underdamped: Newton's ω₀ is the closed form ln(ζ/(0.001·√(1−ζ²)))/(ζT) to 1e-12, from 10 ms to 10 s",
        arguments: [0.05, 0.2, 0.3, 0.5, 0.8, 0.95])
    func motionDurationUnderdamped(bounce: Double) throws {
        let ratio = 1 - bounce
        for duration in [0.01, 0.1, 0.3, 0.8, 2, 10] {
            let spring = try SpringParameters(motionDuration: duration, bounce: bounce)
            let root = log(ratio / (0.001 * (1 - ratio * ratio).squareRoot())) / (ratio * duration)
            #expect(
                Self.near(spring.naturalFrequency, root, 1e-12),
                "bounce \(bounce), duration \(duration): \(spring.naturalFrequency) against \(root)")
            #expect(Self.near(spring.dampingRatio, ratio, 1e-14))
        }
    }

    @Test(
        "Motion's duration, critically damped (bounce <= 0): e^(−ω₀T)(ω₀T + 1) = 0.001 to 1e-15; durations past 10 s are 10 s",
        arguments: [0.0, -0.5])
    func motionDurationCritical(bounce: Double) throws {
        for duration in [0.01, 0.3, 0.8, 4, 10] {
            let spring = try SpringParameters(motionDuration: duration, bounce: bounce)
            let x = spring.naturalFrequency * duration
            #expect(abs(exp(-x) * (x + 1) - 0.001) <= 1e-15, "duration \(duration): ω₀T = \(x)")
            #expect(Self.near(spring.dampingRatio, 1, 1e-15))
        }
        #expect(
            try SpringParameters(motionDuration: 25, bounce: bounce)
                == SpringParameters(motionDuration: 10, bounce: bounce))
    }

    @Test("a decay's rate, time constant and Android fling friction give the deceleration e^(−λ/1000)")
    func decayForms() throws {
        #expect(Self.near(try DecayParameters(rate: 2).deceleration, exp(-0.002)))
        #expect(Self.near(try DecayParameters(rate: 2).rate, 2, 1e-12))
        #expect(Self.near(try DecayParameters(timeConstant: 0.325).rate, 1 / 0.325, 1e-12))
        #expect(Self.near(try DecayParameters(flingFriction: 1).rate, 4.2, 1e-12))
        // Pop's 0.998 is the rate -1000·ln 0.998 ≈ 2.002.
        #expect(Self.near(try DecayParameters(rate: DecayParameters.popDefault.rate).deceleration, 0.998, 1e-15))
        for bad in [0.0, -1, .infinity, .nan, 1e6] {
            #expect(throws: ParameterError.self, "rate \(bad)") { try DecayParameters(rate: bad) }
        }
        #expect(throws: ParameterError.self) { try DecayParameters(timeConstant: 1e-7) }
        #expect(throws: ParameterError.self) { try DecayParameters(flingFriction: 0) }
    }

    @Test(
        "fields: each set resolves alone; a field shared by two sets needs one partner; two sets, or a mass where it is fixed, are refused",
        arguments: [
            (["stiffness": 100, "dampingRatio": 0.5], nil),
            (["stiffness": 100, "damping": 10, "mass": 2], nil),
            (["motionDuration": 0.8, "bounce": 0.3], nil),
            (["motionVisualDuration": 0.3, "bounce": 0.3], nil),
            (["duration": 0.5, "bounce": 0.3, "mass": 2], nil),
            (["origamiTension": 40, "origamiFriction": 7], nil),
            (["stiffness": 100], SpringFields.Problem.incomplete(field: "stiffness", partner: "damping")),
            (["bounce": 0.3], .incomplete(field: "bounce", partner: "duration")),
            (
                ["stiffness": 100, "damping": 10, "dampingRatio": 0.5],
                .twoSets(["stiffness", "damping"], ["stiffness", "dampingRatio"])
            ),
            (
                ["motionDuration": 0.8, "duration": 0.5, "bounce": 0.3],
                .twoSets(["duration", "bounce"], ["motionDuration", "bounce"])
            ),
            (
                ["tension": 100, "friction": 10, "origamiTension": 40],
                .twoSets(["tension", "friction"], ["origamiTension", "origamiFriction"])
            ),
            (
                ["origamiTension": 40, "origamiFriction": 7, "mass": 2],
                .parameter(
                    ParameterError(
                        parameter: "mass", value: 2,
                        accepted:
                            "left out with origamiTension/origamiFriction (Rebound and React Native fix the mass of an Origami spring at 1)"
                    ))
            ),
            (["bounciness": 4, "speed": 12, "mass": 2], .massWithBounciness),
        ] as [([String: Double], SpringFields.Problem?)])
    func fields(values: [String: Double], problem: SpringFields.Problem?) {
        var fields = SpringFields()
        for (name, value) in values { fields[name] = value }
        do {
            _ = try fields.resolve()
            #expect(problem == nil, "\(values) resolved, but must be refused with \(String(describing: problem))")
        } catch {
            #expect(error == problem, "\(values)")
        }
    }

    @Test("every field name is a field of one set or the mass, and every set's fields are names")
    func fieldNames() {
        #expect(Set(SpringFields.names) == Set(SpringFields.sets.joined()).union(["mass"]))
        #expect(SpringFields.names.count == Set(SpringFields.names).count)
    }
}
