/// The knobs of one generated data set. Every output byte is a function of these values alone.
package struct ReceiptScenario: Sendable, Equatable, Codable {
    /// Seeds the one random stream everything is drawn from.
    package var seed: UInt64
    /// The first day receipts are recorded (UTC).
    package var startDay: CalendarDay
    /// How many days are recorded; each day gets `receipts/YYYY-MM-DD/`.
    package var days: Int
    /// How many app accounts (our users) post receipts.
    package var accounts: Int
    /// Transaction entries to write in good records (every `in_app`, `latest_receipt_info` and iOS 6 `receipt`
    /// object); the output has at least this many and exceeds it by less than one receipt per file.
    package var targetEntries: Int
    /// Share of purchase receipts that are iOS 6 transaction receipts for consumables (the rest are iOS 7 app
    /// receipts); applied as the share of accounts on iOS 6 devices, so the realised share is close, not exact.
    package var legacyReceiptShare: Double
    /// Share of iOS 7 accounts (of apps that sell subscriptions) that subscribe.
    package var subscriptionShare: Double
    /// Share of refundable purchases (non-consumables, paid subscription periods) that are refunded later.
    package var refundRate: Double
    /// Chance that an iOS 7 account's receipt event is a purchase shared to it by a family organizer.
    package var familySharedRate: Double
    /// Share of receipts that are sandbox receipts leaking into production data (Sandbox environment, or 21007).
    package var sandboxLeakRate: Double
    /// Share of receipts with a non-zero error status (21002, 21003, 21010, 21005, 21009, 21100).
    package var errorStatusRate: Double
    /// Share of lines that are bad records (invalid JSON, truncated, wrong types, missing response, invalid date).
    package var badRecordRate: Double
    /// Receipt files per day (`part-0001` …), each written and closed before the next starts.
    package var filesPerDay: Int
    /// About how many base64 characters an iOS 7 receipt's `receipt_data` has; nil writes the short stand-ins
    /// (96–240 characters). Real PKCS #7 receipts are several kilobytes, most of it the certificate chain every
    /// receipt of an app repeats: so is this blob (`ReceiptRecordWriter.realSizedReceiptData`).
    package var receiptDataLength: Int?

    /// Creates a scenario; the defaults describe a week of moderate traffic.
    package init(
        seed: UInt64 = 1,
        startDay: CalendarDay = .defaultStart,
        days: Int = 7,
        accounts: Int = 1_000,
        targetEntries: Int = 50_000,
        legacyReceiptShare: Double = 0.25,
        subscriptionShare: Double = 0.3,
        refundRate: Double = 0.03,
        familySharedRate: Double = 0.02,
        sandboxLeakRate: Double = 0.01,
        errorStatusRate: Double = 0.02,
        badRecordRate: Double = 0.002,
        filesPerDay: Int = 1
    ) {
        self.seed = seed
        self.startDay = startDay
        self.days = days
        self.accounts = accounts
        self.targetEntries = targetEntries
        self.legacyReceiptShare = legacyReceiptShare
        self.subscriptionShare = subscriptionShare
        self.refundRate = refundRate
        self.familySharedRate = familySharedRate
        self.sandboxLeakRate = sandboxLeakRate
        self.errorStatusRate = errorStatusRate
        self.badRecordRate = badRecordRate
        self.filesPerDay = filesPerDay
    }

    /// The shipped example data: ten days from 2014-03-01 (across the 9 March DST change), 50 accounts, about 500
    /// entries, with rates high enough that every feature (refunds, upgrades, family sharing, sandbox, each error
    /// status and each kind of bad record) shows up.
    package static let small = ReceiptScenario(
        seed: 20_140_301,
        days: 10,
        accounts: 50,
        targetEntries: 500,
        legacyReceiptShare: 0.25,
        subscriptionShare: 0.5,
        refundRate: 0.12,
        familySharedRate: 0.1,
        sandboxLeakRate: 0.04,
        errorStatusRate: 0.06,
        badRecordRate: 0.06,
        filesPerDay: 1
    )

    /// The ingest benchmark's data set: four weeks from 2014-03-01, about 40 entries per account, a file per half
    /// million entries a day (at least one per day).
    package static func benchmark(entries: Int) -> ReceiptScenario {
        ReceiptScenario(
            seed: 7,
            days: 28,
            accounts: max(100, entries / 40),
            targetEntries: entries,
            filesPerDay: min(24, max(1, entries / 500_000))
        )
    }

    enum CodingKeys: String, CodingKey {
        case seed
        case startDay = "start_day"
        case days
        case accounts
        case targetEntries = "target_entries"
        case legacyReceiptShare = "legacy_receipt_share"
        case subscriptionShare = "subscription_share"
        case refundRate = "refund_rate"
        case familySharedRate = "family_shared_rate"
        case sandboxLeakRate = "sandbox_leak_rate"
        case errorStatusRate = "error_status_rate"
        case badRecordRate = "bad_record_rate"
        case filesPerDay = "files_per_day"
        case receiptDataLength = "receipt_data_length"
    }

    /// Why the scenario cannot be generated, or nil when it can.
    var problem: String? {
        let rates: [(String, Double)] = [
            ("legacyReceiptShare", legacyReceiptShare), ("subscriptionShare", subscriptionShare),
            ("refundRate", refundRate), ("familySharedRate", familySharedRate), ("sandboxLeakRate", sandboxLeakRate),
            ("errorStatusRate", errorStatusRate), ("badRecordRate", badRecordRate),
        ]
        for (name, rate) in rates where !(rate >= 0 && rate <= 1) {
            return "\(name) must be between 0 and 1, not \(rate)"
        }
        // Records that carry no entries must leave room for ones that do, or a day's quota is never reached.
        if sandboxLeakRate + errorStatusRate + badRecordRate > 0.9 {
            return "sandboxLeakRate + errorStatusRate + badRecordRate must not exceed 0.9"
        }
        if days < 1 || days > 36_500 { return "days must be between 1 and 36500, not \(days)" }
        if accounts < 1 || accounts > 100_000_000 { return "accounts must be between 1 and 100000000, not \(accounts)" }
        if targetEntries < 0 { return "targetEntries must not be negative" }
        if filesPerDay < 1 || filesPerDay > 9_999 { return "filesPerDay must be between 1 and 9999" }
        if let receiptDataLength, receiptDataLength < 256 || receiptDataLength > 1 << 20 {
            return "receiptDataLength must be between 256 and 1048576, not \(receiptDataLength)"
        }
        return nil
    }
}
