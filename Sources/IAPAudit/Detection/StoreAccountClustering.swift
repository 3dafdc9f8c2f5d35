internal import Foundation
internal import Logging
internal import Postgres

/// Reconstructs App Store accounts from receipts (docs/fraud-rules.md, "Store accounts"): union–find over same
/// original transaction, same app receipt, same recorded store account and same StoreKit 2 `appTransactionId`.
///
/// Incremental: only receipt files not folded in yet are read; they join the clusters they touch, and a cluster
/// that merges or gains a smaller original transaction is renamed with the rename recorded. Because a cluster's key
/// is a function of its members (its smallest original transaction), the result equals a full recomputation. A
/// changed catalog (which apps count, which products are ownable) starts the clusters over.
struct StoreAccountClustering {
    /// What one update did.
    struct Outcome: Sendable, Codable, Equatable {
        var isRebuilt = false
        var filesRead = 0
        var entriesRead = 0
        var nodes = 0
        var edges = 0
        var clustersWritten = 0
        var renamed = 0
        var seconds = 0.0
    }

    /// Rows fetched per round trip while reading the edges (bounds memory).
    static let fetchSize = 100_000

    let connection: Connection
    let logger: Logger

    /// The name under which `detection_state` keeps the catalog fingerprint the clusters were built with.
    static let catalogState = "store_account_catalog"

    /// Folds new receipt files into the clusters (all of them when `rebuild` or the catalog changed).
    func update(runID: Int64, rebuild: Bool) throws -> Outcome {
        let stopwatch = Stopwatch()
        var outcome = try connection.transaction { () throws -> Outcome in
            var outcome = Outcome()
            let fingerprint = try connection.query(SQLQuery.catalogFingerprint.text, context: "catalog fingerprint")
                .first(String.self, "fingerprint")
            let stored = try connection.detectionState(Self.catalogState)
            if rebuild || stored != fingerprint {
                try connection.runQueryFile(.storeAccountsReset, context: "reset store accounts")
                try connection.recordDetectionState(Self.catalogState, fingerprint)
                outcome.isRebuilt = true
            } else {
                // A fold of new files touches a few clusters among all of them (plannedForFewRows): planned for the
                // whole tables, a day's fold at 4M entries JIT-compiled or hashed them, 50 to 380 ms a run.
                try connection.planForFewRowsUntilCommit()
            }
            try connection.runQueryFile(
                .storeAccountsPrepare, parameters: [outcome.isRebuilt], context: "prepare store-account clustering")
            let prepared = try connection.query(SQLQuery.storeAccountsPrepared.text, context: "count what to cluster")
            outcome.filesRead = try prepared.first(Int.self, "files")
            outcome.entriesRead = try prepared.first(Int.self, "entries")
            outcome.nodes = try prepared.first(Int.self, "nodes")
            var sets = UnionFind(count: outcome.nodes)
            outcome.edges = try readEdges { a, b in sets.union(a, b) }
            try writeRoots(&sets)
            try connection.runQueryFile(
                .storeAccountsApply, parameters: [runID], context: "apply store-account clusters")
            let applied = try connection.query(
                SQLQuery.storeAccountsApplied.text, [runID], context: "count the clusters written")
            outcome.renamed = try applied.first(Int.self, "renamed")
            outcome.clustersWritten = try applied.first(Int.self, "clusters_written")
            return outcome
        }
        outcome.seconds = stopwatch.seconds
        logger.info(
            "store accounts updated",
            metadata: [
                "files": "\(outcome.filesRead)", "entries": "\(outcome.entriesRead)", "nodes": "\(outcome.nodes)",
                "renamed": "\(outcome.renamed)", "rebuilt": "\(outcome.isRebuilt)",
            ])
        return outcome
    }

    /// Streams `cluster_edge` through a cursor, so memory holds one batch of edges at a time; returns the count.
    private func readEdges(_ body: (Int32, Int32) -> Void) throws -> Int {
        try connection.execute(
            script: "DECLARE cluster_edges NO SCROLL CURSOR FOR SELECT a, b FROM cluster_edge",
            context: "open edge cursor")
        var total = 0
        while true {
            let batch = try connection.query(
                "FETCH FORWARD \(Self.fetchSize) FROM cluster_edges", context: "read edges")
            guard batch.rowCount > 0 else { break }
            let (a, b) = (try batch.columnIndex("a"), try batch.columnIndex("b"))
            for row in 0..<batch.rowCount {
                body(try batch.decode(Int32.self, row, a), try batch.decode(Int32.self, row, b))
            }
            total += batch.rowCount
        }
        try connection.execute(script: "CLOSE cluster_edges", context: "close edge cursor")
        return total
    }

    /// Writes every node's component (its smallest member) to `cluster_root`.
    private func writeRoots(_ sets: inout UnionFind) throws {
        var rows = CopyWriter()
        let copy = "COPY cluster_root (node, root) FROM STDIN"
        for node in 0..<sets.count {
            rows.field(node)
            rows.field(Int(sets.find(Int32(node))))
            try rows.endRow()
            if rows.byteCount >= 4 << 20 {
                try connection.copyIn(copy, rows: rows, context: "write store-account roots")
                rows.reset()
            }
        }
        try connection.copyIn(copy, rows: rows, context: "write store-account roots")
    }
}
