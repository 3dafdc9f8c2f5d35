import Logging
import Testing

@testable import Postgres

/// A connection string libpq cannot use never comes back in the error: libpq quotes parts of it, so `Connection`
/// redacts them while keeping what says what is wrong.
struct ConnectionRedactionTests {
    static let logger = Logger(label: "redaction-test")

    /// Connects with `conninfo` (all fail while parsing, before any network) and returns the error's text.
    static func connectError(_ conninfo: String) -> String {
        do {
            _ = try Connection(conninfo: conninfo, logger: logger)
            return "connected"
        } catch {
            return "\(error)"
        }
    }

    @Test(arguments: [
        "postgres://u:s3cret@/db?bogus=1",
        "host=/tmp password=s3cret dbname",
        "pg://u:s3cret@h/db?x=1",
        "x=1 postgres://u:s3cret@h/db",
        "postgres://u:s3cret@[::1/db",
        "postgresql://u:s3cret@h/db?a=b=c",
        "postgresql://u:s3cret@h/db?password",
        "host=/tmp password='s3cret",
    ])
    func anUnparsableConnectionStringIsNamedAndNeverShowsThePassword(conninfo: String) {
        let message = Self.connectError(conninfo)
        #expect(message.hasPrefix("connect: the connection string is not valid: "), "\(message)")
        #expect(!message.contains("s3cret"), "\(message)")
    }

    /// These parse; libpq rejects the option's value afterwards, quoting it (here the password itself).
    @Test(arguments: ["postgres://u:s3cret@/db?sslmode=s3cret", "host=/tmp password=s3cret sslmode=s3cret"])
    func aBadOptionValueNeverShowsThePassword(conninfo: String) {
        let message = Self.connectError(conninfo)
        #expect(message == #"connect: invalid sslmode value: "(redacted)""#, "\(message)")
    }

    @Test(arguments: ["postgres://u:s3%zzcret@/db", "postgres://u:s3%00cret@/db", "postgres://u:s3c%zz@/db?x=1"])
    func aBadlyEncodedPasswordIsNotQuoted(conninfo: String) {
        let message = Self.connectError(conninfo)
        #expect(message.contains("percent-encoded"), "\(message)")
        #expect(!message.contains("s3"), "\(message)")
    }

    @Test func theUsefulPartOfTheMessageStays() {
        #expect(
            Self.connectError("host=/tmp password=s3cret dbname")
                == #"connect: the connection string is not valid: missing "=" after "dbname" in connection info string"#
        )
        #expect(
            Self.connectError("postgres://u:s3cret@/db?bogus=1").hasSuffix(#"invalid URI query parameter: "bogus""#))
        #expect(Self.connectError("pg://u:s3cret@h/db?x=1").hasSuffix(#"invalid connection option "(redacted)""#))
    }

    @Test func aServerThatQuotesADatabaseNameMadeOfAURLIsRedacted() {
        let redaction = ConnectionStringRedaction(conninfo: "u:s3cret@h/db")
        #expect(
            redaction.redact(#"connection to server failed: FATAL:  database "u:s3cret@h/db" does not exist"#)
                == #"connection to server failed: FATAL:  database "(redacted)" does not exist"#)
    }

    @Test func passwordsOutsideQuotesAreRedacted() {
        let redaction = ConnectionStringRedaction(conninfo: "host=h password='pa ss\\'word' user=u")
        #expect(redaction.secrets.contains("pa ss'word"))
        let message = redaction.redact("bad: password='pa ss\\'word' and postgres://u:other@h and pa ss'word")
        #expect(message == "bad: password=(redacted) and postgres://u:(redacted)@h and (redacted)")
    }

    @Test func harmlessQuotedPartsStay() {
        let redaction = ConnectionStringRedaction(conninfo: "postgres://u:pw@db.example.com/x")
        let message =
            #"connection to server at "db.example.com" (10.0.0.1), port 5432 failed: invalid integer value "5x" "#
            + #"for connection option "port"; missing "=""#
        #expect(redaction.redact(message) == message)
    }

    @Test func aShortPasswordIsRedactedWhereQuotedOnly() {
        let redaction = ConnectionStringRedaction(conninfo: "postgres://u:ab@/db?sslmode=ab")
        #expect(redaction.redact(#"invalid sslmode value: "ab""#) == #"invalid sslmode value: "(redacted)""#)
        #expect(redaction.redact("could not connect: about") == "could not connect: about")
    }

    @Test func percentEncodedPasswordsAreKnownInBothForms() {
        let redaction = ConnectionStringRedaction(conninfo: "postgres://u:s%40cret%21@h/db")
        #expect(redaction.secrets.contains("s%40cret%21"))
        #expect(redaction.secrets.contains("s@cret!"))
    }
}
