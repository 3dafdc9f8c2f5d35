/// The header of any SQL file the package ships (`reports/`, `sql/rules/`, `sql/queries/`): the run of `--` comment
/// lines at the top, read the same way for all of them.
///
/// ```
/// -- title: Quarantine
/// -- description: Every record that could not be read,
/// --   with file, line and reason.
/// -- param: since date = 1970-01-01 -- only records loaded on or after this day
/// ```
///
/// A line `-- key: value` is a field; a line indented by two or more spaces after `--` continues the field above it;
/// an empty `--` line ends a field; any other comment line is prose (a query file's opening explanation). The first
/// line that is not a `--` comment (a blank line, or SQL) ends the header. What each key means is the reader's
/// business (`ReportDefinition`, the detection rules); this type only splits the lines, remembering their numbers.
package struct SQLHeader: Sendable, Hashable {
    /// One `key: value` line and the lines that continue it.
    package struct Field: Sendable, Hashable {
        /// The text before the colon, as written.
        package var key: String
        /// The text after the colon on the key's own line, trimmed.
        package var value: String
        /// The value with its continuation lines, joined by single spaces.
        package var text: String
        /// The 1-based line number of the key's line.
        package var line: Int
        /// The line numbers of its continuation lines.
        package var continuationLines: [Int]
    }

    /// One comment line that is not a field: its text trimmed, and its line number.
    package struct ProseLine: Sendable, Hashable {
        package var text: String
        package var line: Int
    }

    /// The fields in file order (a key may repeat: reports' `param:`).
    package var fields: [Field] = []
    /// The comment lines that are not fields, in file order.
    package var prose: [ProseLine] = []

    /// Reads the header of `text` (LF, CRLF or CR line ends; a leading byte order mark is skipped).
    package init(parsing text: String) {
        let text = text.first == "\u{FEFF}" ? Substring(text.dropFirst()) : Substring(text)
        // Only LF, CRLF and CR end lines, so line numbers match editors and PostgreSQL's error positions.
        let lines = text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }
        var index = lines.firstIndex { !$0.allSatisfy(\.isWhitespace) } ?? lines.endIndex
        var continuing = false
        while index < lines.endIndex {
            let line = lines[index].drop { $0 == " " || $0 == "\t" }
            guard line.hasPrefix("--") else { break }
            let content = line.dropFirst(2)
            let trimmed = HeaderText.trimmed(content)
            let number = index + 1
            index += 1
            if trimmed.isEmpty {
                continuing = false
                continue
            }
            if continuing, content.prefix(2).allSatisfy({ $0 == " " || $0 == "\t" }), !fields.isEmpty {
                fields[fields.count - 1].text += " " + trimmed
                fields[fields.count - 1].continuationLines.append(number)
                continue
            }
            if let colon = trimmed.firstIndex(of: ":"), Self.isKey(trimmed[..<colon]) {
                let value = String(HeaderText.trimmed(trimmed[trimmed.index(after: colon)...]))
                fields.append(
                    Field(
                        key: String(HeaderText.trimmed(trimmed[..<colon])), value: value, text: value, line: number,
                        continuationLines: []))
                continuing = true
            } else {
                prose.append(ProseLine(text: String(trimmed), line: number))
                continuing = false
            }
        }
    }

    /// The fields called `key`.
    package func fields(_ key: String) -> [Field] { fields.filter { $0.key == key } }

    /// The first field called `key`, if any.
    package func field(_ key: String) -> Field? { fields.first { $0.key == key } }

    /// The prose lines joined by single spaces: a query file's explanation.
    package var proseText: String { prose.map(\.text).joined(separator: " ") }

    /// A key is letters, digits, `_`, `-`, `$` and inner spaces (`every subject`, `$1`): the text before a colon in
    /// a sentence ("The flags page (docs/reports.md): …") is not one.
    private static func isKey(_ text: Substring) -> Bool {
        let key = HeaderText.trimmed(text)
        return !key.isEmpty
            && key.unicodeScalars.allSatisfy {
                HeaderText.isASCIILetter($0) || ("0"..."9").contains($0) || $0 == "_" || $0 == "-" || $0 == "$"
                    || $0 == " "
            }
    }
}
