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

    /// Folds new receipt files into the clusters (all of them when `rebuild` or the catalog changed).
    func update(runID: Int64, rebuild: Bool) throws -> Outcome {
        let stopwatch = Stopwatch()
        var outcome = try connection.transaction { () throws -> Outcome in
            var outcome = Outcome()
            let fingerprint =
                try connection.query(try SQLResources.query("catalog_fingerprint"))
                .requireString(0, 0)
            let stored = try connection.query(
                "SELECT value FROM detection_state WHERE name = 'store_account_catalog'"
            ).string(0, 0)
            if rebuild || stored != fingerprint {
                try connection.runQueryFile("store_accounts_reset", context: "reset store accounts")
                try connection.query(
                    """
                    INSERT INTO detection_state (name, value) VALUES ('store_account_catalog', $1)
                    ON CONFLICT (name) DO UPDATE SET value = excluded.value
                    """, [fingerprint], context: "record catalog fingerprint")
                outcome.isRebuilt = true
            } else {
                // A fold of new files touches a few clusters among all of them (plannedForFewRows): planned for the
                // whole tables, a day's fold at 4M entries JIT-compiled or hashed them, 50 to 380 ms a run.
                try connection.planForFewRowsUntilCommit()
            }
            try connection.runQueryFile(
                "store_accounts_prepare", parameters: [outcome.isRebuilt], context: "prepare store-account clustering")
            outcome.filesRead = try connection.query("SELECT count(*) FROM cluster_file").requireInt(0, 0)
            outcome.entriesRead = try connection.query("SELECT count(*) FROM cluster_entry").requireInt(0, 0)
            outcome.nodes = try connection.query("SELECT count(*) FROM cluster_node").requireInt(0, 0)
            var sets = UnionFind(count: outcome.nodes)
            outcome.edges = try readEdges { a, b in sets.union(a, b) }
            try writeRoots(&sets)
            try connection.runQueryFile(
                "store_accounts_apply", parameters: [runID], context: "apply store-account clusters")
            outcome.renamed = try connection.query("SELECT count(*) FROM cluster_remap").requireInt(0, 0)
            outcome.clustersWritten =
                try connection.query("SELECT count(*) FROM store_account WHERE updated_run_id = $1", [runID])
                .requireInt(0, 0)
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
            for row in 0..<batch.rowCount {
                body(try batch.decode(Int32.self, row, 0), try batch.decode(Int32.self, row, 1))
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
