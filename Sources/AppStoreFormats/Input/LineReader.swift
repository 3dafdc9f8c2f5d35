package import Gzip

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// One step of reading a text file line by line.
package enum LineEvent: Sendable, Equatable {
    /// A line (1-based `number`) without its LF and without a CR before it.
    ///
    /// `bytes` is a slice of the reader's internal buffer: use it before the next call to ``LineReader/next()``.
    /// Keeping it longer is safe but makes the reader copy its whole buffer on the next read.
    case line(number: Int, bytes: ArraySlice<UInt8>)
    /// A line longer than the limit: skipped, with its full `length` and its first bytes (at most 4096) for the report.
    case overlong(number: Int, length: Int, prefix: [UInt8])
}

/// A failure to decode a file while reading it line by line.
package struct LineReaderError: Error, Sendable, CustomStringConvertible, Equatable {
    /// The 1-based number of the line that was being read when the data failed; that line is incomplete.
    package var line: Int
    /// The decoding failure.
    package var underlying: GzipError

    /// Creates an error for the line that was in progress.
    package init(line: Int, underlying: GzipError) {
        self.line = line
        self.underlying = underlying
    }

    /// A sentence for the user, naming the line.
    package var description: String {
        "line \(line): \(underlying)"
    }
}

/// Splits the decoded bytes of a file into LF-terminated lines, with bounded memory whatever the line lengths.
///
/// A CR before the LF is removed, and a last line without LF is still a line. A line longer than `maxLineLength`
/// bytes is reported as ``LineEvent/overlong(number:length:prefix:)`` and skipped without being held in memory.
package final class LineReader {
    /// How many decoded bytes are requested from the file at a time.
    static let readSize = 256 * 1024
    /// The most bytes of an overlong line that are kept for its report.
    static let overlongPrefixLimit = 4096

    /// The file being read, e.g. for its progress counters.
    package let file: DecodedFile
    /// The longest line, in bytes without CR and LF, that is returned as a line.
    package let maxLineLength: Int

    /// Decoded bytes; `buffer[lineStart..<end]` is not yet returned, and `buffer[scanStart..<end]` not yet searched.
    private var buffer: [UInt8]
    private var lineStart = 0
    private var scanStart = 0
    private var end = 0
    /// The number of the next line to return.
    private var lineNumber = 1
    private var isAtEnd = false
    /// While an overlong line is being skipped: its bytes so far, its kept prefix, and its last byte (a CR?).
    private var skippedCount = 0
    private var skippedPrefix: [UInt8]?
    private var skippedLastByte: UInt8 = 0

    /// The number of the last line returned (or skipped as overlong): where a later read of a grown file numbers on.
    package var lastLineNumber: Int { lineNumber - 1 }

    /// Creates a reader over `file` that skips lines longer than `maxLineLength` bytes; the first line it returns is
    /// numbered `firstLineNumber` (more than 1 when reading on from where an earlier read of a growing file stopped).
    package init(file: DecodedFile, maxLineLength: Int, firstLineNumber: Int = 1) {
        self.file = file
        self.lineNumber = firstLineNumber
        self.maxLineLength = max(0, maxLineLength)
        self.buffer = [UInt8](repeating: 0, count: Self.readSize)
    }

    /// Returns the next line or overlong line, or nil at the end of the file.
    ///
    /// When decoding fails, the lines before the fault have already been returned; the line in progress is not
    /// returned and its number is in the error.
    package func next() throws(LineReaderError) -> LineEvent? {
        while true {
            if let newline = findNewline() {
                scanStart = newline + 1
                return finishLine(contentEnd: newline)
            }
            scanStart = end
            if isAtEnd {
                guard skippedPrefix != nil || end > lineStart else { return nil }
                scanStart = end
                return finishLine(contentEnd: end)
            }
            if skippedPrefix == nil && end - lineStart - 1 > maxLineLength {
                // Longer than any acceptable line even if a CR follows: keep a prefix, skip the rest.
                let kept = min(maxLineLength, Self.overlongPrefixLimit)
                skippedPrefix = Array(buffer[lineStart..<(lineStart + kept)])
            }
            if skippedPrefix != nil {
                skippedCount += end - lineStart
                if end > lineStart { skippedLastByte = buffer[end - 1] }
                lineStart = end
            }
            try readMore()
        }
    }

    /// The index of the next LF in the unsearched bytes, if any.
    private func findNewline() -> Int? {
        let count = end - scanStart
        guard count > 0 else { return nil }
        let start = scanStart
        return buffer.withUnsafeBufferPointer { bytes -> Int? in
            let base = bytes.baseAddress.unsafelyUnwrapped
            guard let found = memchr(base + start, 0x0A, count) else { return nil }
            return UnsafeRawPointer(base).distance(to: UnsafeRawPointer(found))
        }
    }

    /// Turns `buffer[lineStart..<contentEnd]` (plus any skipped bytes) into an event and moves past the line.
    private func finishLine(contentEnd: Int) -> LineEvent {
        let number = lineNumber
        lineNumber += 1
        let start = lineStart
        lineStart = min(contentEnd + 1, end)
        if let prefix = skippedPrefix {
            var length = skippedCount + (contentEnd - start)
            let lastByte = contentEnd > start ? buffer[contentEnd - 1] : skippedLastByte
            if lastByte == 0x0D { length -= 1 }
            skippedPrefix = nil
            skippedCount = 0
            return .overlong(number: number, length: length, prefix: prefix)
        }
        var stop = contentEnd
        if stop > start && buffer[stop - 1] == 0x0D { stop -= 1 }
        let length = stop - start
        if length > maxLineLength {
            let kept = min(maxLineLength, Self.overlongPrefixLimit)
            return .overlong(number: number, length: length, prefix: Array(buffer[start..<(start + kept)]))
        }
        return .line(number: number, bytes: buffer[start..<stop])
    }

    /// Moves the unfinished line to the front of the buffer, grows it if needed, and reads decoded bytes after it.
    private func readMore() throws(LineReaderError) {
        let pending = end - lineStart
        if lineStart > 0 {
            if pending > 0 {
                let from = lineStart
                buffer.withUnsafeMutableBytes { bytes in
                    let base = bytes.baseAddress.unsafelyUnwrapped
                    memmove(base, base + from, pending)
                }
            }
            scanStart -= lineStart
            lineStart = 0
            end = pending
        }
        // Pending bytes never exceed maxLineLength + 1, so the buffer stays below that plus one read.
        if buffer.count - end < Self.readSize {
            buffer.append(contentsOf: repeatElement(0, count: end + Self.readSize - buffer.count))
        }
        var outcome: Result<Int, GzipError> = .success(0)
        let start = end
        buffer.withUnsafeMutableBytes { bytes in
            let target = UnsafeMutableRawBufferPointer(rebasing: bytes[start..<(start + Self.readSize)])
            do throws(GzipError) {
                outcome = .success(try file.read(into: target))
            } catch {
                outcome = .failure(error)
            }
        }
        switch outcome {
        case .success(let count):
            end += count
            if count == 0 { isAtEnd = true }
        case .failure(let error):
            throw LineReaderError(line: lineNumber, underlying: error)
        }
    }
}

/// A line reader owns a ``DecodedFile``, which must not be used from two threads at once.
@available(*, unavailable)
extension LineReader: Sendable {}
