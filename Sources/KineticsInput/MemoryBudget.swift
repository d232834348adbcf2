import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// How much memory this process may still take, and a refusal, before the
/// work starts, of a job that would need more: a run that would end in the
/// kernel's out-of-memory kill or an allocation failure (a trap with a
/// backtrace) ends instead with one line naming the need and the limit.
package enum MemoryBudget {
    /// The bytes this process may still allocate: the least of what the
    /// system has available (`MemAvailable` in /proc/meminfo), what the
    /// address-space and data limits leave (`RLIMIT_AS`, `RLIMIT_DATA`, less
    /// what is mapped now) and what the process's cgroup leaves
    /// (`memory.max` less `memory.current`), with the limit that set it.
    /// Nil where none of these can be read (not Linux).
    package static func available() -> (bytes: Int, limit: String)? {
        var least: (bytes: Int, limit: String)?
        func consider(_ bytes: Int?, _ limit: String) {
            guard let bytes else { return }
            if least.map({ bytes < $0.bytes }) ?? true { least = (max(bytes, 0), limit) }
        }
        consider(meminfo("MemAvailable"), "the memory the system has available")
        let pages = mappedPages()
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        if let total = resourceLimit(.addressSpace) {
            consider(
                pages.map { total - $0.total * page }, "the address-space limit (ulimit -v) of \(megabytes(total))")
        }
        if let data = resourceLimit(.data) {
            consider(pages.map { data - $0.data * page }, "the data limit (ulimit -d) of \(megabytes(data))")
        }
        if let (limit, used) = cgroupMemory() {
            consider(limit - used, "the cgroup's memory limit of \(megabytes(limit))")
        }
        return least
    }

    /// Throws a sentence when `bytes` is more than ``available()``: `job`
    /// says what needs them and how they were estimated (`trace.csv:
    /// comparing up to 400002 samples (800 bytes a sample, and the file's
    /// 1600011)`).
    package static func check(_ bytes: Int, for job: String) throws(MemoryBudgetError) {
        guard let available = available(), bytes > available.bytes else { return }
        throw MemoryBudgetError(
            message:
                "\(job) needs up to \(megabytes(bytes)), more than the \(megabytes(available.bytes)) left by \(available.limit)"
        )
    }

    /// `1234 MB`.
    package static func megabytes(_ bytes: Int) -> String { "\((bytes + 999_999) / 1_000_000) MB" }

    /// A field of /proc/meminfo, in bytes (Linux).
    private static func meminfo(_ field: String) -> Int? {
        #if os(Linux)
            guard let text = try? String(contentsOfFile: "/proc/meminfo", encoding: .utf8) else { return nil }
            for line in text.split(separator: "\n") where line.hasPrefix(field + ":") {
                let number = line.dropFirst(field.count + 1).split(separator: " ").first.flatMap { Int($0) }
                return number.map { $0 * 1024 }
            }
            return nil
        #else
            return nil
        #endif
    }

    /// The process's mapped pages in all and its data pages (/proc/self/statm, Linux).
    private static func mappedPages() -> (total: Int, data: Int)? {
        #if os(Linux)
            guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return nil }
            let fields = text.split(separator: " ").compactMap {
                Int($0.trimmingCharacters(in: .whitespacesAndNewlines))
            }
            guard fields.count >= 6 else { return nil }
            return (fields[0], fields[5])
        #else
            return nil
        #endif
    }

    private enum Resource { case addressSpace, data }

    private static func resourceLimit(_ resource: Resource) -> Int? {
        var limit = rlimit()
        #if canImport(Glibc)
            let name = resource == .addressSpace ? RLIMIT_AS : RLIMIT_DATA
            guard getrlimit(__rlimit_resource_t(name.rawValue), &limit) == 0 else { return nil }
        #else
            guard getrlimit(resource == .addressSpace ? RLIMIT_AS : RLIMIT_DATA, &limit) == 0 else { return nil }
        #endif
        // RLIM_INFINITY is the largest value; any limit past Int.max is none.
        guard limit.rlim_cur < rlim_t(Int.max) else { return nil }
        return Int(limit.rlim_cur)
    }

    /// The cgroup v2 memory limit and use of this process, where one is set (Linux).
    private static func cgroupMemory() -> (limit: Int, used: Int)? {
        #if os(Linux)
            guard let text = try? String(contentsOfFile: "/proc/self/cgroup", encoding: .utf8),
                let line = text.split(separator: "\n").first(where: { $0.hasPrefix("0::") })
            else { return nil }
            let folder = "/sys/fs/cgroup" + line.dropFirst(3)
            func number(_ file: String) -> Int? {
                (try? String(contentsOfFile: folder + "/" + file, encoding: .utf8))
                    .flatMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
            }
            guard let limit = number("memory.max"), let used = number("memory.current") else { return nil }
            return (limit, used)
        #else
            return nil
        #endif
    }
}

/// A job that needs more memory than the process has left (``MemoryBudget``).
package struct MemoryBudgetError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The sentence, naming the need and the limit.
    package let message: String
    package var description: String { message }
}
