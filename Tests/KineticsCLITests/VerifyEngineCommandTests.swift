import Foundation
import KineticsTestSupport
import KineticsVerify
import Testing

/// `kinetics verify --engine-command`, `--export-cases` and `--results`, with
/// the example engines and with engines that misbehave on purpose.
@Suite("CLI: verify an engine")
struct VerifyEngineCommandTests {
    /// The repository's root.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// A Python engine that answers like the example (zeros would do; the
    /// faults are what matter) and misbehaves as `mode` says from the
    /// `after`-th case on.
    static let faultyEngine = """
        import json, sys, time
        mode, after = sys.argv[1], int(sys.argv[2])
        for index, line in enumerate(sys.stdin):
            case = json.loads(line)
            values = [0.5] * len(case.get("times") or case.get("x"))
            answer = {"id": case["id"], "values": values}
            if index >= after:
                if mode == "crash":
                    sys.stderr.write("faulty engine: giving up\\n")
                    sys.exit(3)
                if mode == "hang":
                    sys.stdout.flush()
                    time.sleep(600)
                if mode == "twice":
                    print(json.dumps(answer))
                if mode == "unknown":
                    answer["id"] = "spring/99999/60"
                if mode == "few":
                    answer["values"] = values[:3]
                if mode == "nan":
                    answer["values"] = [float("nan")] + values[1:]
                if mode == "text":
                    answer["values"] = ["zero"] + values[1:]
                if mode == "refuse":
                    answer = {"id": case["id"], "error": "cannot do curves"}
            print(json.dumps(answer), flush=True)
        """

    static func faulty(_ mode: String, after: Int) throws -> String {
        let folder = try temporaryFolder("engine")
        let script = folder.appendingPathComponent("faulty.py")
        try faultyEngine.write(to: script, atomically: true, encoding: .utf8)
        return "python3 \(script.path) \(mode) \(after)"
    }

