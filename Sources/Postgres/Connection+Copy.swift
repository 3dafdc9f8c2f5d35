internal import CLibPQ

extension Connection {
    /// Streams rows into the server with `COPY … FROM STDIN` (text format) and returns how many rows it loaded.
    ///
    /// `body` writes rows through a `CopyWriter`, which flushes to libpq in large chunks so memory stays bounded.
    /// If `body` throws, the COPY is aborted and the error rethrown; the enclosing transaction is then unusable.
    @discardableResult
    package func copyIn(
        _ copyStatement: String, context: String? = nil, body: (inout CopyWriter) throws -> Void
    )
        throws -> Int
    {
        let start = try waiting(context) { PQexec(handle, copyStatement) }
        guard let start, PQresultStatus(start) == PGRES_COPY_IN else {
            _ = try check(start, context: context)
            throw PostgresError(
                kind: .protocolViolation, message: "statement did not start a COPY FROM STDIN", context: context)
        }
        PQclear(start)
        var writer = CopyWriter(connection: self, context: context)
        do {
            try body(&writer)
            try writer.flush()
        } catch {
            PQputCopyEnd(handle, "aborted by client")
            drainResults()
            throw error
        }
        guard try waiting(context, { PQputCopyEnd(handle, nil) }) == 1 else {
            throw PostgresError(
                kind: .connection, message: Self.trimmed(String(cString: PQerrorMessage(handle))),
                context: context)
        }
        let result = try check(try waiting(context) { PQgetResult(handle) }, context: context)
        drainResults()
        return result.affectedRows
    }

    /// Loads rows already rendered into a detached `CopyWriter` (see `CopyWriter()`), in one COPY.
    @discardableResult
    package func copyIn(_ copyStatement: String, rows: CopyWriter, context: String? = nil) throws -> Int {
        guard rows.rowCount > 0 else { return 0 }
        return try copyIn(copyStatement, context: context) { _ in
            // An untyped closure: a typed-throws closure here crashes the Swift 6.3 compiler (IRGen).
            try self.putCopyData(contentsOf: rows.bytes, context: context)
        }
    }

    /// Sends `bytes` as one chunk of COPY data when they are stored contiguously (an array's always are); false,
    /// sending nothing, when they are not.
    @discardableResult
    func putCopyData(contentsOf bytes: some Collection<UInt8>, context: String?) throws(PostgresError) -> Bool {
        var failure: PostgresError?
        let sent: Void? = bytes.withContiguousStorageIfAvailable { buffer in
            do throws(PostgresError) {
                try putCopyData(UnsafeRawBufferPointer(buffer), context: context)
            } catch { failure = error }
        }
        if let failure { throw failure }
        return sent != nil
    }

    /// Sends one chunk of COPY data.
    func putCopyData(_ bytes: UnsafeRawBufferPointer, context: String?) throws(PostgresError) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        let status = try waiting(context) {
            PQputCopyData(handle, base.assumingMemoryBound(to: CChar.self), Int32(bytes.count))
        }
        guard status == 1 else {
            throw PostgresError(
                // PQputCopyData fails only when it cannot send: the connection is the problem.
                kind: .connection, message: Self.trimmed(String(cString: PQerrorMessage(handle))),
                context: context)
        }
    }

    /// Reads and discards results until libpq is ready for the next command.
    func drainResults() {
        while let result = PQgetResult(handle) { PQclear(result) }
    }
}

