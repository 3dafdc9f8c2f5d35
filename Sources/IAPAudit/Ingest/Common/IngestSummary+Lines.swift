extension IngestSummary {
    /// What an ingest prints on stdout, for people and for `grep` in cron mail. The counts add up: records read =
    /// stored + already stored + quarantined; whole files quarantined are counted apart.
    func lines(records: String = "records") -> [String] {
        var files =
            "files: \(filesSeen) seen, \(filesIngested) ingested, \(filesAlreadyIngested) already ingested, "
            + "\(filesIgnored) ignored"
        if filesDeferred > 0 { files += ", \(filesDeferred) still being written" }
        if filesFailed > 0 { files += ", \(filesFailed) failed" }
        var lines = [
            files,
            "\(records): \(self.records) read, \(stored) stored, \(alreadyStored) already stored, "
                + "\(quarantinedRecords) quarantined",
        ]
        if quarantinedFileProblems > 0 { lines.append("whole files quarantined: \(quarantinedFileProblems)") }
        if transactionEntries > 0 { lines.append("transaction entries: \(transactionEntries)") }
        for (reason, count) in quarantinedByReason.sorted(by: { $0.key < $1.key }) {
            lines.append("  quarantined \(reason): \(count)")
        }
        if !signedOutcomes.isEmpty {
            let outcomes = signedOutcomes.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }
            lines.append(
                "signed objects: " + outcomes.joined(separator: ", ")
                    + (signedObjectsAlreadyStored > 0 ? ", \(signedObjectsAlreadyStored) already stored" : ""))
        }
        return lines
    }
}
