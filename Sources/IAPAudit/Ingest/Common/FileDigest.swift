internal import AppStoreFormats
internal import Foundation

/// The identity of an input file, or of the part of it one read consumes: SHA-256 of those bytes (compressed as
/// stored) and their count.
struct FileDigest {
    var sha256: [UInt8]
    var size: Int

    /// A 64-bit advisory-lock key derived from the hash, so two processes never load the same file at once.
    var lockKey: Int64 {
        sha256.prefix(8).reduce(Int64(0)) { ($0 << 8) | Int64($1) }
    }
}

/// What one pass over a file tells: its digest, the digest of its bytes through its last complete line, whether
/// it begins with the bytes an earlier read consumed, whether it is gzip, and when it last changed.
///
/// A recorder appends to today's file while a cron run reads it, so the run may only take complete lines, and a
/// later run must recognise the same file grown rather than a new file that repeats every earlier record.
struct FileScan {
    /// Every byte of the file.
    var whole: FileDigest
    /// The bytes up to and including the last line feed (nil when there is none).
    var throughLastNewline: FileDigest?
    /// SHA-256 of the first `prefixLength` bytes, when that was asked for and the file is at least that long.
    var prefixSHA256: [UInt8]?
    /// The bytes after the last line feed (the whole file when it has none), or nil when there are more than
    /// `tailLimit` of them: a final line that has no line end, perhaps because it is still being written.
    var tail: [UInt8]?
    /// The last byte that is not white space (for a whole-document JSON file: does it end like a document?).
    var lastNonWhitespace: UInt8?
    /// Whether the file starts with the gzip magic bytes.
    var isGzip: Bool
    /// The file's size and modification time when the scan began.
    var stat: FileStat
    /// When the scan began.
    var scannedAt: Date
    /// The file's modification time.
    var modifiedAt: Date { stat.modifiedAt }

    static let tailLimit = 1 << 20

    /// Whether the file ends with a line feed (or is empty).
    var endsWithNewline: Bool { tail?.isEmpty == true }

    /// Reads `path` once; `prefixLength` asks for the digest of that many leading bytes too.
    static func of(path: String, prefixLength: Int? = nil) throws(IAPAuditError) -> FileScan {
        // Before the file is opened: a write (or a file renamed over this path) after this changes what a later run
        // sees, so it never takes the file as it is then for the one read now.
        let scannedAt = Date()
        let statBefore = try? FileStat.of(path: path)
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw IAPAuditError.input("cannot open \(path)")
        }
        defer { try? handle.close() }
        let stat: FileStat
        if let statBefore { stat = statBefore } else { stat = try FileStat.of(path: path) }
        var hash = ContentHash.Stream()
        var size = 0
        var prefix: [UInt8]?
        var throughNewline: (state: ContentHash.Stream, end: Int)?
        var firstBytes: [UInt8] = []
        var tail: [UInt8]? = []
        var lastNonWhitespace: UInt8?
        while true {
            let data: Data
            do {
                data = try handle.read(upToCount: 1 << 20) ?? Data()
            } catch {
                throw IAPAuditError.input("cannot read \(path): \(describe(error))")
            }
            if data.isEmpty { break }
            if firstBytes.count < 2 { firstBytes += data.prefix(2 - firstBytes.count) }
            data.withUnsafeBytes { bytes in
                // Cut points inside this chunk: the end of the earlier read's prefix, and the end of the last line.
                var cuts: [(offset: Int, isPrefix: Bool)] = []
                if let prefixLength, prefixLength > size, prefixLength <= size + bytes.count {
                    cuts.append((prefixLength - size, true))
                }
                if let newline = bytes.lastIndex(of: 0x0A) { cuts.append((newline + 1, false)) }
                var start = 0
                for cut in cuts.sorted(by: { $0.offset < $1.offset }) {
                    hash.update(UnsafeRawBufferPointer(rebasing: bytes[start..<cut.offset]))
                    start = cut.offset
                    if cut.isPrefix {
                        prefix = hash.finalize()
                    } else {
                        throughNewline = (hash, size + cut.offset)
                    }
                }
                hash.update(UnsafeRawBufferPointer(rebasing: bytes[start...]))
                if let newline = bytes.lastIndex(of: 0x0A) {
                    tail = Array(bytes[(newline + 1)...])
                } else if let kept = tail {
                    tail = kept.count + bytes.count > Self.tailLimit ? nil : kept + Array(bytes)
                }
                if let last = bytes.last(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }) {
                    lastNonWhitespace = last
                }
            }
            size += data.count
        }
        if prefixLength == 0 { prefix = ContentHash.Stream().finalize() }
        return FileScan(
            whole: FileDigest(sha256: hash.finalize(), size: size),
            throughLastNewline: throughNewline.map { FileDigest(sha256: $0.state.finalize(), size: $0.end) },
            prefixSHA256: prefix, tail: tail, lastNonWhitespace: lastNonWhitespace, isGzip: firstBytes == [0x1F, 0x8B],
            stat: stat, scannedAt: scannedAt)
    }

    /// The file's size and modification time when `consumed` is all of it, as it was when the scan began, and it had
    /// not changed for `settlingSeconds` by then: what a later run may compare instead of reading the file again
    /// (`KnownFiles`). Nil for a part of a file, a file that changed while it was read, or one changed too recently
    /// for its modification time to tell a later write apart (a write within the file system's timestamp
    /// granularity, or from a machine whose clock differs, can leave the time as it was).
    func completeStat(consumed: FileDigest, settlingSeconds: Double) -> FileStat? {
        guard consumed.size == whole.size, consumed.sha256 == whole.sha256, whole.size == stat.size,
            scannedAt.timeIntervalSince(stat.modifiedAt) >= settlingSeconds
        else { return nil }
        return stat
    }
}