    @Test(
        "an engine's faults exit 65 with one line naming the case; the answers before it are still reported",
        arguments: [
            ("crash", "the engine exited with status 3 after answering 5 of 25 cases; no answer for case bezier/5"),
            ("twice", "the engine answered case bezier/5 twice"),
            ("unknown", "the engine answered an unknown case 'spring/99999/60'"),
            ("few", "case bezier/5: the engine gave 3 values for 1001 x values"),
            ("text", "line 6, case bezier/5: at values[0]: a string, where a number belongs"),
        ])
    func faults(mode: String, message: String) throws {
        let result = try kinetics("verify", "--suite", "bezier", "--engine-command", try Self.faulty(mode, after: 5))
        #expect(result.status == 65, "\(mode): \(result.stderr)")
        #expect(result.stderr.hasSuffix("kinetics: error: \(message)\n"), "\(mode): \(result.stderr)")
        // A case answered twice was answered once before the fault.
        let answered = mode == "twice" ? 6 : 5
        #expect(
            result.stdout.contains("Engine: engine, \(answered) of 25 cases answered."), "\(mode): \(result.stdout)")
        #expect(result.stdout.contains("The engine stopped: "), "\(mode)")
        if mode == "crash" {
            #expect(result.stderr.contains("faulty engine: giving up\n"), "the engine's stderr passes")
        }
    }

    /// The Python example with one line changed: `original` becomes `changed`.
    static func example(replacing original: String, with changed: String) throws -> String {
        let source = try String(
            contentsOf: root.appendingPathComponent("Examples/engines/semi_implicit_euler.py"), encoding: .utf8)
        #expect(source.contains(original))
        let script = try temporaryFolder("engine").appendingPathComponent("variant.py")
        try source.replacingOccurrences(of: original, with: changed).write(
            to: script, atomically: true, encoding: .utf8)
        return "python3 \(script.path)"
    }

    @Test("a refused suite is reported as refused while the others run; a gate on it fails, saying so")
    func refusedSuite() throws {
        let engine = try Self.example(
            replacing: "        if case.get(\"protocol\") != PROTOCOL:",
            with: """
                        if case["kind"] == "decay":
                            answer = {"id": case["id"], "error": "this engine has no decays"}
                        elif case.get("protocol") != PROTOCOL:
                """)
        let open = try kinetics(
            "verify", "--engine-command", engine, "--engine-name", "nodecay", "--suite", "decay", "--suite", "bezier")
        #expect(open.status == 0, "\(open.stderr)")
        #expect(
            open.stderr.contains(
                "the engine refused 240 decay cases (the first, decay/0/30: this engine has no decays): the decay suite is reported as refused; to run the others alone: --suite bezier"
            ), "\(open.stderr)")
        #expect(open.stdout.contains("Engine: nodecay, 25 of 265 cases answered, 240 refused (decay)."))
        let refused = try #require(open.lines.first { $0.hasPrefix("decay   nodecay  refused") })
        #expect(
            refused.contains(" 240 ") && refused.contains("  -  ")
                && refused.contains("decay/0/30: this engine has no decays"))
        #expect(!open.stdout.contains("error vs continuous law"))
        #expect(open.lines.contains { $0.hasPrefix("bezier  nodecay  scheme") && $0.contains("in 25 of 25") })
        // In JSON, the refusal is kept with the measures.
        let json = try kinetics("verify", "--engine-command", engine, "--suite", "decay", "--format", "json")
        let decoder = JSONDecoder()
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(
            positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        let report = try decoder.decode(VerificationReport.self, from: Data(json.stdout.utf8))
        #expect(
            report.engineMeasures?.refusals == [
                EngineRefusal(suite: "decay", cases: 240, firstCase: "decay/0/30", message: "this engine has no decays")
            ])
        #expect(report.rows.map(\.check) == ["refused"])
        let gated = try kinetics(
            "verify", "--engine-command", engine, "--suite", "decay", "--suite", "bezier", "--tolerance",
            "engine.decay=1")
        #expect(gated.status == 1, "\(gated.stderr)")
        #expect(
            gated.stderr.contains(
                "check failed: decay engine refused: engine.decay = 1.00e+00 cannot hold: the engine refused it (decay/0/30: this engine has no decays)"
            ), "\(gated.stderr)")
        #expect(gated.stderr.hasSuffix("kinetics: error: 1 of 1 check failed\n"), "\(gated.stderr)")
    }

    @Test("verify says when most trajectories diverge or miss by half their scale: times read in the wrong unit")
    func units() throws {
        for (scale, symptom) in [
            ("* 1000", "hold a value that is not a number"), ("/ 1000", "are off by more than half their scale"),
        ] {
            let engine = try Self.example(
                replacing: "        dt = t - previous", with: "        dt = (t - previous) \(scale)")
            let result = try kinetics(
                "verify", "--engine-command", engine, "--suite", "spring", "--shard", "1/8", "--no-schemes")
            #expect(result.status == 0, "\(result.stderr)")
            let warning = try #require(
                result.stderr.split(separator: "\n").first { $0.contains(" spring trajectories ") })
            #expect(warning.hasPrefix("kinetics: warning: ") && warning.contains(symptom), "\(warning)")
            #expect(
                warning.contains("an engine that takes them for milliseconds steps 1,000 times too short"), "\(warning)"
            )
            // Steps 1,000 times too short barely move: the time fits end at the scale's edge, and the
            // time scale row says so rather than printing its median as a measure.
            if scale == "/ 1000" {
                let row = try #require(result.lines.first { $0.contains("time scale 60 Hz") }, "\(result.stdout)")
                #expect(row.contains("fits stopped at the edge of their range"), "\(row)")
            }
        }
        // The example as it is: no warning.
        let script = Self.root.appendingPathComponent("Examples/engines/semi_implicit_euler.py").path
        let plain = try kinetics(
            "verify", "--engine-command", "python3 \(script)", "--suite", "spring", "--shard", "1/8", "--no-schemes")
        #expect(!plain.stderr.contains("warning"), "\(plain.stderr)")
    }

    @Test("an engine that stops answering is stopped after --case-timeout, naming the outstanding case")
    func hang() throws {
        let result = try kinetics(
            "verify", "--suite", "bezier", "--case-timeout", "1", "--engine-command", try Self.faulty("hang", after: 2))
        #expect(result.status == 65, "\(result.stderr)")
        #expect(result.stderr.contains("gave no answer and read no case for 1 s; it was stopped while case bezier/2"))
        #expect(result.stdout.contains("2 of 25 cases answered"))
        // The rows of what was not measured have no value, not a perfect 0.
        let open = try kinetics(
            "verify", "--case-timeout", "1", "--engine-command", try Self.faulty("hang", after: 2))
        let stopped = try #require(open.lines.first { $0.hasPrefix("decay   engine  error vs continuous law") })
        #expect(stopped.contains(" 0      -  ") && stopped.contains("nothing was measured"), "\(stopped)")
        #expect(
            open.stdout.hasSuffix("Incomplete: the engine stopped before answering every case; 1 of 1 check FAILED.\n"),
            "\(open.stdout)")
    }

    @Test("a value that is not a number is a diverged case: reported as NaN, and failing any gate, naming the curve")
    func notANumber() throws {
        let engine = try Self.faulty("nan", after: 3)
        let open = try kinetics("verify", "--suite", "bezier", "--engine-command", engine)
        #expect(open.status == 0, "\(open.stderr)")
        #expect(open.stdout.contains("diverged 22"), "\(open.stdout)")
        let gated = try kinetics("verify", "--suite", "bezier", "--tolerance", "engine=10", "--engine-command", engine)
        #expect(gated.status == 1, "\(gated.stderr)")
        #expect(
            gated.stderr.contains(
                "check failed: bezier engine error where x'(t) >= 1e-3, and at x = 0 and 1: nan exceeds engine"))
        #expect(gated.stderr.contains("cubic-bezier("))
        // The report with its NaN goes to JSON, to the plot and to an HTML page.
        let folder = try temporaryFolder("engine")
        let json = folder.appendingPathComponent("nan.json").path
        let html = folder.appendingPathComponent("nan.html").path
        let svg = folder.appendingPathComponent("nan.svg").path
        #expect(
            try kinetics(
                "verify", "--suite", "bezier", "--engine-command", engine, "--format", "json", "--output", json
            )
            .status == 0)
        let plot = try kinetics("plot", "verify", "--input", json, "--output", svg)
        #expect(plot.status == 0, "\(plot.stderr)")
        let page = try kinetics(
            "verify", "--suite", "bezier", "--engine-command", engine, "--engine-name", "faulty<nan>", "--format",
            "html",
            "--output", html)
        #expect(page.status == 0, "\(page.stderr)")
        let text = try String(contentsOfFile: html, encoding: .utf8)
        #expect(text.contains("<title>Kinetics verify: faulty&lt;nan&gt;</title>") && text.contains("<svg"))
        #expect(text.contains("Engine: faulty&lt;nan&gt;, 25 of 25 cases answered."))
    }

    @Test("a missing command exits 66, one that cannot be executed 69")
    func missingCommand() throws {
        let missing = try kinetics("verify", "--suite", "bezier", "--engine-command", "kinetics-no-such-engine")
        #expect(missing.status == 66)
        #expect(
            missing.stderr.hasSuffix("kinetics: error: the engine command was not found: kinetics-no-such-engine\n"))
        let file = temporaryPath("engine", "not-executable")
        try "echo".write(to: file, atomically: true, encoding: .utf8)
        let denied = try kinetics("verify", "--suite", "bezier", "--engine-command", file.path)
        #expect(denied.status == 69, "\(denied.stderr)")
        #expect(denied.stderr.contains("cannot be executed"))
    }

    @Test(
        "engine options that do not fit exit 64 naming the option",
        arguments: [
            (["--engine-command", "x", "--method", "rk4"], "--method picks built-in methods"),
            (["--shard", "0/2"], "a shard is i/n with 1 <= i <= n <= 10000, got 0/2"),
            (["--engine-command", "x", "--suite", "conversions"], "--suite conversions"),
            (["--engine-command", "x", "--case-timeout", "0"], "--case-timeout must be in (0, 86400]"),
            (["--engine-command", " "], "--engine-command needs a command"),
            (["--engine-command", "x", "--shard", "3/2"], "a shard is i/n with 1 <= i <= n <= 10000"),
            (["--engine-command", "x", "--results", "y"], "are alternatives"),
            (["--engine-command", "x", "--tolerance", "engine=-1"], "tolerance engine must be a finite number > 0"),
            (
                ["--no-schemes"],
                "--no-schemes applies to an engine run: give --engine-command, --engine-library or --results"
            ),
            (["--export-cases", "x", "--no-schemes"], "--no-schemes applies to an engine run"),
        ])
    func usage(arguments: [String], message: String) throws {
        let result = try kinetics(["verify"] + arguments)
        #expect(result.status == 64, "\(arguments): \(result.stderr)")
        #expect(result.stderr.contains(message), "\(arguments): \(result.stderr)")
    }

    @Test("the Python example engine runs the quick grid; its springs are named velocity-first symplectic Euler")
    func pythonExample() throws {
        let script = Self.root.appendingPathComponent("Examples/engines/semi_implicit_euler.py").path
        // An eighth of the grid; the whole of it with KINETICS_LONG_TESTS.
        let (shard, cases, curves) = longTests ? ([], 1183, 25) : (["--shard", "1/8"], 154, 4)
        let result = try kinetics(
            ["verify", "--engine-command", "python3 \(script)", "--engine-name", "python"] + shard)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("Engine: python, \(cases) of \(cases) cases answered"), "\(result.stdout)")
        #expect(
            result.stdout.hasSuffix(
                "Nothing was checked (every row is reported only): give --tolerance engine=VALUE to gate an engine.\n"))
        let scheme = try #require(result.lines.first { $0.hasPrefix("spring  python  scheme at 60 Hz") })
        #expect(
            scheme.contains("velocity-first symplectic Euler, damping as a force, 1 step per frame in "), "\(scheme)")
        let curveScheme = try #require(result.lines.first { $0.hasPrefix("bezier  python  scheme") })
        #expect(
            curveScheme.contains("WebKit's UnitBezier at ε = 1e-07 in x in \(curves) of \(curves)"), "\(curveScheme)")
    }

    @Test("the C example engine builds and runs; its springs are named backward Euler, every one")
    func cExample() throws {
        let folder = try temporaryFolder("engine")
        let binary = folder.appendingPathComponent("backward_euler").path
        let source = Self.root.appendingPathComponent("Examples/engines/backward_euler.c").path
        let compiler = try shell("cc -O2 -Wall -Werror -o '\(binary)' '\(source)'")
        #expect(compiler.status == 0, "cc: \(compiler.stderr)")
        // An eighth of the grid's springs.
        let result = try kinetics(
            "verify", "--suite", "spring", "--shard", "1/8", "--engine-command", binary, "--engine-name", "c")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stdout.contains(
                "backward (implicit) Euler, 1 step per frame (ODE's spring by ERP and CFM) in 20 of 20"),
            "\(result.stdout)")
        // It answers springs only, and says so for any other case.
        let refused = try kinetics("verify", "--suite", "decay", "--engine-command", binary)
        #expect(refused.status == 0, "\(refused.stderr)")
        #expect(
            refused.stderr.contains("refused 240 decay cases (the first, decay/0/30: this engine answers springs only"),
            "\(refused.stderr)")
    }

    @Test("kinetics verify serve through the protocol gives the built-in rk4, exact and precise rows exactly")
    func serveReproducesBuiltIn() throws {
        let binary = try kineticsBinary().path
        // On an eighth of the grid (the one with flat curves): the rows of
        // the same shard, through the protocol and built in; the schemes
        // not named (--no-schemes), which leaves their rows out.
        let engine = try kinetics(
            "verify", "--format", "json", "--shard", "6/8", "--no-schemes", "--engine-command",
            "\(binary) verify serve --spring rk4 --decay exact --bezier precise")
        #expect(engine.status == 0, "\(engine.stderr)")
        let builtIn = try kinetics(
            "verify", "--format", "json", "--shard", "6/8", "--method", "rk4", "--method", "exact", "--method",
            "precise")
        let engineRows = try decodeJSON(VerificationReport.self, engine.stdout).rows
        let builtInRows = try decodeJSON(VerificationReport.self, builtIn.stdout).rows
        #expect(!engineRows.contains { $0.check.hasPrefix("scheme") })
        #expect(engineRows.contains { $0.check == "time scale 60 Hz" })
        for (suite, check) in [
            ("spring", "error"), ("spring", "frame-rate dependence"), ("decay", "error vs discrete law"),
            ("bezier", "error where x'(t) >= 1e-3, and at x = 0 and 1"), ("bezier", "error where x(t) is flat"),
        ] {
            let expected = try #require(builtInRows.first { $0.suite == suite && $0.check == check })
            let actual = try #require(engineRows.first { $0.suite == suite && $0.check == check })
            #expect(
                [actual.value, actual.rms] == [expected.value, expected.rms] && actual.cases == expected.cases
                    && actual.location == expected.location && actual.parameters == expected.parameters,
                "\(suite) \(check)")
        }
    }

    @Test("--export-cases then --results verifies recorded answers as --engine-command does; a gap is named")
    func exportAndResults() throws {
        let folder = try temporaryFolder("engine")
        let cases = folder.appendingPathComponent("cases.jsonl")
        let answers = folder.appendingPathComponent("answers.jsonl")
        let export = try kinetics("verify", "--suite", "bezier", "--export-cases", cases.path)
        #expect(export.status == 0 && export.stderr.contains("wrote 25 cases to"))
        let lines = try String(contentsOf: cases, encoding: .utf8).split(separator: "\n")
        #expect(
            lines.count == 25
                && lines.allSatisfy { $0.hasPrefix("{\"id\":\"bezier/") || $0.contains("\"kind\":\"bezier\"") })
        let script = Self.root.appendingPathComponent("Examples/engines/semi_implicit_euler.py").path
        let engine = try shell("python3 '\(script)' < '\(cases.path)' > '\(answers.path)'")
        #expect(engine.status == 0, "\(engine.stderr)")
        let recorded = try kinetics("verify", "--suite", "bezier", "--results", answers.path)
        let live = try kinetics("verify", "--suite", "bezier", "--engine-command", "python3 \(script)")
        #expect(recorded.status == 0 && live.status == 0, "\(recorded.stderr) \(live.stderr)")
        // The same rows, but for the header's run time.
        #expect(recorded.lines.dropFirst(1) == live.lines.dropFirst(1))
        // One answer short.
        let short = folder.appendingPathComponent("short.jsonl")
        try String(contentsOf: answers, encoding: .utf8).split(separator: "\n").dropLast().joined(separator: "\n")
            .write(to: short, atomically: true, encoding: .utf8)
        let gap = try kinetics("verify", "--suite", "bezier", "--results", short.path)
        #expect(gap.status == 65)
        #expect(gap.stderr.contains("answers 24 of 25 cases; no answer for case bezier/24"), "\(gap.stderr)")
        let missing = try kinetics(
            "verify", "--suite", "bezier", "--results", folder.appendingPathComponent("none").path)
        #expect(missing.status == 66 && missing.stderr.contains("no such file"))
    }

    @Test("kinetics verify merge: the JSON reports of every shard give the unsharded report; others exit 65 or 66")
    func merge() throws {
        let folder = try temporaryFolder("engine")
        let script = Self.root.appendingPathComponent("Examples/engines/semi_implicit_euler.py").path
        let common = ["verify", "--suite", "decay", "--engine-command", "python3 \(script)", "--format", "json"]
        var paths: [String] = []
        for index in 1 ... 2 {
            let path = folder.appendingPathComponent("shard\(index).json").path
            let shard = try kinetics(common + ["--shard", "\(index)/2", "--output", path])
            #expect(shard.status == 0, "\(shard.stderr)")
            paths.append(path)
        }
        let whole = try kinetics(["verify", "--suite", "decay", "--engine-command", "python3 \(script)"])
        let merged = try kinetics(["verify", "merge"] + paths)
        #expect(merged.status == 0, "\(merged.stderr)")
        #expect(merged.lines.dropFirst(1) == whole.lines.dropFirst(1))
        let incomplete = try kinetics("verify", "merge", paths[0])
        #expect(incomplete.status == 65 && incomplete.stderr.contains("the shards are incomplete: 2/2 missing"))
        let notReport = try kinetics("verify", "merge", script)
        #expect(notReport.status == 65 && notReport.stderr.contains("not a kinetics verify report in JSON"))
        let missing = try kinetics("verify", "merge", folder.appendingPathComponent("none.json").path)
        #expect(missing.status == 66)
    }
}
