internal import Foundation

#if canImport(Glibc)
    // Which module claims the C `stat` type differs between compile batches (CoreFoundation or Dispatch's C module,
    // both reached through swift-certificates' Foundation): name both, as `InputFiles` does.
    internal import CDispatch
    internal import CoreFoundation
    internal import Glibc
#endif

/// What `stat` says of a file: enough to tell, without reading it, that it has not changed since it was stored.
///
/// Size and modification time alone do not: `rsync -t`, a restore from backup or `touch -r` put new bytes under the
/// old time. The inode change time cannot be set from user space and moves with every write, and the inode number
/// changes when a file is replaced by another, so all four must be the same for a file to be skipped unread.
struct FileStat: Equatable {
    var size: Int
    /// The modification time in nanoseconds since 1970, an integer so that it compares exactly (saturated at the
    /// ends of 64 bits: a file dated past 2262 cannot trap the run).
    var modifiedNanoseconds: Int64
    /// The inode change time in nanoseconds since 1970 (saturated likewise).
    var changedNanoseconds: Int64
    /// The inode number, its bits as a signed 64-bit integer (how `bigint` keeps it).
    var inode: Int64

    var modifiedAt: Date { Date(timeIntervalSince1970: Double(modifiedNanoseconds) / 1e9) }

    /// What `stat(2)` says of the file `path` names (following symbolic links).
    static func of(path: String) throws(IAPAuditError) -> FileStat {
        var info = stat()
        guard stat(path, &info) == 0 else {
            throw IAPAuditError.input("cannot read \(path): \(String(cString: strerror(errno)))")
        }
        return FileStat(
            size: Int(info.st_size),
            modifiedNanoseconds: nanoseconds(seconds: Int64(info.st_mtim.tv_sec), Int64(info.st_mtim.tv_nsec)),
            changedNanoseconds: nanoseconds(seconds: Int64(info.st_ctim.tv_sec), Int64(info.st_ctim.tv_nsec)),
            inode: Int64(truncatingIfNeeded: info.st_ino))
    }

    /// Whole nanoseconds since 1970, saturated rather than trapping for times 64 bits of nanoseconds cannot hold.
    static func nanoseconds(seconds: Int64, _ nanoseconds: Int64) -> Int64 {
        let (scaled, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        let (sum, overflowAgain) = scaled.addingReportingOverflow(nanoseconds)
        guard !overflow, !overflowAgain else { return seconds < 0 ? .min : .max }
        return sum
    }
}
