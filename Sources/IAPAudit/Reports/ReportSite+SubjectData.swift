internal import Foundation
internal import Postgres

extension ReportSite {
    /// What the pages of a batch of subjects show, read with one statement per kind instead of a few per page: a site
    /// has a page for every flagged subject and its neighbours, over a thousand on a large history.
    struct SubjectData: Sendable {
        /// Each subject's flags, open and decided (`site_subject_flags.sql`).
        var flags: [Subject: [SiteRow]] = [:]
        /// The decisions on those flags, by flag id (`site_flag_decisions.sql`).
        var decisions: [String: [SiteRow]] = [:]
        /// Each app account's history (`site_account_history.sql`).
        var history: [String: [SiteRow]] = [:]
        /// Each store account's original transactions (`site_store_account.sql`).
        var storeAccounts: [String: [SiteRow]] = [:]
        /// Each transaction's receipt copies (`site_transaction.sql`).
        var transactions: [String: [SiteRow]] = [:]
        /// Each receipt, by its id as text (`site_receipt.sql`).
        var receipts: [String: SiteRow] = [:]

        /// Reads the data of `subjects`' pages.
        static func read(_ subjects: [Subject], connection: Connection) throws -> SubjectData {
            var data = SubjectData()
            for row in try rows(
                .siteSubjectFlags, [subjects.map(\.kind), subjects.map(\.key)], SiteRow.Columns.subjectFlags,
                connection, "read the subjects' flags")
            {
                data.flags[Subject(kind: row["subject_kind"] ?? "", key: row["subject_key"] ?? ""), default: []]
                    .append(row)
            }
            data.decisions = try ReportSite.decisions(
                of: data.flags.values.flatMap { $0.compactMap { $0["flag_id"] } }, connection: connection)
            func keys(_ kind: String) -> [String] { subjects.filter { $0.kind == kind }.map(\.key) }
            data.history = try grouped(
                .siteAccountHistory, keys("app-account"), by: "account_key", SiteRow.Columns.accountHistory,
                connection, "read account histories")
            data.storeAccounts = try grouped(
                .siteStoreAccount, keys("store-account"), by: "store_account_key", SiteRow.Columns.storeAccount,
                connection, "read store accounts")
            data.transactions = try grouped(
                .siteTransaction, keys("transaction"), by: "transaction_id", SiteRow.Columns.transaction,
                connection, "read transactions")
            // Receipt keys are ids as the database writes them; anything else names no receipt (and would not cast).
            let ids = keys("receipt").filter { key in Int64(key).map(String.init) == key }
            data.receipts = try grouped(
                .siteReceipt, ids, by: "id", SiteRow.Columns.receipt, connection, "read receipts"
            ).compactMapValues(\.first)
            return data
        }

        /// The rows of site query `file` for the keys in `keys`, grouped by their column `key`, in order.
        private static func grouped(
            _ file: SQLQuery, _ keys: [String], by key: String, _ columns: [String], _ connection: Connection,
            _ context: String
        ) throws -> [String: [SiteRow]] {
            guard !keys.isEmpty else { return [:] }
            var result: [String: [SiteRow]] = [:]
            for row in try rows(file, [keys], columns, connection, context) {
                result[row[key] ?? "", default: []].append(row)
            }
            return result
        }

        private static func rows(
            _ file: SQLQuery, _ arrays: [[String]], _ columns: [String], _ connection: Connection, _ context: String
        ) throws -> [SiteRow] {
            let parameters = arrays.map { $0 as (any PostgresParameter)? }
            return try connection.query(file.text, parameters, context: context).allRows.map {
                try SiteRow($0, columns: columns)
            }
        }
    }
}
