import CKineticsEngine
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// An engine loaded from a shared library that exports the C interface of
/// `kinetics_engine.h` (`kinetics_engine_abi_version` and
/// `kinetics_engine_table`). Loading registers it under its table's name, so
/// that ``BenchConfiguration``s name it like a built-in engine.
///
/// The library stays loaded for the life of the process. A crash inside the
/// engine ends the process: nothing in-process can contain it.
public struct EngineLibrary: Sendable {
    /// The path it was loaded from.
    public let path: String
    /// The engine, named by its table or by the label it was loaded as.
    public let engine: BenchEngine
    /// The name in the library's table.
    public let tableName: String
    /// The interface version the library speaks (`kinetics_engine_abi_version`).
    package let version: UInt32
    /// Its table.
    let loaded: LoadedTable

    /// Loads the library at `path` and registers its engine, under
    /// `label` when one is given (`kinetics gate` loads two builds of one
    /// engine as `before` and `after`) and under its table's name otherwise.
    ///
    /// - Throws: ``EngineLibraryError``: `missing` when nothing is at the
    ///   path; `unusable` for a file that does not load, lacks a function,
    ///   speaks another interface version, has a NULL function in its table,
    ///   or names its engine as no engine may be named.
    public static func load(_ path: String, as label: String? = nil) throws(EngineLibraryError) -> EngineLibrary {
        var status = stat()
        guard stat(path, &status) == 0 else { throw .missing(path: path) }
        // A name without a slash would be searched for on the library path.
        let file = path.contains("/") ? path : "./" + path
        guard let handle = dlopen(file, RTLD_NOW | RTLD_LOCAL) else {
            let reason = dlerror().map { String(cString: $0) } ?? "dlopen failed"
            throw .unusable(path: path, reason: "not a loadable library (\(reason))")
        }
        func symbol(_ name: String) throws(EngineLibraryError) -> UnsafeMutableRawPointer {
            guard let address = dlsym(handle, name) else {
                throw .unusable(
                    path: path,
                    reason:
                        "exports no \(name); an engine library exports kinetics_engine_abi_version and kinetics_engine_table (kinetics_engine.h)"
                )
            }
            return address
        }
        let version = unsafeBitCast(
            try symbol("kinetics_engine_abi_version"), to: kinetics_engine_abi_version_function.self)()
        guard CEngine.versions.contains(version) else {
            throw .unusable(
                path: path,
                reason: "built for engine interface version \(version); this kinetics speaks \(CEngine.versionsSpoken)"
            )
        }
        let tableFunction = unsafeBitCast(
            try symbol("kinetics_engine_table"), to: kinetics_engine_table_function.self)
        guard let table = tableFunction()?.pointee else {
            throw .unusable(path: path, reason: "kinetics_engine_table returned NULL")
        }
        if let problem = CEngine.problem(with: table) { throw .unusable(path: path, reason: problem) }
        guard table.abi_version == version else {
            throw .unusable(
                path: path,
                reason:
                    "kinetics_engine_abi_version returns \(version) but its table's abi_version is \(table.abi_version)"
            )
        }
        let name = table.name.map { String(cString: $0) } ?? ""
        let loaded = LoadedTable(table: table)
        let engine = try EngineRegistry.register(name: label ?? name, origin: path) { workload throws(BenchError) in
            try CEngine(loaded.table, workload: workload)
        }
        return EngineLibrary(path: path, engine: engine, tableName: name, version: version, loaded: loaded)
    }
}

/// A table of a loaded library: its function pointers stay valid while the
/// library is loaded, which is for the life of the process.
struct LoadedTable: @unchecked Sendable {
    let table: kinetics_engine
}
