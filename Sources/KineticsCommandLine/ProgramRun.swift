import Foundation

/// What a program's run left: its status, its output, whether it was ended.
struct ProgramRun {
    var status: Int32
    var stdout: Data
    var stderr: String
    var timedOut: Bool
}

/// Runs `executable` with `arguments` (and `environment` over this
/// process's), its output and errors into temporary files so that no pipe
/// fills, and ends it after `timeout` seconds.
func runProgram(
    _ executable: String, _ arguments: [String], environment: [String: String] = [:], timeout: Double = .infinity
) throws -> ProgramRun {
    let folder = FileManager.default.temporaryDirectory
    let token = UUID().uuidString
    let outURL = folder.appendingPathComponent("kinetics-run-\(token).out")
    let errURL = folder.appendingPathComponent("kinetics-run-\(token).err")
    for url in [outURL, errURL] where !FileManager.default.createFile(atPath: url.path, contents: nil) {
        throw CLIError(message: "cannot create \(url.path) for a program's output", status: .cannotWrite)
    }
    defer {
        try? FileManager.default.removeItem(at: outURL)
        try? FileManager.default.removeItem(at: errURL)
    }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    process.standardInput = FileHandle.nullDevice
    process.standardOutput = try FileHandle(forWritingTo: outURL)
    process.standardError = try FileHandle(forWritingTo: errURL)
    let done = DispatchSemaphore(value: 0)
    process.terminationHandler = { _ in done.signal() }
    do {
        try process.run()
    } catch {
        throw CLIError(message: "cannot run \(executable): \(error.localizedDescription)", status: .badData)
    }
    var timedOut = false
    if timeout.isFinite, done.wait(timeout: .now() + timeout) == .timedOut {
        timedOut = true
        end(process, done)
    } else if !timeout.isFinite {
        done.wait()
    }
    return ProgramRun(
        status: process.terminationStatus, stdout: (try? Data(contentsOf: outURL)) ?? Data(),
        stderr: (try? String(contentsOf: errURL, encoding: .utf8)) ?? "", timedOut: timedOut)
}

/// Ends `process` and whatever it started: Foundation runs a program as the
/// leader of a process group of its own, and sees its end when every
/// process holding a descriptor it passed down has exited, so a shell's
/// children (`sh -c "sleep 30"`) kept a run going until they finished.
/// The whole group gets SIGTERM, then SIGKILL if it is still there after a
/// second.
private func end(_ process: Process, _ done: DispatchSemaphore) {
    let pid = process.processIdentifier
    let group = getpgid(pid) == pid ? -pid : pid
    kill(group, SIGTERM)
    if done.wait(timeout: .now() + 1) == .timedOut {
        kill(group, SIGKILL)
        done.wait()
    }
}
