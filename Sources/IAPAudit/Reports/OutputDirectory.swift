internal import Foundation

/// The directory reports are written into, checked before any work: a run that would only fail at its last step
/// (an existing file where the directory should be, no permission, a read-only or full disk) fails first instead,
/// naming the path — 73 when it cannot be created or written, 74 when the disk is full or failing.
package enum OutputDirectory {
    /// Creates `path` (and its parents) if needed and proves a file can be created in it.
    package static func prepare(_ path: String) throws(IAPAuditError) {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else {
                throw IAPAuditError.cannotCreate("the output directory \(path) is a file, not a directory")
            }
        } else {
            do {
                try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
            } catch {
                throw failure(error, "cannot create the output directory \(path)")
            }
        }
        let probe = (path as NSString).appendingPathComponent(".iap-audit-write-check-\(getpid())")
        do {
            try Data("check\n".utf8).write(to: URL(fileURLWithPath: probe))
            try FileManager.default.removeItem(atPath: probe)
        } catch {
            try? FileManager.default.removeItem(atPath: probe)
            throw failure(error, "cannot write into the output directory \(path)")
        }
    }

    /// `error` (met while doing `what`) as 74 when it is a full or failing disk, else 73; the path is in `what`.
    package static func failure(_ error: any Error, _ what: String) -> IAPAuditError {
        if let storage = IAPAuditError.storageFailure(error) { return .storage("\(what): \(storage)") }
        return .cannotCreate("\(what): \(reason(error))")
    }

    /// The system's short reason (`Permission denied`, `Read-only file system`), not Foundation's dump.
    private static func reason(_ error: any Error) -> String {
        var current = error as NSError
        while true {
            if current.domain == NSPOSIXErrorDomain { return String(cString: strerror(Int32(current.code))) }
            guard let underlying = current.userInfo[NSUnderlyingErrorKey] as? NSError else { break }
            current = underlying
        }
        switch CocoaError.Code(rawValue: (error as NSError).code) {
        case .fileWriteNoPermission: return "permission denied"
        case .fileWriteVolumeReadOnly: return "read-only file system"
        case .fileWriteFileExists: return "a file of that name exists"
        default: return (error as NSError).localizedDescription
        }
    }
}
