internal import Gzip

/// Splits a JSON document into top-level records while streaming: the elements of a top-level array, or one or more
/// top-level objects. Only structure is tracked here (depth, strings, escapes); each record is parsed on its own, so
/// one broken element does not lose its neighbours.
final class JSONDocumentSplitter {
    private let file: DecodedFile
    private let maxRecordLength: Int
    private var chunk: [UInt8] = []
    private var index = 0
    private var isAtEnd = false
    private var line = 1
    private var isArray: Bool?
    private var arrayClosed = false
    private var pendingError: ReceiptFileItem?
    private var isPastByteOrderMark = false

    init(file: DecodedFile, maxRecordLength: Int) {
        self.file = file
        self.maxRecordLength = maxRecordLength
    }

    /// Reads the next byte, refilling from the file; nil at the end (or after a read error, kept in pendingError).
    private func nextByte() -> UInt8? {
        if index >= chunk.count {
            guard !isAtEnd else { return nil }
            chunk.removeAll(keepingCapacity: true)
            index = 0
            do {
                if try file.read(into: &chunk, maxCount: 1 << 18) == 0 { isAtEnd = true }
            } catch {
                isAtEnd = true
                pendingError = ReceiptFileReader.unreadable(error, line: line)
            }
            if index >= chunk.count { return nil }
        }
        let byte = chunk[index]
        index += 1
        if byte == 0x0A { line += 1 }
        return byte
    }

    private func peekByte() -> UInt8? {
        guard let byte = nextByte() else { return nil }
        index -= 1
        if byte == 0x0A { line -= 1 }
        return byte
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    private var record: [UInt8] = []

    /// Skips a UTF-8 byte order mark at the start of the file. The first read holds at least its three bytes unless
    /// the file is shorter (or a gzip member ends inside them), so more is read until three bytes are there.
    private func skipByteOrderMark() {
        guard peekByte() == ReceiptFileReader.byteOrderMark[0] else { return }
        while chunk.count - index < 3 && !isAtEnd && pendingError == nil {
            do {
                if try file.read(into: &chunk, maxCount: 1 << 18) == 0 { isAtEnd = true }
            } catch {
                isAtEnd = true
                pendingError = ReceiptFileReader.unreadable(error, line: line)
            }
        }
        if chunk[index...].starts(with: ReceiptFileReader.byteOrderMark) { index += 3 }
    }

    func next(numbering recordNumber: inout Int) -> ReceiptFileItem? {
        if !isPastByteOrderMark {
            isPastByteOrderMark = true
            skipByteOrderMark()
        }
        // Skip white space and, inside an array, the commas between elements.
        while let byte = peekByte() {
            if Self.isWhitespace(byte) || (isArray == true && !arrayClosed && byte == UInt8(ascii: ",")) {
                _ = nextByte()
                continue
            }
            if byte == 0 {
                // NUL bytes between records belong to no record: told once per run of them, and the next record is
                // still read whole (glued to it, they would lose it to invalid-json).
                let startLine = line
                var count = 0
                while let next = peekByte(), next == 0 || Self.isWhitespace(next) {
                    if next == 0 { count += 1 }
                    _ = nextByte()
                }
                return .unreadable(
                    line: startLine, number: nil, reason: .nulCharacter,
                    message: "\(count) NUL byte\(count == 1 ? "" : "s") between records", excerpt: [])
            }
            if isArray == nil {
                isArray = byte == UInt8(ascii: "[")
                if isArray == true {
                    _ = nextByte()
                    continue
                }
            }
            if isArray == true && !arrayClosed && byte == UInt8(ascii: "]") {
                _ = nextByte()
                arrayClosed = true
                continue
            }
            if arrayClosed {
                let startLine = line
                var excerpt: [UInt8] = []
                while let extra = nextByte(), excerpt.count < 1024 { excerpt.append(extra) }
                while nextByte() != nil {}
                return .unreadable(
                    line: startLine, number: nil, reason: .trailingData,
                    message: "unexpected data after the end of the top-level array", excerpt: excerpt)
            }
            return readRecord(numbering: &recordNumber)
        }
        if let pendingError {
            self.pendingError = nil
            return pendingError
        }
        return nil
    }

    /// Reads one value up to where its depth closes (or, for a bare value in an array, up to the next `,` or `]`).
    private func readRecord(numbering recordNumber: inout Int) -> ReceiptFileItem? {
        record.removeAll(keepingCapacity: true)
        let startLine = line
        recordNumber += 1
        var structure = JSONStructure()
        var length = 0
        while let byte = peekByte() {
            if !structure.isInString && structure.depth == 0 && length > 0 {
                // A scalar element ends at the array's delimiters; an object/array ended when depth returned to 0.
                if isArray == true && (byte == UInt8(ascii: ",") || byte == UInt8(ascii: "]")) { break }
                if isArray != true && Self.isWhitespace(byte) && record.first != UInt8(ascii: "\"") { break }
            }
            _ = nextByte()
            length += 1
            if length <= maxRecordLength { record.append(byte) }
            structure.read(byte)
            if !structure.isInString && structure.depth <= 0 && (byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]"))
            {
                break
            }
        }
        if length > maxRecordLength {
            return .unreadable(
                line: startLine, number: recordNumber, reason: .recordTooLong,
                message: "record is \(length) bytes, longer than the \(maxRecordLength)-byte limit",
                excerpt: Array(record.prefix(1024)))
        }
        if let pendingError, structure.isInsideValue {
            // The file broke off inside this record: report the break, not a parse error of the fragment.
            self.pendingError = nil
            return pendingError
        }
        return .record(line: startLine, number: recordNumber, bytes: record[...])
    }
}
