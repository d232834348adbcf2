import Foundation
import KineticsTestSupport
import Testing

/// The toolkits' adapter and recorder (scripts/engines/qt.py,
/// scripts/recorders/browser.py, which curves.py calls): without its toolkit each
/// says what to install and exits 69, and `verify` passes the adapter's
/// line on and stops with 65. (The toolkits' answers themselves are
/// recorded under data/traces and held in RealEngineTraceTests.)
@Suite("CLI: the toolkits' scripts without their toolkit")
struct ToolkitScriptTests {
    static let scripts = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("scripts")

    @Test("qt.py without PySide6 (python3 -S hides site-packages): exit 69 naming pip's command; verify exits 65")
    func qtWithoutPySide() throws {
        let adapter = Self.scripts.appendingPathComponent("engines/qt.py").path
        let run = try shell("python3 -S '\(adapter)' < /dev/null")
        #expect(run.status == 69)
        #expect(run.stderr == "qt.py: PySide6 is not installed: python3 -m pip install PySide6\n", "\(run.stderr)")
        let verify = try kinetics(["verify", "--suite", "bezier", "--engine-command", "python3 -S '\(adapter)'"])
        #expect(verify.status == 65)
        #expect(verify.stderr.contains("qt.py: PySide6 is not installed"), "\(verify.stderr)")
        #expect(verify.stderr.contains("the engine exited with status 69"), "\(verify.stderr)")
    }

    @Test(
        "browser.py with no browser on the PATH: exit 69 naming the Debian package; an unknown browser 64",
        arguments: [("firefox", "apt-get install firefox-esr"), ("chromium", "apt-get install chromium")])
    func browserMissing(browser: String, install: String) throws {
        let folder = try temporaryFolder("toolkit-scripts")
        defer { try? FileManager.default.removeItem(at: folder) }
        let recorder = Self.scripts.appendingPathComponent("recorders/browser.py").path
        // The interpreter itself (not a launcher that needs the PATH) is
        // found first; the script then sees an empty PATH.
        let interpreter = "$(python3 -c 'import sys; print(sys.executable)')"
        let run = try shell(
            "PATH=/nonexistent \"\(interpreter)\" '\(recorder)' \(browser) /dev/null '\(folder.path)/answers.jsonl'")
        #expect(run.status == 69)
        #expect(run.stderr == "browser.py: \(browser) is not installed: \(install)\n", "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("answers.jsonl").path))
        let usage = try shell("python3 '\(recorder)' safari /dev/null /dev/null")
        #expect(usage.status == 64)
    }
}
