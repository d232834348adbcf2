import Foundation
import KineticsTestSupport
import Testing

/// `kinetics bench --engine-library`: the C example engine built as a shared
/// library and measured beside the built-in engines, its gate, and the
/// faults of loading.
@Suite("CLI: bench an engine library")
struct BenchEngineLibraryTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// A short run of the batch engine beside the library's (`engine`).
    static func quick(_ library: String, _ extra: [String] = [], engine: String = "soa-springs") -> [String] {
        [
            "bench", "--engine", "batch", "--engine", engine, "--engine-library", library, "--animations", "1000",
            "--frames", "2", "--warmup", "1", "--no-bezier",
        ] + extra
    }

    /// Builds `source` (C, with the engine header on the include path) as a
    /// shared library in a fresh folder.
    static func library(_ source: String, named name: String) throws -> String {
        let folder = try temporaryFolder("engine-library")
        let file = folder.appendingPathComponent("\(name).c")
        try source.write(to: file, atomically: true, encoding: .utf8)
        return try build(file.path, named: name, in: folder)
    }

    static func build(_ source: String, named name: String, in folder: URL, flags: String = "") throws -> String {
        let output = folder.appendingPathComponent("lib\(name).so").path
        let include = root.appendingPathComponent("Sources/CKineticsEngine/include").path
        let compiled = try shell(
            "cc -O2 -Wall -Werror -shared -fPIC \(flags) -I '\(include)' -o '\(output)' '\(source)' -lm")
        #expect(compiled.status == 0, "cc: \(compiled.stderr)")
        return output
    }

    static func example() throws -> String {
        try build(
            root.appendingPathComponent("Examples/engines/soa_springs.c").path, named: "soa_springs",
            in: try temporaryFolder("engine-library"))
    }

    @Test("the example engine is measured beside the built-in ones, in the table, JSON and baselines, and gated")
    func example() throws {
        let library = try Self.example()
        let table = try kinetics(Self.quick(library))
        #expect(table.status == 0, "\(table.stderr)")
        let row = try #require(table.lines.first { $0.hasPrefix("soa-springs ") })
        #expect(row.contains(" 1000 ") && row.contains(" spring ") && row.contains(" steady "), "\(row)")
        #expect(table.lines.contains { $0.hasPrefix("batch ") })
        // Its results go into a baseline, and the gate holds it to them.
        let folder = try temporaryFolder("engine-library")
        let baseline = folder.appendingPathComponent("baseline.json")
        let saved = try kinetics(Self.quick(library, ["--save-baseline", baseline.path]))
        #expect(saved.status == 0, "\(saved.stderr)")
        let text = try String(contentsOf: baseline, encoding: .utf8)
        #expect(text.contains("\"engine\" : \"soa-springs\""), "\(text.prefix(400))")
        // A baseline a thousand times faster than reality: the gate fails, naming the library's engine.
        var report = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        var results = try #require(report["results"] as? [[String: Any]])
        for index in results.indices { results[index]["calibrated"] = (results[index]["calibrated"] as! Double) / 1000 }
        report["results"] = results
        let faster = folder.appendingPathComponent("faster.json")
        try JSONSerialization.data(withJSONObject: report).write(to: faster)
        let gated = try kinetics(Self.quick(library, ["--baseline", faster.path]))
        #expect(gated.status == 2, "\(gated.stderr)")
        #expect(gated.stderr.contains("regression: soa-springs 1000 spring steady 60 Hz pop"), "\(gated.stderr)")
        // By default every built-in engine, the library's, and abi-null: the harness alone, beside it.
        let all = try kinetics([
            "bench", "--engine-library", library, "--animations", "300", "--frames", "2", "--warmup", "1",
            "--no-bezier",
        ])
        #expect(all.status == 0, "\(all.stderr)")
        for engine in ["animator ", "batch ", "reference ", "pop-c ", "soa-springs ", "abi-null "] {
            #expect(all.lines.contains { $0.hasPrefix(engine) }, "\(engine)")
        }
        #expect(
            all.lines.contains {
                $0.hasPrefix("  soa-springs 300 spring steady 60 Hz pop: ") && $0.contains(" ns per frame, ")
            })
        // --engine names it once it is loaded.
        let alone = try kinetics([
            "bench", "--engine", "soa-springs", "--engine-library", library, "--animations", "100", "--frames", "2",
            "--warmup", "1", "--no-bezier", "--scenario", "churn", "--scenario", "retarget-storm",
        ])
        #expect(alone.status == 0, "\(alone.stderr)")
        #expect(alone.lines.filter { $0.hasPrefix("soa-springs ") }.count == 2)
    }

    @Test("values are checked against GSL: the exact example is within 1e-12, a fast wrong engine is reported as such")
    func valuesChecked() throws {
        func error(_ result: CLIResult, _ engine: String) throws -> Double {
            // Kinetics' own engines name their method (`… 60 Hz pop:`), a library's does not.
            let line = try #require(result.lines.first { $0.hasPrefix("  \(engine) spring steady 60 Hz") })
            let number = line.split(separator: ": ")[1].split(separator: " ")[0]
            return try #require(Double(number), "\(line)")
        }
        let exact = try kinetics(Self.quick(try Self.example()))
        #expect(exact.status == 0, "\(exact.stderr)")
        #expect(try error(exact, "soa-springs") < 1e-12)
        // Pop's stepping, in the batch engine, runs slow: a few percent off.
        #expect((0.01 ... 0.2).contains(try error(exact, "batch")))
        // The same engine stepping half of every frame: as fast, and wrong.
        let source = try String(
            contentsOf: Self.root.appendingPathComponent("Examples/engines/soa_springs.c"), encoding: .utf8)
        let wrong = try Self.library(
            source.replacingOccurrences(of: "exact(e->kinds[k], h)", with: "exact(e->kinds[k], 0.5 * h)")
                .replacingOccurrences(of: "\"soa-springs\"", with: "\"half-time\""), named: "half_time")
        let reported = try kinetics(Self.quick(wrong, engine: "half-time"))
        #expect(reported.status == 0, "\(reported.stderr)")
        #expect(try error(reported, "half-time") > 0.1)
    }

    @Test("a baseline gate says what it compared, fails on grown value errors, and exits 65 when it compares nothing")
    func baselineGate() throws {
        let library = try Self.example()
        let folder = try temporaryFolder("engine-library")
        let baseline = folder.appendingPathComponent("base.json").path
        let quick = ["--animations", "1000", "--frames", "2", "--warmup", "1", "--no-bezier"]
        let saved = try kinetics(
            ["bench", "--engine-library", library, "--engine", "soa-springs", "--save-baseline", baseline] + quick)
        #expect(saved.status == 0, "\(saved.stderr)")
        // The library's engine has no method: its row shows -, whatever --method says, and its baseline matches.
        let row = try #require(saved.lines.first { $0.hasPrefix("soa-springs ") })
        #expect(row.contains(" 60   -  "), "\(row)")
        /// `engine`'s library as soa-springs against the baseline `file`, any time within the gate.
        func compared(_ engine: String, with file: String, _ extra: [String] = []) throws -> CLIResult {
            try kinetics(
                ["bench", "--engine-library", engine, "--engine", "soa-springs", "--baseline", file]
                    + ["--max-regression", "100000"] + extra + quick)
        }
        let again = try compared(library, with: baseline, ["--method", "analytic"])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(
            again.stderr.contains(
                "kinetics: compared with \(baseline) (a saved baseline; for changes under 25% use kinetics gate):"))
        #expect(
            again.stderr.contains("kinetics:   soa-springs 1000 spring steady 60 Hz pop: calibrated "),
            "\(again.stderr)")
        #expect(again.stderr.contains("fails above +100000%; repetitions spread "), "\(again.stderr)")
        #expect(again.stderr.contains("; sees changes above +100000% at best"), "\(again.stderr)")
        // Another count: nothing in common, exit 65 with both lists.
        var other = quick
        other[1] = "2000"
        let none = try kinetics(
            ["bench", "--engine-library", library, "--engine", "soa-springs", "--baseline", baseline] + other)
        #expect(none.status == 65, "\(none.stderr)")
        #expect(
            none.stderr.contains(
                "nothing compared with \(baseline): it holds soa-springs 1000 spring steady 60 Hz pop; this run measured soa-springs 2000 spring steady 60 Hz pop"
            ), "\(none.stderr)")
        // A baseline configuration the run left out is named.
        let wider = folder.appendingPathComponent("wider.json").path
        _ = try kinetics(
            [
                "bench", "--engine-library", library, "--engine", "soa-springs", "--engine", "batch", "--save-baseline",
                wider,
            ] + quick)
        let partial = try compared(library, with: wider)
        #expect(partial.status == 0, "\(partial.stderr)")
        #expect(
            partial.stderr.contains("not measured in this run, so not compared: batch 1000 spring steady 60 Hz pop"),
            "\(partial.stderr)")
        // The same engine stepping half of every frame, under the baseline's name: as fast, and wrong; exit 2.
        let source = try String(
            contentsOf: Self.root.appendingPathComponent("Examples/engines/soa_springs.c"), encoding: .utf8)
        let wrong = try Self.library(
            source.replacingOccurrences(of: "exact(e->kinds[k], h)", with: "exact(e->kinds[k], 0.5 * h)"),
            named: "soa_half")
        let gated = try compared(wrong, with: baseline)
        #expect(gated.status == 2, "\(gated.stderr)")
        #expect(
            gated.stderr.contains("regression: soa-springs 1000 spring steady 60 Hz pop: value error 3.5"),
            "\(gated.stderr)")
        #expect(gated.stderr.contains("vs baseline 2.50e-15 (more than 1.1× + 1e-12): the engine's values changed"))
        // Without the value check there is nothing to gate on.
        let unchecked = try compared(wrong, with: baseline, ["--no-value-check"])
        #expect(unchecked.status == 0, "\(unchecked.stderr)")
    }

    @Test("the malloc interposer counts the library's own allocations, exactly")
    func allocationsCounted() throws {
        let source = try String(
            contentsOf: Self.root.appendingPathComponent("Examples/engines/soa_springs.c"), encoding: .utf8)
        // Three allocations in every tick, freed at once (volatile, so that
        // the compiler cannot drop the pair).
        let allocating = try Self.library(
            source.replacingOccurrences(
                of: "    if (!(h > 0)) return;",
                with:
                    "    for (int k = 0; k < 3; k++) { void *volatile p = malloc(64 + (size_t)k); free(p); }\n    if (!(h > 0)) return;"
            )
            .replacingOccurrences(of: "\"soa-springs\"", with: "\"allocating\""), named: "allocating")
        let result = try kinetics(Self.quick(allocating, ["--format", "json"], engine: "allocating"))
        #expect(result.status == 0, "\(result.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let results = try #require(report["results"] as? [[String: Any]])
        func allocations(_ engine: String) -> Double? {
            results.first { ($0["configuration"] as? [String: Any])?["engine"] as? String == engine }?[
                "allocationsPerFrame"] as? Double
        }
        #expect(allocations("allocating") == 3)
        #expect(allocations("batch") == 0)
    }

    @Test("an engine that refuses the workload exits 65 with its own reason")
    func createFails() throws {
        let result = try kinetics(Self.quick(try Self.example(), ["--mix", "mixed"]))
        #expect(result.status == 65)
        #expect(
            result.stderr.hasSuffix(
                "kinetics: error: soa-springs: create failed: animation 8 is not a scalar spring; this engine runs springs only (--mix spring)\n"
            ), "\(result.stderr)")
    }

    @Test(
        "a library that cannot be benched exits 65 naming what is wrong",
        arguments: [
            ("int unrelated(void) { return 1; }", "exports no kinetics_engine_abi_version"),
            (
                "#include <stdint.h>\nuint32_t kinetics_engine_abi_version(void) { return 3; }",
                "built for engine interface version 3; this kinetics speaks versions 1 and 2"
            ),
            (
                "#include <stdint.h>\nuint32_t kinetics_engine_abi_version(void) { return 1; }",
                "exports no kinetics_engine_table"
            ),
            (
                """
                #include "kinetics_engine.h"
                uint32_t kinetics_engine_abi_version(void) { return KINETICS_ENGINE_ABI_VERSION; }
                static const kinetics_engine table = {.abi_version = KINETICS_ENGINE_ABI_VERSION, .name = "half"};
                const kinetics_engine *kinetics_engine_table(void) { return &table; }
                """,
                "its table has no create, replace, retarget, tick, value, running, destroy (NULL)"
            ),
        ])
    func unusable(source: String, message: String) throws {
        let library = try Self.library(source, named: "broken")
        let result = try kinetics(Self.quick(library))
        #expect(result.status == 65, "\(result.stderr)")
        #expect(result.stderr.hasPrefix("kinetics: error: \(library): \(message)"), "\(result.stderr)")
        #expect(result.stdout.isEmpty, "nothing is measured")
    }

    /// The C example engine as a library of interface version `library`
    /// whose table says `table`, named soa-springs-v1.
    static func olderExample(library: Int, table: Int) throws -> String {
        try Self.library(
            """
            #define kinetics_engine_abi_version example_abi_version
            #define kinetics_engine_table example_table
            #include "\(root.path)/Examples/engines/soa_springs.c"
            #undef kinetics_engine_abi_version
            #undef kinetics_engine_table
            uint32_t kinetics_engine_abi_version(void) { return \(library); }
            static kinetics_engine older;
            const kinetics_engine *kinetics_engine_table(void) {
                older = *example_table();
                older.abi_version = \(table);
                older.name = "soa-springs-v1";
                return &older;
            }
            """, named: "older\(library)\(table)")
    }

    @Test(
        "a library of interface version 1 is still benched (its springs start at rest); versions that disagree exit 65")
    func versionOne() throws {
        let result = try kinetics(Self.quick(try Self.olderExample(library: 1, table: 1), engine: "soa-springs-v1"))
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("soa-springs-v1"), "\(result.stdout)")
        let library = try Self.olderExample(library: 2, table: 1)
        let mixed = try kinetics(Self.quick(library, engine: "soa-springs-v1"))
        #expect(mixed.status == 65, "\(mixed.stderr)")
        #expect(
            mixed.stderr.hasPrefix(
                "kinetics: error: \(library): kinetics_engine_abi_version returns 2 but its table's abi_version is 1"),
            "\(mixed.stderr)")
    }

    @Test("a name that is a built-in engine's is refused; so is a file that is no library, and a missing one (66)")
    func refused() throws {
        let example = try String(
            contentsOf: Self.root.appendingPathComponent("Examples/engines/soa_springs.c"), encoding: .utf8)
        let impostor = try Self.library(
            example.replacingOccurrences(of: "\"soa-springs\"", with: "\"animator\""), named: "impostor")
        let named = try kinetics(Self.quick(impostor, engine: "animator"))
        #expect(named.status == 65 && named.stderr.contains("its engine is named 'animator', which is a built-in"))
        let text = temporaryPath("engine-library", "not-a-library.so")
        try "hello".write(to: text, atomically: true, encoding: .utf8)
        let notLibrary = try kinetics(Self.quick(text.path))
        #expect(notLibrary.status == 65 && notLibrary.stderr.contains("not a loadable library"), "\(notLibrary.stderr)")
        let missing = try kinetics(Self.quick("/nonexistent/libengine.so"))
        #expect(missing.status == 66)
        #expect(missing.stderr.hasSuffix("kinetics: error: /nonexistent/libengine.so: no such file\n"))
        let unknown = try kinetics(["bench", "--engine", "nonesuch", "--animations", "10", "--no-bezier"])
        #expect(
            unknown.status == 64
                && unknown.stderr.contains(
                    "pop-c, abi-null, animator-keys, animator-unkeyed, animator-springs or the engine of an --engine-library, got 'nonesuch'"
                ),
            "\(unknown.stderr)")
    }
}

