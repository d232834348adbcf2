import Foundation
import KineticsBench

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// Every file and every byte of standard output that kinetics writes goes
// through here: an output file is written whole to a temporary file of its
// own beside the target and renamed over it, so that a failed run leaves
// what stood there untouched; what stands at the path is replaced only
// when it is a regular file, whose mode and owner the new file keeps; and
// a write that fails is exit 73 with the path and the system's reason.

/// What stands at an output path before kinetics writes it.
enum OutputTarget: Equatable {
    /// Nothing: the file is created, with the mode the umask leaves of 0666.
    case absent
    /// A regular file, replaced by one with its permission bits and owner.
    case regular(mode: mode_t, owner: uid_t, group: gid_t)
}

/// The error for an output that cannot be written, exit 73.
private func cannotWrite(_ path: String, _ reason: String) -> CLIError {
    CLIError(message: "cannot write \(path.isEmpty ? "''" : path): \(reason)", status: .cannotWrite)
}

/// The system's reason for the last failed call.
private var systemReason: String { String(cString: strerror(errno)) }

/// What stands at `path`, when kinetics may write it: nothing, or a regular
/// file, in a folder it can write. Anything else is exit 73 naming the
/// path and what stands there (a folder, a symbolic link, a device, a
/// pipe, a socket) or what is wrong with its folder. Commands that work
/// for a while call ``checkWritable(_:)`` first, so that a typo in an
/// output path costs nothing; ``writeOutput(_:to:)`` checks again.
func outputTarget(_ path: String) throws -> OutputTarget {
    guard !path.isEmpty else { throw cannotWrite(path, "the path is empty") }
    var target = OutputTarget.absent
    var info = stat()
    if lstat(path, &info) == 0 {
        let what: String? =
            switch info.st_mode & S_IFMT {
            case S_IFREG: nil
            case S_IFDIR: "it is a folder"
            case S_IFLNK: "it is a symbolic link (give the path of the file it points to)"
            case S_IFCHR: "it is a character device"
            case S_IFBLK: "it is a block device"
            case S_IFIFO: "it is a named pipe"
            case S_IFSOCK: "it is a socket"
            default: "it is not a regular file"
            }
        if let what {
            throw cannotWrite(path, what + "; kinetics replaces only regular files")
        }
        target = .regular(mode: info.st_mode & 0o7777, owner: info.st_uid, group: info.st_gid)
    } else if errno != ENOENT {
        throw cannotWrite(path, systemReason)
    }
    let folder = outputFolder(of: path)
    var folderInfo = stat()
    guard stat(folder, &folderInfo) == 0 else { throw cannotWrite(path, "no folder \(folder)") }
    guard folderInfo.st_mode & S_IFMT == S_IFDIR else { throw cannotWrite(path, "\(folder) is not a folder") }
    guard access(folder, W_OK | X_OK) == 0 else { throw cannotWrite(path, "the folder \(folder) is not writable") }
    return target
}

/// The folder an output path names its file in ("." for a bare name).
private func outputFolder(of path: String) -> String {
    let folder = (path as NSString).deletingLastPathComponent
    return folder.isEmpty ? "." : folder
}

/// Checks, before any work, that every path given can be written
/// (``outputTarget(_:)``): exit 73 at once for the first that cannot.
func checkWritable(_ paths: String?...) throws {
    for case let path? in paths { _ = try outputTarget(path) }
}

