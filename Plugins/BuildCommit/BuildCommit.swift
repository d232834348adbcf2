import Foundation
import PackagePlugin

/// Writes `BuildCommit.swift` into the target before every build: the
/// commit of the package's checkout that the build compiles (`git rev-parse
/// --short=12 HEAD`), with `+changes` when the working tree differs from it,
/// or `unknown` without git or a repository (a source archive). The file is
/// rewritten only when that changes, so an unchanged checkout recompiles
/// nothing. `kinetics --version` prints it beside the version.
@main
struct BuildCommit: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let folder = context.pluginWorkDirectoryURL.appending(path: "generated")
        let script = """
            set -u
            commit=$(git -C "$1" rev-parse --short=12 HEAD 2>/dev/null) || commit=unknown
            if [ "$commit" != unknown ] && ! git -C "$1" diff --quiet HEAD -- 2>/dev/null; then commit="$commit+changes"; fi
            mkdir -p "$2"
            text="/// The commit this build compiled (Plugins/BuildCommit).
            package let buildCommit = \\"$commit\\""
            if [ "$(cat "$2/BuildCommit.swift" 2>/dev/null)" != "$text" ]; then printf '%s\\n' "$text" > "$2/BuildCommit.swift"; fi
            """
        return [
            .prebuildCommand(
                displayName: "The commit of \(context.package.displayName)",
                executable: URL(filePath: "/bin/sh"),
                arguments: ["-c", script, "build-commit", context.package.directoryURL.path, folder.path],
                outputFilesDirectory: folder)
        ]
    }
}