/// The Swift example: a package's own bench executable (BenchSuite).
@Suite("CLI: a package's own bench executable")
struct BenchSuiteTests {
    @Test("swift-springs-bench takes the bench's options, measures its engine beside the built-in ones, and gates")
    func example() throws {
        let binary = try kineticsBinary().deletingLastPathComponent().appendingPathComponent("swift-springs-bench")
        let arguments = [
            "--engine", "batch", "--engine", "swift-springs", "--animations", "500", "--frames", "2", "--warmup", "1",
            "--no-bezier",
        ]
        let run = try shell("'\(binary.path)' " + arguments.joined(separator: " "))
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.lines.contains { $0.hasPrefix("swift-springs ") && $0.contains(" 500 ") })
        let check = try #require(run.lines.first { $0.hasPrefix("  swift-springs spring steady 60 Hz: ") })
        #expect(try #require(Double(check.split(separator: " ")[5])) < 1e-12, "\(check)")
        let mixed = try shell("'\(binary.path)' --mix mixed " + arguments.joined(separator: " "))
        #expect(mixed.status == 65)
        #expect(mixed.stderr.contains("swift-springs: create failed: animation 8 is not a scalar spring"))
        // A library runs in a worker: a copy of this same executable.
        let library = try shell(
            "'\(binary.path)' --engine soa-springs --engine-library '\(try BenchEngineLibraryTests.example())' "
                + arguments.dropFirst(4).joined(separator: " "))
        #expect(library.status == 0, "\(library.stderr)")
        #expect(library.lines.contains { $0.hasPrefix("soa-springs ") && $0.contains(" 500 ") }, "\(library.stdout)")
        // The executable knows its own engine and name: in its help, in a
        // wrong --engine's list, before its errors.
        let help = try shell("'\(binary.path)' --help")
        #expect(help.status == 0 && help.stdout.contains("--engine-library"))
        #expect(help.stdout.contains("USAGE: swift-springs-bench <options>"), "\(help.stdout)")
        #expect(
            help.stdout.replacingOccurrences(of: "\n", with: " ").replacingOccurrences(of: "  ", with: "")
                .contains("this program's own (swift-springs)"), "\(help.stdout)")
        let wrong = try shell("'\(binary.path)' --engine nope --no-bezier")
        #expect(wrong.status == 64)
        #expect(
            wrong.stderr.hasPrefix("swift-springs-bench: error: --engine must be one of ")
                && wrong.stderr.contains("animator-springs, swift-springs or the engine"), "\(wrong.stderr)")
        // The kit checks values against GSL's motion, as the kinetics tool does.
        #expect(run.lines.contains { $0.hasPrefix("values against GSL's motion of the workload") }, "\(run.stdout)")
        let tool = try shell(
            "'\(try kineticsBinary().path)' bench --engine batch --animations 500 --frames 2 --warmup 1 --no-bezier")
        #expect(tool.lines.contains { $0.hasPrefix("values against GSL's motion of the workload") }, "\(tool.stdout)")
    }
}