/// Writes `text` to `path` whole, or to standard output when `path` is nil.
///
/// The text goes to a temporary file created beside the target with
/// `O_CREAT | O_EXCL | O_NOFOLLOW` (a name planted there, a symbolic link
/// included, is never opened; another is tried), given the replaced file's
/// permission bits and, where the process may, its owner and group; then
/// rename(2) puts it in place at once. Whatever fails, the temporary file
/// is removed and what stood at the path is left as it was: exit 73 with
/// the path and the reason.
func writeOutput(_ text: String, to path: String?) throws {
    guard let path else { return try writeStandardOutput(text) }
    let target = try outputTarget(path)
    let folder = outputFolder(of: path)
    let name = (path as NSString).lastPathComponent
    var temporary = ""
    var descriptor: Int32 = -1
    for _ in 0 ..< 16 {
        let suffix = String(UInt64.random(in: 0 ... UInt64.max), radix: 36)
        temporary = "\(folder)/.\(name).\(suffix).tmp"
        descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o666)
        if descriptor >= 0 || errno != EEXIST { break }
    }
    guard descriptor >= 0 else { throw cannotWrite(path, "cannot create a temporary file beside it: \(systemReason)") }
    do {
        if case .regular(let mode, let owner, let group) = target {
            // Another owner's file stays theirs where the process may say
            // so (as root); elsewhere the new file is the process's own.
            if owner != geteuid() || group != getegid() { _ = fchown(descriptor, owner, group) }
            guard fchmod(descriptor, mode) == 0 else { throw cannotWrite(path, systemReason) }
        }
        try writeAll(Array(text.utf8), to: descriptor, what: path)
        let closed = close(descriptor)
        descriptor = -1
        guard closed == 0 else { throw cannotWrite(path, systemReason) }
        guard rename(temporary, path) == 0 else { throw cannotWrite(path, systemReason) }
    } catch {
        if descriptor >= 0 { close(descriptor) }
        unlink(temporary)
        throw error
    }
}

/// Writes every byte of `bytes` to `descriptor`, retrying interrupted and
/// partial writes; a failure is exit 73 naming `what`.
private func writeAll(_ bytes: [UInt8], to descriptor: Int32, what: String) throws {
    try bytes.withUnsafeBytes { buffer in
        var offset = 0
        while offset < buffer.count {
            let written = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                throw cannotWrite(what, systemReason)
            }
            offset += written
        }
    }
}

/// Writes `text` to standard output, unbuffered (kinetics writes nothing
/// there through `print`); a failure (a full disk, a closed descriptor) is
/// exit 73.
func writeStandardOutput(_ text: String) throws {
    if standardOutputWasClosed.withLock({ $0 }) {
        errno = EBADF
        throw cannotWrite("standard output", systemReason)
    }
    try writeAll(Array(text.utf8), to: STDOUT_FILENO, what: "standard output")
}

/// Whether the process started with standard output closed
/// (``holdStandardDescriptors()``).
private let standardOutputWasClosed = Locked(false)

/// Opens /dev/null on each of descriptors 0, 1 and 2 that the process was
/// started without (`kinetics … >&-`), before anything else opens a file:
/// the next file opened would otherwise take the descriptor, and what is
/// printed would go into it. Standard output closed is remembered, and
/// writing to it is exit 73 as any other failed write.
func holdStandardDescriptors() {
    for descriptor in [STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO] where fcntl(descriptor, F_GETFD) < 0 {
        let null = open("/dev/null", descriptor == STDIN_FILENO ? O_RDONLY : O_WRONLY)
        if null >= 0 && null != descriptor {
            dup2(null, descriptor)
            close(null)
        }
        if descriptor == STDOUT_FILENO { standardOutputWasClosed.withLock { $0 = true } }
    }
}

/// Writes `text` to standard error; a failure there has nowhere to be
/// reported, so it is ignored (the exit status still says what happened).
func writeStandardError(_ text: String) { writeStandardError(bytes: Array(text.utf8)) }

/// Writes `bytes` to standard error as they are, ignoring a failure.
func writeStandardError(bytes: [UInt8]) {
    bytes.withUnsafeBytes { buffer in
        var offset = 0
        while offset < buffer.count {
            let written = write(STDERR_FILENO, buffer.baseAddress! + offset, buffer.count - offset)
            if written < 0 && errno == EINTR { continue }
            if written <= 0 { return }
            offset += written
        }
    }
}
