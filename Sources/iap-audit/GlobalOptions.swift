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

    /// Sets up logging once and builds the settings.
    func settings(
        embeddedDatabase: String = DatabaseLocation.embeddedDatabaseName, configuration: RunConfiguration? = nil
    ) throws -> (Settings, CommandLogger) {
        let logger = LogSetup.bootstrap(
            format: logFormat ?? configuration.flatMap { LogFormat(rawValue: $0.logFormat) } ?? .plain,
            level: logLevel ?? configuration.flatMap { LogLevel(rawValue: $0.logLevel) } ?? .info)
        if let databaseURL, Self.containsPassword(databaseURL) {
            // Accepted, but the user should know; printed once the format (flag or configuration) is settled.
            FileHandle.standardError.write(
                Data(
                    (LogSetup.warningLine(
                        "a password on the command line is visible to other users (ps); use ~/.pgpass") + "\n").utf8))
        }
        var environment = ProcessInfo.processInfo.environment
        if let pepperFile = configuration?.pepperFile, environment["IAP_AUDIT_PEPPER_FILE"] == nil {
            environment["IAP_AUDIT_PEPPER_FILE"] = pepperFile
        }
        var settings = try Settings(
            database: DatabaseLocation.resolve(
                url: databaseURL ?? configuration?.databaseURL, environment: environment,
                embeddedDatabase: Self.embeddedDatabaseName(
                    flag: database, environment: environment, default: embeddedDatabase)),
            environment: environment)
        settings.isStrict = strict
        settings.trustedRootPaths = trustedRoots + settings.trustedRootPaths + (configuration?.trustedRoots ?? [])
        return (settings, logger)
    }

    func validate() throws {
        // Known before any command body runs, so even an early failure is reported in this format.
        LogSetup.prefer(format: logFormat)
        if let database {
            guard Self.isDatabaseName(database) else {
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

    /// The embedded database a command uses: `--database`, else `IAP_AUDIT_DATABASE`, else the command's default
    /// (`iap_audit`, or the demo's `iap_audit_demo`).
    static func embeddedDatabaseName(flag: String?, environment: [String: String], default name: String) -> String {
        if let flag { return flag }
        // The variable points every command at one database (the demo's, say); the demo itself keeps its own.
        if name == DatabaseLocation.embeddedDatabaseName, let variable = environment["IAP_AUDIT_DATABASE"],
            isDatabaseName(variable)
        {
            return variable
        }
        return name
    }

    /// A plain PostgreSQL identifier: letters, digits and underscores, not starting with a digit, at most 63 bytes.
    static func isDatabaseName(_ name: String) -> Bool {
        guard let first = name.utf8.first, name.utf8.count <= 63, !(first >= 48 && first <= 57) else { return false }
        return name.utf8.allSatisfy {
            ($0 >= 48 && $0 <= 57) || ($0 >= 65 && $0 <= 90) || ($0 >= 97 && $0 <= 122) || $0 == 95
        }
    }

    static func containsPassword(_ databaseURL: String) -> Bool {
        databaseURL.contains("password=")
            || databaseURL.range(of: #"://[^/@]*:[^/@]*@"#, options: .regularExpression) != nil
    }
}

extension LogLevel: ExpressibleByArgument {}

extension LogFormat: ExpressibleByArgument {}
