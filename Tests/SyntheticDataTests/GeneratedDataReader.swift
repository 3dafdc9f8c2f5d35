import AppStoreFormats
import Foundation

/// Reads generated receipt files back with `JSONSerialization` — independently of the generator's own code — and
/// tallies what an ingest would find, so tests can compare it with the manifest.
struct GeneratedDataReader {
    /// A transaction as one entry shows it.
    struct EntryView {
        var environment: String
        var transactionID: String
        var originalTransactionID: String
        var productID: String
        var purchaseDate: String
        var webOrderLineItemID: String?
        var isUpgraded: Bool
        var isRefunded: Bool
        var isFamilyShared: Bool
        var isTrialPeriod: Bool
        var object: [String: Any]
    }

    /// A good line, parsed.
    struct GoodLine {
        var envelope: [String: Any]
        var response: [String: Any]
        var isBare: Bool
        var entries: [EntryView]
    }

    var records = 0
    var goodRecords = 0
    var badByReason: [String: Int] = [:]
    var entries = 0
    var distinct: [String: Set<String>] = [:]
    var distinctWith: [String: Set<String>] = [:]
    var statuses: [String: Int] = [:]
    var shapes: [String: Int] = [:]
    var accountFields: [String: Int] = [:]
    var sandboxReceipts = 0
    /// Raw names in every line that parses (good or bad).
    var usernames: Set<String> = []
    var goodLines: [GoodLine] = []
    var recordsPerFile: [String: Int] = [:]
    private let dates = AppleDateParser()

    /// Reads every file the manifest lists under `directory`.
    init(directory: String, files: [String]) throws {
        for file in files {
            let data = try Data(contentsOf: URL(fileURLWithPath: directory + "/" + file))
            var lines = data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
            if lines.last?.isEmpty == true { lines.removeLast() }
            recordsPerFile[file] = lines.count
            for line in lines {
                read(Data(line))
            }
        }
    }

    private mutating func read(_ line: Data) {
        records += 1
        guard let parsed = try? JSONSerialization.jsonObject(with: line) else {
            bad(Self.endsInsideValue(line) ? "truncated" : "invalid-json")
            return
        }
        guard let envelope = parsed as? [String: Any] else { return bad("wrong-type") }
        if let name = envelope["application_username"] as? String { usernames.insert(name) }
        let isBare = envelope["response"] == nil && envelope["status"] != nil
        guard let responseValue = isBare ? envelope : envelope["response"] else { return bad("missing-response") }
        guard let response = responseValue as? [String: Any], let status = Self.integer(response["status"]) else {
            return bad("wrong-type")
        }
        let environment = response["environment"] as? String ?? "Production"
        var views: [EntryView] = []
        var shape = "none"
        if let receiptValue = response["receipt"] {
            guard let receipt = receiptValue as? [String: Any] else { return bad("wrong-type") }
            if receipt["in_app"] != nil || receipt["receipt_type"] != nil {
                shape = "ios7"
                guard let inApp = receipt["in_app"] as? [Any] else { return bad("wrong-type") }
                for item in inApp {
                    guard let object = item as? [String: Any] else { return bad("wrong-type") }
                    guard let view = view(object, environment: environment) else { return bad("invalid-date") }
                    views.append(view)
                }
                for key in ["receipt_creation_date", "request_date", "original_purchase_date"]
                where date(receipt[key]) == nil {
                    return bad("invalid-date")
                }
            } else {
                shape = "ios6"
                guard let view = view(receipt, environment: environment) else { return bad("invalid-date") }
                views.append(view)
            }
        }
        if let latestValue = response["latest_receipt_info"] {
            guard let latest = latestValue as? [Any] else { return bad("wrong-type") }
            for item in latest {
                guard let object = item as? [String: Any] else { return bad("wrong-type") }
                guard let view = view(object, environment: environment) else { return bad("invalid-date") }
                views.append(view)
            }
        }

        goodRecords += 1
        entries += views.count
        statuses[String(status), default: 0] += 1
        shapes[shape, default: 0] += 1
        if environment == "Sandbox" || status == 21007 { sandboxReceipts += 1 }
        let field =
            isBare
            ? "bare"
            : ["application_username", "application_username_hash", "app_account_token"].first {
                envelope[$0] != nil
            } ?? "none"
        accountFields[field, default: 0] += 1
        for view in views {
            let key = view.environment + "|" + view.transactionID
            distinct[view.environment, default: []].insert(key)
            if view.isRefunded { distinctWith["refunded", default: []].insert(key) }
            if view.isUpgraded { distinctWith["upgraded", default: []].insert(key) }
            if view.isFamilyShared { distinctWith["family-shared", default: []].insert(key) }
            if view.isTrialPeriod { distinctWith["trial-period", default: []].insert(key) }
        }
        goodLines.append(GoodLine(envelope: envelope, response: response, isBare: isBare, entries: views))
    }

