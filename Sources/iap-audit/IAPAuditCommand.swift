import ArgumentParser
import IAPAudit

/// `iap-audit`: the App Store purchase audit pipeline.
@main
struct IAPAuditCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "iap-audit",
        abstract: "Audit App Store purchases: ingest recorded receipts and Apple's reports into PostgreSQL, "
            + "flag irregular patterns, reconcile.",
        discussion: """
            With no database configured (--database-url, DATABASE_URL, or libpq's PG* variables), iap-audit starts \
            and keeps a private PostgreSQL server under $IAP_AUDIT_HOME.
            Exit codes: 0 done, 64 usage, 65 input rejected (--strict), 66 input missing, 69 database unavailable, \
            70 internal error, 75 another run holds the lock, 76 fetching from Apple failed, 77 Apple refused the key, \
            78 configuration error, 79 the schema is older than this binary (a command that only reads: \
            iap-audit init upgrades it).
            """,
        version: Workspace.version,
        subcommands: [
            RunCommand.self, IngestCommand.self, CatalogCommand.self, ReportCommand.self, HashUsernameCommand.self,
            DetectCommand.self, ReconcileCommand.self, ConfigCommand.self, DatabaseCommand.self, InitCommand.self,
            GenerateCommand.self, FetchCommand.self, FlagsCommand.self, EvidenceCommand.self, MonthEndCommand.self,
            EraseCommand.self, ServeCommand.self,
        ]
    )
}
