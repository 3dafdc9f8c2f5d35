import Foundation
import Postgres
import Testing

@testable import IAPAudit

/// Chunks are reused across files (`ParsedChunk.pool`): one handed back full must come out empty, or a file would
/// load rows of the file before it.
struct ParsedChunkPoolTests {
    @Test func aRecycledChunkComesBackEmpty() {
        var chunk = ParsedChunk.pool.take()
        for index in 0..<3 {
            for binary in [\ParsedChunk.receipts, \.links, \.signedObjects] {
                chunk[keyPath: binary].beginRow(fieldCount: 1)
                chunk[keyPath: binary].int64(index)
                chunk[keyPath: binary].endRow()
            }
            chunk.entries.field(index)
            chunk.renewals.field(index)
            chunk.quarantine.field(index)
        }
        chunk.entryRows.append(
            (StagedCopy(transaction: TransactionKey(environment: "Production", transactionID: "1"), identity: 1), 1))
        #expect(chunk.receipts.byteCount > 0 && chunk.entries.byteCount > 0)
        ParsedChunk.pool.recycle(chunk)

        // Other tests take and recycle chunks at the same time: whichever chunk comes back, it is empty.
        let taken = ParsedChunk.pool.take()
        #expect(
            [taken.receipts, taken.links, taken.signedObjects].allSatisfy { $0.byteCount == 0 && $0.rowCount == 0 })
        #expect(
            [taken.entries, taken.renewals, taken.quarantine].allSatisfy {
                $0.byteCount == 0 && $0.rowCount == 0
            })
        #expect(taken.entryRows.isEmpty)
    }
}
