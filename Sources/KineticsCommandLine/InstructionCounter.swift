import ArgumentParser
import Foundation
import KineticsBench

/// What `--count` counts.
enum CountKind: String, ExpressibleByArgument, CaseIterable {
    /// Instructions, with callgrind's simulated cache misses.
    case instructions
}

/// Counts the measured frames of one configuration at a time under
/// valgrind's callgrind: this program runs again on that one configuration
/// (``CountedRun``), with collection only inside the harness's frame call
/// (``BenchRunner/countedFrameSymbol``), and the counts are read from
/// callgrind's output file.
///
/// valgrind 3.19 cannot read the DWARF 5 debug information the Swift
/// toolchain writes, so the program that runs is a copy without it, in a
/// folder of its own; the original's folder goes on the library path for
/// the shared libraries its run path finds there. The hash seed is fixed
/// (SWIFT_DETERMINISTIC_HASHING), so that the same binary counts the same
/// run after run.
final class InstructionCounter {
    private let folder: URL
    private let executable: String
    private let libraryPath: String
    private let valgrind: String
    private let valgrindVersion: String
    private let frameTimeout: Double

    /// How many times longer a frame may take under callgrind than the
    /// `--frame-timeout` of the timed run: its cache simulation runs code
    /// some 50 to 100 times slower.
    static let slowdown = 200.0

