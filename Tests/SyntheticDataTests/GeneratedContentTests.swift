import Foundation
import Testing

@testable import SyntheticData

/// Content-level behaviour, checked by re-reading the output with `JSONSerialization`.
struct GeneratedContentTests {
    /// Busier than `.small`, starting in late October to cross the November fall-back.
    static let busy = ReceiptScenario(
        seed: 11, startDay: CalendarDay(year: 2014, month: 10, day: 28) ?? .defaultStart, days: 10, accounts: 300,
        targetEntries: 6_000, legacyReceiptShare: 0.2, subscriptionShare: 0.6, refundRate: 0.1,
        familySharedRate: 0.05, sandboxLeakRate: 0.03, errorStatusRate: 0.05, badRecordRate: 0.05, filesPerDay: 2
    )

    /// Generates `scenario` into a temporary directory and reads it back.
    private func generate(_ scenario: ReceiptScenario) throws -> (GenerationManifest, GeneratedDataReader, Data) {
        let directory = try TemporaryDirectory()
        let manifest = try directory.writeReceipts(scenario)
        let reader = try GeneratedDataReader(directory: directory.path, files: manifest.files.map(\.path))
        var all = Data()
        for file in manifest.files { all += try directory.contents(of: file.path) }
        return (manifest, reader, all)
    }

    @Test(arguments: [ReceiptScenario.small, busy])
    func manifestCountsEqualAnIndependentReRead(scenario: ReceiptScenario) throws {
        let (manifest, reader, _) = try generate(scenario)
        #expect(reader.records == manifest.records)
        #expect(reader.goodRecords == manifest.goodRecords)
        for reason in BadRecordReason.allCases {
            #expect(reader.badByReason[reason.rawValue, default: 0] == manifest.badRecordsByReason[reason.rawValue])
        }
        #expect(reader.entries == manifest.transactionEntries)
        #expect(reader.entries >= scenario.targetEntries)
        #expect(reader.distinct.values.reduce(0) { $0 + $1.count } == manifest.distinctTransactions)
        for (environment, count) in manifest.distinctTransactionsByEnvironment {
            #expect(reader.distinct[environment, default: []].count == count, "\(environment)")
        }
        for (feature, count) in manifest.distinctTransactionsWith {
            #expect(reader.distinctWith[feature, default: []].count == count, "\(feature)")
        }
        #expect(reader.statuses == manifest.receiptsByStatus)
        for (shape, count) in manifest.receiptsByShape {
            #expect(reader.shapes[shape, default: 0] == count, "\(shape)")
        }
        for (field, count) in manifest.goodRecordsByAccountField {
            #expect(reader.accountFields[field, default: 0] == count, "\(field)")
        }
        #expect(reader.sandboxReceipts == manifest.sandboxReceipts)
        for file in manifest.files {
            #expect(reader.recordsPerFile[file.path] == file.records)
        }
    }

    @Test(arguments: [ReceiptScenario.small, busy])
    func everyGoodLineHasTheDocumentedShape(scenario: ReceiptScenario) throws {
        let (_, reader, _) = try generate(scenario)
        let catalog = SyntheticCatalog.standard
        var problems: [String] = []
        for line in reader.goodLines {
            problems += ShapeChecker(catalog: catalog).problems(in: line)
            if problems.count > 20 { break }
        }
        #expect(problems.isEmpty, "\(problems.prefix(20).joined(separator: "\n"))")
    }

    @Test func smallPresetShowsEveryFeature() throws {
        let (manifest, reader, _) = try generate(.small)
        let entries = reader.goodLines.flatMap(\.entries)
        #expect(entries.contains { $0.isFamilyShared }, "family sharing")
        #expect(entries.contains { $0.isUpgraded && $0.object["cancellation_date"] != nil }, "upgrade")
        #expect(entries.contains { $0.isRefunded && $0.object["cancellation_reason"] != nil }, "refund")
        #expect(entries.contains { $0.isTrialPeriod }, "trial")
        #expect(reader.goodLines.contains { $0.response["environment"] as? String == "Sandbox" }, "sandbox")
        #expect(reader.statuses["21007", default: 0] > 0, "21007")
        #expect(reader.statuses["21003", default: 0] > 0, "21003")
        #expect(reader.statuses["21002", default: 0] > 0, "21002")
        #expect(reader.shapes["ios6", default: 0] > 0 && reader.shapes["ios7", default: 0] > 0)
        #expect(reader.goodLines.contains { $0.response["latest_receipt_info"] != nil }, "subscriber")
        #expect(reader.goodLines.contains { $0.isBare }, "bare response")
        for field in ["application_username", "application_username_hash", "app_account_token", "store_account"] {
            #expect(reader.goodLines.contains { $0.envelope[field] != nil }, "\(field)")
        }
        for reason in BadRecordReason.allCases {
            #expect(manifest.badRecordsByReason[reason.rawValue, default: 0] > 0, "\(reason)")
        }
    }

