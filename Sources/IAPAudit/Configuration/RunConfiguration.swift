internal import Foundation
internal import Reports

/// The settings of `iap-audit run`, read from a TOML file, then overridden by environment variables, then by flags.
package struct RunConfiguration: Sendable, Equatable {
    /// Where each setting's value came from, for `config check`.
    package enum Source: String, Sendable {
        case defaultValue = "default"
        case file
        case environment
        case flag
    }

    /// `[database] url`.
    package var databaseURL: String?
    /// `[inputs] catalog`.
    package var catalogPath: String?
    /// `[inputs] receipts`.
    package var receiptPaths: [String] = []
    /// `[inputs] sales`.
    package var salesPaths: [String] = []
    /// `[output] directory`.
    package var outputDirectory = "out"
    /// `[output] reports` (empty: every batch report).
    package var reports: [String] = []
    /// `[output] formats`.
    package var reportFormats: [ReportFormat] = [.csv, .html]
    /// `[output] window`: the days of history the batch reports cover (0, written `all`, is all history).
    package var reportWindow = RunPlan.defaultReportWindow
    /// `[reconciliation] time_zone`.
    package var timeZone = "America/Los_Angeles"
    /// `[privacy] pepper_file`.
    package var pepperFile: String?
    /// `[verification] trusted_roots`: root certificates trusted for signed data beside Apple Root CA - G3.
    package var trustedRoots: [String] = []
    /// `[logging] format` (plain or json).
    package var logFormat = "plain"
    /// `[logging] level`.
    package var logLevel = "info"
    /// `[detection.<rule>]` thresholds and windows (docs/fraud-rules.md's defaults where the file is silent).
    package var detection = DetectionSettings()
    /// `[apple.connect]`, `[apple.server]`, `[apple]`: what `fetch` asks Apple for (docs/fetching.md).
    package var apple = AppleConfiguration()
    /// Where each key's value came from.
    package var sources: [String: Source] = [:]

    /// Every key a file may set, with what it takes (for error messages).
    static let keys: [String: String] = [
        "database.url": "a libpq URL or conninfo (keep the password in ~/.pgpass)",
        "inputs.catalog": "a path", "inputs.receipts": "a path or an array of paths",
        "inputs.sales": "a path or an array of paths",
        "output.directory": "a path", "output.reports": "a report name or an array of them",
        "output.formats": "one of csv, json, md, html or an array of them",
        "output.window": "a number of days from 0 to 36525 the batch reports cover, or \"all\" (0 is all too)",
        "reconciliation.time_zone": "an IANA time zone, e.g. America/Los_Angeles",
        "privacy.pepper_file": "a path to the file holding the pepper",
        "verification.trusted_roots": "a path or an array of paths to root certificates (DER or PEM)",
        "logging.format": "plain or json", "logging.level": "trace, debug, info, notice, warning or error",
    ]

    /// Defaults only.
    package init() {}

    /// Reads a configuration file; unknown keys and wrong types are errors naming the key and the line.
    package static func load(path: String) throws(IAPAuditError) -> RunConfiguration {
        guard let data = FileManager.default.contents(atPath: path),
            let text = String(data: data, encoding: .utf8)
        else { throw IAPAuditError.configuration("cannot read \(path)") }
        let document: TOMLDocument
        do { document = try TOMLDocument.parse(text) } catch { throw IAPAuditError.configuration("\(path): \(error)") }
        var configuration = RunConfiguration()
        var detectionOverrides: [String: [String: Any]] = [:]
        let detectionDefaults = try detectionDefaultValues()
        for (key, entry) in document.entries.sorted(by: { $0.value.line < $1.value.line }) {
            if key.hasPrefix("detection.") {
                try readDetectionSetting(
                    key, entry, defaults: detectionDefaults, into: &detectionOverrides, path: path)
                configuration.sources[key] = .file
                continue
            }
            if try configuration.apple.read(key: key, value: entry.value, path: path, line: entry.line) {
                configuration.sources[key] = .file
                continue
            }
            guard let expected = keys[key] else {
                throw IAPAuditError.configuration(
                    "\(path) line \(entry.line): unknown key \(key) (known: \(keys.keys.sorted().joined(separator: ", ")))"
                )
            }
            func fail() -> IAPAuditError {
                IAPAuditError.configuration(
                    "\(path) line \(entry.line): \(key) takes \(expected), not \(entry.value.typeName)")
            }
            func string() throws(IAPAuditError) -> String {
                guard case .string(let text) = entry.value else { throw fail() }
                return text
            }
            func strings() throws(IAPAuditError) -> [String] {
                // One path needs no brackets: `receipts = "/data/receipts"` reads as a list of one.
                if case .string(let text) = entry.value { return [text] }
                guard case .array(let values) = entry.value else { throw fail() }
                var texts: [String] = []
                for value in values {
                    guard case .string(let text) = value else { throw fail() }
                    texts.append(text)
                }
                return texts
            }
            switch key {
            case "database.url": configuration.databaseURL = try string()
            case "inputs.catalog": configuration.catalogPath = try string()
            case "inputs.receipts": configuration.receiptPaths = try strings()
            case "inputs.sales": configuration.salesPaths = try strings()
            case "verification.trusted_roots": configuration.trustedRoots = try strings()
            case "output.directory": configuration.outputDirectory = try string()
            case "output.reports": configuration.reports = try strings()
            case "output.formats":
                var formats: [ReportFormat] = []
                for name in try strings() {
                    guard let format = ReportFormat(rawValue: name) else { throw fail() }
                    formats.append(format)
                }
                configuration.reportFormats = formats
            case "output.window":
                switch entry.value {
                case .integer(let days) where days >= 0 && days <= maximumReportWindow:
                    configuration.reportWindow = Int(days)
                case .string(let text):
                    guard let days = Self.reportWindow(text) else { throw fail() }
                    configuration.reportWindow = days
                default: throw fail()
                }
            case "reconciliation.time_zone":
                let zone = try string()
                guard Self.isKnownTimeZone(zone) else {
                    throw IAPAuditError.configuration("\(path) line \(entry.line): unknown time zone \(zone)")
                }
                configuration.timeZone = zone
            case "privacy.pepper_file": configuration.pepperFile = try string()
            case "logging.format":
                let format = try string()
                guard ["plain", "json"].contains(format) else { throw fail() }
                configuration.logFormat = format
            case "logging.level": configuration.logLevel = try string()
            default: throw fail()
            }
            configuration.sources[key] = .file
        }
        if !detectionOverrides.isEmpty {
            do {
                let json = try JSONSerialization.data(withJSONObject: detectionOverrides)
                configuration.detection = try JSONDecoder().decode(DetectionSettings.self, from: json)
            } catch {
                throw IAPAuditError.configuration("\(path): [detection] settings: \(error)")
            }
        }
        // Relative paths in a file are relative to the file, so cron's working directory does not matter.
        let base = URL(fileURLWithPath: path).standardizedFileURL.deletingLastPathComponent()
        configuration.resolvePaths(relativeTo: base)
        return configuration
    }

    /// The default detection settings as section → key → value, to know which keys and types exist.
    private static func detectionDefaultValues() throws(IAPAuditError) -> [String: [String: Any]] {
        guard let text = try? DetectionSettings().jsonText(),
            let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: [String: Any]]
        else { throw IAPAuditError.internalInconsistency("detection settings do not encode as JSON sections") }
        return object
    }

    /// Checks one `detection.<section>.<key>` entry against the defaults and records it.
    private static func readDetectionSetting(
        _ key: String, _ entry: TOMLDocument.Entry, defaults: [String: [String: Any]],
        into overrides: inout [String: [String: Any]], path: String
    ) throws(IAPAuditError) {
        let parts = key.split(separator: ".").map(String.init)
        guard parts.count == 3, let section = defaults[parts[1]], let current = section[parts[2]] else {
            let known = defaults.keys.sorted().flatMap { name in
                (defaults[name] ?? [:]).keys.sorted().map { "detection.\(name).\($0)" }
            }
            throw IAPAuditError.configuration(
                "\(path) line \(entry.line): unknown key \(key) (known: \(known.joined(separator: ", ")))")
        }
        func plain(_ value: TOMLValue) -> Any {
            switch value {
            case .string(let text): text
            case .integer(let number): number
            case .float(let number): number
            case .boolean(let flag): flag
            case .array(let values): values.map(plain)
            }
        }
        let isCompatible: Bool
        switch entry.value {
        case .array: isCompatible = current is [Any]
        case .string: isCompatible = current is String
        case .integer, .float: isCompatible = current is NSNumber && !(current is [Any])
        case .boolean: isCompatible = current is NSNumber
        }
        guard isCompatible else {
            throw IAPAuditError.configuration(
                "\(path) line \(entry.line): \(key) takes a value like \(current), not \(entry.value.typeName)")
        }
        overrides[parts[1], default: [:]][parts[2]] = plain(entry.value)
    }

    /// Applies `IAP_AUDIT_*` environment overrides (lists are colon-separated, like PATH).
    /// A value that is set but unusable is exit 78 naming the variable and what it takes, as a file's would be.
    package mutating func applyEnvironment(_ environment: [String: String]) throws(IAPAuditError) {
        func set(
            _ key: String, _ variable: String, _ apply: (String) throws(IAPAuditError) -> Void
        )
            throws(IAPAuditError)
        {
            guard let value = environment[variable], !value.isEmpty else { return }
            try apply(value)
            sources[key] = .environment
        }
        func refuse(_ variable: String, _ key: String, _ value: String) -> IAPAuditError {
            let shown = value.count > 40 ? String(value.prefix(40)) + "…" : value
            return IAPAuditError.configuration(
                "\(variable)=\"\(shown)\" is not usable: it takes \(Self.keys[key] ?? "another value")")
        }
        try set("database.url", "DATABASE_URL") { databaseURL = $0 }
        try set("inputs.catalog", "IAP_AUDIT_CATALOG") { catalogPath = $0 }
        try set("inputs.receipts", "IAP_AUDIT_RECEIPTS") { receiptPaths = $0.split(separator: ":").map(String.init) }
        try set("inputs.sales", "IAP_AUDIT_SALES") { salesPaths = $0.split(separator: ":").map(String.init) }
        try set("output.directory", "IAP_AUDIT_OUTPUT_DIR") { outputDirectory = $0 }
        try set("output.window", "IAP_AUDIT_OUTPUT_WINDOW") { (text) throws(IAPAuditError) in
            guard let days = Self.reportWindow(text) else {
                throw refuse("IAP_AUDIT_OUTPUT_WINDOW", "output.window", text)
            }
            reportWindow = days
        }
        try set("reconciliation.time_zone", "IAP_AUDIT_TIME_ZONE") { (zone) throws(IAPAuditError) in
            guard Self.isKnownTimeZone(zone) else {
                throw refuse("IAP_AUDIT_TIME_ZONE", "reconciliation.time_zone", zone)
            }
            timeZone = zone
        }
        try set("privacy.pepper_file", "IAP_AUDIT_PEPPER_FILE") { pepperFile = $0 }
        for key in apple.applyEnvironment(environment) { sources[key] = .environment }
        try Settings.validateEnvironment(environment)
    }

    /// Whether `zone` is an IANA zone name this machine knows.
    package static func isKnownTimeZone(_ zone: String) -> Bool {
        TimeZone(identifier: zone) != nil
    }

    /// The effective settings, one `key = value  # source` line each, secrets masked.
    package var effectiveSettings: String {
        var lines: [String] = []
        func line(_ key: String, _ value: String) {
            lines.append("\(key) = \(value)  # \((sources[key] ?? .defaultValue).rawValue)")
        }
        func quoted(_ text: String) -> String { "\"" + text + "\"" }
        func list(_ texts: [String]) -> String { "[" + texts.map(quoted).joined(separator: ", ") + "]" }
        line("database.url", databaseURL.map { quoted(Self.maskingPassword($0)) } ?? "(embedded server)")
        line("inputs.catalog", catalogPath.map(quoted) ?? "(none)")
        line("inputs.receipts", list(receiptPaths))
        line("inputs.sales", list(salesPaths))
        line("output.directory", quoted(outputDirectory))
        line("output.reports", reports.isEmpty ? "(every batch report)" : list(reports))
        line("output.formats", list(reportFormats.map(\.rawValue)))
        line("output.window", reportWindow == 0 ? quoted("all") : "\(reportWindow)")
        line("reconciliation.time_zone", quoted(timeZone))
        line("privacy.pepper_file", pepperFile.map { quoted($0) + " (contents not shown)" } ?? "(none)")
        line("verification.trusted_roots", list(trustedRoots))
        line("logging.format", quoted(logFormat))
        line("logging.level", quoted(logLevel))
        lines += apple.effectiveLines { (sources[$0] ?? .defaultValue).rawValue }
        // One line per detection setting, like the others, instead of one long JSON line.
        if let text = try? detection.jsonText(),
            let sections = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: [String: Any]]
        {
            for (section, settings) in sections.sorted(by: { $0.key < $1.key }) {
                for (name, value) in settings.sorted(by: { $0.key < $1.key }) {
                    let data = try? JSONSerialization.data(
                        withJSONObject: value, options: [.fragmentsAllowed, .sortedKeys, .withoutEscapingSlashes])
                    line("detection.\(section).\(name)", data.map { String(decoding: $0, as: UTF8.self) } ?? "?")
                }
            }
        }
        return lines.joined(separator: "\n")
    }

    /// The longest window a report covers, in days (a century): beyond it, "now minus the window" leaves the dates a
    /// timestamp holds.
    package static let maximumReportWindow = ReportParameter.maximumDays

    /// The days `text` names for `output.window`: a number, or `all` (0); nil for anything else.
    static func reportWindow(_ text: String) -> Int? {
        if text.lowercased() == "all" { return 0 }
        guard let days = Int(text), (0...maximumReportWindow).contains(days) else { return nil }
        return days
    }

    /// A URL or conninfo with any password replaced by `****`.
    static func maskingPassword(_ url: String) -> String {
        var masked = url.replacing(/(password\s*=\s*)('[^']*'|\S+)/) { "\($0.1)****" }
        masked = masked.replacing(/(:\/\/[^:\/@]*:)[^@\/]*@/) { "\($0.1)****@" }
        return masked
    }

    private mutating func resolvePaths(relativeTo base: URL) {
        func resolve(_ path: String) -> String {
            path.hasPrefix("/") ? path : base.appendingPathComponent(path).standardizedFileURL.path
        }
        catalogPath = catalogPath.map(resolve)
        receiptPaths = receiptPaths.map(resolve)
        salesPaths = salesPaths.map(resolve)
        if sources["output.directory"] == .file { outputDirectory = resolve(outputDirectory) }
        pepperFile = pepperFile.map(resolve)
        trustedRoots = trustedRoots.map(resolve)
        apple.resolvePaths(relativeTo: base)
    }
}
