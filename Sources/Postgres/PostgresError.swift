/// An error from PostgreSQL or libpq, with the server's own words and SQLSTATE.
///
/// Never carries a connection string, a password or a bound parameter value: only what libpq reported.
package struct PostgresError: Error, Sendable, CustomStringConvertible {
    /// What kind of failure this was, for callers that map it to an exit code or a retry.
    package enum Kind: Sendable, Equatable {
        /// The server could not be reached, or the connection broke.
        case connection
        /// The server rejected a statement.
        case statement
        /// The server answered something this wrapper did not expect.
        case protocolViolation
        /// A result's value was NULL or did not parse as the type the caller required (schema drift, wrong query).
        case decoding
    }

    /// What kind of failure this was.
    package var kind: Kind
    /// libpq's or the server's primary message.
    package var message: String
    /// The five-character SQLSTATE, when the server sent one.
    package var sqlState: String?
    /// The server's DETAIL line, if any.
    package var detail: String?
    /// The server's HINT line, if any.
    package var hint: String?
    /// A short name of what was being done ("connect", "migration 0003", "COPY receipt").
    package var context: String?

    /// Creates an error; normally only the wrapper does this.
    package init(
        kind: Kind, message: String, sqlState: String? = nil, detail: String? = nil, hint: String? = nil,
        context: String? = nil
    ) {
        self.kind = kind
        self.message = message
        self.sqlState = sqlState
        self.detail = detail
        self.hint = hint
        self.context = context
    }

    /// A decoding error: column `column` of row `row` held `found` (nil: NULL) where `expected` was required.
    ///
    /// The text found is cut to 40 characters: enough to recognise drift, too little to leak a row.
    package static func decoding(column: String, row: Int, expected: String, found: String?) -> PostgresError {
        let shown: String
        if let found {
            let cut = found.count > 40 ? found.prefix(40) + "…" : Substring(found)
            shown = "\"\(cut)\""
        } else {
            shown = "NULL"
        }
        return PostgresError(
            kind: .decoding, message: "column \"\(column)\" row \(row): expected \(expected), found \(shown)")
    }

    /// True when the database is unreachable or went away (sysexits' EX_UNAVAILABLE territory), not a bad statement.
    package var isUnavailable: Bool {
        if kind == .connection { return true }
        guard let sqlState else { return false }
        // 08: connection exception; 57P01-57P03: admin/crash shutdown, cannot connect now; 53300: too many clients.
        return sqlState.hasPrefix("08") || ["57P01", "57P02", "57P03", "53300"].contains(sqlState)
    }

    /// True for a unique-constraint violation (23505).
    package var isUniqueViolation: Bool { sqlState == "23505" }

    package var description: String {
        var text = ""
        if let context { text += "\(context): " }
        text += message
        if let sqlState { text += " (SQLSTATE \(sqlState))" }
        if let detail { text += "\nDETAIL: \(detail)" }
        if let hint { text += "\nHINT: \(hint)" }
        return text
    }
}
