import Foundation
import Testing

@testable import IAPAudit

/// `ReceiptRows.stagedEntryColumns` is the one list of a staged transaction copy; the SQL files spell it for their
/// readers, and these tests keep every spelling equal to it.
struct StagedColumnsTests {
    private static var purchaseColumns: [(name: String, type: String)] {
        Array(ReceiptRows.stagedEntryColumns.dropFirst(ReceiptRows.stagedLocationColumnCount))
    }

    @Test func stageTableHasTheStagedColumnsInCopyOrder() throws {
        let text = SQLQuery.receiptStage.text
        let columns = try Self.columns(ofTable: "CREATE TEMPORARY TABLE IF NOT EXISTS stage_entry (", in: text)
        #expect(columns.map(\.name) == ReceiptRows.stagedEntryColumns.map(\.name))
        #expect(columns.map(\.type) == ReceiptRows.stagedEntryColumns.map(\.type))
        #expect(ReceiptRows.entryCopy.contains("(" + columns.map(\.name).joined(separator: ", ") + ")"))
    }

    @Test func purchaseTableHasEveryStagedPurchaseColumn() throws {
        let migration = try #require(EmbeddedResources.migrations.first { $0.name == "0001_create_core.sql" })
        let signed = try #require(EmbeddedResources.migrations.first { $0.name == "0010_signed_data.sql" })
        let columns =
            try Self.columns(ofTable: "CREATE TABLE purchase (", in: migration.text)
            .filter { $0.name != "id" && $0.name != "first_receipt_id" } + Self.addedColumns(in: signed.text)
        #expect(columns.map(\.name) == Self.purchaseColumns.map(\.name))
        #expect(columns.map(\.type) == Self.purchaseColumns.map(\.type))
    }

    @Test func mergeInsertsEveryStagedPurchaseColumn() throws {
        let insert = try #require(
            SQLQuery.receiptStoreNew.statements().map(\.text).first { $0.contains("INSERT INTO purchase") })
        let names = Self.purchaseColumns.map(\.name)
        let target = try Self.list(in: insert, after: "INSERT INTO purchase (", until: ")")
        #expect(target == names + ["first_receipt_id"])
        let selected = try Self.list(
            in: insert, after: "SELECT DISTINCT ON (s.transaction_id, s.environment)", until: "FROM")
        #expect(selected == (names + ["receipt_id"]).map { "s." + $0 })
    }

    /// `name type` of each column line of a `CREATE TABLE`, up to the first table constraint or the closing `)`.
    private static func columns(ofTable opening: String, in text: String) throws -> [(name: String, type: String)] {
        let start = try #require(text.range(of: opening))
        var columns: [(name: String, type: String)] = []
        for line in text[start.upperBound...].split(separator: "\n") {
            let words = line.split(whereSeparator: \.isWhitespace)
            guard let first = words.first, !first.hasPrefix(")"), first != "UNIQUE", first != "PRIMARY" else { break }
            guard words.count >= 2 else { continue }
            columns.append((String(first), String(words[1].trimmingSuffix(","))))
        }
        return columns
    }

    /// `name type` of each `ADD COLUMN name type` line of an `ALTER TABLE`.
    private static func addedColumns(in text: String) -> [(name: String, type: String)] {
        text.split(separator: "\n").compactMap { line in
            let words = line.split(whereSeparator: \.isWhitespace)
            guard words.count >= 4, words[0] == "ADD", words[1] == "COLUMN" else { return nil }
            return (String(words[2]), String(words[3].trimmingSuffix(",").trimmingSuffix(";")))
        }
    }

    /// The comma-separated names between `opening` and `closing`, whitespace removed.
    private static func list(in text: String, after opening: String, until closing: String) throws -> [String] {
        let start = try #require(text.range(of: opening))
        let end = try #require(text.range(of: closing, range: start.upperBound..<text.endIndex))
        return text[start.upperBound..<end.lowerBound].split(separator: ",").map {
            $0.split(whereSeparator: \.isWhitespace).joined()
        }
    }
}

extension Substring {
    fileprivate func trimmingSuffix(_ suffix: String) -> Substring {
        hasSuffix(suffix) ? dropLast(suffix.count) : self
    }
}
