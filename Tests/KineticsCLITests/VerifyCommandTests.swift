import Foundation
import KineticsTestSupport
import Testing

@Suite("CLI: verify")
struct VerifyCommandTests {
    @Test("a tightened tolerance exits 1 and names the failing row on stderr")
    func tightenedToleranceFails() throws {
        let result = try kinetics("verify", "--suite", "conversions", "--tolerance", "conversions.settling=1e-30")
        #expect(result.status == 1)
        #expect(result.stdout.contains("FAIL"))
        #expect(result.stderr.contains("kinetics: check failed: conversions settling duration vs GSL brent (relative)"))
        #expect(result.stderr.contains("exceeds conversions.settling = 1.00e-30"))
        #expect(result.stderr.hasSuffix("kinetics: error: 1 of 6 checks failed\n"))
    }

    @Test(
        "a NaN or an error of 1e-3 at one case of a checked mode exits 1 and names that case (test builds' fault hook)",
        arguments: [
            ("spring:rk4:17:nan", ["spring", "--method", "rk4"], "spring rk4 error: nan exceeds spring.rk4"),
            (
                "spring:analytic:3:1e-3", ["spring", "--method", "analytic"],
                "spring analytic error: 1.00e-03 exceeds spring.analytic"
            ),
            ("decay:exact:5:nan", ["decay", "--method", "exact"], "decay exact error vs discrete law: nan"),
            ("bezier:fast:6:1e-3", ["bezier", "--method", "fast"], "bezier fast error where"),
        ])
    func faultFails(fault: String, arguments: [String], message: String) throws {
        // The quarter of the grid that holds the spoilt case.
        let index = try #require(Int(fault.split(separator: ":")[2]))
        let shard = ["--shard", "\(index % 4 + 1)/4"]
        let result = try kinetics(
            ["verify", "--suite"] + arguments + shard, environment: ["KINETICS_TEST_FAULT": fault])
        #expect(result.status == 1, "\(fault): \(result.stderr)")
        #expect(result.stderr.contains("kinetics: check failed: \(message)"), "\(fault): \(result.stderr)")
        let named = fault.hasPrefix("bezier") ? "at cubic-bezier(" : "at k="
        #expect(result.stderr.contains(named) || result.stderr.contains("at d="), "\(fault): \(result.stderr)")
        // Without the fault the same shard passes.
        let clean = try kinetics(["verify", "--suite"] + arguments + shard)
        #expect(clean.status == 0, "without the fault: \(clean.stderr)")
    }

    @Test("--list-tolerances prints every tolerance with its reason, and docs/verify.md holds that table as printed")
    func listTolerances() throws {
        let result = try kinetics("verify", "--list-tolerances")
        #expect(result.status == 0 && result.stderr.isEmpty)
        #expect(result.lines.count == 2 + 14 + 4, "\(result.stdout)")
        #expect(result.lines.dropFirst(2).allSatisfy { $0.hasPrefix("| `") && $0.hasSuffix(" |") })
        let docs = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("docs/verify.md")
        let guide = try String(contentsOf: docs, encoding: .utf8)
        #expect(guide.contains(result.stdout), "docs/verify.md: paste the output of kinetics verify --list-tolerances")
    }

    @Test("the table lists suite, mode, check, cases, value, tolerance, result and where")
    func table() throws {
        let result = try kinetics("verify", "--suite", "decay")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.lines[3].split(separator: " ", omittingEmptySubsequences: true)
                == ["suite", "mode", "check", "cases", "value", "tolerance", "result", "where"])
        #expect(result.stdout.contains("decay  exact"))
        #expect(result.stdout.contains("Every tolerance held (2 checks)."))
        #expect(result.stderr.isEmpty, "no progress bar off a terminal")
    }

    @Test("JSON has the documented fields; markdown and CSV have one row per check")
    func formats() throws {
        struct Report: Decodable {
            struct Row: Decodable {
                let suite, mode, check: String
                let cases: Int
                let value: Double
                let tolerance: Double?
                let toleranceName: String?
                let passed: Bool?
                let location: String
                let parameters: [String: Double]
            }
            let formatVersion: Int
            let grid, reference: String
            let rows: [Row]
            let decayCases: [[String: AnyDecodable]]
        }
        struct AnyDecodable: Decodable { init(from decoder: Decoder) throws {} }
        let json = try kinetics("verify", "--suite", "decay", "--format", "json")
        let report = try decodeJSON(Report.self, json.stdout)
        #expect(report.formatVersion == 1 && report.grid == "quick" && report.reference.contains("GSL"))
        #expect(report.rows.map(\.mode) == ["pop", "exact", "continuous"])
        #expect(report.rows[0].passed == nil && report.rows[1].passed == true)
        #expect(report.decayCases.count == 40 * 6)
        let markdown = try kinetics("verify", "--suite", "decay", "--format", "markdown")
        #expect(markdown.lines.filter { $0.hasPrefix("| decay |") }.count == 3)
        let csv = try kinetics("verify", "--suite", "decay", "--format", "csv")
        #expect(
            csv.lines.first
                == "suite,mode,check,cases,value,rms,minimum,maximum,tolerance_name,tolerance,passed,where,note")
        #expect(csv.lines.count == 4)
    }

    @Test("--output writes the file whole; an unwritable path exits 73")
    func output() throws {
        let folder = try temporaryFolder("kinetics-verify")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("verify.json").path
        let result = try kinetics("verify", "--suite", "decay", "--format", "json", "--output", path)
        #expect(result.status == 0 && result.stdout.isEmpty)
        #expect(try String(contentsOfFile: path, encoding: .utf8).hasPrefix("{"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["verify.json"])
        let bad = try kinetics("verify", "--suite", "decay", "--output", "/nonexistent/folder/verify.txt")
        #expect(bad.status == 73)
        #expect(bad.stderr.hasPrefix("kinetics: error: cannot write /nonexistent/folder/verify.txt"))
    }

    @Test("usage errors exit 64 with one line")
    func usage() throws {
        for (arguments, message) in [
            (
                ["verify", "--method", "euler"],
                "--method must be one of pop, fixed, rk4, analytic, exact, continuous, webkit, precise, fast, got 'euler'"
            ),
            (["verify", "--tolerance", "spring.euler=1"], "unknown tolerance 'spring.euler'"),
            (
                ["verify", "--tolerance", "spring.rk4"],
                "--tolerance takes NAME=VALUE, for example spring.rk4=1e-8, got 'spring.rk4'"
            ),
            (["verify", "--tolerance", "spring.rk4=-1"], "tolerance spring.rk4 must be a finite number > 0, got -1.0"),
            (
                ["verify", "--jobs", "0"],
                "The value '0' is invalid for '--jobs <jobs>': the accepted values are whole numbers in [1, 1024]"
            ),
        ] {
            let result = try kinetics(arguments)
            #expect(result.status == 64, "\(arguments)")
            #expect(result.stderr.hasPrefix("kinetics: error: \(message)"), "\(result.stderr)")
            #expect(result.stderr.filter { $0 == "\n" }.count == 1)
        }
    }
}
