import Foundation
import Kinetics
import KineticsCompare
import KineticsInput
import KineticsReference

/// The reference data shipped in `data/reference/`: a few GSL trajectories
/// and bezier tables, written by `kinetics reference`, that the tests compare
/// both the solvers and a fresh GSL run against, so that a change in the
/// reference itself is caught.
public enum ReferenceData {
    /// A file of the reference set.
    public struct File: Sendable, Equatable {
        /// The file name, for example `spring-pop-default.csv`.
        public let name: String
        /// What the file holds, in words.
        public let description: String
        /// The CSV text.
        public let contents: String
    }

    /// A spring trajectory of the set: released at displacement -1 (from 0
    /// towards 1) with `velocity`, sampled at 60 Hz for `seconds`.
    public struct SpringEntry: Sendable {
        /// The file's name, without `.csv`.
        public let name: String
        /// The spring's tension.
        public let tension: Double
        /// The spring's friction.
        public let friction: Double
        /// The spring's mass.
        public let mass: Double
        /// The release velocity.
        public let velocity: Double
        /// How long the trajectory is sampled, in seconds.
        public let seconds: Double
    }

    /// The springs: Pop's default, light and heavy damping, both sides of
    /// critical damping within 1e-9, ζ = 500, and a heavy thrown spring.
    public static let springs: [SpringEntry] = [
        SpringEntry(
            name: "pop-default", tension: SpringParameters.popDefault.tension,
            friction: SpringParameters.popDefault.friction, mass: 1, velocity: 0, seconds: 2),
        SpringEntry(name: "light-damping", tension: 400, friction: 0.8, mass: 1, velocity: 0, seconds: 5),
        SpringEntry(
            name: "critical-minus-1e-9", tension: 225, friction: 30 * (1 - 1e-9), mass: 1, velocity: 5, seconds: 2),
        SpringEntry(
            name: "critical-plus-1e-9", tension: 225, friction: 30 * (1 + 1e-9), mass: 1, velocity: 5, seconds: 2),
        SpringEntry(name: "zeta-500", tension: 100, friction: 10_000, mass: 1, velocity: 0, seconds: 5),
        SpringEntry(name: "heavy-thrown", tension: 900, friction: 60, mass: 10, velocity: -40, seconds: 3),
    ]

    /// The decays: Pop's default, a fast one and a slow one, in continuous time.
    public static let decays: [(name: String, deceleration: Double, velocity: Double)] = [
        ("pop-default", DecayParameters.popDefault.deceleration, 1_000), ("fast-negative", 0.99, -20_000),
        ("slow", 0.9999, 1),
    ]

    /// The curves: the named ones and two awkward ones.
    public static let curves: [(name: String, curve: [Double])] =
        UnitBezier.named.map { ($0.name, [$0.curve.x1, $0.curve.y1, $0.curve.x2, $0.curve.y2]) }
        + [("overshoot", [0.34, 1.56, 0.64, 1]), ("flat-middle", [1, 0, 0, 1])]

    /// GSL's samples of the reference motion `name`; a failure becomes a
    /// ``VerificationError`` naming it.
    private static func gsl(_ name: String, _ samples: () throws -> [ReferenceSample]) throws -> [ReferenceSample] {
        do {
            return try samples()
        } catch {
            throw VerificationError.reference("GSL failed on the reference \(name): \(error)")
        }
    }

    /// Every file, computed now with GSL.
    ///
    /// - Throws: ``VerificationError`` when GSL fails.
    public static func files() throws -> [File] {
        var files: [File] = []
        /// A trajectory's file: `time,POSITION,velocity` at 60 Hz.
        func motion(
            _ name: String, _ description: String, position: String, seconds: Double,
            _ trajectory: ([Double]) throws -> [ReferenceSample]
        ) throws -> File {
            let samples = try gsl(name) {
                try trajectory(frameTimes(fps: 60, seconds: seconds))
            }
            return File(
                name: "\(name).csv", description: description,
                contents: csv("time,\(position),velocity", samples.map { [$0.time, $0.position, $0.velocity] }))
        }
        for entry in springs {
            files.append(
                try motion(
                    "spring-\(entry.name)",
                    "spring tension \(entry.tension), friction \(entry.friction), mass \(entry.mass), displacement -1, velocity \(entry.velocity), 60 Hz",
                    position: "displacement", seconds: entry.seconds
                ) { times in
                    try ReferenceODE.spring(
                        tension: entry.tension, friction: entry.friction, mass: entry.mass, displacement: -1,
                        velocity: entry.velocity, times: times)
                })
        }
        for entry in decays {
            files.append(
                try motion(
                    "decay-\(entry.name)",
                    "continuous decay, deceleration \(entry.deceleration), velocity \(entry.velocity), 60 Hz",
                    position: "position", seconds: 3
                ) { times in
                    try ReferenceODE.decay(
                        deceleration: entry.deceleration, position: 0, velocity: entry.velocity, times: times)
                })
        }
        for entry in curves {
            let reference = ReferenceBezier(
                x1: entry.curve[0], y1: entry.curve[1], x2: entry.curve[2], y2: entry.curve[3])
            var rows: [[Double]] = []
            for index in 0 ... 100 {
                let x = Double(index) / 100
                do {
                    let t = try reference.parameter(x: x)
                    rows.append([x, t, reference.y(at: t)])
                } catch {
                    throw VerificationError.reference("GSL failed on the reference curve \(entry.name): \(error)")
                }
            }
            files.append(
                File(
                    name: "bezier-\(entry.name).csv",
                    description:
                        "cubic-bezier(\(entry.curve.map { "\($0)" }.joined(separator: ", "))): t from gsl_poly_solve_cubic and brent",
                    contents: csv("x,t,y", rows)))
        }
        return files
    }

    /// The set's README: what each file holds and how to write them again.
    public static func readme(_ files: [File]) -> String {
        var lines = [
            "# Reference data", "",
            "Written by `kinetics reference --output data/reference` with GSL \(GSL.version)",
            "(gsl_odeiv2 rk8pd at epsabs = epsrel = 1e-13; gsl_poly_solve_cubic polished by",
            "gsl_root_fsolver_brent). The tests compare the solvers and a fresh GSL run with",
            "these files; write them again only on purpose, and say why in the commit.", "",
            "| file | contents |", "| --- | --- |",
        ]
        lines += files.map { "| `\($0.name)` | \($0.description) |" }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Reads a CSV file of numbers with one header line.
    ///
    /// - Throws: `CSVTableError` (KineticsCompare) for a malformed file or a field that is
    ///   not a number, naming the line.
    package static func parse(_ text: String) throws(CSVTableError) -> (header: String, rows: [[Double]]) {
        let table = try CSVTable.parse(Data(text.utf8), maximumRows: maximumFrameCount)
        var rows: [[Double]] = []
        for row in table.rows {
            var numbers: [Double] = []
            for field in row.fields {
                guard let number = Double(field) else {
                    throw CSVTableError(line: row.line, message: "'\(clippedInput(field))' is not a number")
                }
                numbers.append(number)
            }
            rows.append(numbers)
        }
        return (table.header.joined(separator: ","), rows)
    }

    private static func csv(_ header: String, _ rows: [[Double]]) -> String {
        ([header] + rows.map { $0.map { "\($0)" }.joined(separator: ",") }).joined(separator: "\n") + "\n"
    }
}
