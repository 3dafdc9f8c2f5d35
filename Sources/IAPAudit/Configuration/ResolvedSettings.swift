internal import AppStoreFormats
internal import Foundation

/// What a command line gave, as parsed and nothing more: the executable fills it and calls `ResolvedSettings.resolve`.
package struct CommandLineOptions: Sendable {
    /// `--config`: the TOML file.
    package var configPath: String?
    /// `--database-url`.
    package var databaseURL: String?
    /// `--database`: the embedded server's database.
    package var database: String?
    /// `--log-format`, `--log-level`.
    package var logFormat: LogFormat?
    package var logLevel: LogLevel?
    /// `--strict`.
    package var isStrict = false
    /// `--trusted-root` (repeatable).
    package var trustedRoots: [String] = []
    /// `--rehash`.
    package var isRehash = false
    /// `run`'s `--catalog`, `--receipts`, `--sales`, `--out`, `--report`.
    package var catalogPath: String?
    package var receiptPaths: [String] = []
    package var salesPaths: [String] = []
    package var outputDirectory: String?
    package var reports: [String] = []
    /// `reconcile --time-zone`.
    package var timeZone: String?
    /// The embedded database used when neither `--database` nor `IAP_AUDIT_DATABASE` names one (the demo's own).
    package var defaultDatabase = DatabaseLocation.embeddedDatabaseName

    package init() {}
}

/// Every setting of a command, resolved in one place: flags over the environment over the TOML file over defaults.
package struct ResolvedSettings {
    /// What the `Workspace` is opened with.
    package var settings: Settings
    /// The file's, environment's and flags' values together, each with its source (what `config check` prints).
    package var configuration: RunConfiguration
    package var logFormat: LogFormat
    package var logLevel: LogLevel
    /// Told on stderr once logging is set up (`startLogging`).
    package var warnings: [String] = []

    /// Resolves `options` against `environment`: reads the TOML file, overrides it with `IAP_AUDIT_*` and the other
    /// documented variables, then with the flags; reads the pepper and checks every value. An unusable value is a
    /// configuration error (exit 78) naming the key or variable; nothing is connected to and nothing secret is kept
    /// outside `Settings`' hasher.
    package static func resolve(
        _ options: CommandLineOptions, environment: [String: String]
    ) throws(IAPAuditError) -> ResolvedSettings {
        var configuration =
            try options.configPath.map { path throws(IAPAuditError) in
                try RunConfiguration.load(path: path)
            } ?? RunConfiguration()
        try configuration.applyEnvironment(environment)
        configuration.apply(options)
        var environment = environment
        // The file's pepper file, unless the environment names one (then `configuration` holds that already).
        if let pepperFile = configuration.pepperFile { environment["IAP_AUDIT_PEPPER_FILE"] = pepperFile }
        let location = DatabaseLocation.resolve(
            url: configuration.databaseURL, environment: environment,
            embeddedDatabase: embeddedDatabaseName(
                flag: options.database, environment: environment, default: options.defaultDatabase))
        var settings = Settings(
            database: location, environment: environment,
            hasher: AccountKeyHasher(pepper: try Settings.pepper(environment: environment)))
        // Values outside their range were refused by `applyEnvironment`.
        func seconds(_ setting: SecondsSetting) -> Double? {
            environment[setting.variable].flatMap { $0.isEmpty ? nil : try? setting.value($0) }
        }
        settings.settlingSeconds = seconds(.settling) ?? settings.settlingSeconds
        settings.lockTimeout = seconds(.lockTimeout) ?? settings.lockTimeout
        settings.serverTimeout = seconds(.serverTimeout) ?? settings.serverTimeout
        // Roots add up rather than override: the flag's, the variable's (`:`-separated), then the file's.
        settings.trustedRootPaths =
            options.trustedRoots
            + (environment["IAP_AUDIT_TRUSTED_ROOTS"] ?? "").split(separator: ":").map(String.init)
            + configuration.trustedRoots
        settings.isStrict = options.isStrict
        settings.isRehash = options.isRehash
        var resolved = ResolvedSettings(
            settings: settings, configuration: configuration,
            logFormat: LogFormat(rawValue: configuration.logFormat) ?? .plain,
            logLevel: LogLevel(rawValue: configuration.logLevel) ?? .info)
        if let url = options.databaseURL, containsPassword(url) {
            resolved.warnings.append("a password on the command line is visible to other users (ps); use ~/.pgpass")
        }
        return resolved
    }

    /// Sets up logging once, in the resolved format and level, and tells the warnings.
    package func startLogging() -> CommandLogger {
        let logger = LogSetup.bootstrap(format: logFormat, level: logLevel)
        for warning in warnings {
            FileHandle.standardError.write(Data((LogSetup.warningLine(warning) + "\n").utf8))
        }
        return logger
    }

    /// The embedded database a command uses: `--database`, else `IAP_AUDIT_DATABASE`, else the command's default
    /// (`iap_audit`, or the demo's `iap_audit_demo`).
    package static func embeddedDatabaseName(
        flag: String?, environment: [String: String], default name: String
    ) -> String {
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
    package static func isDatabaseName(_ name: String) -> Bool {
        guard let first = name.utf8.first, name.utf8.count <= 63, !(first >= 48 && first <= 57) else { return false }
        return name.utf8.allSatisfy {
            ($0 >= 48 && $0 <= 57) || ($0 >= 65 && $0 <= 90) || ($0 >= 97 && $0 <= 122) || $0 == 95
        }
    }

    /// Whether a URL or conninfo carries a password.
    package static func containsPassword(_ databaseURL: String) -> Bool {
        databaseURL.contains("password=")
            || databaseURL.range(of: #"://[^/@]*:[^/@]*@"#, options: .regularExpression) != nil
    }
}

extension RunConfiguration {
    /// Overrides the file's and environment's values with the flags given.
    mutating func apply(_ options: CommandLineOptions) {
        func set<Value>(_ key: String, _ value: Value?, _ apply: (Value) -> Void) {
            guard let value else { return }
            apply(value)
            sources[key] = .flag
        }
        func nonEmpty(_ values: [String]) -> [String]? { values.isEmpty ? nil : values }
        set("database.url", options.databaseURL) { databaseURL = $0 }
        set("inputs.catalog", options.catalogPath) { catalogPath = $0 }
        set("inputs.receipts", nonEmpty(options.receiptPaths)) { receiptPaths = $0 }
        set("inputs.sales", nonEmpty(options.salesPaths)) { salesPaths = $0 }
        set("output.directory", options.outputDirectory) { outputDirectory = $0 }
        set("output.reports", nonEmpty(options.reports)) { reports = $0 }
        set("reconciliation.time_zone", options.timeZone) { timeZone = $0 }
        set("logging.format", options.logFormat) { logFormat = $0.rawValue }
        set("logging.level", options.logLevel) { logLevel = $0.rawValue }
    }
}
