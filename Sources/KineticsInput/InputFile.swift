import struct Foundation.Data

#if canImport(Glibc)
    import Glibc
    private let systemRead = Glibc.read
#elseif canImport(Darwin)
    import Darwin
    private let systemRead = Darwin.read
#endif

/// Why an input file could not be read.
package enum InputFileError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Nothing is at the path.
    case missing(path: String)
    /// The path names a folder, or a file that cannot be opened or read.
    case unreadable(path: String, reason: String)
    /// The file holds more than `limit` bytes: `size` when its size was
    /// known before reading, nil when reading found it (a pipe, a file that
    /// grew).
    case tooLarge(path: String, size: Int?, limit: Int, what: String)

    /// Whether nothing is at the path.
    package var isMissing: Bool {
        if case .missing = self { return true }
        return false
    }

    /// One line naming the file and the problem.
    package var description: String {
        switch self {
        case .missing(let path): "\(path): no such file"
        case .unreadable(let path, let reason): "\(path): cannot be read (\(reason))"
        case .tooLarge(let path, let size?, let limit, let what):
            "\(path): the file is \(size) bytes; \(what) is at most \(limit) bytes (\(limit >> 20) MiB)"
        case .tooLarge(let path, nil, let limit, let what):
            "\(path): more than \(limit) bytes; \(what) is at most \(limit) bytes (\(limit >> 20) MiB)"
        }
    }
}

/// Reads input files whole, within a size limit that holds before and while
/// reading.
///
/// A regular file larger than the limit is refused from its size, without
/// reading a byte (a sparse file of 100 GB costs nothing). Then the file is
/// read in chunks and the read stops one byte past the limit, so a file that
/// grows while it is read, a pipe or a device cannot make it hold more than
/// `limit + 1` bytes.
package enum InputFile {
    /// The bytes read per call.
    static let chunk = 1 << 16

    /// Checks that `path` names something to read, as ``read(_:limit:what:)``
    /// would find it, without reading it: for the readers that open a file
    /// their own way (a baseline's, dlopen for an engine library), so that a
    /// folder or an unreadable file is the same error whichever reads it.
    ///
    /// - Throws: ``InputFileError/missing(path:)`` or
    ///   ``InputFileError/unreadable(path:reason:)``.
    package static func checkReadable(_ path: String) throws(InputFileError) {
        var status = stat()
        guard stat(path, &status) == 0 else {
            let code = errno
            if code == ENOENT || code == ENOTDIR { throw .missing(path: path) }
            throw .unreadable(path: path, reason: String(cString: strerror(code)))
        }
        if status.st_mode & S_IFMT == S_IFDIR { throw .unreadable(path: path, reason: "it is a folder") }
        if access(path, R_OK) != 0 { throw .unreadable(path: path, reason: String(cString: strerror(errno))) }
    }

    /// The contents of the file at `path`, at most `limit` bytes; `what`
    /// names the kind of file in the error (`"a baseline"`).
    ///
    /// - Throws: ``InputFileError``.
    package static func read(_ path: String, limit: Int, what: String = "an input") throws(InputFileError) -> Data {
        var bytes = [UInt8]()
        // Room for the file as it was, or a first chunk; grown by doubling.
        try stream(path, limit: limit, what: what, expecting: { bytes.reserveCapacity(min(limit + 1, $0 ?? chunk)) }) {
            bytes.append(contentsOf: $0)
            return true
        }
        return Data(bytes)
    }

    /// Reads the file at `path` a chunk at a time, handing each chunk to
    /// `body` until it returns false or the file ends: what
    /// ``read(_:limit:what:)`` does, for a reader that need not hold the
    /// file whole. `expecting` is told the size of a regular file, plus
    /// one, before the first chunk (nil for a pipe or a device).
    ///
    /// - Throws: ``InputFileError``.
    package static func stream(
        _ path: String, limit: Int, what: String = "an input", expecting: (Int?) -> Void = { _ in },
        _ body: (ArraySlice<UInt8>) -> Bool
    ) throws(InputFileError) {
        var status = stat()
        guard stat(path, &status) == 0 else {
            let code = errno
            if code == ENOENT || code == ENOTDIR { throw .missing(path: path) }
            throw .unreadable(path: path, reason: String(cString: strerror(code)))
        }
        let type = status.st_mode & S_IFMT
        if type == S_IFDIR { throw .unreadable(path: path, reason: "it is a folder") }
        if type == S_IFREG && Int(status.st_size) > limit {
            throw .tooLarge(path: path, size: Int(status.st_size), limit: limit, what: what)
        }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .unreadable(path: path, reason: String(cString: strerror(errno))) }
        defer { close(descriptor) }
        expecting(type == S_IFREG ? Int(status.st_size) + 1 : nil)
        var buffer = [UInt8](repeating: 0, count: min(chunk, limit + 1))
        var total = 0
        while true {
            let wanted = min(buffer.count, limit + 1 - total)
            let count = buffer.withUnsafeMutableBytes { systemRead(descriptor, $0.baseAddress, wanted) }
            if count < 0 {
                if errno == EINTR { continue }
                throw .unreadable(path: path, reason: String(cString: strerror(errno)))
            }
            if count == 0 { return }
            total += count
            if total > limit { throw .tooLarge(path: path, size: nil, limit: limit, what: what) }
            if !body(buffer[0 ..< count]) { return }
        }
    }
}
