/// `manifest.json`, written by hand so its bytes are stable (sorted keys, fixed layout); it decodes with
/// `JSONDecoder` to an equal `GenerationManifest`.
extension GenerationManifest {
    /// The manifest as indented JSON, keys in a fixed order, one file or username per line.
    func jsonBytes() -> [UInt8] {
        var json = JSONByteWriter(capacity: 64 * 1024)
        json.beginObject()
        json.lineBreak("\n  ")
        json.key("format_version")
        json.number(Int64(formatVersion))
        json.lineBreak("\n  ")
        json.key("scenario")
        writeScenario(&json)
        json.lineBreak("\n  ")
        json.key("catalog_path")
        json.string(catalogPath)
        json.lineBreak("\n  ")
        json.key("files")
        json.beginArray()
        for file in files {
            json.lineBreak("\n    ")
            json.element()
            json.beginObject()
            json.key("path")
            json.string(file.path)
            json.key("records")
            json.number(Int64(file.records))
            json.key("good_records")
            json.number(Int64(file.goodRecords))
            json.key("transaction_entries")
            json.number(Int64(file.transactionEntries))
            json.endObject()
        }
        json.raw(files.isEmpty ? "" : "\n  ")
        json.endArray()
        let counts: [(StaticString, Int)] = [
            ("records", records), ("good_records", goodRecords), ("bad_records", badRecords),
        ]
        for (name, value) in counts {
            json.lineBreak("\n  ")
            json.key(name)
            json.number(Int64(value))
        }
        json.lineBreak("\n  ")
        json.key("bad_records_by_reason")
        writeCounts(badRecordsByReason, to: &json)
        json.lineBreak("\n  ")
        json.key("transaction_entries")
        json.number(Int64(transactionEntries))
        json.lineBreak("\n  ")
        json.key("distinct_transactions")
        json.number(Int64(distinctTransactions))
        json.lineBreak("\n  ")
        json.key("distinct_transactions_by_environment")
        writeCounts(distinctTransactionsByEnvironment, to: &json)
        json.lineBreak("\n  ")
        json.key("distinct_transactions_with")
        writeCounts(distinctTransactionsWith, to: &json)
        json.lineBreak("\n  ")
        json.key("receipts_by_status")
        writeCounts(receiptsByStatus, to: &json)
        json.lineBreak("\n  ")
        json.key("receipts_by_shape")
        writeCounts(receiptsByShape, to: &json)
        json.lineBreak("\n  ")
        json.key("good_records_by_account_field")
        writeCounts(goodRecordsByAccountField, to: &json)
        json.lineBreak("\n  ")
        json.key("sandbox_receipts")
        json.number(Int64(sandboxReceipts))
        json.lineBreak("\n  ")
        json.key("raw_usernames")
        json.beginArray()
        for name in rawUsernames {
            json.lineBreak("\n    ")
            json.element()
            json.string(name)
        }
        json.raw(rawUsernames.isEmpty ? "" : "\n  ")
        json.endArray()
        json.raw("\n")
        json.endObject()
        json.raw("\n")
        return json.bytes
    }

    private func writeCounts(_ counts: [String: Int], to json: inout JSONByteWriter) {
        json.beginObject()
        // Dictionary order differs from run to run; sorted keys keep the bytes stable.
        for key in counts.keys.sorted() {
            json.element()
            json.string(key)
            json.raw(":")
            json.number(Int64(counts[key, default: 0]))
        }
        json.endObject()
    }

    private func writeScenario(_ json: inout JSONByteWriter) {
        json.beginObject()
        json.key("seed")
        json.number(scenario.seed)
        json.key("start_day")
        json.string(scenario.startDay.description)
        json.key("days")
        json.number(Int64(scenario.days))
        json.key("accounts")
        json.number(Int64(scenario.accounts))
        json.key("target_entries")
        json.number(Int64(scenario.targetEntries))
        let rates: [(StaticString, Double)] = [
            ("legacy_receipt_share", scenario.legacyReceiptShare), ("subscription_share", scenario.subscriptionShare),
            ("refund_rate", scenario.refundRate), ("family_shared_rate", scenario.familySharedRate),
            ("sandbox_leak_rate", scenario.sandboxLeakRate), ("error_status_rate", scenario.errorStatusRate),
            ("bad_record_rate", scenario.badRecordRate),
        ]
        for (name, rate) in rates {
            json.key(name)
            // Swift prints the shortest text that reads back as the same Double, on every platform.
            json.raw(Array(String(describing: rate).utf8))
        }
        json.key("files_per_day")
        json.number(Int64(scenario.filesPerDay))
        json.endObject()
    }
}
