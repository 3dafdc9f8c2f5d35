import ArgumentParser
import Foundation
import IAPAudit

/// Options every command that touches the database takes.
struct GlobalOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "PostgreSQL connection URL or conninfo (else DATABASE_URL, else PG* variables, else the embedded server).",
            discussion: "Put the password in ~/.pgpass or PGPASSWORD, not here: command lines show up in ps."))
    var databaseURL: String?

    @Option(
        help: ArgumentHelp(
            "The embedded server's database (else IAP_AUDIT_DATABASE, else iap_audit). The demo's is iap_audit_demo.",
            valueName: "name"))
    var database: String?

    @Option(help: "Log format on stderr: plain or json (one object per line). Default: plain.")
    var logFormat: LogFormat?

    @Option(help: "Least important log level shown: trace, debug, info, notice, warning, error. Default: info.")
    var logLevel: LogLevel?

    @Flag(help: "Fail with exit code 65 when any record is quarantined.")
    var strict = false

    @Option(
        name: .customLong("trusted-root"),
        help: ArgumentHelp(
            "A root certificate (DER or PEM file) trusted for signed data beside Apple Root CA - G3, e.g. Apple's test "
                + "CA or a generator's own chain. Repeatable; IAP_AUDIT_TRUSTED_ROOTS adds more (':'-separated).",
            valueName: "file"))
    var trustedRoots: [String] = []

    /// The options as given, nothing resolved.
    var commandLineOptions: CommandLineOptions {
        var options = CommandLineOptions()
        options.databaseURL = databaseURL
        options.database = database
        options.logFormat = logFormat
        options.logLevel = logLevel
        options.isStrict = strict
        options.trustedRoots = trustedRoots
        return options
    }

    /// Resolves every setting (`ResolvedSettings.resolve`: flags over environment over file over defaults) from these
    /// options and a command's own, then sets up logging.
    func resolve(_ adjust: (inout CommandLineOptions) -> Void = { _ in }) throws -> (ResolvedSettings, CommandLogger) {
        var options = commandLineOptions
        adjust(&options)
        let resolved = try ResolvedSettings.resolve(options, environment: ProcessInfo.processInfo.environment)
        return (resolved, resolved.startLogging())
    }

    /// Resolves the settings and opens the workspace: upgrading the schema for a command that writes, refusing one
    /// older than this binary's for a command that only reads (`schema: .requireCurrent`).
    func openWorkspace(
        schema: SchemaUse = .upgrade, _ adjust: (inout CommandLineOptions) -> Void = { _ in }
    ) throws -> Workspace {
        let (resolved, logger) = try resolve(adjust)
        return try Workspace(settings: resolved.settings, logger: logger, schema: schema)
    }

    func validate() throws {
        // Known before any command body runs, so even an early failure is reported in this format.
        LogSetup.prefer(format: logFormat)
        if let database {
            guard ResolvedSettings.isDatabaseName(database) else {
                throw ValidationError(
                    "--database takes a database name of letters, digits and underscores (at most 63), e.g. "
                        + "iap_audit_demo")
            }
            if databaseURL != nil {
                throw ValidationError(
                    "--database names a database of the embedded server; --database-url names its own")
            }
        }
    }
}

extension LogLevel: ExpressibleByArgument {}

extension LogFormat: ExpressibleByArgument {}
