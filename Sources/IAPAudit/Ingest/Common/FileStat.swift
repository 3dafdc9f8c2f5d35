internal import Foundation

/// What `stat` says of a file: enough to tell, without reading it, that it has not changed since it was stored.
///
/// Read through `FileManager` rather than `stat(2)` itself: the C `stat` type's members are visible only with the
/// module that happens to claim it in a given compile batch (CoreFoundation or Dispatch's C module), so code naming
/// them builds or fails depending on how the build is batched.
struct FileStat: Equatable {
    var size: Int
    /// The modification time in nanoseconds since 1970, an integer so that it compares exactly. Foundation reads
    /// `st_mtim` into a `Date`, which keeps it to about a tenth of a microsecond: the same file time always gives the
    /// same value, and the kernel stamps files far more coarsely (milliseconds) anyway.
    var modifiedNanoseconds: Int64

    var modifiedAt: Date { Date(timeIntervalSince1970: Double(modifiedNanoseconds) / 1e9) }

    /// The size and modification time of the file `path` names (following symbolic links).
    static func of(path: String) throws(IAPAuditError) -> FileStat {
        let attributes: [FileAttributeKey: Any]
        do {
            attributes = try FileManager.default.attributesOfItem(atPath: path)
        } catch {
            throw IAPAuditError.input("cannot read \(path): \(describe(error))")
        }
        guard let size = (attributes[.size] as? NSNumber)?.intValue,
            let modified = attributes[.modificationDate] as? Date
        else {
            throw IAPAuditError.input("cannot read \(path): no size or modification time")
        }
        return FileStat(size: size, modifiedNanoseconds: nanoseconds(modified))
    }

    /// `date` in whole nanoseconds since 1970.
    static func nanoseconds(_ date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 * 1e9).rounded())
    }
}
