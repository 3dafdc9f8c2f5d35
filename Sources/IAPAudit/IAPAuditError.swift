package import AppleAPI
internal import EmbeddedPostgres
internal import Foundation
package import Postgres

/// Failures of the pipeline that are not about one input record (those go to the quarantine).
package enum IAPAuditError: Error, Sendable, CustomStringConvertible {
    /// The database could not be reached or went away.
    case databaseUnavailable(PostgresError)
    /// A statement failed.
    case database(PostgresError)
    /// An applied migration's file changed after it was applied.
    case migrationChanged(name: String)
    /// The database was migrated by a newer iap-audit.
    case schemaNewerThanBinary(database: Int, binary: Int)
    /// A command that only reads found the schema older than this binary's (or without it): it does not upgrade it.
    case schemaOlderThanBinary(database: Int, binary: Int)
    /// Another run holds the pipeline lock.
    case locked(holder: String?)
    /// A statement waited longer than the lock timeout for a lock other sessions hold (named, oldest first).
    case lockTimeout(seconds: Double, holders: [String])
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
    /// A statement or the connection failed outside the connect step (reported as the server's own words).
    case postgres(PostgresError)
    /// The login's role may not read or write what the command needs (SQLSTATE 42501): most often an analyst's login
    /// running one of the pipeline's commands. `advice`, when the command knows better than the general words what
    /// the role lacks and whose login to use.
    case permissionDenied(PostgresError, advice: String? = nil)
    /// The embedded server could not be found, started or stopped; the text says what to do.
    case embeddedServer(String)
    /// A disk is full or failing: the database server's, or the one reports and metrics are written to.
    case storage(String)
    /// An output file or directory cannot be created (exists as a file, no permission, read-only file system).
    case cannotCreate(String)
    /// Fetching from Apple failed (docs/fetching.md): a key Apple refused (77), a key file or URL that cannot be used
    /// (78), or Apple not answering within the retry bound (76).
    case apple(AppleAPIError)

    /// `error` as an `IAPAuditError`: itself, a wrapped `PostgresError` or embedded-server error; nil for others.
    package static func wrapping(_ error: any Error) -> IAPAuditError? {
        var wrapped = plainWrapping(error)
        switch wrapped {
        case .postgres(let inner) where inner.sqlState == "42501", .database(let inner) where inner.sqlState == "42501":
            wrapped = .permissionDenied(inner)
        default: break
        }
        // The embedded server gone (69) because its own disk filled: the server's log says so, and it is 74.
        if wrapped?.exitCode == 69, let full = EmbeddedServerLog.diskFull() { return .storage(full) }
        return wrapped
    }

    private static func plainWrapping(_ error: any Error) -> IAPAuditError? {
        switch error {
        case let error as IAPAuditError: error
        case let error as PostgresError where error.isStorageFailure: .storage("the database server: \(error.summary)")
        case let error as PostgresError: .postgres(error)
        case let error as EmbeddedServerError: .embeddedServer(error.description)
        case let error as AppleAPIError: .apple(error)
        default: storageFailure(error).map { .storage($0) }
        }
    }

    /// The message of a file-system error that means a full or failing disk (ENOSPC, EDQUOT, EIO), else nil.
    static func storageFailure(_ error: any Error) -> String? {
        var current = error as NSError
        while true {
            if current.domain == NSCocoaErrorDomain && current.code == CocoaError.fileWriteOutOfSpace.rawValue {
                return "no space left on the device: \(current.localizedDescription)"
            }
            if current.domain == NSPOSIXErrorDomain && [ENOSPC, EDQUOT, EIO].contains(Int32(current.code)) {
                return String(cString: strerror(Int32(current.code)))
                    + ((current.userInfo[NSFilePathErrorKey] as? String).map { ": \($0)" } ?? "")
            }
            guard let underlying = current.userInfo[NSUnderlyingErrorKey] as? NSError else { return nil }
            current = underlying
        }
    }

    /// The sysexits(3) code a command that ends with this error exits with.
    package var exitCode: Int32 {
        switch self {
        case .databaseUnavailable: 69  // EX_UNAVAILABLE
        case .database(let inner): inner.isUnavailable ? 69 : 70  // EX_SOFTWARE
        case .migrationChanged, .schemaNewerThanBinary, .configuration: 78  // EX_CONFIG
        case .locked, .lockTimeout: 75  // EX_TEMPFAIL
        // No sysexits code means "upgrade the schema first"; 78 is a database too new, which upgrading cannot fix.
        case .schemaOlderThanBinary: 79
        case .input: 66  // EX_NOINPUT
        case .usage: 64  // EX_USAGE
        case .interrupted(let signal): 128 + signal
        case .internalInconsistency: 70
        case .postgres(let inner): inner.isUnavailable ? 69 : 70
        case .permissionDenied: 77  // EX_NOPERM
        case .embeddedServer: 69
        case .storage: 74  // EX_IOERR
        case .cannotCreate: 73  // EX_CANTCREAT
        case .apple(let error):
            switch error {
            case .unauthorized, .forbidden: 77  // EX_NOPERM
            case .key, .insecureURL: 78  // EX_CONFIG
            default: 76  // EX_PROTOCOL
            }
        }
    }

    package var description: String {
        switch self {
        case .databaseUnavailable(let error): "database unavailable: \(error)"
        case .database(let error): "database error: \(error)"
        case .migrationChanged(let name):
            "migration \(name) was changed after it was applied; migrations are forward only: "
                + "restore the released file and add a new numbered migration instead"
        case .schemaNewerThanBinary(let database, let binary):
            "the database schema is at version \(database), newer than this iap-audit knows (\(binary)); "
                + "upgrade iap-audit"
        case .schemaOlderThanBinary(let database, let binary):
            SchemaState.standing(database: database, binary: binary)
                + (database == 0
                    // Most often the wrong database (the demo's is iap_audit_demo), not one still to be created.
                    ? "; this command only reads: name the database that holds the data (--database, "
                        + "--database-url), or run `iap-audit init` to create the schema"
                    : "; this command only reads and does not upgrade it: run `iap-audit init` (after a backup), "
                        + "then this command again")
        case .locked(let holder):
            "another iap-audit run holds the lock" + (holder.map { ": \($0)" } ?? "") + "; try again later"
        case .lockTimeout(let seconds, let holders):
            "waited \(Int(seconds)) s for a lock held by "
                + (holders.isEmpty ? "another session (it has ended since)" : holders.joined(separator: "; "))
                + "; end that session, or raise IAP_AUDIT_LOCK_TIMEOUT, and run again"
        case .configuration(let message): "configuration: \(message)"
        case .input(let message): message
        case .usage(let message): message
        case .interrupted(let signal):
            "stopped by signal \(signal) after the file in progress; run again to finish the rest"
        case .internalInconsistency(let message): "internal error: \(message)"
        case .postgres(let error): error.isUnavailable ? "database unavailable: \(error)" : "\(error)"
        case .permissionDenied(let error, let advice?): "\(error.summary): \(advice)"
        case .permissionDenied(let error, nil):
            "\(error.summary): this login's role may not do that. Run the pipeline's commands (run, ingest, report, "
                + "evidence export …) as the pipeline's role; an analyst's role (iap_audit_analyst) reads the views and "
                + "uses `iap-audit flags`, once the pipeline's role has brought the schema up to date (`iap-audit "
                + "init`). See docs/operating.md, \"The analyst role on a server of yours\""
        case .embeddedServer(let message): "embedded database: \(message)"
        case .storage(let message): "I/O error (is a disk full?): \(message)"
        case .cannotCreate(let message): message
        case .apple(let error): "fetch: \(error)"
        }
    }
}
