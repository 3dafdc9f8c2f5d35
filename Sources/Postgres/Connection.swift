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
            throw PostgresError(
                kind: .connection, message: Self.connectMessage(message, conninfo: conninfo), context: "connect")
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

    /// Runs one or more statements without parameters (migrations, `BEGIN`, DDL scripts) in one round trip, and
    /// returns the last one's result.
    @discardableResult
    package func execute(script sql: String, context: String? = nil) throws(PostgresError) -> QueryResult {
        // A multi-statement script returns only the last result; an error stops it, and PQexec reports that one.
        try check(try waiting(context) { PQexec(handle, sql) }, context: context)
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

    /// libpq's connect error made safe to print: libpq quotes parts of a connection string it cannot parse (the
    /// whole URI, a percent-encoded password, a keyword that runs on to the password) and the server may quote a
    /// database name that was meant as a URL, so every such part is redacted.
    static func connectMessage(_ message: String, conninfo: String) -> String {
        let redacted = ConnectionStringRedaction(conninfo: conninfo).redact(message)
        guard ConnectionStringRedaction.isConnectionString(conninfo), !isParsable(conninfo) else { return redacted }
        return "the connection string is not valid: " + redacted
    }

    /// Whether libpq can parse `conninfo` (a URL or `key=value` string) without connecting.
    static func isParsable(_ conninfo: String) -> Bool {
        var error: UnsafeMutablePointer<CChar>?
        let options = PQconninfoParse(conninfo, &error)
        defer {
            if let options { PQconninfoFree(options) }
            if let error { PQfreemem(error) }
        }
        return options != nil
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

/// Removes what a libpq connect error may echo of a connection string: quoted fragments of it (libpq quotes the whole
/// URI, a bad percent-encoded token, a keyword running on to the next `=`), `password=…`, `user:password@`, and the
/// password itself wherever it appears. Uses the standard library's `Regex`, so the module needs no Foundation.
struct ConnectionStringRedaction {
    static let placeholder = "(redacted)"
    /// The password as written in the connection string and percent-decoded, longest first.
    let secrets: [String]
    let conninfo: String

    init(conninfo: String) {
        self.conninfo = conninfo
        var found: [String] = []
        if let match = conninfo.firstMatch(of: #/://[^/?#@]*:([^/?#@]*)@/#) { found.append(String(match.1)) }
        for match in conninfo.matches(of: #/[?&]password=([^&#]*)/#) { found.append(String(match.1)) }
        for match in conninfo.matches(of: #/password\s*=\s*(?:'((?:[^'\\]|\\.)*)'?|([^\s']\S*))/#) {
            if let quoted = match.1 { found.append(String(quoted.replacing(#"\'"#, with: "'"))) }
            if let bare = match.2 { found.append(String(bare)) }
        }
        found += found.compactMap(Self.percentDecoded)
        secrets = Array(Set(found.filter { !$0.isEmpty })).sorted { $0.count > $1.count }
    }

    /// Whether libpq reads `conninfo` as a connection string rather than a database name (with `expand_dbname`).
    static func isConnectionString(_ conninfo: String) -> Bool {
        conninfo.contains("=") || conninfo.hasPrefix("postgresql://") || conninfo.hasPrefix("postgres://")
    }

    /// `message` with every quoted part that is, or holds, a piece of a connection string or a secret replaced.
    func redact(_ message: String) -> String {
        var text = message
        if !conninfo.isEmpty { text = text.replacing(conninfo, with: Self.placeholder) }
        text = redactQuotedParts(text)
        // Outside quotes: a password in either syntax; a secret of a few characters or more anywhere.
        text = text.replacing(#/password\s*=\s*(?:'(?:[^'\\]|\\.)*'?|[^\s"]*)/#) { _ in
            "password=\(Self.placeholder)"
        }
        text = text.replacing(#/://([^:/?#@\s"]*):[^@\s"]*@/#) { match in "://\(match.1):\(Self.placeholder)@" }
        for secret in secrets where secret.count >= 4 {
            text = text.replacing(secret, with: Self.placeholder)
        }
        return text
    }

    private func redactQuotedParts(_ message: String) -> String {
        var result = ""
        var rest = Substring(message)
        while let open = rest.firstIndex(of: "\"") {
            result += rest[...open]
            let afterOpen = rest.index(after: open)
            guard let close = rest[afterOpen...].firstIndex(of: "\"") else {
                // An unterminated quote: everything after it may be the string itself.
                let tail = rest[afterOpen...]
                return result + (isSensitive(tail) ? Self.placeholder : String(tail))
            }
            let quoted = rest[afterOpen..<close]
            result += isSensitive(quoted) ? Self.placeholder : String(quoted)
            result += "\""
            rest = rest[rest.index(after: close)...]
        }
        return result + rest
    }

    /// A quoted part is sensitive when it holds a secret or looks like (part of) a connection string.
    private func isSensitive(_ quoted: Substring) -> Bool {
        if secrets.contains(where: { quoted.contains($0) }) { return true }
        if quoted.contains("://") || quoted.contains("@") { return true }
        return quoted.contains(#/[A-Za-z_]\s*=/#)
    }

    /// `text` with `%XX` escapes decoded (invalid UTF-8 repaired), or nil when it has none.
    static func percentDecoded(_ text: String) -> String? {
        guard text.contains("%") else { return nil }
        var bytes: [UInt8] = []
        var utf8 = text.utf8[...]
        while let byte = utf8.first {
            utf8 = utf8.dropFirst()
            if byte == UInt8(ascii: "%"), utf8.count >= 2,
                let value = UInt8(String(decoding: utf8.prefix(2), as: UTF8.self), radix: 16)
            {
                bytes.append(value)
                utf8 = utf8.dropFirst(2)
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
