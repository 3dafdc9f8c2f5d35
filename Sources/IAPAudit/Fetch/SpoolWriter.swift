internal import Foundation

#if canImport(Glibc)
    internal import Glibc
#endif

/// Writes a fetched file into the spool so that its final name only ever holds the whole file: the bytes go to a
/// hidden `.NAME.partial-PID` beside it (which ingest skips, being hidden), are flushed to disk, then renamed.
enum SpoolWriter {
    /// Creates `folder` (and its parents) when missing.
    static func prepare(_ folder: String) throws(IAPAuditError) {
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            throw IAPAuditError.storage("cannot create the spool folder \(folder): \(error.localizedDescription)")
        }
    }

    /// Stores `bytes` as `folder/name`, atomically; an existing file of that name is replaced.
    static func store(_ bytes: [UInt8], name: String, in folder: String) throws(IAPAuditError) {
        let final = folder + "/" + name
        let partial = folder + "/." + name + ".partial-\(getpid())"
        let descriptor = open(partial, O_WRONLY | O_CREAT | O_TRUNC, 0o640)
        guard descriptor >= 0 else { throw failure("create", partial) }
        var written = 0
        while written < bytes.count {
            let result = bytes.withUnsafeBytes { buffer in
                guard let base = buffer.baseAddress else { return -1 }
                return write(descriptor, base + written, buffer.count - written)
            }
            if result < 0 && errno == EINTR { continue }
            guard result > 0 else {
                let error = failure("write", partial)
                close(descriptor)
                unlink(partial)
                throw error
            }
            written += result
        }
        guard fsync(descriptor) == 0, close(descriptor) == 0 else {
            let error = failure("flush", partial)
            unlink(partial)
            throw error
        }
        guard rename(partial, final) == 0 else {
            let error = failure("rename", final)
            unlink(partial)
            throw error
        }
        // The rename itself is durable once the folder is flushed.
        let directory = open(folder, O_RDONLY)
        if directory >= 0 {
            _ = fsync(directory)
            close(directory)
        }
    }

    /// Removes partial files a killed fetch left behind.
    static func removePartials(in folder: String) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        for name in names where name.hasPrefix(".") && name.contains(".partial-") {
            unlink(folder + "/" + name)
        }
    }

    private static func failure(_ action: String, _ path: String) -> IAPAuditError {
        let message = "cannot \(action) \(path): \(String(cString: strerror(errno)))"
        return [ENOSPC, EDQUOT, EIO].contains(errno) ? .storage(message) : .input(message)
    }
}
