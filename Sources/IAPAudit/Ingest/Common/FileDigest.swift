internal import AppStoreFormats
internal import Foundation

/// The identity of an input file: SHA-256 of its bytes (compressed as stored) and its size.
struct FileDigest {
    var sha256: [UInt8]
    var size: Int

    /// Reads the whole file once, in chunks.
    static func of(path: String) throws(IAPAuditError) -> FileDigest {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw IAPAuditError.input("cannot open \(path)")
        }
        defer { try? handle.close() }
        var hash = ContentHash.Stream()
        var size = 0
        while true {
            let data: Data
            do {
                data = try handle.read(upToCount: 1 << 20) ?? Data()
            } catch {
                throw IAPAuditError.input("cannot read \(path): \(describe(error))")
            }
            if data.isEmpty { break }
            size += data.count
            data.withUnsafeBytes { hash.update($0) }
        }
        return FileDigest(sha256: hash.finalize(), size: size)
    }

    /// A 64-bit advisory-lock key derived from the hash, so two processes never load the same file at once.
    var lockKey: Int64 {
        sha256.prefix(8).reduce(Int64(0)) { ($0 << 8) | Int64($1) }
    }
}
