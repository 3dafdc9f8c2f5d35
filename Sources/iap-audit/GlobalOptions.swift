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
                embeddedDatabase: embeddedDatabase),
            environment: environment)
        settings.isStrict = strict
        settings.trustedRootPaths = trustedRoots + settings.trustedRootPaths + (configuration?.trustedRoots ?? [])
        return (settings, logger)
    }

    func validate() throws {
        // Known before any command body runs, so even an early failure is reported in this format.
        LogSetup.prefer(format: logFormat)
    }

    static func containsPassword(_ databaseURL: String) -> Bool {
        databaseURL.contains("password=")
            || databaseURL.range(of: #"://[^/@]*:[^/@]*@"#, options: .regularExpression) != nil
    }
}

extension LogLevel: ExpressibleByArgument {}

extension LogFormat: ExpressibleByArgument {}
