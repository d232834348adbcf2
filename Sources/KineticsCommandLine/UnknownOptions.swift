import ArgumentParser
import Foundation

/// Finds an option the command line's command does not have, so that a
/// typo is reported before anything the typo itself may have caused:
/// swift-argument-parser validates the options it recognised (`--tension
/// needs --friction`) before it complains of those it did not (`--fricton`).
///
/// The commands and their options come from the parser's own description
/// of the tool (`--experimental-dump-help`), so nothing here restates them.
enum UnknownOptions {
    /// The part of the parser's description of a command read here.
    private struct CommandInfo: Decodable {
        struct Argument: Decodable {
            struct Name: Decodable {
                var kind: String
                var name: String
            }
            var kind: String
            var names: [Name]?
            var parsingStrategy: String
        }
        var commandName: String
        var subcommands: [CommandInfo]?
        var arguments: [Argument]?
    }

    private struct ToolInfo: Decodable {
        var command: CommandInfo
    }

    /// "Unknown option '--fricton'. Did you mean '--friction'?" for the
    /// first long option in `arguments` that the command they invoke does
    /// not have; nil when there is none, or when the tool cannot be
    /// described.
    ///
    /// Only the invoked command is described (the subcommands named at the
    /// start of `arguments`, or the default one): describing the whole tool
    /// validates every command's definition, which took a debug build a
    /// quarter of a second at each usage error.
    static func first<Command: ParsableCommand>(in arguments: [String], of _: Command.Type) -> String? {
        let path = invoked(Command.self, by: arguments)
        let description: String
        do {
            _ = try Command.parseAsRoot(path + ["--experimental-dump-help"])
            return nil
        } catch {
            description = Command.fullMessage(for: error)
        }
        guard let tool = try? JSONDecoder().decode(ToolInfo.self, from: Data(description.utf8)) else { return nil }
        var command = tool.command
        var takesValue = false
        for argument in arguments {
            if takesValue {
                takesValue = false
                continue
            }
            if argument == "--" { return nil }
            let options = command.arguments ?? []
            // A command that passes on what it does not know has no unknown options.
            if options.contains(where: { $0.parsingStrategy == "allUnrecognized" }) { return nil }
            guard argument.hasPrefix("--") else {
                if let sub = command.subcommands?.first(where: { $0.commandName == argument }) { command = sub }
                continue
            }
            let name = String(argument.dropFirst(2).prefix { $0 != "=" })
            let known = options.filter { option in
                option.names?.contains { $0.kind == "long" && $0.name == name } == true
            }
            if let option = known.first {
                takesValue = option.kind == "option" && !argument.contains("=")
                continue
            }
            if ["help", "version", "experimental-dump-help"].contains(name) { continue }
            let allNames: [CommandInfo.Argument.Name] = options.flatMap { $0.names ?? [] }
            let names: [String] = allNames.filter { $0.kind == "long" }.map(\.name)
            var message = "Unknown option '--\(name)'."
            if let nearest = names.min(by: { distance($0, name) < distance($1, name) }), distance(nearest, name) <= 2 {
                message += " Did you mean '--\(nearest)'?"
            }
            return message
        }
        return nil
    }

    /// The names of the subcommands that `arguments` invoke: those they
    /// start with, then the default subcommand of the last, if it has one.
    static func invoked(_ root: any ParsableCommand.Type, by arguments: [String]) -> [String] {
        var path: [String] = []
        var command = root
        var rest = arguments[...]
        while true {
            let subcommands = command.configuration.subcommands
            if let name = rest.first, let sub = subcommands.first(where: { $0._commandName == name }) {
                path.append(name)
                command = sub
                rest = rest.dropFirst()
            } else if let sub = command.configuration.defaultSubcommand {
                path.append(sub._commandName)
                command = sub
            } else {
                return path
            }
        }
    }

    /// The edit distance of two names (insertions, deletions and
    /// substitutions).
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a)
        let b = Array(b)
        guard !a.isEmpty, !b.isEmpty else { return max(a.count, b.count) }
        var previous = Array(0 ... b.count)
        for i in 1 ... a.count {
            var current = [i] + [Int](repeating: 0, count: b.count)
            for j in 1 ... b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }
}
