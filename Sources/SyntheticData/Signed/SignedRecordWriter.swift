internal import Foundation

/// Writes StoreKit 2 data signed by the generator's own chain (`SigningChain`): transactions, renewal infos, app
/// transactions and V2 notifications in every shape docs/decisions.md ("Signed data") lists, with one planted
/// record per verification failure and the traps no rule may flag; the root to trust as `test-root.der`, the known
/// answer as `storekit2-manifest.json`.
///
/// Files (JSON Lines, gzip when compressed, beside the legacy receipts so `ingest receipts <out>/receipts` reads
/// them all): `receipts/storekit2/transactions.jsonl[.gz]` (bare JWS lines, JSON strings and envelopes),
/// `notifications.jsonl[.gz]` (bare V2 bodies), `server-api.jsonl[.gz]` (Server API responses, one per line) and
/// `planted.jsonl[.gz]` (the failures). Each file's lines are in time order.
package struct SignedRecordWriter: Sendable {
    /// The signed-data folder, relative to the output directory.
    package static let directory = "receipts/storekit2"
    /// The root certificate (DER) that verifies every genuine record, relative to the output directory.
    package static let rootCertificateFile = "test-root.der"
    /// The known answer, relative to the output directory.
    package static let manifestFile = "storekit2-manifest.json"
    /// The files, in the order written.
    static let parts = ["transactions", "notifications", "server-api", "planted"]

    /// What to generate.
    package let scenario: StoreKit2Scenario

    /// A writer for `scenario`.
    package init(scenario: StoreKit2Scenario = StoreKit2Scenario()) {
        self.scenario = scenario
    }

    /// Writes the signed files, the root and the manifest into `directory`; returns the manifest.
    package func write(to directory: String, compress: Bool) throws -> SignedManifest {
        if let problem = scenario.problem { throw SyntheticDataError.invalidScenario(problem) }
        let chain = try SigningChain(
            seed: scenario.seed, start: scenario.startDay.epochDay * AppleTime.millisecondsPerDay)
        var plan = SignedDataPlan(scenario: scenario, catalog: .standard, chain: chain)
        try plan.simulateAccounts(count: scenario.accounts)
        // Of the simulated accounts' notifications only: a trap's deliveries are exactly those it names.
        plan.notificationHistory()
        try plan.plantTraps(firstAccountIndex: scenario.accounts)
        try plan.plantFailures(firstAccountIndex: scenario.accounts + 10)

        try ReceiptFileWriter.createDirectory(directory + "/" + Self.directory)
        try ReceiptFileWriter.writeFile(directory + "/" + Self.rootCertificateFile, bytes: chain.rootDER)
        let fileExtension = compress ? "jsonl.gz" : "jsonl"
        var files: [String] = []
        var records: [SignedManifest.Record] = []
        var entries: [SignedManifest.Entry] = []
        /// Where each of the plan's lines went.
        var placeOfLine = [(file: String, line: Int)](repeating: ("", 0), count: plan.lines.count)
        for part in Self.parts {
            let indexes = plan.lines.indices.filter { plan.lines[$0].part == part }
                .sorted { (plan.lines[$0].time, $0) < (plan.lines[$1].time, $1) }
            guard !indexes.isEmpty else { continue }
            let path = "\(Self.directory)/\(part).\(fileExtension)"
            files.append(path)
            let file = try ReceiptFileWriter(path: directory + "/" + path, compress: compress)
            for (offset, index) in indexes.enumerated() {
                let line = plan.lines[index]
                let number = offset + 1
                placeOfLine[index] = (path, number)
                records.append(SignedManifest.Record(file: path, line: number, shape: line.shape))
                var bytes: [UInt8]
                if let raw = line.rawText {
                    bytes = Array(raw.utf8)
                } else if line.shape == "jws-line", case .jws(let token) = line.body {
                    bytes = Array(token.text.utf8)
                } else {
                    bytes = line.body.bytes
                }
                bytes.append(UInt8(ascii: "\n"))
                try file.append(bytes)
                for (pointer, token) in line.body.tokens() {
                    entries.append(
                        SignedManifest.Entry(file: path, line: number, pointer: pointer, facts: token.facts))
                }
            }
            try file.close()
        }

        let planted = plan.planted.map { record in
            let line = plan.lines[record.line]
            let token = line.body.tokens().first?.token.facts
            return SignedManifest.Planted(
                outcome: record.outcome, description: record.description, file: placeOfLine[record.line].file,
                line: placeOfLine[record.line].line, pointer: line.body.tokens().first?.pointer ?? "",
                transactionID: token?.transactionID,
                environment: token?.environment.isEmpty == false
                    ? token?.environment : nil,
                severity: record.severity)
        }
        var traps = plan.traps.map { trap in
            SignedManifest.Trap(
                trap: trap.trap, description: trap.description, transactionIDs: trap.transactionIDs,
                records: trap.lines.map {
                    SignedManifest.Record(
                        file: placeOfLine[$0].file, line: placeOfLine[$0].line, shape: plan.lines[$0].shape)
                })
        }
        // Every record the retired leaf signed, found where it landed.
        let retired = entries.filter { $0.signer == chain.retired.name && $0.outcome == "verified" }
        let retiredPlaces = Set(retired.map { "\($0.file)\n\($0.line)" })
        traps.append(
            SignedManifest.Trap(
                trap: "leaf-expired-since",
                description: "genuine records signed by a leaf that has expired since (\(chain.retired.name)), "
                    + "valid at their signedDate: verified",
                transactionIDs: Array(Set(retired.compactMap(\.transactionID))).sorted(),
                records: records.filter { retiredPlaces.contains("\($0.file)\n\($0.line)") }))

        let verified = Set(
            entries.filter { $0.outcome == "verified" && $0.environment == "Production" }.compactMap(\.transactionID))
        let manifest = SignedManifest(
            scenario: scenario, rootCertificate: Self.rootCertificateFile, files: files, records: records,
            entries: entries, planted: planted, traps: traps, verifiedTransactions: verified.count)
        try ReceiptFileWriter.writeManifest(directory + "/" + Self.manifestFile, manifest)
        return manifest
    }
}
