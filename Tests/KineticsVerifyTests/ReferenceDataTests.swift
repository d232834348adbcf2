import Foundation
import Kinetics
import KineticsVerify
import Testing

/// The shipped reference files against a fresh GSL run and against the solvers.
@Suite("Reference data")
struct ReferenceDataTests {
    static let folder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("data/reference")

    static func stored(_ name: String) throws -> (header: String, rows: [[Double]]) {
        let text = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
        return try ReferenceData.parse(text)
    }

    @Test("a fresh GSL run reproduces every shipped file to 1e-13 of its scale")
    func freshRunMatches() throws {
        let files = try ReferenceData.files()
        #expect(files.count == 16)
        for file in files {
            let fresh = try ReferenceData.parse(file.contents)
            let old = try Self.stored(file.name)
            #expect(fresh.header == old.header, "\(file.name)")
            #expect(fresh.rows.count == old.rows.count, "\(file.name)")
            for (a, b) in zip(fresh.rows, old.rows) {
                for (x, y) in zip(a, b) {
                    // Same GSL, same inputs: equal, or within a libm ulp or two.
                    #expect(abs(x - y) <= 1e-13 * max(1, abs(y)), "\(file.name): \(x) vs \(y)")
                }
            }
        }
        let readme = try String(contentsOf: Self.folder.appendingPathComponent("README.md"), encoding: .utf8)
        for file in files { #expect(readme.contains(file.name)) }
    }

    @Test("the analytic spring matches every shipped trajectory to 1e-12 of the amplitude")
    func analyticMatchesStoredSprings() throws {
        for entry in ReferenceData.springs {
            let spring = try SpringParameters(tension: entry.tension, friction: entry.friction, mass: entry.mass)
            let rows = try Self.stored("spring-\(entry.name).csv").rows
            let amplitude = rows.map { abs($0[1]) }.max()!
            for row in rows {
                let state = SpringPropagator.exact(spring, time: row[0]).apply(
                    displacement: -1.0, velocity: entry.velocity)
                #expect(abs(state.displacement - row[1]) <= 1e-12 * amplitude, "\(entry.name) at \(row[0])")
            }
        }
    }

    @Test("the continuous decay matches every shipped trajectory to 1e-12 of the throw")
    func continuousDecayMatchesStored() throws {
        for entry in ReferenceData.decays {
            let parameters = try DecayParameters(deceleration: entry.deceleration)
            let rows = try Self.stored("decay-\(entry.name).csv").rows
            let values = DecayStepper(
                parameters: parameters, method: .continuous, value: 0.0, velocity: entry.velocity
            ).values(at: rows.map { $0[0] })
            let scale = abs(parameters.totalThrow(velocity: entry.velocity, method: .continuous))
            for (row, value) in zip(rows, values) {
                #expect(abs(value - row[1]) <= 1e-12 * scale, "\(entry.name) at \(row[0])")
            }
        }
    }

    @Test("the precise bezier matches every shipped table to 1e-12 where x(t) is not flat")
    func preciseMatchesStoredCurves() throws {
        for entry in ReferenceData.curves {
            let curve = try UnitBezier(x1: entry.curve[0], y1: entry.curve[1], x2: entry.curve[2], y2: entry.curve[3])
            for row in try Self.stored("bezier-\(entry.name).csv").rows where curve.dxdt(at: row[1]) >= 1e-3 {
                let uncertainty = abs(curve.dydt(at: row[1])) * 4 * Double.ulpOfOne / curve.dxdt(at: row[1])
                #expect(abs(curve.solvePrecise(row[0]) - row[2]) <= 1e-12 + uncertainty, "\(entry.name) at \(row[0])")
            }
        }
    }
}
