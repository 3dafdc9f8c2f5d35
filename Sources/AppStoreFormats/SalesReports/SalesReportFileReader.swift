package import Gzip

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// One thing read from a report file: a line to parse, a line that cannot be stored, or the end of what could be
/// decoded.
package enum SalesReportFileItem {
    /// A line (1-based `number`) without its line end; `bytes` are valid until the next call to `next()`.
    case line(number: Int, bytes: ArraySlice<UInt8>)
    /// A line that cannot be stored (too long, or holding a NUL byte), with a bounded excerpt (not yet redacted).
    case unreadableLine(number: Int, reason: QuarantineReason, message: String, excerpt: [UInt8])
    /// The file could not be decoded past `line` (corrupt or truncated gzip, read error); the lines before it were
    /// returned, and nothing follows.
    case decodingFailed(line: Int, reason: QuarantineReason, message: String)
}

/// Streams the lines of one Sales and Trends or financial report file (plain or gzip by magic bytes, multi-member
/// too) with bounded memory, reporting what cannot be read as values instead of errors.
package final class SalesReportFileReader {
    private let lines: LineReader
    private var isFinished = false

    /// The longest line, in bytes without its line end, that is returned as a line.
    package var maxLineLength: Int { lines.maxLineLength }
    /// Whether the file was gzip-compressed.
    package var isGzip: Bool { lines.file.isGzip }
    /// Whether decoding failed before the end of the file (``SalesReportFileItem/decodingFailed(line:reason:message:)``
    /// was returned).
    package private(set) var hasReadError = false

    /// Opens `path`; lines longer than `maxLineLength` bytes are reported and skipped without being held in memory.
    package init(path: String, maxLineLength: Int) throws(GzipError) {
        lines = LineReader(file: try DecodedFile(path: path), maxLineLength: maxLineLength)
    }

    /// The next line or problem; nil at the end, and after a decoding failure.
    package func next() -> SalesReportFileItem? {
        guard !isFinished else { return nil }
        let event: LineEvent?
        do {
            event = try lines.next()
        } catch {
            isFinished = true
            hasReadError = true
            return .decodingFailed(
                line: error.line, reason: QuarantineReason(decoding: error.underlying),
                message: "\(error.underlying) (lines before \(error.line) were read)")
        }
        switch event {
        case nil:
            isFinished = true
            return nil
        case .overlong(let number, let length, let prefix):
            return .unreadableLine(
                number: number, reason: .lineTooLong,
                message: "line is \(length) bytes, longer than the \(maxLineLength)-byte limit", excerpt: prefix)
        case .line(let number, let bytes):
            if number == 1, let order = UTF16Detection.byteOrder(ofFirstLine: bytes) {
                // Every line would be quarantined as `nul-byte`, which says nothing useful: reject the file once.
                isFinished = true
                hasReadError = true
                return .decodingFailed(line: 1, reason: .utf16File, message: UTF16Detection.message(order))
            }
            // PostgreSQL text cannot hold NUL: one such value would fail the whole file's COPY.
            if Self.containsNUL(bytes) {
                return .unreadableLine(
                    number: number, reason: .nulByte, message: "line contains a NUL byte", excerpt: Array(bytes))
            }
            return .line(number: number, bytes: bytes)
        }
    }

    private static func containsNUL(_ bytes: ArraySlice<UInt8>) -> Bool {
        bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress, !buffer.isEmpty else { return false }
            return memchr(base, 0, buffer.count) != nil
        }
    }
}

/// A reader owns a ``DecodedFile``, which must not be used from two threads at once.
@available(*, unavailable)
extension SalesReportFileReader: Sendable {}
