internal import Foundation

/// The `[apple.connect]`, `[apple.server]` and `[apple]` settings: what `fetch` asks Apple for and with which keys.
///
/// Every key is also an environment variable `IAP_AUDIT_APPLE_<SECTION>_<KEY>` (`IAP_AUDIT_APPLE_CONNECT_KEY_ID`,
/// `IAP_AUDIT_APPLE_SPOOL`); lists in the environment are comma-separated. Values are kept as written and checked
/// by `FetchPlan`, so a bad value from the file or the environment is reported the same way.
package struct AppleConfiguration: Sendable, Equatable {
    /// `[apple.connect]`: the App Store Connect API (reports).
    package var connect: [String: Value] = [:]
    /// `[apple.server]`: the App Store Server API (history).
    package var server: [String: Value] = [:]
    /// `[apple]`: the spool and how hard to try.
    package var common: [String: Value] = [:]

    /// A setting's value: one string or a list.
    package enum Value: Sendable, Equatable {
        case text(String)
        case list([String])
        case number(Int)

        /// The value as one string (a list's items joined by commas).
        package var text: String {
            switch self {
            case .text(let text): text
            case .list(let items): items.joined(separator: ",")
            case .number(let number): "\(number)"
            }
        }

        /// The value as a list (one string is a list of one; commas separate items in the environment's form).
        package var list: [String] {
            switch self {
            case .list(let items): items
            case .text(let text): text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            case .number(let number): ["\(number)"]
            }
        }
    }

    /// Each section's keys, with what they take.
    static let keys: [String: [String: String]] = [
        "connect": [
            "issuer_id": "the issuer id App Store Connect shows above the Team keys",
            "key_id": "the key id of a Team key with the Finance or Sales role",
            "private_key_file": "the path of that key's .p8 file (mode 600)",
            "vendor_number": "the vendor number (Payments and Financial Reports)",
            "reports": "an array of report kinds: " + ReportKind.allCases.map(\.rawValue).joined(separator: ", "),
            "since": "the first day to fetch, YYYY-MM-DD",
            "until": "the last day to fetch, YYYY-MM-DD (default: the latest Apple may have published)",
            "url": "the API's base URL (default https://api.appstoreconnect.apple.com)",
        ],
        "server": [
            "issuer_id": "the issuer id App Store Connect shows above the In-App Purchase keys",
            "key_id": "the key id of an In-App Purchase key",
            "private_key_file": "the path of that key's .p8 file (mode 600)",
            "bundle_ids": "an array of the apps' bundle ids",
            "environment": "Production or Sandbox",
            "url": "the API's base URL (default: Apple's host for the environment)",
        ],
        "": [
            "spool": "the folder fetched files are archived in",
            "concurrency": "the most requests in flight at once (default 4)",
            "timeout": "the seconds one request may take (default 120)",
            "retry_seconds": "the seconds one request may spend waiting to retry 429 and 5xx (default 300)",
        ],
    ]

    /// True when a section was set (by the file or the environment): `run` then fetches first.
    package var isConfigured: Bool { !connect.isEmpty || !server.isEmpty }

    /// Reads one `apple.…` key of a configuration file; false when the key is not one of these.
    mutating func read(key: String, value: TOMLValue, path: String, line: Int) throws(IAPAuditError) -> Bool {
        let parts = key.split(separator: ".").map(String.init)
        guard parts.first == "apple" else { return false }
        let section = parts.count == 3 ? parts[1] : ""
        let name = parts.last ?? ""
        guard parts.count == 2 || parts.count == 3, let expected = Self.keys[section]?[name] else {
            let known = Self.keys.flatMap { section, names in
                names.keys.map { "apple." + (section.isEmpty ? "" : section + ".") + $0 }
            }.sorted()
            throw IAPAuditError.configuration(
                "\(path) line \(line): unknown key \(key) (known: \(known.joined(separator: ", ")))")
        }
        let converted: Value
        switch value {
        case .string(let text): converted = .text(text)
        case .integer(let number): converted = .number(Int(number))
        case .array(let items):
            var texts: [String] = []
            for item in items {
                guard case .string(let text) = item else {
                    throw IAPAuditError.configuration("\(path) line \(line): \(key) takes \(expected)")
                }
                texts.append(text)
            }
            converted = .list(texts)
        default: throw IAPAuditError.configuration("\(path) line \(line): \(key) takes \(expected)")
        }
        set(section: section, name: name, converted)
        return true
    }

    private mutating func set(section: String, name: String, _ value: Value) {
        switch section {
        case "connect": connect[name] = value
        case "server": server[name] = value
        default: common[name] = value
        }
    }

    /// The environment variable of a key, e.g. `IAP_AUDIT_APPLE_CONNECT_KEY_ID`, `IAP_AUDIT_APPLE_SPOOL`.
    static func variable(section: String, name: String) -> String {
        "IAP_AUDIT_APPLE_" + (section.isEmpty ? "" : section.uppercased() + "_") + name.uppercased()
    }

    /// Applies the `IAP_AUDIT_APPLE_*` variables; returns the keys they set (`apple.connect.key_id`, …).
    mutating func applyEnvironment(_ environment: [String: String]) -> [String] {
        var applied: [String] = []
        for (section, names) in Self.keys {
            for name in names.keys {
                guard let value = environment[Self.variable(section: section, name: name)], !value.isEmpty else {
                    continue
                }
                set(section: section, name: name, .text(value))
                applied.append("apple." + (section.isEmpty ? "" : section + ".") + name)
            }
        }
        return applied
    }

    /// Makes relative paths relative to the configuration file's folder.
    mutating func resolvePaths(relativeTo base: URL) {
        func resolve(_ value: Value?) -> Value? {
            guard case .text(let path)? = value else { return value }
            return .text(path.hasPrefix("/") ? path : base.appendingPathComponent(path).standardizedFileURL.path)
        }
        connect["private_key_file"] = resolve(connect["private_key_file"])
        server["private_key_file"] = resolve(server["private_key_file"])
        common["spool"] = resolve(common["spool"])
    }

    /// `key = value  # source` lines for `config check`: ids and paths shown, a key file's contents never read.
    func effectiveLines(source: (String) -> String) -> [String] {
        var lines: [String] = []
        for (section, values) in [("connect", connect), ("server", server), ("", common)] where !values.isEmpty {
            for (name, value) in values.sorted(by: { $0.key < $1.key }) {
                let key = "apple." + (section.isEmpty ? "" : section + ".") + name
                let shown: String
                switch value {
                case .text(let text):
                    shown = "\"\(text)\"" + (name == "private_key_file" ? " (contents not shown)" : "")
                case .list(let items): shown = "[" + items.map { "\"\($0)\"" }.joined(separator: ", ") + "]"
                case .number(let number): shown = "\(number)"
                }
                lines.append("\(key) = \(shown)  # \(source(key))")
            }
        }
        return lines
    }
}
