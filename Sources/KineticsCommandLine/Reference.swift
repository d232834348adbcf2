import ArgumentParser
import Foundation
import KineticsVerify

/// `kinetics reference`: writes the GSL reference files the tests compare against.
struct Reference: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write the GSL reference trajectories and bezier tables (data/reference).",
        discussion:
            "The tests compare the solvers and a fresh GSL run with these files. Write them again only on purpose."
    )

    @Option(help: "The folder to write into (created if missing).")
    var output: String = "data/reference"

    func run() throws {
        let files: [ReferenceData.File]
        do {
            files = try ReferenceData.files()
        } catch {
            throw CLIError(message: "\(error)", status: .checkFailed)
        }
        do {
            try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
        } catch {
            throw CLIError(
                message: "cannot create \(output): \(error.localizedDescription)", status: .cannotWrite)
        }
        for file in files {
            try writeOutput(file.contents, to: (output as NSString).appendingPathComponent(file.name))
        }
        try writeOutput(ReferenceData.readme(files), to: (output as NSString).appendingPathComponent("README.md"))
        warnLine("wrote \(files.count) reference files and README.md to \(output)")
    }
}
