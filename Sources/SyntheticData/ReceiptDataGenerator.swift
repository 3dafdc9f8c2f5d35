/// Generates a deterministic data set of recorded App Store receipts: `catalog.json`, `receipts/<day>/part-NNNN.jsonl`
/// (or `.jsonl.gz`) and `manifest.json`, the ledger of what was written.
///
/// The same scenario gives byte-identical output on every run and platform. Files are streamed one at a time, so
/// memory stays bounded by the accounts' state, not by the output size.
package struct ReceiptDataGenerator: Sendable {
    /// What to generate.
    package let scenario: ReceiptScenario

    /// Creates a generator for `scenario`.
    package init(scenario: ReceiptScenario) {
        self.scenario = scenario
    }

    /// Writes the data set into `directory` (created if needed; files of the same names are replaced) and returns
    /// its manifest, which is also written as `manifest.json`.
    package func write(to directory: String, compress: Bool) throws -> GenerationManifest {
        if let problem = scenario.problem { throw SyntheticDataError.invalidScenario(problem) }
        let catalog = SyntheticCatalog.standard
        let catalogPath = "catalog.json"
        try ReceiptFileWriter.createDirectory(directory + "/receipts")
        try ReceiptFileWriter.writeFile(directory + "/" + catalogPath, bytes: catalog.jsonBytes())

        // Separate streams, so a change in how one part draws does not reshuffle the others.
        var root = SeededGenerator(seed: scenario.seed)
        var simulator = ReceiptSimulator(scenario: scenario, catalog: catalog, rng: root.split())
        var flowRNG = root.split()
        var formatRNG = root.split()

        let dayLength = AppleTime.millisecondsPerDay
        var accounts = simulator.makeAccounts(startMilliseconds: scenario.startDay.epochDay * dayLength)
        var writer = ReceiptRecordWriter(catalog: catalog, receiptDataLength: scenario.receiptDataLength)
        var ledger = ManifestLedger()
        let fileExtension = compress ? "jsonl.gz" : "jsonl"
        // Now and then the recorder stored Apple's response alone, losing the account (the first record always, so
        // every data set has one).
        var awaitsBareResponse = true

        for dayOffset in 0..<scenario.days {
            let day = scenario.startDay.adding(days: dayOffset)
            let dayStart = day.epochDay * dayLength
            let dayQuota = Self.share(of: scenario.targetEntries, part: dayOffset, parts: scenario.days)
            let dayDirectory = "receipts/\(day)"
            try ReceiptFileWriter.createDirectory(directory + "/" + dayDirectory)
            var dayEntries = 0
            var lastTime = dayStart
            for part in 0..<scenario.filesPerDay {
                let fileQuota = Self.share(of: dayQuota, part: part, parts: scenario.filesPerDay)
                let relativePath = "\(dayDirectory)/part-\(Self.fourDigits(part + 1)).\(fileExtension)"
                let file = try ReceiptFileWriter(path: directory + "/" + relativePath, compress: compress)
                var fileEntries = 0
                while fileEntries < fileQuota {
                    // Time advances with the day's progress toward its quota, so lines are in recorded order.
                    let progress = (dayLength - 1) * Int64(dayEntries) / Int64(max(dayQuota, 1))
                    let spread = dayStart + progress + flowRNG.nextInt64(in: 0...60_000)
                    let now = min(dayStart + dayLength - 1, max(spread, lastTime + flowRNG.nextInt64(in: 1...1500)))
                    lastTime = now
                    let index = simulator.pickAccount()
                    let isBad = flowRNG.chance(scenario.badRecordRate)
                    let plan = simulator.plan(for: &accounts[index], at: now)
                    let isBare = awaitsBareResponse || flowRNG.chance(0.03)
                    if isBare { awaitsBareResponse = false }
                    let corruption =
                        isBad
                        ? Self.pickCorruption(
                            plan, account: accounts[index], isBare: isBare, used: ledger, rng: &flowRNG)
                        : nil
                    writer.write(
                        account: accounts[index], plan: plan, recordedAt: now, isBare: isBare, corruption: corruption,
                        rng: &formatRNG)
                    try file.append(writer.json.bytes)
                    if writer.containsFullUsername { accounts[index].hasWrittenUsername = true }
                    if let corruption {
                        ledger.noteBadRecord(corruption)
                    } else {
                        let count = ledger.noteGoodRecord(
                            plan: plan, account: accounts[index], isBare: isBare, entries: writer.entries)
                        fileEntries += count
                        dayEntries += count
                    }
                }
                try file.close()
                ledger.finishFile(path: relativePath)
            }
        }

        let usernames = accounts.filter { $0.identity == .username && $0.hasWrittenUsername }.map(\.username)
        let manifest = ledger.manifest(scenario: scenario, catalogPath: catalogPath, rawUsernames: usernames)
        try ReceiptFileWriter.writeFile(directory + "/manifest.json", bytes: manifest.jsonBytes())
        return manifest
    }

    /// Chooses how to break a record: the least used so far of the ways that apply to it, so even a small data
    /// set has every kind.
    private static func pickCorruption(
        _ plan: RecordPlan, account: SimulatedAccount, isBare: Bool, used ledger: ManifestLedger,
        rng: inout SeededGenerator
    ) -> BadRecordReason {
        var reasons: [BadRecordReason] = [.invalidJSON, .truncated]
        if !isBare { reasons.append(.missingResponse) }
        if plan.hasReceipt { reasons.append(.wrongType) }
        if ReceiptRecordWriter.listsEntries(plan, account: account) { reasons.append(.invalidDate) }
        let fewest = reasons.map { ledger.badRecords(for: $0) }.min() ?? 0
        let candidates = reasons.filter { ledger.badRecords(for: $0) == fewest }
        return candidates[rng.nextInt(below: candidates.count)]
    }

    /// Part `part` of `total` split into `parts` near-equal integer shares that add up to `total`.
    static func share(of total: Int, part: Int, parts: Int) -> Int {
        total * (part + 1) / parts - total * part / parts
    }

    private static func fourDigits(_ value: Int) -> String {
        let text = String(value)
        return text.count >= 4 ? text : String(repeating: "0", count: 4 - text.count) + text
    }
}
