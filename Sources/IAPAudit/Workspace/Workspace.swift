internal import AppStoreFormats
internal import Foundation
package import Logging
internal import Postgres

/// An open database with the schema up to date: what every command works in.
///
/// A command that writes the pipeline's data upgrades the schema when it opens one (`.upgrade`); a command that only
/// reads refuses a schema older than this binary's instead (`.requireCurrent`, exit 79), and changes nothing.
///
/// The executable builds one from `Settings` and calls one method; all the work happens here.
package final class Workspace {
    /// The connection every stage uses; internal, so commands go through Workspace methods, never raw SQL.
    let connection: Connection
    /// The settings it was opened with.
    package let settings: Settings
    let logger: Logger
    /// Where long stages report how far they are.
    package var onProgress: ProgressHandler?

    /// This build's version, recorded with every run.
    package static let version = "0.1.0"

    /// Connects (starting the embedded server if that is the location) and migrates, or, for a command that only
    /// reads (`.requireCurrent`), checks that the schema is current and changes nothing.
    package init(settings: Settings, logger: Logger, schema: SchemaUse = .upgrade) throws {
        self.settings = settings
        self.logger = logger
        self.connection = try settings.database.connect(
            environment: settings.environment, logger: logger, schema: schema)
        try Self.configure(connection, settings: settings)
        try verifyAccountKeyScheme(recording: schema == .upgrade)
    }

    /// Another connection to the same database, set up as the first (for work that overlaps its statements).
    func connectAgain() throws -> Connection {
        let another = try settings.database.connect(
            environment: settings.environment, logger: logger, schema: .asFound)
        try Self.configure(another, settings: settings)
        return another
    }

    private static func configure(_ connection: Connection, settings: Settings) throws {
        connection.responseTimeout = settings.serverTimeout > 0 ? settings.serverTimeout : nil
        // Every wait on a lock is bounded; a wait that runs out names who holds the lock (Workspace+Runs).
        try connection.query(
            "SELECT set_config('lock_timeout', $1, false)", ["\(Int(settings.lockTimeout * 1000))ms"],
            context: "set the lock timeout")
    }

    /// Refuses to mix account keys made with different peppers (or with and without one) in one database. The first
    /// command that writes records its scheme; one that only reads (not `recording`) compares with what is recorded.
    private func verifyAccountKeyScheme(recording: Bool) throws {
        let scheme = settings.hasher.scheme
        if recording {
            try connection.query(
                "INSERT INTO install_setting (name, value) VALUES ('account_key_scheme', $1) ON CONFLICT DO NOTHING",
                [scheme], context: "record account key scheme")
        }
        let recorded = try connection.query("SELECT value FROM install_setting WHERE name = 'account_key_scheme'")
        // Nothing recorded (no command has written to this database): no keys to mix with.
        guard recording || recorded.rowCount > 0 else { return }
        let stored = try recorded.first(String?.self, "value")
        guard stored == scheme else {
            throw IAPAuditError.configuration(
                "this database's account keys use scheme \(stored ?? "?"), but this run would use \(scheme); "
                    + "set the same pepper (IAP_AUDIT_PEPPER_FILE or IAP_AUDIT_PEPPER) as when the data was loaded")
        }
    }
}
