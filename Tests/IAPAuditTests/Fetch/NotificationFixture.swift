import AppleStandIn
import Crypto
import Foundation
import TestSupport

@testable import SyntheticData

/// A stand-in for the App Store Server API holding the notification history of `com.example.sk2`: signed by the
/// generator's chain (its root trusted through `[verification]`), with some deliveries that failed.
final class NotificationFixture {
    static let keyID = "SUBKEY7788"
    static let issuerID = "69a6de7e-1b2c-47e3-e053-5b8c7c11a4d1"
    static let bundleID = "com.example.sk2"

    let test: TestWorkspace
    let signed: SignedTestData
    let standIn: AppleStandIn
    let url: String
    let keyPath: String
    let spool: String

    init(test: TestWorkspace) throws {
        self.test = test
        signed = try SignedTestData()
        let key = P256.Signing.PrivateKey()
        keyPath = test.directory.appendingPathComponent("SubscriptionKey_\(Self.keyID).p8").path
        try AppleFixture.writeKey(key, to: keyPath)
        spool = test.directory.appendingPathComponent("spool").path
        standIn = AppleStandIn(
            connectKey: nil, serverKey: .init(keyID: Self.keyID, issuerID: Self.issuerID, publicKey: key.publicKey),
            bundleIDs: [Self.bundleID])
        url = try standIn.start()
    }

    deinit { standIn.stop() }

    /// `count` notifications, each of its own purchase, signed `spacing` seconds apart from `start` (milliseconds);
    /// those whose index `undelivered` holds were never delivered. Returns their UUIDs.
    @discardableResult
    func addNotifications(
        count: Int, from start: Int64, spacing: Int64 = 60, undelivered: Set<Int> = []
    ) throws
        -> [String]
    {
        var sent: [AppleStandIn.SentNotification] = []
        var uuids: [String] = []
        for index in 0..<count {
            let signedAt = start + Int64(index) * spacing * 1000
            let transaction = try signed.jws(
                SignedTestData.transaction("9\(start / 1000)\(index)", product: "gold", at: Self.iso(signedAt - 1000)),
                signedAt: signedAt - 500)
            let uuid = UUID().uuidString.lowercased()
            let data = SignedJSON.object([
                ("bundleId", .string(Self.bundleID)), ("appAppleId", .integer(333)),
                ("environment", .string("Production")), ("signedTransactionInfo", .string(transaction)),
            ])
            let payload = SignedJSON.object([
                ("notificationType", .string("ONE_TIME_CHARGE")), ("notificationUUID", .string(uuid)),
                ("version", .string("2.0")), ("data", data),
            ])
            let jws = try signed.jws(payload, signedAt: signedAt)
            let failed = undelivered.contains(index)
            sent.append(
                .init(
                    bundleID: Self.bundleID, signedPayload: jws, signedDate: signedAt,
                    attempts: failed
                        ? [(signedAt, "TIMED_OUT"), (signedAt + 3_600_000, "NO_RESPONSE")] : [(signedAt, "SUCCESS")]))
            uuids.append(uuid)
        }
        standIn.addNotifications(sent)
        return uuids
    }

    static func iso(_ milliseconds: Int64) -> String {
        ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: Double(milliseconds) / 1000))
    }

    /// Midnight UTC `days` days ago, in milliseconds.
    static func daysAgo(_ days: Int) -> Int64 {
        let now = Int64(Date().timeIntervalSince1970)
        return (now / 86_400 - Int64(days)) * 86_400_000
    }

    /// `YYYY-MM-DD` of `days` days ago (UTC).
    static func dayText(_ days: Int) -> String {
        String(iso(daysAgo(days)).prefix(10))
    }

    /// A configuration fetching the notification history from the stand-in.
    func configuration(extra: String = "") throws -> String {
        try test.write(
            "iap-audit-\(UUID().uuidString.prefix(8)).toml",
            """
            [database]
            url = "\(test.conninfo)"

            [verification]
            trusted_roots = ["\(signed.rootPath)"]

            [apple.server]
            issuer_id = "\(Self.issuerID)"
            key_id = "\(Self.keyID)"
            private_key_file = "\(keyPath)"
            bundle_ids = ["\(Self.bundleID)"]
            environment = "Production"
            url = "\(url)"

            [apple]
            spool = "\(spool)"
            \(extra)
            """)
    }

    /// Every page file stored, as paths relative to the spool's notifications folder.
    var pageFiles: [String] {
        let root = spool + "/notifications"
        let walker = FileManager.default.enumerator(atPath: root)
        var files: [String] = []
        while let path = walker?.nextObject() as? String {
            if path.hasSuffix(".json") || path.contains(".partial-") { files.append(path) }
        }
        return files.sorted()
    }

    /// The stand-in's notification-history requests so far.
    var historyRequests: [String] { standIn.requests.filter { $0.hasPrefix("/inApps/v1/notifications/history") } }
}
