internal import Foundation

#if canImport(Glibc)
    // Which module claims the C `stat` type differs between compile batches (CoreFoundation or Dispatch's C module,
    // both reached through swift-certificates' Foundation): name both, or `st_mode` fails to resolve at random.
    internal import CDispatch
    internal import CoreFoundation
    internal import Glibc
#endif

/// The files behind the paths a user named: files as given, directories walked recursively in a stable order.
///
/// Only regular files are read: a FIFO would block the reader forever, a device or socket is no input. A file or
/// folder that cannot be read, or vanishes while the walk goes on, is recorded as failed and the walk goes on: one
/// bad entry in a spool must not keep the rest of it from being loaded.
struct InputFiles {
    /// A path that was not read, and why.
    struct Skipped: Equatable {
        var path: String
        var reason: String
    }

    /// Files to read, in the order they will be read.
    var files: [String] = []
    /// Entries not read on purpose: hidden, of a kind this command does not read, or not a regular file.
    var ignored: [Skipped] = []
    /// Entries that should have been read but could not be: unreadable or vanished folders.
    var failed: [Skipped] = []

    /// Expands `paths`; `accepts` decides which directory entries are inputs. A named path that does not exist is an
    /// error (a typo in a cron line must not look like an empty day).
    static func expand(_ paths: [String], accepts: (String) -> Bool) throws(IAPAuditError) -> InputFiles {
        var result = InputFiles()
        for path in paths {
            switch EntryKind(path) {
            case .missing: throw IAPAuditError.input("no such file or directory: \(path)")
            case .unreadable(let reason): result.failed.append(Skipped(path: path, reason: reason))
            case .regularFile: result.files.append(path)
            case .other(let kind): result.ignored.append(Skipped(path: path, reason: "not a regular file (\(kind))"))
            case .directory:
                var found: [String] = []
                result.walk(path, relative: "", accepts: accepts, into: &found)
                // Byte order, not locale order: the same tree is always read in the same order.
                result.files += found.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
            }
        }
        return result
    }

    private mutating func walk(_ root: String, relative: String, accepts: (String) -> Bool, into found: inout [String])
    {
        let folder = relative.isEmpty ? root : (root as NSString).appendingPathComponent(relative)
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: folder)
        } catch {
            failed.append(Skipped(path: folder, reason: "cannot list the folder: \(describe(error))"))
            return
        }
        for name in names {
            let entry = relative.isEmpty ? name : (relative as NSString).appendingPathComponent(name)
            let full = (root as NSString).appendingPathComponent(entry)
            switch EntryKind(full) {
            case .missing:
                continue  // removed since the folder was listed: nothing to read, nothing lost
            case .unreadable(let reason):
                failed.append(Skipped(path: full, reason: reason))
            case .directory:
                if name.hasPrefix(".") {
                    ignored.append(Skipped(path: full, reason: "hidden folder"))
                } else {
                    walk(root, relative: entry, accepts: accepts, into: &found)
                }
            case .regularFile:
                if name.hasPrefix(".") {
                    ignored.append(Skipped(path: full, reason: "hidden file"))
                } else if !accepts(name) {
                    ignored.append(Skipped(path: full, reason: "not a file of this kind"))
                } else {
                    found.append(full)
                }
            case .other(let kind):
                ignored.append(Skipped(path: full, reason: "not a regular file (\(kind))"))
            }
        }
    }

    /// The permission bits and owner of an open file (fstat(2)), nil when they cannot be read. Here, beside the
    /// other `stat` calls, because naming the C type takes the imports above.
    static func modeAndOwner(of file: FileHandle) -> (mode: UInt32, owner: UInt32)? {
        var status = stat()
        guard fstat(file.fileDescriptor, &status) == 0 else { return nil }
        return (UInt32(status.st_mode), UInt32(status.st_uid))
    }

    /// The user this process acts as.
    static var effectiveUser: UInt32 { UInt32(geteuid()) }

    /// What a path names, following symbolic links (a link to a regular file is read like the file).
    enum EntryKind: Equatable {
        case missing, regularFile, directory
        case other(String)
        case unreadable(String)

        init(_ path: String) {
            var info = stat()
            guard stat(path, &info) == 0 else {
                let code = errno
                self = code == ENOENT ? .missing : .unreadable(String(cString: strerror(code)))
                return
            }
            switch info.st_mode & S_IFMT {
            case S_IFREG: self = .regularFile
            case S_IFDIR: self = .directory
            case S_IFIFO: self = .other("a FIFO")
            case S_IFSOCK: self = .other("a socket")
            case S_IFCHR, S_IFBLK: self = .other("a device")
            default: self = .other("an unknown kind of file")
            }
        }
    }
}

/// The operating system's words for a file error ("Permission denied", "Input/output error"), rather than Foundation's
/// "The operation could not be completed".
func describe(_ error: any Error) -> String {
    var current = error as NSError
    while true {
        if current.domain == NSPOSIXErrorDomain { return String(cString: strerror(Int32(current.code))) }
        guard let underlying = current.userInfo[NSUnderlyingErrorKey] as? NSError else { break }
        current = underlying
    }
    return (error as NSError).localizedDescription
}
