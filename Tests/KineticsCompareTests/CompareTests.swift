import Foundation
import Kinetics
import KineticsCompare
import KineticsReference
import KineticsTestSupport
import Testing

/// Plain steppers, written here independently of KineticsCompare's, that
/// make the traces the comparison must recognise.
enum PlainSpring {
    case exact, rk4, euler, semiImplicitEuler, verlet

    /// Values at `times` from 0 → 1 for stiffness k, damping c (mass 1).
    func trace(k: Double, c: Double, times: [Double], substeps: Int = 1) throws -> [Double] {
        if self == .exact {
            return try ReferenceODE.spring(
                tension: k, friction: c, mass: 1, displacement: -1, velocity: 0, times: times
            )
            .map { 1 + $0.position }
        }
        var x = 0.0
        var v = 0.0
        var last = 0.0
        func a(_ x: Double, _ v: Double) -> Double { k * (1 - x) - c * v }
        return times.map { time in
            let h = (time - last) / Double(substeps)
            last = time
            for _ in 0 ..< substeps where h > 0 {
                switch self {
                case .rk4:
                    let (k1x, k1v) = (v, a(x, v))
                    let (k2x, k2v) = (v + h / 2 * k1v, a(x + h / 2 * k1x, v + h / 2 * k1v))
                    let (k3x, k3v) = (v + h / 2 * k2v, a(x + h / 2 * k2x, v + h / 2 * k2v))
                    let (k4x, k4v) = (v + h * k3v, a(x + h * k3x, v + h * k3v))
                    x += h / 6 * (k1x + 2 * k2x + 2 * k3x + k4x)
                    v += h / 6 * (k1v + 2 * k2v + 2 * k3v + k4v)
                case .euler:
                    (x, v) = (x + h * v, v + h * a(x, v))
                case .semiImplicitEuler:
                    v += h * a(x, v)
                    x += h * v
                case .verlet:
                    // Kick, drift, kick, the velocity updated in place.
                    v += h / 2 * a(x, v)
                    x += h * v
                    v += h / 2 * a(x, v)
                case .exact:
                    break
                }
            }
            return x
        }
    }
}

@Suite("kinetics compare: metrics and naming the scheme")
struct CompareTests {
    static let k = 300.0
    static let c = 12.0
    static var spring: SpringParameters { try! SpringParameters(tension: k, friction: c, mass: 1) }

    enum Clock: String, CaseIterable, CustomTestStringConvertible {
        case hz60, hz120, jittered
        var testDescription: String { rawValue }
        var times: [Double] {
            switch self {
            case .hz60: return frameTimes(fps: 60, seconds: 1.5, from: 1)
            case .hz120: return frameTimes(fps: 120, seconds: 1.5, from: 1)
            case .jittered:
                var random = SplitMix64(seed: 11)
                var time = 0.0
                return (0 ..< 120).map { _ in
                    time += Double.random(in: 0.004 ... 0.025, using: &random)
                    return time
                }
            }
        }
    }

    /// `values` at `times`, as an engine that prints nine decimals records
    /// them (the comparison reads the noise from the digits).
    static func trace(_ values: [Double], times: [Double]) -> MotionTrace {
        MotionTrace(
            samples: zip(times, values).map { time, value in
                MotionTrace.Sample(time: time, value: (value * 1e9).rounded() / 1e9)
            })
    }

