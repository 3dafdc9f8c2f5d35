internal import Foundation

/// Thresholds and windows of every fraud rule, with the defaults their SQL files' headers declare (`-- setting:`
/// lines, `DetectionRule`); each detect run records the values it used.
///
/// Apple publishes no thresholds: these are starting points analysts tune. Kept as section → setting → value, with
/// the sections and keys of the configuration file (`[detection.many_store_accounts]`, `window_days`), which is also
/// how each rule's SQL reads its part (`$1::jsonb ->> 'window_days'`). Decoding accepts a partial document: any key
/// left out keeps its default.
package struct DetectionSettings: Sendable, Equatable, Codable {
    /// Section → setting → value; every section and setting a rule declares, and no other.
    private var sections: [String: [String: RuleSettingValue]]

    /// The defaults of the rules' headers (and docs/fraud-rules.md, which a test holds to them).
    package init() { sections = Self.defaults.sections }

    /// The value of `name` in `section` (`"refund_abuse", "window_days"`); nil for a setting no rule declares.
    /// Setting one no rule declares, or a value of another type, changes nothing.
    package subscript(section: String, name: String) -> RuleSettingValue? {
        get { sections[section]?[name] }
        set {
            guard let newValue, let current = sections[section]?[name], newValue.kind == current.kind else { return }
            sections[section]?[name] = newValue
        }
    }

    /// The account keys of App Review and internal testers, whose sandbox receipts (and Xcode-signed records) are
    /// expected: `sandbox_in_production.tester_account_keys`, which `--tester-account` adds to.
    package var testerAccountKeys: [String] {
        get {
            guard case .list(let keys, _)? = self["sandbox_in_production", "tester_account_keys"] else { return [] }
            return keys.compactMap { if case .text(let key) = $0 { key } else { nil } }
        }
        set { self["sandbox_in_production", "tester_account_keys"] = .list(newValue.map { .text($0) }, of: .text) }
    }

    /// The defaults, read once from the rules' headers. A rule whose header cannot be read contributes what it
    /// can; `DetectionRule.checkHeader` (run by every detect and by the tests) names the problem.
    private static let defaults: DetectionSettings = {
        var sections: [String: [String: RuleSettingValue]] = [:]
        for rule in DetectionRule.allCases {
            guard let settings = try? rule.settings(), !settings.isEmpty else { continue }
            for setting in settings {
                sections[rule.settingsSection, default: [:]][setting.name] = setting.defaultValue
            }
        }
        return DetectionSettings(sections: sections)
    }()

    private init(sections: [String: [String: RuleSettingValue]]) { self.sections = sections }

    /// Decodes a (possibly partial) settings document: keys left out keep their defaults; sections and keys no rule
    /// declares are ignored; a value that is not of its setting's type is an error naming the key.
    package init(from decoder: any Decoder) throws {
        self.init()
        let given = try decoder.singleValueContainer().decode([String: JSONValueTree].self)
        for (section, tree) in given {
            guard let defaults = sections[section] else { continue }
            guard case .object(let values) = tree else {
                throw DecodingError.dataCorrupted(
                    DecodingError.Context(codingPath: [], debugDescription: "rule settings must be an object"))
            }
            for (name, value) in values {
                guard let current = defaults[name] else { continue }
                guard let converted = RuleSettingValue(value, as: current.kind) else {
                    throw DecodingError.typeMismatch(
                        RuleSettingValue.self,
                        DecodingError.Context(
                            codingPath: [], debugDescription: "\(section).\(name) takes \(current.kind.declared)"))
                }
                sections[section]?[name] = converted
            }
        }
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(sections)
    }

    /// The whole settings as JSON (sorted keys), as recorded with each run.
    package func jsonText() throws -> String {
        String(decoding: try Self.encoder.encode(self), as: UTF8.self)
    }

    /// One rule's part as JSON: the `$1` its SQL reads (`{}` for a rule without settings).
    func jsonText(for rule: DetectionRule) throws -> String {
        String(decoding: try Self.encoder.encode(sections[rule.settingsSection] ?? [:]), as: UTF8.self)
    }

    static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }
}

/// The value of one rule setting, of the type its `-- setting:` line declares.
package enum RuleSettingValue: Sendable, Hashable, Encodable {
    case integer(Int)
    case number(Double)
    case text(String)
    case boolean(Bool)
    /// A list, and the type of its elements (known even when it is empty).
    case list([RuleSettingValue], of: Scalar)

    /// The type of a value that is not a list.
    package enum Scalar: String, Sendable, Hashable {
        case integer, number, text, boolean
    }

    /// A setting's declared type: `integer`, `number`, `text`, `boolean`, or a list of one (`integer[]`).
    package enum Kind: Sendable, Hashable {
        case single(Scalar)
        case list(of: Scalar)

        init?(declared: String) {
            let isList = declared.hasSuffix("[]")
            guard let scalar = Scalar(rawValue: isList ? String(declared.dropLast(2)) : declared) else { return nil }
            self = isList ? .list(of: scalar) : .single(scalar)
        }

        /// How the header declares it.
        var declared: String {
            switch self {
            case .single(let scalar): scalar.rawValue
            case .list(let element): element.rawValue + "[]"
            }
        }
    }

    /// The value's type.
    package var kind: Kind {
        switch self {
        case .integer: .single(.integer)
        case .number: .single(.number)
        case .text: .single(.text)
        case .boolean: .single(.boolean)
        case .list(_, let element): .list(of: element)
        }
    }

    /// `tree` as a value of type `kind`; nil when it is not one. An integer setting takes a whole number only; a
    /// number takes any.
    init?(_ tree: JSONValueTree, as kind: Kind) {
        switch (kind, tree) {
        case (.single(.integer), .number(let number)):
            guard number == number.rounded(), let whole = Int(exactly: number) else { return nil }
            self = .integer(whole)
        case (.single(.number), .number(let number)): self = .number(number)
        case (.single(.text), .string(let text)): self = .text(text)
        case (.single(.boolean), .bool(let flag)): self = .boolean(flag)
        case (.list(let element), .array(let elements)):
            var values: [RuleSettingValue] = []
            for tree in elements {
                guard let value = RuleSettingValue(tree, as: .single(element)) else { return nil }
                values.append(value)
            }
            self = .list(values, of: element)
        default: return nil
        }
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .integer(let number): try container.encode(number)
        case .number(let number): try container.encode(number)
        case .text(let text): try container.encode(text)
        case .boolean(let flag): try container.encode(flag)
        case .list(let values, _): try container.encode(values)
        }
    }
}

/// Any JSON value, decoded without knowing its shape (for overlaying partial settings).
enum JSONValueTree: Decodable {
    case object([String: JSONValueTree])
    case array([JSONValueTree])
    case string(String)
    case number(Double)
    case bool(Bool)
    case null

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValueTree].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValueTree].self))
        }
    }

    var foundationValue: Any {
        switch self {
        case .object(let members): members.mapValues(\.foundationValue)
        case .array(let elements): elements.map(\.foundationValue)
        case .string(let text): text
        case .number(let number): number == number.rounded() && abs(number) < 1e15 ? Int(number) as Any : number
        case .bool(let flag): flag
        case .null: NSNull()
        }
    }
}
