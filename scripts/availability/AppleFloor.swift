// The checks of scripts/apple-availability.sh, which builds this file:
//
//   AppleFloor interfaces PACKAGE_JSON TOOLCHAIN_MODULES OUTPUT MODULE...
//       Copies the toolchain's module interfaces with their Apple
//       availability made checkable on Linux. A declaration (or an `if
//       #available` condition) whose shorthand Apple availability names a
//       version newer than the package's floor for some Apple platform gets,
//       instead, one custom availability domain that is declared disabled
//       for the package's modules (and always enabled for the toolchain's
//       own, which were never checked against Apple availability on Linux).
//       A module compiled against these copies fails where it uses such a
//       declaration: "'Atomic' is only available in macOS15_0_iOS18_0_…".
//       The floor is the `platforms` of PACKAGE_JSON (`swift package
//       dump-package`); OUTPUT receives `linux/MODULE.swiftmodule/` for each
//       module and the Clang module that declares the domains, `floor/`.
//
//   AppleFloor modules BUILD_MANIFEST ROOT SDK FLOOR CACHE
//       Compiles (type-checks) every Swift module of the package whose
//       sources are under ROOT, with the flags of the build that made
//       BUILD_MANIFEST (`.build/debug.yaml`), against the resource folder SDK
//       that holds the copies; exits 1 naming each module that fails.
//
//   AppleFloor platform-calls FOLDER
//       Every use of a name only glibc has (`Glibc.`, `environ`, `/proc`) in
//       the Swift files under FOLDER must be in an `#if` branch on Glibc or
//       Linux whose `#if` has another branch (Darwin's, or `#else`).

import Foundation

/// The platforms that a floor names, in the order domain names list them.
let applePlatforms = ["macOS", "iOS", "tvOS", "watchOS", "visionOS"]

struct Version: Comparable, CustomStringConvertible {
    var parts: [Int]

    init?(_ text: Substring) {
        let numbers = text.split(separator: ".", omittingEmptySubsequences: false).map { Int($0) }
        guard !numbers.isEmpty, numbers.allSatisfy({ $0 != nil }) else { return nil }
        parts = numbers.map { $0! }
    }

    static func < (lhs: Version, rhs: Version) -> Bool {
        for index in 0 ..< max(lhs.parts.count, rhs.parts.count) {
            let left = index < lhs.parts.count ? lhs.parts[index] : 0
            let right = index < rhs.parts.count ? rhs.parts[index] : 0
            if left != right { return left < right }
        }
        return false
    }

    static func == (lhs: Version, rhs: Version) -> Bool { !(lhs < rhs) && !(rhs < lhs) }

    var description: String { parts.map(String.init).joined(separator: ".") }
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("apple-availability: \(message)\n".utf8))
    exit(64)
}

/// The domain that replaces a shorthand list such as `macOS 26.0, iOS 26.0, *`,
/// or nil when the list is not shorthand or no version in it is past the floor.
func domain(for list: Substring, floor: [String: Version]) -> String? {
    var versions: [String: Version] = [:]
    for item in list.split(separator: ",") {
        let words = item.split(separator: " ")
        if words == ["*"] { continue }
        guard words.count == 2, let version = Version(words[1]) else { return nil }
        versions[String(words[0])] = version
    }
    let newer = versions.contains { platform, version in
        floor[platform].map { version > $0 } ?? false
    }
    guard newer else { return nil }
    return applePlatforms.compactMap { platform in
        versions[platform].map { "\(platform)\($0.parts.map(String.init).joined(separator: "_"))" }
    }.joined(separator: "_")
}

/// The text with each `@available(` and `#available(` list past the floor
/// replaced by its domain; the domains used are added to `domains`.
func rewrite(_ text: String, floor: [String: Version], domains: inout Set<String>) -> (String, Int) {
    var output = ""
    var rest = Substring(text)
    var count = 0
    while let marker = rest.range(of: "available(") {
        let head = rest[..<marker.lowerBound]
        let sigil = head.last
        output += rest[..<marker.upperBound]
        rest = rest[marker.upperBound...]
        guard sigil == "@" || sigil == "#", let close = rest.firstIndex(of: ")") else { continue }
        let list = rest[..<close]
        if !list.contains("("), let name = domain(for: list, floor: floor) {
            domains.insert(name)
            output += name
            rest = rest[close...]
            count += 1
        }
    }
    output += rest
    return (output, count)
}