    @Test(
        "each plainly written scheme is named on its own trace, at 60 Hz, 120 Hz and jittered, printed to nine decimals",
        arguments: Clock.allCases)
    func namesTheScheme(clock: Clock) throws {
        let times = clock.times
        let cases: [(PlainSpring, Int, String)] = [
            (.exact, 1, "exact closed form"),
            (.rk4, 1, "RK4, 1 step per frame"),
            (.rk4, 4, "RK4, 4 steps per frame"),
            (.euler, 8, "explicit Euler, damping as a force, 8 steps per frame"),
            (.semiImplicitEuler, 1, "velocity-first symplectic Euler, damping as a force, 1 step per frame"),
            (.semiImplicitEuler, 2, "velocity-first symplectic Euler, damping as a force, 2 steps per frame"),
            (.verlet, 1, "velocity Verlet, 1 step per frame"),
        ]
        for (scheme, substeps, name) in cases {
            let values = try scheme.trace(k: Self.k, c: Self.c, times: times, substeps: substeps)
            let comparison = try Comparison.spring(
                Self.trace(values, times: times), parameters: Self.spring, from: 0, to: 1, velocity: 0)
            let verdict = try #require(comparison.verdict)
            #expect(
                comparison.scheme == name, "\(clock) \(name): \(verdict.fits.prefix(3).map { "\($0.name) \($0.rms)" })")
            // The noise is read from the nine decimals: 1e-9/√12.
            #expect(abs(verdict.noise.deviation - 1e-9 / 12.0.squareRoot()) < 1e-12, "\(verdict.noise.source)")
            // No other family comes within the noise: each explaining
            // candidate is a variant of the named scheme.
            for fit in verdict.explaining.dropFirst() {
                #expect(
                    fit.name.hasPrefix(name.components(separatedBy: ", ")[0]) || scheme == .exact,
                    "\(clock) \(name): \(fit.name)")
            }
        }
    }

    @Test("times printed in milliseconds to 3 decimals are noise of 1e-6 s, as in seconds to 6 decimals")
    func millisecondsRounded() throws {
        let times = Clock.hz60.times
        let values = try PlainSpring.semiImplicitEuler.trace(k: Self.k, c: Self.c, times: times, substeps: 4)
        func read(_ unit: Double, _ decimals: Int) throws -> MotionTrace {
            let rows = zip(times, values).map { String(format: "%.\(decimals)f,", $0 * unit) + "\($1)" }
            let csv = "time,value\n" + rows.joined(separator: "\n") + "\n"
            return try MotionTrace.parse(Data(csv.utf8), columns: .motion, timeDivisor: unit)
        }
        let seconds = try read(1, 6)
        let milliseconds = try read(1_000, 3)
        // 16.667 / 1000 reads as 0.016666999999999998: the step is the file's.
        #expect(seconds.timeStep == 1e-6 && abs(milliseconds.timeStep! - 1e-6) < 1e-21)
        for trace in [seconds, milliseconds] {
            let comparison = try Comparison.spring(trace, parameters: Self.spring, from: 0, to: 1, velocity: 0)
            #expect(
                comparison.scheme == "velocity-first symplectic Euler, damping as a force, 4 steps per frame",
                "\(comparison.scheme ?? "none"); \(comparison.verdict?.noise.source ?? "")")
            #expect(comparison.verdict?.noise.source.hasPrefix("times printed to a step of 1e-06") == true)
        }
    }

    @Test(
        "Kinetics' own pop and fixed modes are recognised as Pop's scheme and the blended grid",
        arguments: Clock.allCases)
    func popRecognised(clock: Clock) throws {
        let times = clock.times
        for (method, name) in [
            (SpringMethod.pop, "RK4 on a 1 ms grid with Pop's fraction feedback"),
            (.fixed, "RK4 on a 1 ms grid, blended (no feedback)"),
        ] {
            let values = SpringStepper(parameters: Self.spring, method: method, value: 0.0, target: 1.0)
                .values(at: times, start: 0)
            let comparison = try Comparison.spring(
                Self.trace(values, times: times), parameters: Self.spring, from: 0, to: 1, velocity: 0)
            #expect(
                comparison.scheme?.hasPrefix(name) == true,
                "\(clock): \(comparison.verdict!.fits.prefix(3).map(\.name))")
        }
    }

    @Test(
        "Pop's time scale is fitted near 0.98 at 60 Hz and 0.97 at 120 Hz with its lag apart; exact traces fit 1 and no lag"
    )
    func timeScale() throws {
        // Pop loses (1 - α)·1 ms per frame; fitted with the lag read from the
        // motion's start (a fraction of a frame), the scale is 0.986 at 60 Hz
        // and 0.972 at 120 Hz.
        for (fps, expected) in [(60.0, 0.986), (120.0, 0.972)] {
            let times = frameTimes(fps: fps, seconds: 1.5, from: 1)
            let values = SpringStepper(parameters: Self.spring, method: .pop, value: 0.0, target: 1.0)
                .values(at: times, start: 0)
            let comparison = try Comparison.spring(
                Self.trace(values, times: times), parameters: Self.spring, from: 0, to: 1, velocity: 0)
            #expect(abs(comparison.timeScale! - expected) < 0.003, "\(fps) Hz: \(comparison.timeScale!)")
            #expect(abs(comparison.lag!) < 1 / fps, "\(fps) Hz: lag \(comparison.lag!)")
            #expect(comparison.maxError > 1e-3, "Pop's drift is visible at \(fps) Hz")
        }
        let times = Clock.hz60.times
        let exact = try PlainSpring.exact.trace(k: Self.k, c: Self.c, times: times)
        let comparison = try Comparison.spring(
            Self.trace(exact, times: times), parameters: Self.spring, from: 0, to: 1, velocity: 0)
        #expect(abs(comparison.timeScale! - 1) < 1e-7 && abs(comparison.lag!) < 1e-7)
        #expect(comparison.maxError < 1e-8)
        // Settling: the exact trace enters the 1e-3 band within a frame of the exact time.
        let settling = try #require(comparison.settling)
        #expect(abs(settling.trace! - settling.exact) <= 1.0 / 60 + 1e-12)
    }

    @Test(
        "a gap of 1e6 s between samples: bounded work, Pop's shutdown at its target, Euler-type candidates ranked last")
    func longGap() throws {
        let trace = MotionTrace(samples: [
            .init(time: 0, value: 0), .init(time: 0.05, value: 0.3), .init(time: 1e6, value: 1),
        ])
        let comparison = try Comparison.spring(trace, parameters: Self.spring, from: 0, to: 1, velocity: 0)
        let fits = try #require(comparison.verdict).fits
        let pop = try #require(fits.first { $0.name == "RK4 on a 1 ms grid with Pop's fraction feedback" })
        #expect(pop.max < 0.3, "Pop ends at its target after a frame over 30 s")
        // Steps of 1 ms over 1e6 s would be 1e9 of them: such candidates give
        // up (NaN) and rank last.
        let perMillisecond = fits.filter { $0.name.contains("steps of at most 1 ms") && !$0.name.hasPrefix("RK4") }
        #expect(perMillisecond.count >= 8 && perMillisecond.allSatisfy { $0.rms == .infinity })
        #expect(comparison.maxError.isFinite)
    }

    @Test("a trace no candidate made is said to be unexplained")
    func unexplained() throws {
        let times = Clock.hz60.times
        // The exact motion of a different spring (10% stiffer).
        let values = try PlainSpring.exact.trace(k: Self.k * 1.1, c: Self.c, times: times)
        let comparison = try Comparison.spring(
            Self.trace(values, times: times), parameters: Self.spring, from: 0, to: 1, velocity: 0)
        #expect(
            comparison.scheme?.hasPrefix("no candidate explains this trace; nearest: ") == true,
            "\(comparison.scheme ?? "")")
        #expect(comparison.verdict!.explaining.isEmpty)
    }

    enum PlainDecay: CaseIterable {
        case discrete, continuous, singlePrecision

        /// The name `compare` gives this law.
        var name: String {
            switch self {
            case .discrete: "discrete law v·d^(1000t), double precision"
            case .continuous: "continuous law v·e^(-λt)"
            case .singlePrecision: "discrete law in single precision (Pop)"
            }
        }

        /// The law from 0 with velocity `v`, deceleration `d`, written plainly.
        func values(v: Double, d: Double, times: [Double]) -> [Double] {
            switch self {
            case .discrete:
                return times.map { v / 1_000 * d * (1 - pow(d, 1_000 * $0)) / (1 - d) }
            case .continuous:
                let rate = -1_000 * log(d)
                return times.map { v / rate * (1 - exp(-rate * $0)) }
            case .singlePrecision:
                // Pop's frame in Float: velocity per ms times powf(d, ms), distance d(1 - kv)/(1 - d).
                var x = 0.0
                var velocity = v
                var last = 0.0
                return times.map { time in
                    let ms = Float((time - last) * 1_000)
                    last = time
                    let kv = powf(Float(d), ms)
                    let kx = Float(d * Double(1 - kv) / (1 - d))
                    let v0 = Float(velocity / 1_000)
                    velocity = Double(v0 * kv) * 1_000
                    x += Double(v0 * kx)
                    return x
                }
            }
        }
    }

    @Test("decay laws written plainly: each is named on its own trace", arguments: Clock.allCases)
    func decays(clock: Clock) throws {
        let parameters = try DecayParameters(deceleration: 0.998)
        for law in PlainDecay.allCases {
            let values = law.values(v: 1_500, d: 0.998, times: clock.times)
            let trace = MotionTrace(samples: zip(clock.times, values).map { .init(time: $0, value: $1) })
            let comparison = try Comparison.decay(trace, parameters: parameters, from: 0, velocity: 1_500)
            #expect(
                comparison.scheme?.hasPrefix(law.name) == true,
                "\(clock) \(law): \(comparison.verdict!.fits.prefix(3).map(\.name))")
        }
    }

    @Test("bezier: a trace of the precise solver is within 1e-12; webkit's at Pop's tolerance is not within 1e-6")
    func bezier() throws {
        let curve = UnitBezier.easeInEaseOut
        let xs = (0 ... 1_000).map { Double($0) / 1_000 }
        func trace(_ method: BezierMethod) -> MotionTrace {
            MotionTrace(samples: xs.map { .init(time: $0, value: curve.solve($0, method: method, epsilon: 1.0 / 400)) })
        }
        let precise = try Comparison.bezier(trace(.precise), curve: curve)
        #expect(precise.maxError < 1e-12 && precise.scheme == "exact to rounding")
        let webkit = try Comparison.bezier(trace(.webkit), curve: curve)
        #expect(webkit.maxError > 1e-6)
        #expect(webkit.scheme == "WebKit's UnitBezier at ε = 1/(1000·0.4 s) in x (Pop)", "\(webkit.scheme ?? "")")
    }

    @Test(
        "CSV as users write it: CRLF (Python's csv module), a byte-order mark, quotes, spaces, no final newline",
        arguments: [
            "time,value,velocity\r\n0.0,0.0,0.0\r\n0.0166,0.25,12.5\r\n0.0333,0.5,10.0\r\n",
            "\u{FEFF}time,value,velocity\n0.0,0.0,0.0\n0.0166,0.25,12.5\n0.0333,0.5,10.0\n",
            "\"time\",\"value\",\"velocity\"\n\"0.0\",\"0.0\",\"0.0\"\n\"0.0166\",0.25,\"12.5\"\n0.0333,0.5,10.0",
            "time , value, velocity\n 0.0 ,0.0, 0.0\n0.0166,\t0.25 ,12.5\n\n0.0333,0.5,10.0",
            "time,value,velocity\r\n0.0,0.0,0.0\r\n0.0166,0.25,12.5\r\n0.0333,0.5,10.0",
        ])
    func csvAsWritten(text: String) throws {
        let trace = try MotionTrace.parse(Data(text.utf8), columns: .motion)
        #expect(
            trace.samples == [
                .init(time: 0, value: 0, velocity: 0), .init(time: 0.0166, value: 0.25, velocity: 12.5),
                .init(time: 0.0333, value: 0.5, velocity: 10),
            ])
    }

    @Test("a trace written by Python's csv module reads as Python wrote it")
    func pythonCSV() throws {
        let folder = try temporaryFolder("kinetics-python")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("trace.csv")
        let script = """
            import csv, sys
            with open(sys.argv[1], "w", newline="", encoding="utf-8-sig") as f:
                w = csv.writer(f)
                w.writerow(["time", "value", "comment"])
                for k in range(61):
                    w.writerow([k / 60, 1 - 0.5 ** k, "frame, " + str(k)])
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script, file.path]
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let data = try Data(contentsOf: file)
        #expect(data.starts(with: [0xEF, 0xBB, 0xBF]) && data.contains(0x0D), "a byte-order mark and CRLF line ends")
        let trace = try MotionTrace.parse(data, columns: .motion)
        #expect(trace.samples.count == 61)
        #expect(trace.samples[60].time == 1 && trace.samples[1].value == 0.5)
    }

    @Test("parsing: CSV with any column order and a velocity column, JSON, milliseconds; errors name the line")
    func parsing() throws {
        let csv = "value,time,velocity\n0,0,0\n0.5,16.7,10\n\n0.75,33.3,5\n"
        // Times in milliseconds; velocities per second, as they are.
        let trace = try MotionTrace.parse(Data(csv.utf8), columns: .motion, timeDivisor: 1_000)
        let expected: [MotionTrace.Sample] = [
            .init(time: 0, value: 0, velocity: 0), .init(time: 16.7 / 1_000, value: 0.5, velocity: 10),
            .init(time: 33.3 / 1_000, value: 0.75, velocity: 5),
        ]
        #expect(trace.samples == expected)
        // Velocities per millisecond, as asked.
        let perMillisecond = try MotionTrace.parse(
            Data(csv.utf8), columns: .motion, timeDivisor: 1_000, velocityScale: 1_000)
        #expect(perMillisecond.samples.map(\.velocity) == [0, 10_000, 5_000])
        let json = #"[{"time": 0, "value": 0}, {"time": 0.1, "value": 1}]"#
        #expect(try MotionTrace.parse(Data(json.utf8), columns: .motion).samples.count == 2)
        let bad: [(String, String)] = [
            ("time,value\n0,0\n0.1,x\n", "line 3: value 'x' is not a number"),
            ("time,value\n0,0\n0,1\n", "line 3: time 0.0 is not after the previous time 0.0"),
            ("time,value\n0,0\n0.1\n", "line 3: has 1 fields; the header has 2"),
            ("t,v\n0,0\n", "line 1: the header must name the columns time and value, got 't,v'"),
            ("time,value\n0,0\n", "the file: has 1 samples; a trace needs at least 2"),
            ("time,value\n0,0\n0.1,inf\n", "line 3: value inf is not finite"),
            (#"[{"time": 0, "value": 0}, {"time": 0.1}]"#, "sample 1: needs numbers for time and value"),
            ("time,value\r\n0,0\r\n0.1,x\r\n", "line 3: value 'x' is not a number"),
            // A quoted field with a line break in it: the next row starts a line later.
            ("time,value,note\n0,0,\"a\nb\"\n0.1,y,c\n", "line 4: value 'y' is not a number"),
            ("", "the file: is empty"),
            // An hour is the latest time: 1e9 s would run the reference for
            // seconds before GSL's driver gives up.
            (
                "time,value\n0,0\n1e9,1\n",
                "line 3: time 1000000000.0 s is past 3600 s, the latest a trace may hold (times in milliseconds need --time-unit ms)"
            ),
        ]
        // Text that is not UTF-8, a JSON object, a column named twice.
        let notTraces: [(Data, String)] = [
            (
                Data([0xFF, 0xFE]) + Data("time,value\n".utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }),
                "the file: is UTF-16 text (it starts with UTF-16's byte-order mark); save it as UTF-8"
            ),
            (
                Data("time,value\n0,0\n".utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }),
                "the file: holds a NUL byte at byte 1: not UTF-8 text (UTF-16 without a byte-order mark, or a binary file)"
            ),
            (Data([0x74, 0x69, 0xC3, 0x28]), "the file: is not UTF-8 text (an invalid byte after 2 characters)"),
            (
                Data(#"{"time": [0, 1], "value": [0, 1]}"#.utf8),
                #"the file: is a JSON object; a trace in JSON is an array of samples, [{"time": 0, "value": 0}, …]"#
            ),
            (Data("time,value,time\n0,0,1\n0.1,1,2\n".utf8), "line 1: the header names the column time more than once"),
        ]
        for (data, message) in notTraces {
            do {
                _ = try MotionTrace.parse(data, columns: .motion)
                Issue.record("\(message): read as a trace")
            } catch {
                #expect(error.description == message)
            }
        }
        // A velocity that only its unit makes infinite is refused after the unit.
        #expect(throws: TraceError.self) {
            try MotionTrace.parse(
                Data("time,value,velocity\n0,0,1e306\n0.1,1,0\n".utf8), columns: .motion, velocityScale: 1_000)
        }
        #expect(try MotionTrace.parse(Data("time,value\n0,0\n3600,1\n".utf8), columns: .motion).samples.count == 2)
        for (text, message) in bad {
            #expect(throws: TraceError.self) { try MotionTrace.parse(Data(text.utf8), columns: .motion) }
            do {
                _ = try MotionTrace.parse(Data(text.utf8), columns: .motion)
            } catch {
                #expect(error.description == message)
            }
        }
    }

    @Test(
        "a recording that never moved (stuck at its start, then at its target) names no scheme, and a moving one still does"
    )
    func stillTraces() throws {
        let spring = try SpringParameters(tension: 300, friction: 12)
        let times = (0 ... 60).map { Double($0) / 60 }
        func compared(_ values: [Double]) throws -> Comparison {
            try Comparison.spring(
                MotionTrace(samples: zip(times, values).map { .init(time: $0, value: $1) }), parameters: spring,
                from: 0, to: 1, velocity: 0)
        }
        let stuck = try compared(times.map { $0 < 0.5 ? 0 : 1 })
        #expect(stuck.verdict?.explained == false && stuck.verdict?.fits.isEmpty == true)
        #expect(
            stuck.scheme
                == "no scheme is named: the trace never moves between its start 0.0 and its target 1.0 (it only jumps from one to the other), so every scheme explains it alike",
            "\(stuck.scheme ?? "")")
        let still = try compared(times.map { _ in 0 })
        #expect(still.scheme?.hasPrefix("no scheme is named: the trace never moves from its start 0.0") == true)
        // One sample off the two values is motion: the candidates are ranked.
        var moved = times.map { $0 < 0.5 ? 0.0 : 1.0 }
        moved[30] = 0.5
        #expect(try compared(moved).verdict?.fits.isEmpty == false)
        let decay = try Comparison.decay(
            MotionTrace(samples: times.map { .init(time: $0, value: 2) }), parameters: .popDefault, from: 2,
            velocity: 1_000)
        #expect(decay.scheme?.hasPrefix("no scheme is named: the trace never moves from its start 2.0") == true)
    }
}
