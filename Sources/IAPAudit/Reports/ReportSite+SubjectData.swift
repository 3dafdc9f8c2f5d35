internal import Foundation
internal import Postgres

extension ReportSite {
    /// What the pages of a batch of subjects show, read with one statement per kind instead of a few per page: a site
    /// has a page for every flagged subject and its neighbours, over a thousand on a large history.
    struct SubjectData: Sendable {
        /// Each subject's open flags: rule, severity, score, window start, window end, evidence, flag id.
        var flags: [Subject: [[String?]]] = [:]
        /// Each app account's history: when, kind, reference, detail, price, currency.
        var history: [String: [[String?]]] = [:]
        /// Each store account's original transactions (`site_store_account.sql` without its key column).
        var storeAccounts: [String: [[String?]]] = [:]
        /// Each transaction's receipt copies (`site_transaction.sql` without its key column).
        var transactions: [String: [[String?]]] = [:]
        /// Each receipt, by its id as text (`site_receipt.sql` without its key column).
        var receipts: [String: [String?]] = [:]

        /// Reads the data of `subjects`' pages.
        static func read(_ subjects: [Subject], connection: Connection) throws -> SubjectData {
            var data = SubjectData()
            for row in try rows(
                .siteSubjectFlags, [subjects.map(\.kind), subjects.map(\.key)], connection,
                "read the subjects' flags")
            {
                data.flags[Subject(kind: row[0] ?? "", key: row[1] ?? ""), default: []].append(Array(row[2...]))
            }
            func keys(_ kind: String) -> [String] { subjects.filter { $0.kind == kind }.map(\.key) }
            data.history = try grouped(
                .siteAccountHistory, keys("app-account"), connection, "read account histories")
            data.storeAccounts = try grouped(
                .siteStoreAccount, keys("store-account"), connection, "read store accounts")
            data.transactions = try grouped(.siteTransaction, keys("transaction"), connection, "read transactions")
            // Receipt keys are ids as the database writes them; anything else names no receipt (and would not cast).
            let ids = keys("receipt").filter { key in Int64(key).map(String.init) == key }
            data.receipts = try grouped(.siteReceipt, ids, connection, "read receipts").compactMapValues(\.first)
            return data
        }

        /// The rows of site query `file` for the keys in `keys`, grouped by their first column (the key), in order.
        private static func grouped(
            _ file: SQLQuery, _ keys: [String], _ connection: Connection, _ context: String
        ) throws -> [String: [[String?]]] {
            guard !keys.isEmpty else { return [:] }
            var result: [String: [[String?]]] = [:]
            for row in try rows(file, [keys], connection, context) {
                result[row[0] ?? "", default: []].append(Array(row[1...]))
            }
            return result
        }

        private static func rows(
            _ file: SQLQuery, _ arrays: [[String]], _ connection: Connection, _ context: String
        ) throws -> [[String?]] {
            try connection.query(
                file.text, arrays.map(ReportSite.arrayLiteral), context: context
            ).rows
        }
    }
}
