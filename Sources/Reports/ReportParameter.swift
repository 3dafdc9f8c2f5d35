/// A parameter a report declares in its header (`-- param: since date = 1970-01-01`), bound to `$position`.
package struct ReportParameter: Sendable, Hashable {
    /// The type a parameter value must have; the raw value is the spelling in the header.
    package enum Kind: String, Sendable, Hashable, CaseIterable {
        case text
        case date
        case timestamptz
        case integer
        case numeric
        case boolean
        /// A number of days back from the newest data, 0 (all history) to `maximumDays`: a window.
        case days
        /// A calendar month as YYYY-MM, bound as that text (a fiscal month is named by it).
        case month
        /// An account key exactly as `iap-audit hash-username` prints it (71 characters), never a raw name.
        case accountKey = "account_key"
    }

    /// The longest window a `days` parameter takes (a century): beyond it the window's start is no timestamp.
    package static let maximumDays = 36_525

    /// What an omitted parameter is bound to.
    package enum Default: Sendable, Hashable {
        /// SQL NULL, written `= null` in the header; lets a query treat the parameter as "no filter".
        case null
        /// This text, already checked against the parameter's kind.
        case value(String)
    }

    /// The name used on the command line: `--param NAME=VALUE`.
    package var name: String
    /// The type the value must have.
    package var kind: Kind
    /// The value used when the parameter is not given; nil makes the parameter required.
    package var defaultValue: Default?
    /// A short explanation for users, from `-- HELP` after the declaration.
    package var help: String?
    /// The placeholder number in the SQL: the first declared parameter is `$1`.
    package var position: Int

    /// Whether a run must give this parameter.
    package var isRequired: Bool { defaultValue == nil }

    /// Creates a parameter declaration.
    package init(name: String, kind: Kind, defaultValue: Default?, help: String? = nil, position: Int) {
        self.name = name
        self.kind = kind
        self.defaultValue = defaultValue
        self.help = help
        self.position = position
    }
}

extension ReportParameter {
    /// Parses the value of a `param:` header line: `NAME TYPE [= DEFAULT] [-- HELP]`.
    static func parse(_ text: Substring, position: Int) throws(HeaderLineProblem) -> ReportParameter {
        var declaration = text
        var help: String?
        if let helpStart = text.firstRange(of: "--") {
            declaration = text[..<helpStart.lowerBound]
            let helpText = HeaderText.trimmed(text[helpStart.upperBound...])
            help = helpText.isEmpty ? nil : String(helpText)
        }
        var defaultText: Substring?
        if let equals = declaration.firstIndex(of: "=") {
            defaultText = HeaderText.trimmed(declaration[declaration.index(after: equals)...])
            declaration = declaration[..<equals]
        }
        let words = declaration.split(whereSeparator: \.isWhitespace)
        guard words.count == 2 else {
            throw HeaderLineProblem("expected 'NAME TYPE [= DEFAULT] [-- HELP]', e.g. 'since date = 1970-01-01'")
        }
        let name = String(words[0])
        guard Self.isValidName(name) else {
            throw HeaderLineProblem(
                "'\(name)' is not a usable name; use letters, digits and '_', starting with a letter")
        }
        guard let kind = Kind(rawValue: words[1].lowercased()) else {
            let kinds = Kind.allCases.map(\.rawValue).joined(separator: ", ")
            throw HeaderLineProblem("'\(name)' has unknown type '\(words[1])'; use one of \(kinds)")
        }
        var defaultValue: Default?
        if let defaultText {
            if defaultText.isEmpty {
                throw HeaderLineProblem("'\(name)' has '=' but no default; write '= null' to bind NULL when omitted")
            } else if defaultText.lowercased() == "null" {
                defaultValue = .null
            } else if let value = kind.normalize(String(defaultText)) {
                defaultValue = .value(value)
            } else {
                throw HeaderLineProblem("the default of '\(name)' is not \(kind.expectation)")
            }
        }
        return ReportParameter(name: name, kind: kind, defaultValue: defaultValue, help: help, position: position)
    }

    /// ASCII letter or `_` first, then letters, digits and `_`: safe on a command line and in messages.
    static func isValidName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, HeaderText.isASCIILetter(first) || first == "_" else {
            return false
        }
        return name.unicodeScalars.allSatisfy { HeaderText.isASCIILetter($0) || $0 == "_" || ("0"..."9").contains($0) }
    }
}
