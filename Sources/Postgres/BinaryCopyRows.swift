/// Rows in COPY's binary format, rendered without a connection (e.g. on another thread) and streamed with
/// `Connection.copyInBinary(_:context:body:)`.
///
/// Binary rows spare the server COPY's text parsing and escape handling, about a quarter of its work on large text
/// values. Each field must have exactly its column's binary width: `int64` for `bigint`, `int32` for `integer`; the
/// server rejects a mismatch ("incorrect binary data format").
package struct BinaryCopyRows {
    private(set) var bytes: [UInt8] = []
    /// Rows written so far.
    package private(set) var rowCount = 0
    private var fieldsDeclared = 0
    private var fieldsWritten = 0
    /// The first value that had no binary form for its column (an integer past 32 bits, an instant past what
    /// `timestamptz` holds). Parsers refuse such values first; if one gets here all the same, these rows are not sent
    /// (`CopyWriter.append(binaryRows:)` throws, the file fails) rather than trapping and stopping the whole batch.
    package private(set) var unencodable: String?

    /// The signature, flags and header-extension length that open a binary COPY stream.
    static let header: [UInt8] = Array("PGCOPY\n".utf8) + [0xFF, 0x0D, 0x0A, 0x00] + [0, 0, 0, 0] + [0, 0, 0, 0]
    /// A field count of -1: the end of the stream.
    static let trailer: [UInt8] = [0xFF, 0xFF]
    /// Days from 1970-01-01 to 2000-01-01, PostgreSQL's timestamp epoch, in microseconds.
    static let postgresEpochMicroseconds: Int64 = 946_684_800_000_000

    /// An empty set of rows.
    package init() {}

    /// Bytes rendered so far.
    package var byteCount: Int { bytes.count }

    /// Makes room for `byteCount` bytes of rows, so that filling a chunk does not grow it step by step.
    package mutating func reserveCapacity(_ byteCount: Int) {
        bytes.reserveCapacity(byteCount)
    }

    /// Forgets the rows (after they were loaded).
    package mutating func reset() {
        bytes.removeAll(keepingCapacity: true)
        rowCount = 0
        unencodable = nil
    }

    /// Appends the rows `other` rendered (a parsed chunk's, gathered for one COPY), and its first unencodable value.
    package mutating func append(rows other: BinaryCopyRows) {
        precondition(fieldsWritten == fieldsDeclared && other.fieldsWritten == other.fieldsDeclared, "a row is open")
        if unencodable == nil { unencodable = other.unencodable }
        bytes.append(contentsOf: other.bytes)
        rowCount += other.rowCount
    }

    /// Starts a row of `fieldCount` fields.
    package mutating func beginRow(fieldCount: Int) {
        precondition(fieldsWritten == fieldsDeclared, "the previous row was not ended")
        fieldsDeclared = fieldCount
        fieldsWritten = 0
        appendBigEndian(Int16(fieldCount))
    }

    /// Ends the row; it must hold exactly the fields `beginRow` declared.
    package mutating func endRow() {
        precondition(fieldsWritten == fieldsDeclared, "row has \(fieldsWritten) fields, \(fieldsDeclared) declared")
        rowCount += 1
    }

    /// A `bigint` field, or NULL.
    package mutating func int64(_ value: Int?) {
        guard let value else { return null() }
        field(length: 8)
        appendBigEndian(Int64(value))
    }

    /// An `integer` field, or NULL. The value must fit 32 bits.
    package mutating func int32(_ value: Int?) {
        guard let value else { return null() }
        guard let narrow = Int32(exactly: value) else {
            refuse("\(value) does not fit a 32-bit integer column")
            return null()
        }
        field(length: 4)
        appendBigEndian(narrow)
    }

    /// A `boolean` field, or NULL.
    package mutating func bool(_ value: Bool?) {
        guard let value else { return null() }
        field(length: 1)
        bytes.append(value ? 1 : 0)
    }

    /// A `text` field, or NULL.
    package mutating func text(_ value: String?) {
        guard var value else { return null() }
        value.withUTF8 { text(utf8: $0) }
    }

    /// A `text` field from UTF-8 bytes (the server checks the encoding; NUL bytes are refused).
    package mutating func text(utf8 value: some Collection<UInt8>) {
        field(length: value.count)
        // One copy of contiguous bytes (a raw record is kilobytes), not the generic element-wise path.
        let copied: Void? = value.withContiguousStorageIfAvailable { bytes.append(contentsOf: $0) }
        if copied == nil { bytes.append(contentsOf: value) }
    }

    /// A `jsonb` field from the UTF-8 bytes of a JSON text, or NULL: jsonb's binary form is a version byte (1) and then
    /// the text, which the server parses and checks as it would a text COPY.
    package mutating func jsonb(utf8 value: [UInt8]?) {
        guard let value else { return null() }
        field(length: 1 + value.count)
        bytes.append(1)
        bytes.append(contentsOf: value)
    }

    /// A `bytea` field, or NULL.
    package mutating func bytea(_ value: [UInt8]?) {
        guard let value else { return null() }
        field(length: value.count)
        bytes.append(contentsOf: value)
    }

    /// A `timestamptz` field from milliseconds since 1970-01-01 UTC, or NULL.
    package mutating func timestamp(millisecondsSince1970 value: Int64?) {
        guard let value else { return null() }
        // Overflow-checked: a value past ±292,000 years has no microsecond form at all.
        let (micros, overflowed) = value.multipliedReportingOverflow(by: 1000)
        let (sinceEpoch, overflowedAgain) = micros.subtractingReportingOverflow(Self.postgresEpochMicroseconds)
        guard !overflowed, !overflowedAgain else {
            refuse("the instant \(value) ms since 1970 has no timestamptz form")
            return null()
        }
        field(length: 8)
        appendBigEndian(sinceEpoch)
    }

    /// A `uuid` field from its canonical text (36 characters, hex digits and dashes), or NULL.
    package mutating func uuid(_ value: String?) {
        guard let value else { return null() }
        let digits = value.utf8.compactMap(Self.hexValue)
        precondition(value.utf8.count == 36 && digits.count == 32, "not a canonical UUID")
        field(length: 16)
        for index in stride(from: 0, to: 32, by: 2) { bytes.append(digits[index] << 4 | digits[index + 1]) }
    }

    private static func hexValue(_ character: UInt8) -> UInt8? {
        switch character {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): character - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): character - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): character - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    private mutating func refuse(_ problem: String) {
        if unencodable == nil { unencodable = problem }
    }

    private mutating func null() {
        field(length: -1)
    }

    private mutating func field(length: Int) {
        fieldsWritten += 1
        appendBigEndian(Int32(length))
    }

    private mutating func appendBigEndian(_ value: some FixedWidthInteger) {
        withUnsafeBytes(of: value.bigEndian) { bytes.append(contentsOf: $0) }
    }
}

