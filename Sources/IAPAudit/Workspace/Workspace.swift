internal import AppStoreFormats
internal import Foundation
public import Logging
internal import Postgres

/// An open database with the schema up to date: what every command works in.
///
/// The executable builds one from `Settings` and calls one method; all the work happens here.
public final class Workspace {
    /// The connection every stage uses; internal, so commands go through Workspace methods, never raw SQL.
    let connection: Connection
    /// The settings it was opened with.
    public let settings: Settings
    let logger: Logger
    /// Where long stages report how far they are.
    public var onProgress: ProgressHandler?

    /// This build's version, recorded with every run.
    public static let version = "0.1.0"

    /// Connects (starting the embedded server if that is the location) and migrates.
    public init(settings: Settings, logger: Logger) throws {
        self.settings = settings
        self.logger = logger
        self.connection = try settings.database.connect(environment: settings.environment, logger: logger)
        try verifyAccountKeyScheme()
    }

    /// Refuses to mix account keys made with different peppers (or with and without one) in one database.
    private func verifyAccountKeyScheme() throws {
        let scheme = settings.hasher.scheme
        try connection.query(
            "INSERT INTO install_setting (name, value) VALUES ('account_key_scheme', $1) ON CONFLICT DO NOTHING",
            [scheme], context: "record account key scheme")
        let stored = try connection.query("SELECT value FROM install_setting WHERE name = 'account_key_scheme'")
            .decode(String?.self, 0, 0)
        guard stored == scheme else {
            throw IAPAuditError.configuration(
                "this database's account keys use scheme \(stored ?? "?"), but this run would use \(scheme); "
                    + "set the same pepper (IAP_AUDIT_PEPPER_FILE or IAP_AUDIT_PEPPER) as when the data was loaded")
        }
    }

    /// Runs `body` as a recorded run of `command`; the run row gets the outcome and the summary `body` returns.
    public func recordingRun<Summary: Encodable>(
        _ command: String, settings runSettings: [String: String] = [:],
        outcome: (Summary) -> (RunRecorder.Outcome, Int32), _ body: (RunRecorder) throws -> Summary
    ) throws -> Summary {
        let recorder = try RunRecorder(
            connection: connection, command: command, settings: runSettings, version: Self.version)
        do {
            let summary = try body(recorder)
            let (result, code) = outcome(summary)
            try recorder.finish(outcome: result, exitCode: code, summary: summary)
            return summary
        } catch {
            if connection.isOK {
                if case IAPAuditError.interrupted(let signal) = error {
                    try? recorder.finish(outcome: .interrupted, exitCode: 128 + signal, summary: ["error": "\(error)"])
                } else {
                    try? recorder.finish(outcome: .failed, exitCode: 70, summary: ["error": "\(error)"])
                }
            }
            throw error
        }
    }

    /// `ingest receipts PATH…`.
    public func ingestReceipts(paths: [String]) throws -> IngestSummary {
        try recordingRun("ingest receipts", outcome: outcome(of:)) { run in
            var ingest = ReceiptIngest(
                connection: connection, hasher: settings.hasher, runID: run.id, logger: logger)
            ingest.onProgress = onProgress
            return try ingest.ingest(paths: paths)
        }
    }

    /// `catalog import FILE` (a JSON catalog) or, with `bundleID`, a product-identifier list for that app.
    public func importCatalog(path: String, bundleID: String?) throws -> CatalogImport.Outcome {
        guard let bytes = FileManager.default.contents(atPath: path).map(Array.init) else {
            throw IAPAuditError.input("cannot read \(path)")
        }
        let catalog: CatalogFile
        do {
            if let bundleID {
                catalog = try CatalogFile.parseProductList(bytes, bundleID: bundleID)
            } else {
                catalog = try CatalogFile.parseCatalog(bytes)
            }
        } catch {
            throw IAPAuditError.input("\(path): \(error)")
        }
        return try CatalogImport(connection: connection, logger: logger).apply(catalog, source: path)
    }

    /// `catalog export`: writes `DIR/<bundle id>/products_v1.json` per app; returns the files written.
    public func exportCatalog(to directory: String, bundleID: String?) throws -> [String] {
        var written: [String] = []
        for app in try CatalogImport(connection: connection, logger: logger).activeProducts(bundleID: bundleID) {
            let folder = (directory as NSString).appendingPathComponent(app.bundleID)
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            let path = (folder as NSString).appendingPathComponent("products_v1.json")
            try Self.productListJSON(app.productIDs).write(to: URL(fileURLWithPath: path), options: .atomic)
            written.append(path)
        }
        return written
    }

    /// The product-identifier list an app fetches: a JSON array of strings, the shape Apple's guide shows.
    static func productListJSON(_ ids: [String]) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .withoutEscapingSlashes]
        return try encoder.encode(ids) + Data("\n".utf8)
    }

    func outcome(of summary: IngestSummary) -> (RunRecorder.Outcome, Int32) {
        settings.isStrict && summary.quarantined > 0 ? (.rejected, 65) : (.succeeded, 0)
    }
}
