public import Postgres

/// Failures of the pipeline that are not about one input record (those go to the quarantine).
public enum IAPAuditError: Error, Sendable, CustomStringConvertible {
    /// The database could not be reached or went away.
    case databaseUnavailable(PostgresError)
    /// A statement failed.
    case database(PostgresError)
    /// An applied migration's file changed after it was applied.
    case migrationChanged(name: String)
    /// The database was migrated by a newer iap-audit.
    case schemaNewerThanBinary(database: Int, binary: Int)
    /// Another run holds the pipeline lock.
    case locked(holder: String?)
    /// The configuration is unusable.
    case configuration(String)
    /// An input path cannot be used at all (does not exist, not readable).
    case input(String)
    /// The command asked for something that does not exist or cannot be (bad report name or parameter).
    case usage(String)
    /// A signal asked the run to stop; the file in progress was finished.
    case interrupted(signal: Int32)
    /// Something that should be impossible happened.
    case internalInconsistency(String)

    public var description: String {
        switch self {
        case .databaseUnavailable(let error): "database unavailable: \(error)"
        case .database(let error): "database error: \(error)"
        case .migrationChanged(let name):
            "migration \(name) was changed after it was applied; migrations are forward only: "
                + "restore the released file and add a new numbered migration instead"
        case .schemaNewerThanBinary(let database, let binary):
            "the database schema is at version \(database), newer than this iap-audit knows (\(binary)); "
                + "upgrade iap-audit"
        case .locked(let holder):
            "another iap-audit run holds the lock" + (holder.map { ": \($0)" } ?? "") + "; try again later"
        case .configuration(let message): "configuration: \(message)"
        case .input(let message): message
        case .usage(let message): message
        case .interrupted(let signal):
            "stopped by signal \(signal) after the file in progress; run again to finish the rest"
        case .internalInconsistency(let message): "internal error: \(message)"
        }
    }
}
