/// A value that can travel to PostgreSQL as a text-format bound parameter (`$n`).
public protocol PostgresParameter: Sendable {
    /// The value in PostgreSQL's text input format.
    var postgresText: String { get }
}

extension String: PostgresParameter {
    public var postgresText: String { self }
}

extension Substring: PostgresParameter {
    public var postgresText: String { String(self) }
}

extension Int: PostgresParameter {
    public var postgresText: String { String(self) }
}

extension Int64: PostgresParameter {
    public var postgresText: String { String(self) }
}

extension Int32: PostgresParameter {
    public var postgresText: String { String(self) }
}

extension Bool: PostgresParameter {
    public var postgresText: String { self ? "true" : "false" }
}

extension Double: PostgresParameter {
    public var postgresText: String { String(self) }
}
