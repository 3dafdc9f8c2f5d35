internal import AppStoreFormats

/// What the generated receipts say was sold, per Pacific day and product, counted as docs/reconciliation.md counts
/// sales (production status-0 receipts, each transaction once, restores and family sharing not sales, renewals by
/// billed period, trials apart, refunds on the cancellation day, upgrades not refunds).
///
/// It is computed from the receipt files as written, independently of the SQL that reconciles them, so the
/// end-to-end test compares two implementations of the rules.
struct SalesLedger {
    /// One (Pacific day, product) cell.
    struct Cell: Hashable, Comparable {
        var day: Int64
        var product: Int

        static func < (lhs: Cell, rhs: Cell) -> Bool { (lhs.day, lhs.product) < (rhs.day, rhs.product) }
    }

    /// Units sold per cell.
    var sales: [Cell: Int] = [:]
    /// Units refunded per cell (positive numbers).
    var refunds: [Cell: Int] = [:]
    /// Restores of non-consumables per cell (Apple's IA3 rows).
    var restores: [Cell: Int] = [:]

    private struct Seen {
        var product: Int
        var transactionID: String
        var originalTransactionID: String?
        var quantity: Int
        var purchase: Int64
        var cancellation: Int64?
        var isUpgraded: Bool
        var isTrial: Bool
        var webOrderLineItemID: String?
    }

    /// Reads every receipt file under `directory/receipts` and counts.
    static func read(directory: String, files: [String], catalog: SyntheticCatalog) throws -> SalesLedger {
        let productIndex = Dictionary(
            catalog.products.enumerated().map { ($0.element.productID, $0.offset) }, uniquingKeysWith: { a, _ in a })
        let parser = ReceiptRecordParser(hasher: AccountKeyHasher(pepper: nil))
        var seen: [String: Seen] = [:]
        var order: [String] = []
        for file in files {
            let path = directory + "/" + file
            let format = ReceiptFileFormat(fileName: file) ?? .jsonLines
            let reader: ReceiptFileReader
            do {
                reader = try ReceiptFileReader(path: path, format: format, maxRecordLength: 16 << 20)
            } catch {
                throw SyntheticDataError.cannotWrite(path: path, reason: "cannot read it back: \(error)")
            }
            while let item = reader.next() {
                guard case .record(_, _, let bytes) = item, let receipt = try? parser.parse(bytes),
                    receipt.status == 0, !receipt.isSandbox
                else { continue }
                for entry in receipt.transactions where entry.inAppOwnershipType != "FAMILY_SHARED" {
                    guard let product = productIndex[entry.productID],
                        let purchase = entry.purchaseDate?.millisecondsSince1970
                    else { continue }
                    if var existing = seen[entry.transactionID] {
                        // Later copies add a refund or upgrade mark, as the database's merge does.
                        if existing.cancellation == nil {
                            existing.cancellation = entry.cancellationDate?.millisecondsSince1970
                        }
                        existing.isUpgraded = existing.isUpgraded || entry.isUpgraded == true
                        seen[entry.transactionID] = existing
                        continue
                    }
                    order.append(entry.transactionID)
                    seen[entry.transactionID] = Seen(
                        product: product, transactionID: entry.transactionID,
                        originalTransactionID: entry.originalTransactionID, quantity: entry.quantity,
                        purchase: purchase, cancellation: entry.cancellationDate?.millisecondsSince1970,
                        isUpgraded: entry.isUpgraded == true, isTrial: entry.isTrialPeriod == true,
                        webOrderLineItemID: entry.webOrderLineItemID)
                }
            }
        }
        var ledger = SalesLedger()
        var periods: [String: Seen] = [:]
        for id in order {
            guard let transaction = seen[id] else { continue }
            switch catalog.products[transaction.product].kind {
            case .autoRenewable:
                let key = transaction.webOrderLineItemID ?? "transaction " + transaction.transactionID
                if let other = periods[key],
                    (other.purchase, other.transactionID) <= (transaction.purchase, transaction.transactionID)
                {
                    continue
                }
                periods[key] = transaction
            case .nonConsumable, .nonRenewing, .freeSubscription:
                if let original = transaction.originalTransactionID, original != transaction.transactionID {
                    let cell = Cell(day: pacificDay(transaction.purchase), product: transaction.product)
                    ledger.restores[cell, default: 0] += transaction.quantity
                } else {
                    ledger.count(transaction)
                }
            case .consumable:
                ledger.count(transaction)
            }
        }
        for period in periods.values { ledger.count(period) }
        return ledger
    }

    private mutating func count(_ transaction: Seen) {
        guard !transaction.isTrial else { return }
        sales[Cell(day: Self.pacificDay(transaction.purchase), product: transaction.product), default: 0] +=
            transaction.quantity
        if let cancellation = transaction.cancellation, !transaction.isUpgraded {
            refunds[Cell(day: Self.pacificDay(cancellation), product: transaction.product), default: 0] +=
                transaction.quantity
        }
    }

    /// The Pacific calendar day (days since 1970-01-01) of a UTC instant.
    static func pacificDay(_ milliseconds: Int64) -> Int64 {
        AppleTime.floorDivide(milliseconds + AppleTime.pacificOffset(at: milliseconds), AppleTime.millisecondsPerDay)
    }
}