    private mutating func bad(_ reason: String) {
        badByReason[reason, default: 0] += 1
    }

    /// The entry as a transaction, or nil when its purchase date cannot be read.
    private func view(_ object: [String: Any], environment: String) -> EntryView? {
        guard let purchase = date(object["purchase_date"]), date(object["original_purchase_date"]) != nil,
            let transactionID = Self.decimal(object["transaction_id"]),
            let original = Self.decimal(object["original_transaction_id"]),
            let product = object["product_id"] as? String
        else { return nil }
        if object["expires_date"] != nil && date(object["expires_date"]) == nil { return nil }
        if object["cancellation_date"] != nil && date(object["cancellation_date"]) == nil { return nil }
        let isUpgraded = Self.flag(object["is_upgraded"])
        return EntryView(
            environment: environment,
            transactionID: transactionID,
            originalTransactionID: original,
            productID: product,
            purchaseDate: purchase,
            webOrderLineItemID: Self.decimal(object["web_order_line_item_id"]),
            isUpgraded: isUpgraded,
            isRefunded: object["cancellation_date"] != nil && !isUpgraded,
            isFamilyShared: object["in_app_ownership_type"] as? String == "FAMILY_SHARED",
            isTrialPeriod: Self.flag(object["is_trial_period"]),
            object: object
        )
    }

    // MARK: Values

    /// A JSON integer or a decimal string.
    static func integer(_ value: Any?) -> Int64? {
        if let text = value as? String { return Int64(text) }
        // (On Linux an NSNumber 0 or 1 also casts to Bool, so no Bool check here.)
        return (value as? NSNumber)?.int64Value
    }

    /// The decimal text of an id written as a string or a number.
    static func decimal(_ value: Any?) -> String? {
        integer(value).map(String.init)
    }

    static func flag(_ value: Any?) -> Bool {
        if let text = value as? String { return text == "true" }
        return value as? Bool ?? false
    }

    /// A `YYYY-MM-DD HH:MM:SS Etc/GMT` string that names a real instant, or nil.
    private func date(_ value: Any?) -> String? {
        guard let text = value as? String, dates.milliseconds(text) != nil else { return nil }
        return text
    }

    /// Whether a line that fails to parse ends inside a string or an open object or array (input cut short), as
    /// opposed to a syntax error with every bracket closed: told apart as ingest's record splitter does.
    static func endsInsideValue(_ line: Data) -> Bool {
        var structure = JSONStructure()
        for byte in line { structure.read(byte) }
        return structure.isInsideValue
    }
}

/// Parses Apple's date strings with Foundation, strictly (no rollover of impossible dates), as an oracle for the
/// generator's integer calendar code.
final class AppleDateParser {
    private let utc = AppleDateParser.formatter(zone: "UTC")
    private let pacificZone = AppleDateParser.formatter(zone: "America/Los_Angeles")

    private static func formatter(zone: String) -> DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: zone)
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss"
        formatter.isLenient = false
        return formatter
    }

    // Data sets repeat the same instants many times; DateFormatter is slow, so remember answers.
    private var parsed: [String: Int64?] = [:]
    private var pacificTexts: [Int64: String] = [:]

    /// Epoch milliseconds of `YYYY-MM-DD HH:MM:SS Etc/GMT`, or nil when it is not a real date.
    func milliseconds(_ text: String) -> Int64? {
        if let known = parsed[text] { return known }
        var result: Int64?
        if text.hasSuffix(" Etc/GMT"), text.count == 27 {
            let stamp = String(text.prefix(19))
            if let date = utc.date(from: stamp), utc.string(from: date) == stamp {
                result = Int64(date.timeIntervalSince1970) * 1000
            }
        }
        parsed[text] = result
        return result
    }

    /// The `_pst` text Foundation's tz database gives for an instant.
    func pacific(_ milliseconds: Int64) -> String {
        if let known = pacificTexts[milliseconds] { return known }
        let text =
            pacificZone.string(from: Date(timeIntervalSince1970: Double(milliseconds) / 1000))
            + " America/Los_Angeles"
        pacificTexts[milliseconds] = text
        return text
    }

    /// The `Etc/GMT` text for an instant (seconds truncated).
    func gmt(_ milliseconds: Int64) -> String {
        let seconds = milliseconds >= 0 ? milliseconds / 1000 : (milliseconds - 999) / 1000
        return utc.string(from: Date(timeIntervalSince1970: Double(seconds))) + " Etc/GMT"
    }
}
