import Foundation
import KineticsTestSupport
import KineticsVerify
import Testing

/// `kinetics verify --engine-library`: the grids run through the C
/// interface, with an exact C engine, a wrong one, an older one and the
/// faults of loading.
@Suite("CLI: verify an engine library")
struct VerifyEngineLibraryTests {
    /// The exact example engine, built.
    static func exact() throws -> String {
        try BenchEngineLibraryTests.build(
            BenchEngineLibraryTests.root.appendingPathComponent("Examples/engines/exact_springs.c").path,
            named: "exact_springs", in: try temporaryFolder("verify-library"))
    }

    /// The rows of a JSON report.
    static func rows(_ result: CLIResult) throws -> [VerificationRow] {
        #expect(result.status == 0, "\(result.stderr)")
        // A refused suite's row has no value: "nan" in the JSON.
        let decoder = JSONDecoder()
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(
            positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        return try decoder.decode(VerificationReport.self, from: Data(result.stdout.utf8)).rows
    }

    @Test(
        "an exact C engine's spring rows are the built-in analytic ones within 1e-12, the protocol route's exactly; it refuses decays and curves"
    )
    func exactEngine() throws {
        let library = try Self.exact()
        let shard = ["--shard", "2/4", "--format", "json"]
        let viaLibrary = try Self.rows(
            try kinetics(["verify", "--engine-library", library, "--no-schemes"] + shard))
        let builtIn = try Self.rows(try kinetics(["verify", "--suite", "spring", "--method", "analytic"] + shard))
        // Measured against GSL (rk8pd at 1e-13), the analytic method's error
        // is GSL's own, about 1e-11; an engine that computes the same
        // closed form differs from it by rounding only: a few ulps of the
        // amplitude per evaluation, far below 1e-12.
        for check in ["error", "frame-rate dependence"] {
            let expected = try #require(builtIn.first { $0.suite == "spring" && $0.check == check })
            let actual = try #require(viaLibrary.first { $0.suite == "spring" && $0.check == check })
            #expect(actual.cases == expected.cases, "\(check)")
            #expect(abs(actual.value - expected.value) <= 1e-12, "\(check): \(actual.value) vs \(expected.value)")
        }
        #expect(try #require(builtIn.first { $0.check == "error" }).value > 1e-12, "the comparison is not vacuous")
        for (suite, kind) in [("decay", 2), ("bezier", 3)] {
            let refused = try #require(viaLibrary.first { $0.suite == suite })
            #expect(refused.check == "refused")
            #expect(
                refused.location.contains(
                    "create refused it: exact-springs runs scalar springs only; animation 0 is of kind \(kind)"),
                "\(refused.location)")
        }
        // The same engine on the line protocol (`verify serve --library`,
        // one instance per case): the same numbers, digit for digit.
        let binary = try kineticsBinary().path
        let viaProtocol = try Self.rows(
            try kinetics(
                [
                    "verify", "--suite", "spring", "--no-schemes", "--engine-command",
                    "\(binary) verify serve --library \(library)",
                ]
                    + shard))
        let springRows = viaLibrary.filter { $0.suite == "spring" }
        #expect(springRows.count == 3)
        #expect(springRows.map(\.check) == viaProtocol.map(\.check))
        for (library, command) in zip(springRows, viaProtocol) {
            #expect(
                [library.value, library.rms] == [command.value, command.rms] && library.location == command.location,
                "\(library.check)")
        }
    }

    @Test("the library route names the exact engine's scheme, and a gate holds it")
    func schemeAndGate() throws {
        let library = try Self.exact()
        let result = try kinetics(
            "verify", "--suite", "spring", "--shard", "1/17", "--engine-library", library, "--tolerance",
            "engine=1e-9")
        #expect(result.status == 0, "\(result.stderr)")
        let scheme = try #require(result.lines.first { $0.contains(" scheme at 60 Hz ") })
        #expect(scheme.contains("exact closed form in"), "\(scheme)")
        #expect(
            result.stdout.contains("Engine: exact-springs, 54 of 54 cases answered, shard 1/17."), "\(result.stdout)")
    }

    /// A library of explicit Euler springs: one step per frame, wrong by a
    /// step's error.
    static let eulerSource = """
        #include <stdlib.h>
        #include "kinetics_engine.h"
        typedef struct { int64_t n; double *x, *v, *k, *c, *m, *to; double t; } euler;
        static void *e_create(const kinetics_workload *w, char *error, size_t size) {
            (void)error; (void)size;
            euler *e = calloc(1, sizeof *e);
            e->n = w->count;
            double **columns[] = {&e->x, &e->v, &e->k, &e->c, &e->m, &e->to};
            for (int i = 0; i < 6; i++) *columns[i] = calloc((size_t)w->count + 1, sizeof(double));
            for (int64_t i = 0; i < w->count; i++) {
                e->x[i] = w->initial[i]; e->v[i] = w->animations[i].velocity;
                e->k[i] = w->animations[i].tension; e->c[i] = w->animations[i].friction;
                e->m[i] = w->animations[i].mass; e->to[i] = w->animations[i].to;
            }
            return e;
        }
        static void e_replace(void *h, int64_t i, const kinetics_animation *a) { (void)h; (void)i; (void)a; }
        static void e_retarget(void *h, int64_t i, double to) { ((euler *)h)->to[i] = to; }
        static void e_tick(void *h, double time) {
            euler *e = h;
            double dt = time - e->t;
            e->t = time;
            for (int64_t i = 0; i < e->n; i++) {
                double a = (-e->k[i] * (e->x[i] - e->to[i]) - e->c[i] * e->v[i]) / e->m[i];
                e->x[i] += dt * e->v[i];
                e->v[i] += dt * a;
            }
        }
        static double e_value(const void *h, int64_t i) { return ((const euler *)h)->x[i]; }
        static int64_t e_running(const void *h) { return ((const euler *)h)->n; }
        static void e_destroy(void *h) {
            euler *e = h;
            free(e->x); free(e->v); free(e->k); free(e->c); free(e->m); free(e->to); free(e);
        }
        static const kinetics_engine table = KINETICS_ENGINE_TABLE(e, "explicit-euler");
        uint32_t kinetics_engine_abi_version(void) { return KINETICS_ENGINE_ABI_VERSION; }
        const kinetics_engine *kinetics_engine_table(void) { return &table; }
        """

    @Test("a wrong engine fails its gate, naming the row; --engine-name renames it")
    func wrongEngine() throws {
        let library = try BenchEngineLibraryTests.library(Self.eulerSource, named: "explicit_euler")
        let result = try kinetics(
            "verify", "--suite", "spring", "--shard", "1/17", "--no-schemes", "--engine-library", library,
            "--engine-name", "euler", "--tolerance", "engine=1e-3")
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr.contains("check failed: spring euler error"), "\(result.stderr)")
        let row = try #require(result.lines.first { $0.hasPrefix("spring  euler  error ") })
        #expect(row.contains(" FAIL "), "\(row)")
    }

    @Test(
        "an engine that takes so many animations at a time is run in smaller batches; a version 1 library's moving springs are refused"
    )
    func batchesAndVersions() throws {
        // soa_springs holds at most 64 distinct springs: the grid's batches
        // are halved until it takes them, and every case is answered.
        let soa = try BenchEngineLibraryTests.example()
        let halved = try kinetics(
            "verify", "--suite", "spring", "--shard", "1/2", "--no-schemes", "--engine-library", soa)
        #expect(halved.status == 0, "\(halved.stderr)")
        #expect(
            halved.stdout.contains("Engine: soa-springs, 462 of 462 cases answered, shard 1/2."), "\(halved.stdout)")
        // Its per-frame exact transitions land within 1e-9 of GSL's motion.
        let error = try #require(halved.lines.first { $0.hasPrefix("spring  soa-springs  error ") })
        let value = try #require(Double(error.split(separator: " ", omittingEmptySubsequences: true)[4]))
        #expect(value < 1e-9, "\(error)")
        // Version 1 cannot start a spring moving: the spring suite is refused, saying why.
        let older = try BenchEngineLibraryTests.olderExample(library: 1, table: 1)
        let refused = try kinetics(
            "verify", "--suite", "spring", "--shard", "1/17", "--no-schemes", "--engine-library", older)
        #expect(refused.status == 0, "\(refused.stderr)")
        #expect(
            refused.stderr.contains("an engine library of interface version 1 starts springs at rest, and case spring/")
                && refused.stderr.contains("build it against kinetics_engine.h version 2"), "\(refused.stderr)")
        #expect(refused.lines.contains { $0.hasPrefix("spring  soa-springs-v1  refused ") })
    }

    @Test(
        "a missing library exits 66, one that is no engine library 65, and the routes are alternatives (64)",
        arguments: [
            (["--engine-library", "/nonexistent/libengine.so"], 66, "/nonexistent/libengine.so: no such file"),
            (["--engine-library", "/etc/hostname"], 65, "/etc/hostname: not a loadable library"),
            (
                ["--engine-library", "x.so", "--engine-command", "true"], 64,
                "--engine-command, --engine-library, --export-cases and --results are alternatives; give one"
            ),
            (
                ["--engine-library", "x.so", "--method", "rk4"], 64,
                "--method picks built-in methods; an engine run has none"
            ),
        ] as [([String], Int32, String)])
    func faults(arguments: [String], status: Int32, message: String) throws {
        let result = try kinetics(["verify"] + arguments)
        #expect(result.status == status, "\(result.stderr)")
        #expect(result.stderr.contains(message), "\(result.stderr)")
        #expect(result.stdout.isEmpty)
    }

    @Test(
        "a region: --only-fps, --damping-ratio, --natural-frequency and --stable-under ask fewer cases and name the region; bad values exit 64"
    )
    func region() throws {
        let library = try Self.exact()
        let region = [
            "--only-fps", "60", "--only-fps", "120", "--damping-ratio", "0.5:1.5", "--natural-frequency", "1:40",
            "--stable-under", "velocity-first symplectic Euler, damping as a force, 1 step per frame",
        ]
        let run = try kinetics(
            ["verify", "--engine-library", library, "--suite", "spring", "--format", "json"] + region)
        #expect(run.status == 0, "\(run.stderr)")
        let report = try VerificationReport(json: Data(run.stdout.utf8))
        let measures = try #require(report.engineMeasures)
        #expect(measures.casesAsked > 0 && measures.casesAsked < 918 / 6, "\(measures.casesAsked)")
        #expect(measures.region?.frameRates == [60, 120] && measures.region?.dampingRatio == 0.5 ... 1.5)
        #expect(
            report.text.contains(
                "Region: frame rates 60, 120; ζ in [0.5, 1.5]; ω₀ in [1, 40] rad/s; springs that velocity-first symplectic Euler, damping as a force, 1 step per frame steps stably (the cases outside it were not asked)."
            ), "\(report.text)")
        for (arguments, message) in [
            (["--only-fps", "50"], "--only-fps must be one of the grid's, 30, 60, 90, 120, 144, 240, got 50"),
            (["--damping-ratio", "2:1"], "--damping-ratio must be LOW:HIGH with LOW <= HIGH"),
            (["--natural-frequency", "-1:2"], "--natural-frequency must be LOW:HIGH with 0 <= LOW <= HIGH"),
            (["--stable-under", "Euler"], "--stable-under must name a spring scheme of kinetics compare, one of: "),
        ] {
            let bad = try kinetics(["verify", "--engine-library", library] + arguments)
            #expect(bad.status == 64 && bad.stderr.contains(message), "\(arguments): \(bad.stderr)")
        }
        let noEngine = try kinetics(["verify", "--only-fps", "60"])
        #expect(noEngine.status == 64 && noEngine.stderr.contains("restrict an engine run"), "\(noEngine.stderr)")
    }
}