/// The floor that `swift package dump-package` declares: `platforms`, keyed
/// by the platform names of `@available`.
func packageFloor(_ path: String) -> [String: Version] {
    let names = ["macos": "macOS", "ios": "iOS", "tvos": "tvOS", "watchos": "watchOS", "visionos": "visionOS"]
    guard let data = FileManager.default.contents(atPath: path),
        let package = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
        let platforms = package["platforms"] as? [[String: Any]], !platforms.isEmpty
    else { fail("\(path) declares no platforms: the package has no Apple floor to check against") }
    var floor: [String: Version] = [:]
    for platform in platforms {
        guard let name = (platform["platformName"] as? String).flatMap({ names[$0] }),
            let text = platform["version"] as? String, let version = Version(Substring(text))
        else { fail("\(path): a platform this check does not know: \(platform)") }
        floor[name] = version
    }
    for name in applePlatforms where floor[name] == nil {
        fail(
            "\(path) declares no \(name) floor; declare every Apple platform so that none defaults to SwiftPM's oldest")
    }
    return floor
}

func interfaces(_ arguments: [String]) throws {
    guard arguments.count >= 4 else {
        fail("usage: AppleFloor interfaces PACKAGE_JSON TOOLCHAIN_MODULES OUTPUT MODULE...")
    }
    let floor = packageFloor(arguments[0])
    let source = URL(fileURLWithPath: arguments[1])
    let output = URL(fileURLWithPath: arguments[2])
    let files = FileManager.default
    var domains: Set<String> = []
    for module in arguments[3...] {
        let folder = source.appendingPathComponent("\(module).swiftmodule")
        let names = (try? files.contentsOfDirectory(atPath: folder.path)) ?? []
        let interfaces = names.filter { $0.hasSuffix(".swiftinterface") && !$0.hasSuffix(".private.swiftinterface") }
        guard interfaces.count == 1, let name = interfaces.first else {
            fail("\(folder.path) holds \(interfaces.count) public .swiftinterface files, not 1")
        }
        guard let text = try? String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8) else {
            fail("cannot read \(folder.appendingPathComponent(name).path)")
        }
        var (rewritten, count) = rewrite(text, floor: floor, domains: &domains)
        // The module imports the domains' Clang module and compiles with
        // them always enabled (KINETICS_FLOOR_OPEN): its own code is not
        // what is checked.
        guard let flags = rewritten.range(of: "// swift-module-flags: "),
            let firstImport = rewritten.range(of: "\nimport ")
        else { fail("\(name) of \(module) has no swift-module-flags line or no import") }
        rewritten.insert(contentsOf: "\nimport KineticsAppleFloor", at: firstImport.lowerBound)
        rewritten.insert(
            contentsOf: "-enable-experimental-feature CustomAvailability -Xcc -DKINETICS_FLOOR_OPEN ",
            at: flags.upperBound)
        let target = output.appendingPathComponent("linux/\(module).swiftmodule")
        try files.createDirectory(at: target, withIntermediateDirectories: true)
        try rewritten.write(to: target.appendingPathComponent(name), atomically: true, encoding: .utf8)
        print("\(module): \(count) availability lists past the floor")
    }
    let header =
        "#include <availability_domain.h>\n#ifdef KINETICS_FLOOR_OPEN\n"
        + "#define KINETICS_FLOOR(domain) CLANG_ALWAYS_ENABLED_AVAILABILITY_DOMAIN(domain)\n#else\n"
        + "#define KINETICS_FLOOR(domain) CLANG_DISABLED_AVAILABILITY_DOMAIN(domain)\n#endif\n"
        + domains.sorted().map { "KINETICS_FLOOR(\($0));\n" }.joined()
    let floorFolder = output.appendingPathComponent("floor")
    try files.createDirectory(at: floorFolder, withIntermediateDirectories: true)
    try header.write(to: floorFolder.appendingPathComponent("floor.h"), atomically: true, encoding: .utf8)
    try "module KineticsAppleFloor {\n    header \"floor.h\"\n    export *\n}\n".write(
        to: floorFolder.appendingPathComponent("module.modulemap"), atomically: true, encoding: .utf8)
}

