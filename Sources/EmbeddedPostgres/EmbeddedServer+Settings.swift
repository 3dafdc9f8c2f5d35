import Foundation
import Logging

/// The settings for batch work that iap-audit gives its cluster in `postgresql.conf` (docs/operating.md, "The embedded
/// server's settings"); `fsync`, `full_page_writes` and `synchronous_commit` keep PostgreSQL's defaults, so a crash
/// loses nothing committed (ingest relaxes the last only inside each input file's transaction, docs/decisions.md).
extension EmbeddedServer {
    /// Each setting and its value: all of them appended at initdb (after initdb's own `max_connections`,
    /// `shared_buffers` and `max_wal_size` lines, which the last line overrides), and at each later start those no
    /// line of the file sets, so that a home made before a setting was added is tuned like a new one. A setting the
    /// file already sets, with iap-audit's value or an operator's own, is then left as it is (and `ALTER SYSTEM`
    /// overrides the file in any case).
    static let batchSettings: [(name: String, value: String)] = [
        ("max_connections", "50"),
        ("shared_buffers", "256MB"),
        ("max_wal_size", "4GB"),
        ("checkpoint_timeout", "15min"),
        // The WAL writer writes out what backends filled every 10 ms rather than every 200: a COPY of big records
        // then seldom finds the 8 MB of WAL buffers full and writes them itself, on the path the ingest waits for.
        ("wal_writer_delay", "10ms"),
    ]

    /// Adds the batch settings to `configuration` (a `postgresql.conf`): every one when `onlyMissing` is false (a
    /// new cluster), else those it does not set. The file is replaced whole, so that a crash cannot leave half a line
    /// in it; returns whether anything was added (a running server must reload).
    func addBatchSettings(
        to configuration: String, onlyMissing: Bool, ownedBy serviceUser: ServiceUser?
    ) throws -> Bool {
        let text: String
        do {
            text = try String(contentsOfFile: configuration, encoding: .utf8)
        } catch {
            throw EmbeddedServerError.fileSystem(
                operation: "read", path: configuration, reason: error.localizedDescription)
        }
        let added = onlyMissing ? Self.batchSettingsMissing(from: text) : Self.batchSettings
        guard !added.isEmpty else { return false }
        let block = added.map { "\($0.name) = \($0.value)\n" }.joined()
        let separator = text.isEmpty || text.hasSuffix("\n") ? "" : "\n"
        try Self.replaceFile(
            configuration,
            with: text + separator + "\n# iap-audit: settings for batch work (docs/operating.md).\n" + block,
            ownedBy: serviceUser)
        logger.info(
            "Added settings to the embedded server's configuration",
            metadata: ["settings": "\(added.map(\.name).joined(separator: ", "))"])
        return true
    }

    /// The batch settings that no line of `configuration` sets: a line that is not a comment and names the setting
    /// (case does not matter to PostgreSQL), followed by `=` or a space.
    static func batchSettingsMissing(from configuration: String) -> [(name: String, value: String)] {
        var named = Set<String>()
        for line in configuration.split(whereSeparator: \.isNewline) {
            let words = line.drop(while: \.isWhitespace)
            guard let end = words.firstIndex(where: { $0 == "=" || $0.isWhitespace }) else { continue }
            named.insert(words[..<end].lowercased())
        }
        return batchSettings.filter { !named.contains($0.name) }
    }
}
