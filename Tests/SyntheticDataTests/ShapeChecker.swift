import Foundation

@testable import SyntheticData

/// Checks one good line against docs/inputs.md ("Recorded receipts") and the catalog; returns what is wrong.
struct ShapeChecker {
    let catalog: SyntheticCatalog

    private static let envelopeKeys: Set<String> = [
        "recorded_at", "application_username", "application_username_hash", "app_account_token", "store_account",
        "receipt_data", "response",
    ]
    private static let appReceiptKeys: Set<String> = [
        "receipt_type", "adam_id", "app_item_id", "bundle_id", "application_version", "download_id",
        "version_external_identifier", "receipt_creation_date", "receipt_creation_date_ms",
        "receipt_creation_date_pst", "request_date", "request_date_ms", "request_date_pst", "original_purchase_date",
        "original_purchase_date_ms", "original_purchase_date_pst", "original_application_version", "in_app",
    ]
    private static let legacyKeys: Set<String> = [
        "bid", "bvrs", "app_item_id", "item_id", "product_id", "transaction_id", "original_transaction_id", "quantity",
        "purchase_date", "purchase_date_ms", "purchase_date_pst", "original_purchase_date", "original_purchase_date_ms",
        "original_purchase_date_pst", "unique_identifier", "unique_vendor_identifier", "version_external_identifier",
    ]
    private static let entryKeys: Set<String> = [
        "quantity", "product_id", "transaction_id", "original_transaction_id", "purchase_date", "purchase_date_ms",
        "purchase_date_pst", "original_purchase_date", "original_purchase_date_ms", "original_purchase_date_pst",
        "is_trial_period",
    ]

