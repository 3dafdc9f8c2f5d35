internal import CLibPQ
package import Logging

#if canImport(Glibc)
    internal import Glibc
#elseif canImport(Musl)
    internal import Musl
#elseif canImport(Darwin)
    internal import Darwin
#endif

/// One libpq connection to PostgreSQL.
///
/// libpq forbids two threads on one connection, so this class is deliberately not `Sendable`: parallel work opens one
/// connection per worker.
package final class Connection {
    let handle: OpaquePointer
    let logger: Logger
    /// How many `transaction` calls are open (0: none); inner ones are savepoints.
    var transactionDepth = 0
    /// Seconds a connect waits for the server unless the conninfo or `PGCONNECT_TIMEOUT` says otherwise.
    package static let defaultConnectTimeout = 30

    /// The longest one call may wait for the server before the connection is given up as broken (nil: no bound).
    /// See `ResponseWatchdog`.
    package var responseTimeout: Double?

    /// Connects with libpq's own conninfo handling.
    ///
    /// `conninfo` is a `postgresql://` URL or `key=value` string; an empty string lets libpq use its `PG*` environment
    /// variables and service files, exactly as psql would.
    package init(conninfo: String, applicationName: String = "iap-audit", logger: Logger) throws(PostgresError) {
        self.logger = logger
        // expand_dbname=1 lets `dbname` carry a whole conninfo/URL while we still add a fallback application name.
        // A connect_timeout first, so that the conninfo's own (or PGCONNECT_TIMEOUT) wins: without one, a server
        // that accepts the socket but never answers hangs the connect for ever.
        var keywords = ["dbname", "fallback_application_name", "client_encoding"]
        var values = [conninfo, applicationName, "UTF8"]
        if getenv("PGCONNECT_TIMEOUT") == nil {
            keywords.insert("connect_timeout", at: 0)
            values.insert(String(Self.defaultConnectTimeout), at: 0)
        }
        let connection = withCStringArray(keywords) { keywordPointers in
            withCStringArray(values) { valuePointers in
                PQconnectdbParams(keywordPointers, valuePointers, 1)
            }
        }
        guard let connection else {
            throw PostgresError(kind: .connection, message: "libpq could not allocate a connection", context: "connect")
        }
        guard PQstatus(connection) == CONNECTION_OK else {
            let message = Self.trimmed(String(cString: PQerrorMessage(connection)))
            PQfinish(connection)
            throw PostgresError(kind: .connection, message: message, context: "connect")
        }
        self.handle = connection
        // libpq prints NOTICEs to stderr by default; a batch tool's stderr is its log, so silence them.
        PQsetNoticeProcessor(connection, { _, _ in }, nil)
    }

    deinit {
        PQfinish(handle)
    }

    /// Whether the connection is still usable.
    package var isOK: Bool { PQstatus(handle) == CONNECTION_OK }

    /// The server's version number (e.g. 150018).
    package var serverVersion: Int { Int(PQserverVersion(handle)) }

    /// Runs one statement with `$n` parameters sent out of band (never interpolated) and returns its rows.
    @discardableResult
    package func query(
        _ sql: String, _ parameters: [(any PostgresParameter)?] = [], context: String? = nil
    ) throws(PostgresError) -> QueryResult {
        let texts = parameters.map { $0?.postgresText }
        let raw = try waiting(context) {
            withOptionalCStringArray(texts) { pointers in
                PQexecParams(handle, sql, Int32(texts.count), nil, pointers, nil, nil, 0)
            }
        }
        return try check(raw, context: context)
    }

    /// Runs one or more statements without parameters (migrations, `BEGIN`, DDL scripts).
    package func execute(script sql: String, context: String? = nil) throws(PostgresError) {
        // A multi-statement script returns only the last result; an error stops it, and PQexec reports that one.
        _ = try check(try waiting(context) { PQexec(handle, sql) }, context: context)
    }

    /// Turns a libpq result into a `QueryResult`, or throws with the server's message and SQLSTATE.
    func check(_ raw: OpaquePointer?, context: String?) throws(PostgresError) -> QueryResult {
        guard let raw else {
            throw PostgresError(
                kind: isOK ? .protocolViolation : .connection,
                message: Self.trimmed(String(cString: PQerrorMessage(handle))), context: context)
        }
        switch PQresultStatus(raw) {
        case PGRES_COMMAND_OK, PGRES_TUPLES_OK, PGRES_EMPTY_QUERY, PGRES_COPY_IN:
            return QueryResult(taking: raw)
        default:
            let error = makeError(from: raw, context: context)
            PQclear(raw)
            throw error
        }
    }

    func makeError(from result: OpaquePointer, context: String?) -> PostgresError {
        func field(_ code: UInt8) -> String? {
            guard let pointer = PQresultErrorField(result, Int32(code)) else { return nil }
            return String(cString: pointer)
        }
        let sqlState = field(UInt8(ascii: "C"))
        let primary = field(UInt8(ascii: "M")) ?? Self.trimmed(String(cString: PQresultErrorMessage(result)))
        // The server always sends a SQLSTATE with its errors; an error without one was made by libpq itself
        // because the connection broke (status may not say so yet), e.g. "server closed the connection".
        let kind: PostgresError.Kind = isOK && sqlState != nil ? .statement : .connection
        return PostgresError(
            kind: kind, message: primary.isEmpty ? Self.trimmed(String(cString: PQerrorMessage(handle))) : primary,
            sqlState: sqlState, detail: field(UInt8(ascii: "D")), hint: field(UInt8(ascii: "H")), context: context)
    }

    static func trimmed(_ message: String) -> String {
        var text = Substring(message)
        while let last = text.last, last.isWhitespace { text = text.dropLast() }
        return String(text)
    }
}

@available(*, unavailable)
extension Connection: Sendable {}

/// Calls `body` with a NULL-terminated array of C strings that lives for the duration of the call.
func withCStringArray<R>(_ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>?) -> R) -> R {
    withOptionalCStringArray(strings.map { Optional($0) }) { body($0) }
}

/// Like `withCStringArray`, with nil entries passed as NULL (SQL NULL for parameters).
func withOptionalCStringArray<R>(_ strings: [String?], _ body: (UnsafePointer<UnsafePointer<CChar>?>?) -> R) -> R {
    let duplicates: [UnsafeMutablePointer<CChar>?] = strings.map { $0.map { strdup($0) } ?? nil }
    defer { duplicates.forEach { free($0) } }
    let pointers = duplicates.map { UnsafePointer($0) } + [nil]
    return pointers.withUnsafeBufferPointer { body($0.baseAddress) }
}