/// Writes rows in COPY text format: fields separated by tabs, `\N` for NULL, backslash escapes.
///
/// Inside `Connection.copyIn(_:body:)` it streams to the server; created with `init()` it only collects rows, to be
/// loaded later with `Connection.copyIn(_:rows:)` (for tables that cannot stream while another COPY is open).
package struct CopyWriter {
    private let connection: Connection?
    private let context: String?
    private var buffer: [UInt8] = []
    private var fieldCount = 0
    /// Rows written so far.
    package private(set) var rowCount = 0

    private static let flushThreshold = 1 << 18

    init(connection: Connection, context: String?) {
        self.connection = connection
        self.context = context
        buffer.reserveCapacity(Self.flushThreshold + 4096)
    }

    /// A detached writer that collects rows in memory.
    package init() {
        self.connection = nil
        self.context = nil
    }

    /// Bytes collected and not yet sent.
    package var byteCount: Int { buffer.count }

    var bytes: [UInt8] { buffer }

    /// Forgets the collected rows (after they were loaded).
    package mutating func reset() {
        buffer.removeAll(keepingCapacity: true)
        fieldCount = 0
        rowCount = 0
    }

    /// Appends a text field, escaping what COPY's text format requires.
    package mutating func field(_ value: String?) {
        separate()
        guard var value else {
            buffer.append(contentsOf: [0x5C, 0x4E])  // \N
            return
        }
        value.withUTF8 { appendEscaped($0) }
    }

    /// Appends a text field from raw UTF-8 bytes (already validated), escaping as needed.
    package mutating func field(utf8 bytes: some Collection<UInt8>) {
        separate()
        if bytes.withContiguousStorageIfAvailable({ appendEscaped($0) }) == nil {
            appendEscaped(Array(bytes))
        }
    }

    /// Appends an integer field.
    package mutating func field(_ value: Int?) {
        separate()
        guard let value else {
            buffer.append(contentsOf: [0x5C, 0x4E])
            return
        }
        appendDecimal(value)
    }

    /// Appends a boolean field.
    package mutating func field(_ value: Bool?) {
        separate()
        guard let value else {
            buffer.append(contentsOf: [0x5C, 0x4E])
            return
        }
        buffer.append(value ? 0x74 : 0x66)  // t / f
    }

    /// Appends a `bytea` field from raw bytes (hex format).
    package mutating func field(bytea bytes: some Sequence<UInt8>) {
        separate()
        // COPY text format: the bytea text form `\x…` with its backslash escaped.
        buffer.append(contentsOf: [0x5C, 0x5C, 0x78])
        PostgresBytes.appendHex(bytes, to: &buffer)
    }

    /// Appends a field already in PostgreSQL text input form that needs no escaping (timestamps, numbers).
    package mutating func field(verbatim bytes: some Sequence<UInt8>) {
        separate()
        buffer.append(contentsOf: bytes)
    }

    /// Appends whole rows that a detached writer rendered (e.g. on another thread); flushes when the buffer is large.
    package mutating func append(rows other: CopyWriter) throws(PostgresError) {
        guard other.rowCount > 0 else { return }
        try append(encodedRows: other.buffer, count: other.rowCount)
    }

    /// Appends `count` rows already encoded for this COPY's format; flushes when the buffer is large.
    mutating func append(encodedRows: some Collection<UInt8>, count: Int) throws(PostgresError) {
        rowCount += count
        fieldCount = 0
        // A block as large as a flush goes out from where it is: ingest hands over a megabyte at a time, a gigabyte
        // of receipts per million entries that copying into this buffer first would move once more.
        if let connection, encodedRows.count >= Self.flushThreshold {
            try flush()
            if try connection.putCopyData(contentsOf: encodedRows, context: context) { return }
        }
        buffer.append(contentsOf: encodedRows)
        if connection != nil && buffer.count >= Self.flushThreshold { try flush() }
    }

    /// Appends bytes that are not rows (a binary COPY's header and trailer).
    mutating func appendVerbatim(_ bytes: [UInt8]) {
        buffer.append(contentsOf: bytes)
    }

    /// Appends `count` whole rows that take up `range` of a detached writer's bytes.
    package mutating func append(rowsIn range: Range<Int>, count: Int, of other: CopyWriter) throws(PostgresError) {
        precondition(
            range.upperBound <= other.buffer.count && (range.isEmpty || other.buffer[range.upperBound - 1] == 0x0A))
        try append(encodedRows: other.buffer[range], count: count)
    }

    /// Ends the current row; flushes to the server when the buffer is large.
    package mutating func endRow() throws(PostgresError) {
        buffer.append(0x0A)
        fieldCount = 0
        rowCount += 1
        if connection != nil && buffer.count >= Self.flushThreshold { try flush() }
    }

    mutating func flush() throws(PostgresError) {
        guard !buffer.isEmpty, let connection else { return }
        try connection.putCopyData(contentsOf: buffer, context: context)
        buffer.removeAll(keepingCapacity: true)
    }

    private mutating func separate() {
        if fieldCount > 0 { buffer.append(0x09) }
        fieldCount += 1
    }

    private mutating func appendEscaped(_ bytes: UnsafeBufferPointer<UInt8>) {
        // Copy runs of ordinary bytes in one go; only the four special bytes are escaped one by one.
        var runStart = 0
        for index in 0..<bytes.count {
            let escape: UInt8
            switch bytes[index] {
            case 0x5C: escape = 0x5C
            case 0x09: escape = 0x74
            case 0x0A: escape = 0x6E
            case 0x0D: escape = 0x72
            default: continue
            }
            if index > runStart { buffer.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index])) }
            buffer.append(0x5C)
            buffer.append(escape)
            runStart = index + 1
        }
        if bytes.count > runStart {
            buffer.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<bytes.count]))
        }
    }

    private mutating func appendEscaped(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { appendEscaped($0) }
    }

    private mutating func appendDecimal(_ value: Int) {
        if value < 0 { buffer.append(0x2D) }
        var magnitude = value.magnitude
        var digits:
            (
                UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8
            ) =
                (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var count = 0
        withUnsafeMutableBytes(of: &digits) { scratch in
            repeat {
                scratch[count] = UInt8(magnitude % 10) + 0x30
                magnitude /= 10
                count += 1
            } while magnitude > 0
            for index in stride(from: count - 1, through: 0, by: -1) { buffer.append(scratch[index]) }
        }
    }
}