/// The arguments of each Swift module's compile command in a build
/// manifest, by module name, for the modules whose sources are under `root`.
func moduleCommands(manifest: String, root: String) -> [(module: String, arguments: [String])] {
    guard let text = try? String(contentsOfFile: manifest, encoding: .utf8) else {
        fail("cannot read \(manifest): build the package first (swift build --build-tests)")
    }
    var commands: [(String, [String])] = []
    for line in text.split(separator: "\n") where line.hasPrefix("    args: [") {
        let json = line.dropFirst("    args: ".count)
        guard let arguments = try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String],
            arguments.first?.hasSuffix("swiftc") == true,
            let nameIndex = arguments.firstIndex(of: "-module-name"), nameIndex + 1 < arguments.count,
            let sources = arguments.first(where: { $0.hasPrefix("@") && $0.hasSuffix("/sources") })
        else { continue }
        let listed = (try? String(contentsOfFile: String(sources.dropFirst()), encoding: .utf8)) ?? ""
        let files = listed.split(separator: "\n")
        guard !files.isEmpty, files.allSatisfy({ $0.hasPrefix(root + "/") && !$0.contains("/.build") }) else {
            continue
        }
        commands.append((arguments[nameIndex + 1], arguments))
    }
    return commands
}

/// A compile command turned into a type-check of the whole module against
/// the copies: the build's outputs dropped, the resource folder replaced.
func typeCheck(_ arguments: [String], sdk: String, floor: String, cache: String) -> [String] {
    let dropped: Set<String> = [
        "-emit-dependencies", "-emit-module", "-incremental", "-c", "-enable-batch-mode", "-serialize-diagnostics",
        "-parseable-output", "-emit-objc-header", "-enable-testing", "-g",
    ]
    let droppedWithValue: Set<String> = [
        "-emit-module-path", "-output-file-map", "-index-store-path", "-emit-objc-header-path", "-module-cache-path",
        "-j",
    ]
    var result: [String] = []
    var index = 1
    while index < arguments.count {
        let argument = arguments[index]
        if argument == "-Xcc" || argument == "-Xfrontend", index + 1 < arguments.count {
            result += [argument, arguments[index + 1]]
            index += 2
            continue
        }
        if droppedWithValue.contains(argument) {
            index += 2
            continue
        }
        if !dropped.contains(argument) && !argument.hasPrefix("-j") { result.append(argument) }
        index += 1
    }
    return result + ["-typecheck", "-wmo", "-resource-dir", sdk, "-I", floor, "-module-cache-path", cache]
}

func modules(_ arguments: [String]) throws {
    guard arguments.count == 5 else { fail("usage: AppleFloor modules BUILD_MANIFEST ROOT SDK FLOOR CACHE") }
    let commands = moduleCommands(manifest: arguments[0], root: arguments[1])
    guard !commands.isEmpty else { fail("\(arguments[0]) compiles no Swift module under \(arguments[1])") }
    let swiftc = commands[0].arguments[0]
    let sorted = commands.sorted(by: { $0.module < $1.module })
    // One type-check a core at a time; each prints its lines when all are done, in order.
    let jobs = max(1, ProcessInfo.processInfo.activeProcessorCount)
    let results = UnsafeMutableBufferPointer<(status: Int32, errors: [String])?>.allocate(capacity: sorted.count)
    results.initialize(repeating: nil)
    defer { results.deallocate() }
    DispatchQueue.concurrentPerform(iterations: jobs) { lane in
        for index in stride(from: lane, to: sorted.count, by: jobs) {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: swiftc)
            process.arguments = typeCheck(
                sorted[index].arguments, sdk: arguments[2], floor: arguments[3], cache: arguments[4])
            let pipe = Pipe()
            process.standardOutput = pipe
            process.standardError = pipe
            do { try process.run() } catch { fail("cannot run \(swiftc): \(error)") }
            let output = pipe.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            let lines = String(decoding: output, as: UTF8.self).split(separator: "\n")
            results[index] = (
                process.terminationStatus,
                lines.filter { $0.contains("error: ") && !$0.hasPrefix(" ") }.map(String.init)
            )
        }
    }
    var failed: [String] = []
    for (index, (module, _)) in sorted.enumerated() {
        let result = results[index]!
        if result.status == 0 {
            print("\(module): builds at the floor")
        } else {
            failed.append(module)
            print("\(module): does not build at the floor (\(result.errors.count) errors)")
            for error in result.errors { print("  \(error)") }
        }
    }
    if !failed.isEmpty {
        print(
            "apple-availability: \(failed.count) of \(commands.count) modules use what the floor lacks: \(failed.joined(separator: ", "))"
        )
        exit(1)
    }
    print("apple-availability: all \(commands.count) modules build at the floor")
}