    /// Finds valgrind and objcopy (69 when either is missing) and makes
    /// the copy of this program. A frame under callgrind has
    /// `frameTimeout` × ``slowdown`` seconds to return; the run under
    /// callgrind has its own watchdog.
    init(frameTimeout: Double = 60) throws {
        #if !os(Linux)
            // valgrind's callgrind, and /proc/self/exe below, are Linux's.
            throw CLIError(
                message:
                    "--count instructions runs the frames under valgrind's callgrind, which needs Linux; run it on a Linux machine or container",
                status: .unavailable)
        #endif
        self.frameTimeout = min(frameTimeout * Self.slowdown, 86_400)
        func find(_ tool: String) -> String? {
            let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
            return path.split(separator: ":").map { "\($0)/\(tool)" }.first {
                FileManager.default.isExecutableFile(atPath: $0)
            }
        }
        guard let valgrind = find("valgrind") else {
            throw CLIError(
                message:
                    "--count instructions runs the frames under valgrind, which is not installed (Debian and Ubuntu: apt-get install valgrind)",
                status: .unavailable)
        }
        guard let objcopy = find("objcopy") else {
            throw CLIError(
                message:
                    "--count instructions needs objcopy (binutils) to hand valgrind a copy of this program it can read (apt-get install binutils)",
                status: .unavailable)
        }
        self.valgrind = valgrind
        valgrindVersion =
            (try? String(decoding: runProgram(valgrind, ["--version"]).stdout, as: UTF8.self))?
            .trimmingCharacters(in: .whitespacesAndNewlines) ?? "valgrind"
        #if os(Linux)
            let original =
                (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
                ?? CommandLine.arguments[0]
        #else
            let original = CommandLine.arguments[0]
        #endif
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("kinetics-count-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        executable = folder.appendingPathComponent(URL(fileURLWithPath: original).lastPathComponent).path
        libraryPath = URL(fileURLWithPath: original).deletingLastPathComponent().path
        let stripped = try runProgram(objcopy, ["--strip-debug", original, executable])
        guard stripped.status == 0 else {
            throw CLIError(
                message: "objcopy could not copy \(original) without its debug information: \(stripped.stderr)",
                status: .unavailable)
        }
    }

    deinit { try? FileManager.default.removeItem(at: folder) }

    /// Instrumentation off until the measuring starts, where this build can
    /// turn it on there (``BenchRunner/startsCallgrindInstrumentation``):
    /// the program's start-up then runs uninstrumented, which takes a run of
    /// a few frames from about 3.4 s to 1.3 s here. The simulated caches
    /// start empty at that point, and the set-up and warm-up frames fill
    /// them before the first counted frame.
    private static let instrumentation =
        BenchRunner.startsCallgrindInstrumentation ? ["--instr-atstart=no"] : []

    /// Counts `configuration`'s measured frames; `libraries` are loaded
    /// first (the engine of one of them, or a built-in one, is
    /// `configuration.engine`, by its table's name).
    func count(_ configuration: BenchConfiguration, libraries: [String] = []) throws -> InstructionCount {
        let text = try callgrind(
            CountedRun(configuration: configuration, libraries: libraries, frameTimeout: frameTimeout),
            collectingIn: [BenchRunner.countedFrameSymbol], for: configuration.key)
        return try parse(text, configuration)
    }

    /// Counts `configuration`'s measured frames in a worker (``EngineWorker``)
    /// on the library at `path`, its engine named `name` (nil: its own):
    /// the worker runs under callgrind and measures the configuration as
    /// `kinetics bench` does, its timed frames counted.
    ///
    /// - Throws: ``WorkerFailure`` when the worker dies, stalls or breaks
    ///   off; ``CLIError`` as ``count(_:libraries:)``.
    func countInWorker(_ configuration: BenchConfiguration, library path: String, as name: String? = nil)
        throws -> InstructionCount
    {
        let output = folder.appendingPathComponent("callgrind.out").path
        defer { try? FileManager.default.removeItem(atPath: output) }
        let worker = try EngineWorker(
            library: path, as: name, frameTimeout: frameTimeout,
            launcher: [
                // valgrind's own lines go to a file: the worker's standard error is the engine's.
                valgrind, "--log-file=\(folder.appendingPathComponent("valgrind.log").path)", "--tool=callgrind",
                "--cache-sim=yes", "--toggle-collect=\(BenchRunner.countedFrameSymbol)",
                "--callgrind-out-file=\(output)",
            ] + Self.instrumentation,
            executable: executable, environment: ["SWIFT_DETERMINISTIC_HASHING": "1", "LD_LIBRARY_PATH": libraryPath])
        var measured = configuration
        measured.engine = worker.engine
        _ = try worker.measure(measured, checkingValues: false)
        try worker.finish()
        return try parse((try? String(contentsOfFile: output, encoding: .utf8)) ?? "", configuration)
    }

    /// The counts per frame in callgrind's output `text` for `configuration`.
    private func parse(_ text: String, _ c: BenchConfiguration) throws -> InstructionCount {
        guard
            let counted = InstructionCount.parse(
                callgrindOutput: text, frames: InstructionCount.countedFrames(c), animations: c.animations,
                valgrind: valgrindVersion), counted.instructionsPerFrame > 0
        else {
            throw CLIError(
                message: "\(c.key): callgrind counted nothing in the frames (\(BenchRunner.countedFrameSymbol))",
                status: .badData)
        }
        return counted
    }

    /// Counts the bezier evaluations of `kinetics bench`, every method on
    /// the same x as its timings, in one run, with collection inside each
    /// method's function alone.
    func countBezier() throws -> [BezierInstructionCount] {
        let functions = BezierBench.countedFunctions.map { "*\($0.name)*" }
        let text = try callgrind(
            CountedRun(configuration: nil, libraries: [], frameTimeout: frameTimeout), collectingIn: functions,
            for: "the bezier")
        guard let counts = BezierBench.instructions(callgrindOutput: text, valgrind: valgrindVersion) else {
            throw CLIError(
                message:
                    "the bezier: callgrind did not count every method's function (\(functions.joined(separator: ", ")))",
                status: .badData)
        }
        return counts
    }

    /// Runs `run` in this program's copy under callgrind, with collection
    /// inside the functions matching `patterns` alone, and returns
    /// callgrind's output file; `subject` names the run in errors.
    private func callgrind(_ run: CountedRun, collectingIn patterns: [String], for subject: String) throws -> String {
        let output = folder.appendingPathComponent("callgrind.out").path
        let ran = try runProgram(
            valgrind,
            ["--tool=callgrind", "--cache-sim=yes"] + Self.instrumentation + patterns.map { "--toggle-collect=\($0)" }
                + [
                    "--callgrind-out-file=\(output)", executable,
                ],
            environment: [
                "SWIFT_DETERMINISTIC_HASHING": "1", "LD_LIBRARY_PATH": libraryPath, "CI": "true",
                CountedRun.variable: try run.environment(),
            ])
        guard ran.status == 0 else {
            let lines = ran.stderr.split(separator: "\n")
            let reason = (lines.last { !$0.hasPrefix("==") } ?? lines.last).map(String.init) ?? "no message"
            throw CLIError(
                message: "\(subject): the run under callgrind failed (status \(ran.status)): \(reason)",
                status: .badData)
        }
        defer { try? FileManager.default.removeItem(atPath: output) }
        return (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
    }
}