extension Connection {
    /// Streams rows into the server with `COPY … FROM STDIN (FORMAT binary)`; `body` appends `BinaryCopyRows` through
    /// `CopyWriter.append(binaryRows:)`. Returns how many rows the server loaded.
    @discardableResult
    package func copyInBinary(
        _ copyStatement: String, context: String? = nil, body: (inout CopyWriter) throws -> Void
    ) throws -> Int {
        try copyIn(copyStatement, context: context) { writer in
            writer.appendVerbatim(BinaryCopyRows.header)
            try body(&writer)
            writer.appendVerbatim(BinaryCopyRows.trailer)
        }
    }
}

extension Connection {
    /// Loads rows already rendered into a detached `BinaryCopyRows`, in one binary COPY.
    @discardableResult
    package func copyInBinary(_ copyStatement: String, rows: BinaryCopyRows, context: String? = nil) throws -> Int {
        guard rows.rowCount > 0 else { return 0 }
        // An untyped closure: a typed-throws closure here crashes the Swift 6.3 compiler (IRGen).
        return try copyInBinary(copyStatement, context: context) { writer in try writer.append(binaryRows: rows) }
    }
}

extension CopyWriter {
    /// Appends rows rendered in binary format (only inside `Connection.copyInBinary`).
    package mutating func append(binaryRows rows: BinaryCopyRows) throws(PostgresError) {
        if let problem = rows.unencodable {
            throw PostgresError(kind: .statement, message: "a value could not be encoded: \(problem)")
        }
        guard rows.rowCount > 0 else { return }
        try append(encodedRows: rows.bytes, count: rows.rowCount)
    }
}