    @Test(arguments: [ReceiptScenario.small, busy])
    func renewalsShareOriginalTransactionAndHaveDistinctWebOrderLineItems(scenario: ReceiptScenario) throws {
        let (_, reader, _) = try generate(scenario)
        let catalog = SyntheticCatalog.standard
        let renewable = Set(catalog.products.filter { $0.kind == .autoRenewable }.map(\.productID))
        // (environment, original) -> transaction id -> web order line item id
        var periods: [String: [String: String]] = [:]
        for entry in reader.goodLines.flatMap(\.entries) where renewable.contains(entry.productID) {
            let webOrder = try #require(entry.webOrderLineItemID, "period without web_order_line_item_id")
            let group = entry.environment + "|" + entry.originalTransactionID
            if let known = periods[group]?[entry.transactionID] {
                #expect(known == webOrder, "one period, two web order line items")
            }
            periods[group, default: [:]][entry.transactionID] = webOrder
        }
        let renewed = periods.values.filter { $0.count > 1 }
        #expect(!renewed.isEmpty, "no subscription renewed")
        for group in periods.values {
            #expect(Set(group.values).count == group.count, "two periods share a web_order_line_item_id")
        }
    }

    @Test func restoresKeepTheOriginalTransactionUnderANewTransactionID() throws {
        let (_, reader, _) = try generate(Self.busy)
        let catalog = SyntheticCatalog.standard
        let nonConsumables = Set(catalog.products.filter { $0.kind == .nonConsumable }.map(\.productID))
        var byOriginal: [String: [GeneratedDataReader.EntryView]] = [:]
        for entry in reader.goodLines.flatMap(\.entries) where nonConsumables.contains(entry.productID) {
            byOriginal[entry.originalTransactionID, default: []].append(entry)
        }
        let restored = byOriginal.filter { Set($0.value.map(\.transactionID)).count > 1 }
        #expect(!restored.isEmpty)
        for (original, entries) in restored {
            // One purchase: one product and one original purchase date, whatever the transaction id.
            #expect(Set(entries.map(\.productID)).count == 1, "\(original)")
            #expect(Set(entries.map { $0.object["original_purchase_date"] as? String ?? "" }).count == 1)
            for entry in entries where entry.transactionID != original {
                #expect(entry.purchaseDate != entry.object["original_purchase_date"] as? String, "restore at purchase")
            }
        }
    }

    @Test(arguments: [ReceiptScenario.small, busy])
    func repeatedTransactionsNeverConflict(scenario: ReceiptScenario) throws {
        let (_, reader, _) = try generate(scenario)
        var seen: [String: String] = [:]
        var repeats = 0
        for entry in reader.goodLines.flatMap(\.entries) {
            let key = entry.environment + "|" + entry.transactionID
            let identity = entry.productID + "|" + entry.purchaseDate + "|" + entry.originalTransactionID
            if let known = seen[key] {
                repeats += 1
                #expect(known == identity, "\(key) changed")
            }
            seen[key] = identity
        }
        #expect(repeats > 0, "no transaction re-appeared in a later receipt")
    }

    @Test(arguments: [ReceiptScenario.small, busy])
    func dateFormsAgreeAndPacificTimeIsRightAcrossDaylightSavingChanges(scenario: ReceiptScenario) throws {
        let (_, reader, _) = try generate(scenario)
        let dates = AppleDateParser()
        var problems: [String] = []
        var offsets: Set<String> = []
        func check(_ object: [String: Any]) {
            for (key, value) in object {
                if let nested = value as? [String: Any] { check(nested) }
                if let array = value as? [Any] {
                    for case let nested as [String: Any] in array { check(nested) }
                }
                guard let text = value as? String, text.hasSuffix("Etc/GMT"), !key.hasSuffix("_formatted") else {
                    continue
                }
                guard let seconds = dates.milliseconds(text) else {
                    problems.append("\(key): \(text) is not a date")
                    continue
                }
                guard let milliseconds = GeneratedDataReader.integer(object[key + "_ms"]) else {
                    problems.append("\(key) has no _ms")
                    continue
                }
                if milliseconds / 1000 * 1000 != seconds { problems.append("\(key): \(text) vs \(milliseconds)") }
                let pacific = object[key + "_pst"] as? String
                if pacific != dates.pacific(milliseconds) {
                    problems.append("\(key)_pst: \(pacific ?? "missing") vs \(dates.pacific(milliseconds))")
                }
                let local = Int(text.dropFirst(11).prefix(2)) ?? 0
                let pacificHour = Int((pacific ?? "").dropFirst(11).prefix(2)) ?? 0
                offsets.insert(String((local - pacificHour + 24) % 24))
            }
        }
        for line in reader.goodLines {
            check(line.envelope)
        }
        #expect(problems.isEmpty, "\(problems.prefix(10).joined(separator: "\n"))")
        #expect(offsets == ["7", "8"], "data should cover both standard and daylight time")
    }

    @Test(arguments: [ReceiptScenario.small, busy])
    func manifestListsExactlyTheRawUsernamesInTheOutput(scenario: ReceiptScenario) throws {
        let (manifest, reader, bytes) = try generate(scenario)
        #expect(!manifest.rawUsernames.isEmpty)
        #expect(Set(manifest.rawUsernames).count == manifest.rawUsernames.count)
        #expect(reader.usernames.isSubset(of: Set(manifest.rawUsernames)))
        for name in manifest.rawUsernames {
            var writer = JSONByteWriter()
            writer.string(name)
            #expect(bytes.range(of: Data(writer.bytes)) != nil, "\(name) is not in the output")
        }
        #expect(manifest.rawUsernames.contains { $0.unicodeScalars.contains { !$0.isASCII } }, "a non-ASCII name")
    }
}
