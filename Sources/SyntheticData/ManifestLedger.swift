/// Tallies what the generator writes, record by record, and turns the tallies into a `GenerationManifest`.
struct ManifestLedger {
    private(set) var files: [GenerationManifest.File] = []
    private var records = 0
    private var goodRecords = 0
    private var badByReason: [BadRecordReason: Int] = [:]
    private var entries = 0
    /// Flags seen per transaction id, one table per environment; their sizes are the distinct counts.
    private var production: [UInt64: UInt8] = [:]
    private var sandbox: [UInt64: UInt8] = [:]
    private var statuses: [Int: Int] = [:]
    private var shapes: [String: Int] = [:]
    private var accountFields: [String: Int] = [:]
    private var sandboxReceipts = 0
    // The file being written.
    private var fileRecords = 0
    private var fileGoodRecords = 0
    private var fileEntries = 0

    /// Bad lines so far with `reason`.
    func badRecords(for reason: BadRecordReason) -> Int {
        badByReason[reason, default: 0]
    }

    /// Counts a bad line.
    mutating func noteBadRecord(_ reason: BadRecordReason) {
        records += 1
        fileRecords += 1
        badByReason[reason, default: 0] += 1
    }

    /// Counts a good line and its entries; returns how many entries it had.
    @discardableResult
    mutating func noteGoodRecord(
        plan: RecordPlan, account: SimulatedAccount, isBare: Bool, entries written: [ReceiptRecordWriter.NotedEntry]
    ) -> Int {
        records += 1
        goodRecords += 1
        fileRecords += 1
        fileGoodRecords += 1
        entries += written.count
        fileEntries += written.count
        for entry in written {
            if entry.isSandbox {
                sandbox[entry.transactionID, default: 0] |= entry.flags
            } else {
                production[entry.transactionID, default: 0] |= entry.flags
            }
        }
        switch plan {
        case .legacyPurchase:
            statuses[0, default: 0] += 1
            shapes["ios6", default: 0] += 1
        case .appReceipt:
            statuses[0, default: 0] += 1
            shapes["ios7", default: 0] += 1
        case .sandboxReceipt:
            statuses[0, default: 0] += 1
            shapes["ios7", default: 0] += 1
            sandboxReceipts += 1
        case .status(let status):
            statuses[status, default: 0] += 1
            shapes["none", default: 0] += 1
            if status == 21007 { sandboxReceipts += 1 }
        }
        let field: String
        if isBare {
            field = "bare"
        } else {
            switch account.identity {
            case .username: field = "application_username"
            case .usernameHash: field = "application_username_hash"
            case .accountToken: field = "app_account_token"
            case .none: field = "none"
            }
        }
        accountFields[field, default: 0] += 1
        return written.count
    }

    /// Closes the current file's tallies under `path`.
    mutating func finishFile(path: String) {
        files.append(
            GenerationManifest.File(
                path: path, records: fileRecords, goodRecords: fileGoodRecords, transactionEntries: fileEntries))
        fileRecords = 0
        fileGoodRecords = 0
        fileEntries = 0
    }

    /// The manifest of everything noted.
    func manifest(scenario: ReceiptScenario, catalogPath: String, rawUsernames: [String]) -> GenerationManifest {
        var reasons: [String: Int] = [:]
        for reason in BadRecordReason.allCases {
            reasons[reason.rawValue] = badByReason[reason, default: 0]
        }
        var with: [String: Int] = [:]
        let features: [(String, UInt8)] = [
            ("refunded", ReceiptRecordWriter.EntryFlag.refunded),
            ("upgraded", ReceiptRecordWriter.EntryFlag.upgraded),
            ("family-shared", ReceiptRecordWriter.EntryFlag.familyShared),
            ("trial-period", ReceiptRecordWriter.EntryFlag.trialPeriod),
        ]
        for (name, bit) in features {
            with[name] =
                production.values.reduce(0) { $0 + ($1 & bit != 0 ? 1 : 0) }
                + sandbox.values.reduce(0) { $0 + ($1 & bit != 0 ? 1 : 0) }
        }
        var statusCounts: [String: Int] = [:]
        for (status, count) in statuses {
            statusCounts[String(status)] = count
        }
        return GenerationManifest(
            formatVersion: 1,
            scenario: scenario,
            catalogPath: catalogPath,
            files: files,
            records: records,
            goodRecords: goodRecords,
            badRecords: records - goodRecords,
            badRecordsByReason: reasons,
            transactionEntries: entries,
            distinctTransactions: production.count + sandbox.count,
            distinctTransactionsByEnvironment: ["Production": production.count, "Sandbox": sandbox.count],
            distinctTransactionsWith: with,
            receiptsByStatus: statusCounts,
            receiptsByShape: [
                "ios6": shapes["ios6", default: 0], "ios7": shapes["ios7", default: 0],
                "none": shapes["none", default: 0],
            ],
            goodRecordsByAccountField: Dictionary(
                uniqueKeysWithValues: [
                    "application_username", "application_username_hash", "app_account_token",
                    "none", "bare",
                ].map { ($0, accountFields[$0, default: 0]) }),
            sandboxReceipts: sandboxReceipts,
            rawUsernames: rawUsernames
        )
    }
}
