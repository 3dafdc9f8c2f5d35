internal import Crypto
internal import Foundation

/// The SQL that was built into this binary from `sql/`, `sql/queries/` and `reports/`.
enum SQLResources {
    /// A named query from `sql/queries/`, split into statements.
    static func statements(ofQuery name: String) throws(IAPAuditError) -> [String] {
        guard let text = EmbeddedResources.queries.first(where: { $0.name == name + ".sql" })?.text else {
            throw IAPAuditError.internalInconsistency("query \(name).sql is not built into this binary")
        }
        return splitStatements(text)
    }

    /// A whole query file's text.
    static func query(_ name: String) throws(IAPAuditError) -> String {
        guard let text = EmbeddedResources.queries.first(where: { $0.name == name + ".sql" })?.text else {
            throw IAPAuditError.internalInconsistency("query \(name).sql is not built into this binary")
        }
        return text
    }

    /// Splits a file at lines ending in `;` (the convention for the files in `sql/queries/`; comment lines do not
    /// count), dropping comment-only chunks.
    static func splitStatements(_ text: String) -> [String] {
        var statements: [String] = []
        var current: [Substring] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            current.append(line)
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            // A comment that happens to end in ';' ends no statement.
            if trimmed.hasSuffix(";") && !trimmed.hasPrefix("--") {
                let statement = current.joined(separator: "\n")
                if hasCode(statement) { statements.append(statement) }
                current = []
            }
        }
        let rest = current.joined(separator: "\n")
        if hasCode(rest) { statements.append(rest) }
        return statements
    }

    private static func hasCode(_ statement: String) -> Bool {
        statement.split(separator: "\n").contains { line in
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            return !trimmed.isEmpty && !trimmed.hasPrefix("--")
        }
    }

    /// Lowercase hex SHA-256 of a text, for migration checksums.
    static func checksum(_ text: String) -> String {
        SHA256.hash(data: Array(text.utf8)).map { byte in
            let digits = Array("0123456789abcdef")
            return String([digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]])
        }.joined()
    }
}
