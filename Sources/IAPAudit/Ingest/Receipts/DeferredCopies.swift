internal import Postgres

/// A file's copies skipped as settled (`SettledTransactions`), kept until the file shows whether they matter.
///
/// A settled copy changes nothing in the merge, unless a later copy of its transaction in the same file speaks of its
/// state (a first refund, revocation or upgrade): the merge then keeps every copy the file staged of that
/// transaction in `purchase_state`, the settled one too, as a run of the file alone would stage it. So each
/// settled copy's row is kept here, and staged when its transaction's first copy that says its state is staged;
/// at the file's end the rest are forgotten. Past `limit` bytes every kept copy is staged (a settled copy staged costs
/// only the server's work), so memory stays bounded however long the file.
struct DeferredCopies {
    static let limit = 8 << 20
    private var rows = CopyWriter()
    /// Each kept copy, where its row lies in `rows`, and the index of the kept copy of its transaction before it.
    private var kept: [(copy: StagedCopy, range: Range<Int>, previous: Int?)] = []
    /// Each transaction's latest kept copy, until staged.
    private var latest: [TransactionKey: Int] = [:]

    /// Keeps a settled copy, whose row is `range` of `entries`.
    mutating func keep(_ copy: StagedCopy, rowIn range: Range<Int>, of entries: CopyWriter) throws(PostgresError) {
        let start = rows.byteCount
        try rows.append(rowsIn: range, count: 1, of: entries)
        kept.append((copy, start..<rows.byteCount, latest.updateValue(kept.count, forKey: copy.transaction)))
    }

    /// Stages the kept copies of `copy`'s transaction when `copy`, about to be staged, says its state.
    mutating func stage(
        before copy: StagedCopy, into entries: inout CopyWriter, staged: inout [StagedCopy]
    )
        throws(PostgresError)
    {
        guard copy.saysState, !latest.isEmpty, var index = latest.removeValue(forKey: copy.transaction) else { return }
        while true {
            try entries.append(rowsIn: kept[index].range, count: 1, of: rows)
            staged.append(kept[index].copy)
            guard let previous = kept[index].previous else { return }
            index = previous
        }
    }

    /// Stages every kept copy not staged yet once they take more than `limit` bytes, and starts over.
    mutating func stageAllIfFull(into entries: inout CopyWriter, staged: inout [StagedCopy]) throws(PostgresError) {
        guard rows.byteCount > Self.limit else { return }
        // The copies not staged yet are each transaction's chain from its latest: `stage(before:)` took the chain
        // it staged out of `latest`, and a copy of that transaction kept after it starts a new one.
        var waiting: [Int] = []
        for newest in latest.values {
            var index: Int? = newest
            while let current = index {
                waiting.append(current)
                index = kept[current].previous
            }
        }
        for index in waiting.sorted() {
            try entries.append(rowsIn: kept[index].range, count: 1, of: rows)
            staged.append(kept[index].copy)
        }
        rows.reset()
        kept.removeAll(keepingCapacity: true)
        latest.removeAll(keepingCapacity: true)
    }
}