    func problems(in line: GeneratedDataReader.GoodLine) -> [String] {
        var problems: [String] = []
        let envelope = line.envelope
        if !line.isBare {
            let unknown = Set(envelope.keys).subtracting(Self.envelopeKeys)
            if !unknown.isEmpty { problems.append("unknown envelope keys \(unknown)") }
            if !matches(envelope["recorded_at"], #"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$"#) {
                problems.append("recorded_at \(String(describing: envelope["recorded_at"]))")
            }
            if let hash = envelope["application_username_hash"], !matches(hash, #"^[0-9a-f]{8}(-[0-9a-f]{8}){7}$"#) {
                problems.append("hash \(hash)")
            }
            if let token = envelope["app_account_token"],
                !matches(token, #"^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$"#)
            {
                problems.append("token \(token)")
            }
            if let data = envelope["receipt_data"], !matches(data, #"^[A-Za-z0-9+/]+$"#) {
                problems.append("receipt_data is not base64")
            }
        }
        let response = line.response
        guard let status = GeneratedDataReader.integer(response["status"]) else { return ["no status"] }
        guard status == 0 else {
            if response["receipt"] != nil { problems.append("status \(status) with a receipt") }
            return problems
        }
        guard let receipt = response["receipt"] as? [String: Any] else { return problems + ["status 0, no receipt"] }
        if let inApp = receipt["in_app"] as? [[String: Any]] {
            problems += appReceiptProblems(receipt, inApp: inApp, response: response)
        } else {
            problems += legacyProblems(receipt, response: response)
        }
        return problems
    }

    private func appReceiptProblems(
        _ receipt: [String: Any], inApp: [[String: Any]], response: [String: Any]
    ) -> [String] {
        var problems: [String] = []
        let missing = Self.appReceiptKeys.subtracting(receipt.keys)
        if !missing.isEmpty { problems.append("app receipt lacks \(missing)") }
        let environment = response["environment"] as? String
        let bundle = receipt["bundle_id"] as? String ?? ""
        guard let app = catalog.apps.firstIndex(where: { $0.bundleID == bundle }) else {
            return problems + ["unknown bundle \(bundle)"]
        }
        if environment == "Sandbox" {
            if receipt["receipt_type"] as? String != "ProductionSandbox" { problems.append("sandbox receipt_type") }
            if GeneratedDataReader.integer(receipt["adam_id"]) != 0 { problems.append("sandbox adam_id") }
            if receipt["original_purchase_date"] as? String != "2013-08-01 07:00:00 Etc/GMT" {
                problems.append("sandbox original_purchase_date")
            }
        } else if environment == "Production" {
            if receipt["receipt_type"] as? String != "Production" { problems.append("receipt_type") }
            if GeneratedDataReader.integer(receipt["adam_id"]) != Int64(catalog.apps[app].appleID) {
                problems.append("adam_id")
            }
        } else {
            problems.append("environment \(environment ?? "missing")")
        }
        if inApp.isEmpty { problems.append("empty in_app") }
        let latest = response["latest_receipt_info"] as? [[String: Any]]
        if latest != nil && (response["pending_renewal_info"] as? [[String: Any]])?.isEmpty != false {
            problems.append("latest_receipt_info without pending_renewal_info")
        }
        if latest != nil && !(response["latest_receipt"] is String) { problems.append("no latest_receipt") }
        for entry in inApp + (latest ?? []) {
            problems += entryProblems(entry, app: app, modern: catalog.apps[app].hasModernFields)
        }
        return problems
    }

    private func entryProblems(_ entry: [String: Any], app: Int, modern: Bool) -> [String] {
        var problems: [String] = []
        let missing = Self.entryKeys.subtracting(entry.keys)
        if !missing.isEmpty { problems.append("entry lacks \(missing)") }
        let productID = entry["product_id"] as? String ?? ""
        guard let product = catalog.products.first(where: { $0.productID == productID }) else {
            return problems + ["unknown product \(productID)"]
        }
        if product.appIndex != app { problems.append("\(productID) sold in another app") }
        for key in ["transaction_id", "original_transaction_id"] where !isTransactionID(entry[key]) {
            problems.append("\(key) \(String(describing: entry[key]))")
        }
        let isRenewable = product.kind == .autoRenewable
        if isRenewable != (entry["expires_date"] != nil) { problems.append("expires_date on \(product.kind)") }
        if isRenewable != (entry["web_order_line_item_id"] != nil) { problems.append("web order on \(product.kind)") }
        if GeneratedDataReader.flag(entry["is_upgraded"]) {
            if entry["cancellation_date"] == nil { problems.append("upgrade without cancellation_date") }
            if entry["cancellation_reason"] != nil { problems.append("upgrade with cancellation_reason") }
        } else if entry["cancellation_date"] != nil {
            let reason = GeneratedDataReader.integer(entry["cancellation_reason"])
            if reason != 0 && reason != 1 { problems.append("refund reason \(String(describing: reason))") }
        }
        if modern {
            let ownership = entry["in_app_ownership_type"] as? String
            if ownership != "PURCHASED" && ownership != "FAMILY_SHARED" {
                problems.append("ownership \(ownership ?? "-")")
            }
        } else if entry["in_app_ownership_type"] != nil {
            problems.append("ownership type in a pre-2020-style app")
        }
        return problems
    }

    private func legacyProblems(_ receipt: [String: Any], response: [String: Any]) -> [String] {
        var problems: [String] = []
        let missing = Self.legacyKeys.subtracting(receipt.keys)
        if !missing.isEmpty { problems.append("iOS 6 receipt lacks \(missing)") }
        if response["environment"] != nil { problems.append("iOS 6 response with environment") }
        let bundle = receipt["bid"] as? String ?? ""
        let productID = receipt["product_id"] as? String ?? ""
        guard let app = catalog.apps.firstIndex(where: { $0.bundleID == bundle }),
            let product = catalog.products.first(where: { $0.productID == productID })
        else { return problems + ["unknown bid/product \(bundle) \(productID)"] }
        if product.appIndex != app || product.kind != .consumable { problems.append("iOS 6 \(productID)") }
        if !isTransactionID(receipt["transaction_id"])
            || GeneratedDataReader.decimal(receipt["transaction_id"])
                != GeneratedDataReader.decimal(receipt["original_transaction_id"])
        {
            problems.append("iOS 6 transaction id")
        }
        if !matches(receipt["unique_identifier"], #"^[0-9a-f]{40}$"#) { problems.append("unique_identifier") }
        return problems
    }

    /// 15 or 16 decimal digits, as a string or (from re-encoding recorders) a number.
    private func isTransactionID(_ value: Any?) -> Bool {
        guard let text = GeneratedDataReader.decimal(value) else { return false }
        return (15...16).contains(text.count)
    }

    private func matches(_ value: Any?, _ pattern: String) -> Bool {
        guard let text = value as? String else { return false }
        return text.range(of: pattern, options: .regularExpression) != nil
    }
}
