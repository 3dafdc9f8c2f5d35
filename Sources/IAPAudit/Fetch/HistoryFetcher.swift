internal import AppleAPI
internal import Foundation

/// Fetches the transaction and refund history of named transactions, several at once, each from the revision the
/// last fetch ended at (so only what changed comes), every page stored as it arrives.
struct HistoryFetcher: ServerFetcher {
    /// One transaction's history of one kind, and where the last fetch left it.
    struct Subject: Sendable {
        var kind: AppStoreServerClient.HistoryKind
        var environment: String
        var transactionID: String
        /// The app to ask first (what the archive says), else every configured app in turn.
        var bundleIDs: [String]
        var revision: String?
    }

    enum Progress: Sendable {
        /// A page arrived (stored when it held transactions); `revision` is the one to ask after it.
        case page(subject: Subject, bundleID: String, revision: String?, count: Int)
        /// No configured app's key knows the transaction.
        case unknown(subject: Subject)
    }

    let clients: [String: AppStoreServerClient]
    let folder: String
    let concurrency: Int

    func fetchPages(_ subject: Subject, stop: StopRequest, tell: (Progress) -> Void) async throws -> Bool {
        for bundleID in subject.bundleIDs {
            guard let client = clients[bundleID] else { continue }
            var revision = subject.revision
            var known = false
            while stop.signal == nil {
                guard
                    let page = try await client.history(
                        subject.kind, transactionID: subject.transactionID, revision: revision)
                else { break }
                known = true
                if page.count > 0 {
                    let directory =
                        "\(folder)/\(bundleID)/\(subject.environment)/\(subject.kind.rawValue)/\(subject.transactionID)"
                    try SpoolWriter.prepare(directory)
                    SpoolWriter.removePartials(in: directory)  // a killed fetch's; only this subject writes here
                    // Named by the revision asked after: the same request again writes the same file.
                    try SpoolWriter.store(
                        page.body, name: "after-\(Self.safe(revision ?? "start")).json", in: directory)
                }
                tell(.page(subject: subject, bundleID: bundleID, revision: page.revision, count: page.count))
                revision = page.revision
                if !page.hasMore { break }
            }
            if known { return true }
        }
        tell(.unknown(subject: subject))
        return true
    }

    /// A revision as a file name part: letters, digits, `-` and `_` kept, anything else `_`.
    static func safe(_ text: String) -> String {
        String(text.prefix(120).map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" ? $0 : "_" })
    }
}
