/// `manifest.json`, written by hand so its bytes are stable (sorted keys, fixed layout); it decodes with
/// `JSONDecoder` to an equal `GenerationManifest`.
extension GenerationManifest {
    /// The manifest as indented JSON, keys in a fixed order, one file or username per line.
    func jsonBytes() -> [UInt8] {
        var json = JSONByteWriter(capacity: 64 * 1024)
        json.beginObject()
        json.indentedKey("format_version")
        json.number(Int64(formatVersion))
        json.indentedKey("scenario")
        writeScenario(&json)
        json.indentedKey("catalog_path")
        json.string(catalogPath)
        json.indentedArray("files", files) { json, file in
            json.beginObject()
            json.key("path")
            json.string(file.path)
            json.integers([
                ("records", file.records), ("good_records", file.goodRecords),
                ("transaction_entries", file.transactionEntries),
            ])
            json.endObject()
        }
        let counts: [(StaticString, Count)] = [
            ("records", .total(records)), ("good_records", .total(goodRecords)), ("bad_records", .total(badRecords)),
            ("bad_records_by_reason", .byKey(badRecordsByReason)), ("transaction_entries", .total(transactionEntries)),
            ("distinct_transactions", .total(distinctTransactions)),
            ("distinct_transactions_by_environment", .byKey(distinctTransactionsByEnvironment)),
            ("distinct_transactions_with", .byKey(distinctTransactionsWith)),
            ("receipts_by_status", .byKey(receiptsByStatus)), ("receipts_by_shape", .byKey(receiptsByShape)),
            ("good_records_by_account_field", .byKey(goodRecordsByAccountField)),
            ("sandbox_receipts", .total(sandboxReceipts)),
        ]
        for (name, count) in counts {
            json.indentedKey(name)
            switch count {
            case .total(let value): json.number(Int64(value))
            case .byKey(let values): writeCounts(values, to: &json)
            }
        }
        json.indentedArray("raw_usernames", rawUsernames) { json, name in json.string(name) }
        json.raw("\n")
        json.endObject()
        json.raw("\n")
        return json.bytes
    }

    /// One of the manifest's counts: a single number, or numbers by key.
    private enum Count {
        case total(Int)
        case byKey([String: Int])
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
        json.integers([
            ("days", scenario.days), ("accounts", scenario.accounts), ("target_entries", scenario.targetEntries),
        ])
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
