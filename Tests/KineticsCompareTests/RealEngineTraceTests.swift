import Foundation
import Kinetics
import KineticsCompare
import Testing

/// The traces recorded from real engines (scripts/record-engines.sh; the
/// engines' versions and the schemes their sources say they use are in
/// data/traces/README.md): `compare` names each engine's true scheme, and
/// nothing else is said to explain it.
@Suite("kinetics compare on traces recorded from real engines")
struct RealEngineTraceTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("data/traces/engines")

    /// What `compare` must say of the traces whose names start with
    /// `prefix`: the family it names (a prefix of its verdict), the engine
    /// it names, and the prefix every other explaining candidate shares
    /// (variants of the same computation), or "" where others explain it
    /// too but each at least 100 times farther than the named one.
    static let schemes: [(prefix: String, family: String, engine: String, variants: String)] = [
        (
            "chipmunk-spring",
            "position-first symplectic Euler, damping as an exponential factor e^(-c·h), 1 step per frame",
            "Chipmunk2D's DampedSpring", "position-first symplectic Euler, damping as an exponential factor"
        ),
        (
            "box2d-spring", "backward (implicit) Euler, 1 step per frame, single precision (float32)",
            "Box2D's soft distance joint", "backward (implicit) Euler"
        ),
        (
            "adwaita-spring", "exact closed form, time in whole milliseconds",
            "libadwaita's AdwSpringAnimation, among others",
            "exact closed form"
        ),
        (
            "chipmunk-decay",
            "position-first symplectic Euler, damping as an exponential factor e^(-λ·h), 1 step per frame",
            "Chipmunk2D's space damping", "position-first symplectic Euler, damping as an exponential factor"
        ),
        (
            "box2d-decay",
            "velocity-first symplectic Euler, damping as a linear factor (1 - λ·h), 1 step per frame, single precision",
            "Box2D 2.3's linear damping", "velocity-first symplectic Euler, damping as a linear factor"
        ),
        (
            "chromium-bezier", "Chromium's gfx::CubicBezier", "Chromium 156 and WebKitGTK 2.50, cubic-bezier() easing",
            "Chromium's gfx::CubicBezier"
        ),
        (
            "webkitgtk-bezier", "Chromium's gfx::CubicBezier", "Chromium 156 and WebKitGTK 2.50, cubic-bezier() easing",
            "Chromium's gfx::CubicBezier"
        ),
        (
            "firefox-bezier", "Servo's style::bezier (WebKit's solver on f32 control points) at ε = 1e-07",
            "Firefox 153 ESR, CSS and Web Animations easing", "Servo's style::bezier"
        ),
        (
            "qt-bezier", "Qt's QEasingCurve bezier spline", "Qt 5 and 6 (6.12 recorded), QEasingCurve::BezierSpline",
            "Qt's QEasingCurve"
        ),
        // GTK's values are float32 colors: the float noise bound lets the
        // solvers that are exact to 1e-7 in x explain them too, each some
        // 500 times farther from the trace than GTK's replica ("" below).
        ("gtk-bezier", "GTK's CSS cubic-bezier", "GTK 3 and 4 (4.8.3 recorded), CSS transitions and animations", ""),
        (
            "qtquick-spring",
            "velocity-first symplectic Euler, damping as a force, fixed steps of 16 ms, leftover carried, snapped",
            "Qt Quick's SpringAnimation, Qt 6.4",
            "velocity-first symplectic Euler, damping as a force, fixed steps of 16 ms"
        ),
    ]

    /// Firefox's SVG spline animations (`firefox-smil-bezier-*`): their
    /// values are floats, and Firefox's key-spline solver is exact to below
    /// a float on these curves, so the exact solvers explain them as well:
    /// the replica of `SMILKeySpline` must be among those that do.
    @Test("Firefox's SMIL key splines: its replica explains Firefox's own SVG values within their float noise")
    func firefoxKeySplines() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.folder.path).filter {
            $0.hasPrefix("firefox-smil-bezier-")
        }
        #expect(files.count == 5)
        for file in files {
            let name = file.replacingOccurrences(of: "firefox-smil-bezier-", with: "").replacingOccurrences(
                of: ".csv", with: "")
            let curve = try #require(Self.curves[name], "\(name)")
            let data = try Data(contentsOf: Self.folder.appendingPathComponent(file))
            let verdict = try #require(
                try Comparison.bezier(try MotionTrace.parse(data, columns: .curve), curve: curve).verdict)
            let replica = try #require(verdict.fits.first { $0.name.hasPrefix("Firefox's SMILKeySpline") })
            #expect(replica.explains, "\(file): \(replica.rms)")
            #expect(verdict.noise.singlePrecision, "\(file)")
        }
    }

    /// Every recorded trace with what `compare` must say of it.
    static let expected: [(file: String, family: String, engine: String, variants: String)] = {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return files.sorted().compactMap { file in
            schemes.first { file.hasPrefix($0.prefix) }.map { (file, $0.family, $0.engine, $0.variants) }
        }
    }()

    /// The spring of a file named `…-k300-c12…`.
    static func spring(_ file: String) throws -> SpringParameters {
        let numbers = file.replacingOccurrences(of: ".csv", with: "").split(separator: "-").compactMap {
            part -> Double? in
            guard let first = part.first, first == "k" || first == "c" else { return nil }
            return Double(part.dropFirst())
        }
        return try SpringParameters(tension: numbers[0], friction: numbers[1])
    }

    static let curves: [String: UnitBezier] = [
        "ease-in-out": .easeInEaseOut, "ease-out": .easeOut, "default": .default,
        "steep": try! UnitBezier(x1: 0.9, y1: 0, x2: 0.1, y2: 1),
        "overshoot": try! UnitBezier(x1: 0.3, y1: -0.4, x2: 0.6, y2: 1.5),
        "x2-one": try! UnitBezier(x1: 0.666, y1: 0, x2: 1, y2: 1),
    ]

    @Test("there are traces of every engine and toolkit")
    func recorded() {
        let files = Self.expected.map(\.file)
        for scheme in Self.schemes {
            #expect(files.contains { $0.hasPrefix(scheme.prefix) }, "no \(scheme.prefix) trace in \(Self.folder.path)")
        }
        #expect(files.count == 51)
    }

    @Test(
        "each trace gets its engine's scheme, and only variants of it explain the trace",
        arguments: expected.map(\.file))
    func namesTheEngine(file: String) throws {
        let expected = try #require(Self.expected.first { $0.file == file })
        let data = try Data(contentsOf: Self.folder.appendingPathComponent(file))
        let comparison: Comparison
        if file.contains("-bezier-") {
            let name = file.replacingOccurrences(of: #"^[a-z]+-bezier-"#, with: "", options: .regularExpression)
                .replacingOccurrences(of: #"(-\d+ms)?\.csv"#, with: "", options: .regularExpression)
            let curve = try #require(Self.curves[name], "\(name)")
            comparison = try Comparison.bezier(try MotionTrace.parse(data, columns: .curve), curve: curve)
        } else if file.contains("decay") {
            let trace = try MotionTrace.parse(data, columns: .motion)
            comparison = try Comparison.decay(
                trace, parameters: try DecayParameters(deceleration: 0.998), from: 0, velocity: 100)
        } else {
            // libadwaita's recorder logs milliseconds; the others seconds.
            var trace = try MotionTrace.parse(
                data, columns: .motion, timeDivisor: file.hasPrefix("adwaita") ? 1_000 : 1)
            // Qt Quick's recorder drove Qt's clock: its whole milliseconds
            // are exact (compare's --exact-times).
            if file.hasPrefix("qtquick") { trace.timeStep = 0 }
            comparison = try Comparison.spring(trace, parameters: try Self.spring(file), from: 0, to: 1, velocity: 0)
        }
        let verdict = try #require(comparison.verdict)
        let named = try #require(verdict.fits.first)
        #expect(named.explains, "\(file): \(verdict.sentence)")
        #expect(named.name.hasPrefix(expected.family), "\(file): \(named.name)")
        #expect(named.engine == expected.engine, "\(file): \(named.engine ?? "no engine")")
        for other in verdict.explaining.dropFirst() {
            if expected.variants.isEmpty {
                #expect(other.rms > 100 * named.rms, "\(file): \(other.name) comes as near as the named scheme")
            } else {
                #expect(other.name.hasPrefix(expected.variants), "\(file): \(other.name) is said to explain it too")
            }
        }
    }
}
