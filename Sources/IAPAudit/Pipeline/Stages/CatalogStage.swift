internal import Logging

/// The catalog a run imports first (`[inputs] catalog`). A catalog that cannot be read keeps the one in force: the
/// rest of the run still does its work, and the run exits 65 for the file.
package struct CatalogStage: PipelineStage {
    /// What became of the catalog.
    package enum Result: Encodable, Sendable {
        case imported(CatalogImport.Outcome)
        /// Why it was not imported.
        case notImported(String)

        package func encode(to encoder: any Encoder) throws {
            switch self {
            case .imported(let outcome): try outcome.encode(to: encoder)
            case .notImported(let reason): try reason.encode(to: encoder)
            }
        }
    }

    /// The JSON catalog; nil skips the stage.
    package var path: String?

    package init(path: String?) { self.path = path }

    package var name: String { "catalog" }

    package func isNeeded(in session: StageSession) -> Bool { path != nil }

    package func run(in session: StageSession) throws -> Result {
        guard let path else { return .notImported("no catalog named") }
        do {
            return .imported(try session.workspace.importCatalog(path: path, bundleID: nil))
        } catch IAPAuditError.input(let message) {
            session.workspace.logger.error(
                "catalog not imported; the one in force stays", metadata: ["error": "\(message)"])
            return .notImported(message)
        }
    }

    package func outcome(of result: Result, in session: StageSession) -> StageOutcome {
        if case .notImported = result { return .rejected }
        return .succeeded
    }

    package func summaryLines(_ result: Result, context: SummaryContext) -> [String] {
        guard case .imported(let catalog) = result else { return [] }
        return ["catalog: \(catalog.apps) apps, \(catalog.products) products, \(catalog.retired) retired"]
    }

    package func problems(_ result: Result) -> [String] {
        guard case .notImported(let reason) = result else { return [] }
        return ["catalog not imported: \(reason)"]
    }

    /// Stored as `catalog` (what was imported) or `catalogError` (why nothing was).
    package func recordedEntries(_ result: Result) -> [RunSummary.Entry] {
        switch result {
        case .imported(let outcome): [RunSummary.Entry(key: "catalog", value: outcome)]
        case .notImported(let reason): [RunSummary.Entry(key: "catalogError", value: reason)]
        }
    }
}