/// An `#if` and its branches, by line.
struct Conditional {
    var branches: [(line: Int, condition: String)] = []
    var end = Int.max
}

func platformCalls(_ arguments: [String]) throws {
    guard arguments.count == 1 else { fail("usage: AppleFloor platform-calls FOLDER") }
    let root = URL(fileURLWithPath: arguments[0])
    guard let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil) else {
        fail("cannot read \(root.path)")
    }
    let names = ["Glibc.", "environ", "/proc"]
    var unguarded: [String] = []
    var uses = 0
    for case let url as URL in walker where url.pathExtension == "swift" {
        let lines = try String(contentsOf: url, encoding: .utf8).components(separatedBy: "\n")
        var open: [Conditional] = []
        var closed: [Conditional] = []
        for (number, line) in lines.enumerated() {
            let text = line.trimmingCharacters(in: .whitespaces)
            if text.hasPrefix("#if ") {
                open.append(Conditional(branches: [(number, String(text.dropFirst(4)))]))
            } else if text.hasPrefix("#elseif ") {
                open[open.count - 1].branches.append((number, String(text.dropFirst(8))))
            } else if text.hasPrefix("#else") {
                open[open.count - 1].branches.append((number, "else"))
            } else if text.hasPrefix("#endif"), var last = open.popLast() {
                last.end = number
                closed.append(last)
            }
        }
        for (number, line) in lines.enumerated() {
            let text = line.trimmingCharacters(in: .whitespaces)
            guard !text.hasPrefix("//"), !text.hasPrefix("#if"), !text.hasPrefix("#elseif") else { continue }
            for name in names where containsName(text, name) {
                uses += 1
                let guarded = closed.contains { conditional in
                    guard let branch = conditional.branches.last(where: { $0.line < number }), number < conditional.end
                    else { return false }
                    let linuxOnly = branch.condition.contains("Glibc") || branch.condition.contains("os(Linux)")
                    return linuxOnly && conditional.branches.count > 1
                }
                if !guarded {
                    unguarded.append(
                        "\(url.path):\(number + 1): '\(name)' outside an #if on Glibc or Linux with another branch")
                }
            }
        }
    }
    for line in unguarded { print(line) }
    guard unguarded.isEmpty else {
        print("platform-calls: \(unguarded.count) of \(uses) uses of glibc-only names are unguarded")
        exit(1)
    }
    print("platform-calls: all \(uses) uses of glibc-only names are in a Glibc or Linux branch beside another")
}

/// Whether `text` uses `name`: `environ` as a whole word only.
func containsName(_ text: String, _ name: String) -> Bool {
    guard name == "environ" else { return text.contains(name) }
    var rest = Substring(text)
    while let range = rest.range(of: name) {
        let before = rest[..<range.lowerBound].last
        let after = rest[range.upperBound...].first
        let isWord = { (character: Character?) in character.map { $0.isLetter || $0.isNumber || $0 == "_" } ?? false }
        if !isWord(before) && !isWord(after) { return true }
        rest = rest[range.upperBound...]
    }
    return false
}

let arguments = Array(CommandLine.arguments.dropFirst())
switch arguments.first {
case "interfaces": try interfaces(Array(arguments.dropFirst()))
case "modules": try modules(Array(arguments.dropFirst()))
case "platform-calls": try platformCalls(Array(arguments.dropFirst()))
default: fail("usage: AppleFloor interfaces|modules|platform-calls ...")
}
