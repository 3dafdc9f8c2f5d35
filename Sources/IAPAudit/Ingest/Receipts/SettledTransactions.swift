internal import Foundation

/// What one ingest run knows for certain about stored transactions, so that later files stage fewer copies.
///
/// After a file commits, each transaction it staged is *settled* at the identity of its first staged copy `I`,
/// unless the merge reported one of the file's copies as a conflict, or spoke of the transaction's state (a refund,
/// revocation or upgrade: `purchase_state`, where what Apple signed last stands). For a settled transaction the stored
/// row agrees with `I` on product, purchase second and original transaction (else `I` would have conflicted), and
/// carries `I`'s refund and upgrade marks (a transaction with none, never marked before). A later copy with identity
/// `I` would therefore make the merge do nothing at all, and is not staged, unless a marked copy of its transaction
/// came before it in its own file (`StagedCopy.saysState`: then it may be the reversal). Skipping only copies that
/// provably cause no server work leaves the stored result exactly what staging every file's copies gives, however
/// files are grouped into runs; concurrent ingests cannot undo it either (they only add rows and marks).
///
/// Identities are compared by 64-bit hash: a collision (about 2⁻⁶⁴ per comparison) would skip a copy that differs.
/// Memory is bounded: past `limit` staged copies the cache starts over (forgetting costs only skipped work).
///
/// Two files' threads use it at once (`FileRun`): file N+1 stages while file N's statements still run. What N staged
/// may yet unsettle a transaction (N's refund of a transaction an earlier file settled makes N+1's unrefunded copy
/// the reversal), so N *holds* its staged transactions from the end of its load until the next file's load has ended,
/// and a held transaction is never settled. The hold lasts the whole of the next load whether or not N has finished
/// meanwhile, and the cache is emptied only at a hold, so what a file stages depends on the files before it and never
/// on how fast their statements ran: one lane or two, the same files store the same rows.
///
/// One case needs more than this: an unmarked copy of a transaction settled two files back or more, earlier in its
/// file than that transaction's first refund or upgrade. The merge keeps it in `purchase_state` (one more row
/// repeating the state stored before) once the later copy gives the transaction a state, so the loader keeps such a
/// copy's row (`DeferredCopies`) and stages it when that copy comes.
final class SettledTransactions: @unchecked Sendable {
    // @unchecked: everything below is read and written only while `lock` is held.
    private let lock = NSLock()
    /// Staged copies remembered at most: keeps the table within 2²⁰ buckets (about 25 MiB), whatever the run's size.
    static let limit = 750_000
    private var identities: [TransactionKey: Int] = [:]
    /// The transactions of the latest file to end its load (see `hold`).
    private var held: Set<TransactionKey> = []
    /// Holds so far, the one at which the cache was last emptied, and the copies held since then.
    private var holds = 0
    private var emptiedAt = 0
    private var heldSinceEmptied = 0
    /// A transaction whose copies keep being staged for the rest of the run (its stored row disagreed with a copy).
    private static let unsettled = Int.min

    /// Whether the merge would do nothing with this copy.
    func isSettled(_ copy: StagedCopy) -> Bool {
        guard !copy.saysState && copy.identity != Self.unsettled else { return false }
        lock.lock()
        defer { lock.unlock() }
        return !held.contains(copy.transaction) && identities[copy.transaction] == copy.identity
    }

    /// A file's loaded copies, whose statements are about to run while the next file loads: none of their
    /// transactions is settled until the next file's own hold. Returns the hold, for `record`.
    func hold(_ copies: [StagedCopy]) -> Int {
        lock.lock()
        defer { lock.unlock() }
        holds += 1
        heldSinceEmptied += copies.count
        if heldSinceEmptied > Self.limit {
            identities.removeAll(keepingCapacity: true)
            emptiedAt = holds
            heldSinceEmptied = copies.count
        }
        held = Set(copies.lazy.map(\.transaction))
        return holds
    }

    /// Records a committed file: the copies it staged, in file order, and the transactions the merge found
    /// conflicting copies of. A transaction some of whose staged copies were `dropped` (their record was stored
    /// before) is not settled: the merge never compared those copies. A file held before the cache was last emptied
    /// is forgotten with it, however late it ends.
    func record(
        committed copies: [StagedCopy], conflicting: [TransactionKey], dropped: Set<TransactionKey>,
        heldAt hold: Int
    ) {
        lock.lock()
        defer { lock.unlock() }
        guard hold >= emptiedAt else { return }
        for copy in copies where identities[copy.transaction] == nil && !dropped.contains(copy.transaction) {
            identities[copy.transaction] = copy.identity
        }
        for transaction in conflicting { identities[transaction] = Self.unsettled }
    }
}
