internal import Foundation
internal import Reports

/// A fraud rule of docs/fraud-rules.md: one file, `sql/rules/<id>.sql`, built into the binary. The build plugin
/// writes one constant per file (`DetectionRule.manyStoreAccounts`) and `allCases`, so adding a rule is adding its
/// file (and its section in docs/fraud-rules.md, which a test holds to the file's header).
///
/// The header says everything else about the rule (`SQLHeader`):
///
/// ```
/// -- rule: many-store-accounts                         the file's name, repeated
/// -- version: 1                                        bumped whenever what the rule flags changes
/// -- setting: window_days integer = 30                 a setting, its type and default; `$1` carries them as JSON
/// -- settings from: sandbox-in-production              instead of `setting:` lines, another rule's settings
/// -- every subject: hash joins                         over every subject, plan its joins without nested loops
/// ```
package struct DetectionRule: Sendable, Hashable, CustomStringConvertible {
    /// The rule's id, as flags and `--rule` name it: the file name without `.sql`.
    package let id: String
    /// The file's text.
    let text: String

    init(name: String, text: String) {
        self.id = name
        self.text = text
    }

    /// The rule called `id`, if there is one.
    package init?(rawValue id: String) {
        guard let rule = Self.allCases.first(where: { $0.id == id }) else { return nil }
        self = rule
    }

    package var description: String { id }

    package static func == (lhs: Self, rhs: Self) -> Bool { lhs.id == rhs.id }
    package func hash(into hasher: inout Hasher) { hasher.combine(id) }

    /// The rule's SQL: one SELECT of (subject_kind, subject_key, severity, window_start, window_end, score,
    /// evidence), reading its settings from `$1`; a trailing `;` (for psql users) removed.
    func sql() -> String {
        var body = Substring(text)
        while let last = body.last, last.isWhitespace || last == ";" { body = body.dropLast() }
        return String(body)
    }

    /// The file's header.
    var header: SQLHeader { SQLHeader(parsing: text) }

    /// True when the rule can evaluate only the subjects detect queued (its SQL takes `$2`, "every subject"). The
    /// others read small tables (failed signatures, transaction conflicts) whole every run.
    func readsQueuedSubjects() -> Bool {
        SQLPlaceholders(scanning: sql()).numbers.contains(2)
    }

    /// The `-- version: N` of the rule's header: bumped whenever what the rule flags changes.
    func version() throws(IAPAuditError) -> Int {
        guard let number = header.field("version").flatMap({ Int($0.value) }) else {
            throw IAPAuditError.internalInconsistency("rule \(id).sql has no '-- version: N' header line")
        }
        return number
    }

    /// True when the rule's header says `-- every subject: hash joins`: over every subject, its joins are planned
    /// without nested loops. For a rule whose estimate of a million-row join collapses (docs/decisions.md, "A
    /// rebuild hashes; a day looks up"); the others keep the index probes that serve them best.
    func hashesEverySubject() -> Bool {
        header.field("every subject")?.value == "hash joins"
    }

    /// The configuration section of the rule's settings, `[detection.<section>]`: its id with `_` for `-`, or that
    /// of the rule its `settings from:` line names (testers are testers for every rule that reads them).
    var settingsSection: String {
        (header.field("settings from")?.value ?? id).replacingOccurrences(of: "-", with: "_")
    }

    /// The rule's `setting:` lines, in file order.
    func settings() throws(IAPAuditError) -> [RuleSetting] {
        var settings: [RuleSetting] = []
        for field in header.fields("setting") {
            do {
                settings.append(try RuleSetting(declaration: field.text))
            } catch {
                throw IAPAuditError.internalInconsistency("rule \(id).sql line \(field.line): \(error.reason)")
            }
        }
        return settings
    }

    /// Every problem of the rule's header: a missing or wrong `rule:`, no version, an unreadable setting, settings
    /// both declared and borrowed, or borrowed from a rule that declares none.
    func checkHeader() throws(IAPAuditError) {
        guard header.field("rule")?.value == id else {
            throw IAPAuditError.internalInconsistency("rule \(id).sql: its '-- rule:' line must name \(id)")
        }
        _ = try version()
        let own = try settings()
        if let source = header.field("settings from") {
            guard own.isEmpty, let lender = Self(rawValue: source.value), try !lender.settings().isEmpty else {
                throw IAPAuditError.internalInconsistency(
                    "rule \(id).sql line \(source.line): 'settings from' names a rule with settings, and no setting "
                        + "of its own")
            }
        }
    }
}

/// One `-- setting: name type = default` line of a rule's header: `window_days integer = 30`,
/// `counted_statuses integer[] = [21002, 21003]`, `tester_account_keys text[] = []`. The default is JSON.
struct RuleSetting: Sendable, Equatable {
    let name: String
    let kind: RuleSettingValue.Kind
    let defaultValue: RuleSettingValue

    /// What is wrong with a declaration.
    struct Problem: Error {
        let reason: String
    }

    init(declaration: String) throws(Problem) {
        let parts = declaration.split(separator: "=", maxSplits: 1)
        let words = parts.first.map { $0.split(separator: " ") } ?? []
        guard parts.count == 2, words.count == 2 else {
            throw Problem(reason: "a setting is 'name type = default', not '\(declaration)'")
        }
        name = String(words[0])
        guard name.allSatisfy({ $0.isLowercase || $0 == "_" || $0.isNumber }), name.first?.isLetter == true else {
            throw Problem(reason: "a setting's name is snake_case, not '\(name)'")
        }
        guard let kind = RuleSettingValue.Kind(declared: String(words[1])) else {
            throw Problem(
                reason: "\(name): unknown type '\(words[1])' (integer, number, text, boolean, or one with [])")
        }
        self.kind = kind
        let json = parts[1].trimmingCharacters(in: .whitespaces)
        guard let tree = try? JSONDecoder().decode(JSONValueTree.self, from: Data(json.utf8)),
            let value = RuleSettingValue(tree, as: kind)
        else {
            throw Problem(reason: "\(name): the default \(json) is not JSON of type \(words[1])")
        }
        defaultValue = value
    }
}
