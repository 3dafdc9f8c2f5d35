/// Builds the planted receipt lines and their known answer, pattern by pattern (see `FraudPatternWriter`).
///
/// Every pattern has its own app accounts, App Store accounts and transaction ids (a range no other generator
/// uses), so patterns cannot trigger each other and the background data cannot reach them.
struct FraudPlan {
    /// The game of the standard catalog, whose receipts most patterns post.
    static let coinQuest = (
        bundle: SyntheticCatalog.standard.apps[0].bundleID, appItem: String(SyntheticCatalog.standard.apps[0].appleID)
    )
    static let dailyNews = (bundle: "com.example.dailynews", appItem: "823456782")
    static let photoFX = (bundle: "com.example.photofx", appItem: "834567893")
    static let dailyNewsGroup = "20667927"
    static let photoFXGroup = "20667931"

    let file: String
    private(set) var lines: [String] = []
    private(set) var planted: [FraudManifest.Planted] = []
    private(set) var traps: [FraudManifest.Trap] = []
    private(set) var testerAccountKeys: [String] = []
    private var nextID: UInt64 = 2_000_000_000_000_001
    private let start: Int64

    init(file: String, startDay: CalendarDay) {
        self.file = file
        self.start = startDay.epochDay * AppleTime.millisecondsPerDay
    }

    // MARK: Building blocks

    /// A fresh production transaction id.
    mutating func newID() -> String {
        defer { nextID += 1 }
        return String(nextID)
    }

    /// An instant `day` days after the start, at `hour:minute` UTC.
    func at(day: Int, hour: Int, minute: Int = 0) -> Int64 {
        start + Int64(day) * AppleTime.millisecondsPerDay + Int64(hour) * AppleTime.millisecondsPerHour
            + Int64(minute) * 60_000
    }

    static func key(_ username: String) -> String { AppleUsernameHash.hash(username) }

    /// Appends one envelope line; returns its 1-based line number. Each receipt_data differs unless given.
    @discardableResult
    mutating func post(
        _ username: String, at milliseconds: Int64, storeAccount: String? = nil, receiptData: String? = nil,
        response: String
    ) -> Int {
        let line = lines.count + 1
        var recorded = JSONByteWriter()
        recorded.rfc3339Date(milliseconds)
        var members: [(String, String)] = [
            ("recorded_at", String(decoding: recorded.bytes, as: UTF8.self)),
            ("application_username", PlantedJSON.string(username)),
        ]
        if let storeAccount { members.append(("store_account", PlantedJSON.string(storeAccount))) }
        members.append(("receipt_data", PlantedJSON.string(receiptData ?? "UExBTlRFRC1SRUNFSVBU\(line)")))
        members.append(("response", response))
        lines.append(PlantedJSON.object(members))
        return line
    }

    /// An iOS 7 app receipt response.
    func appReceipt(
        _ app: (bundle: String, appItem: String), inApp: [PlantedEntry], latest: [PlantedEntry]? = nil,
        environment: String = "Production", receiptType: String = "Production", withPendingRenewal: Bool = false
    ) -> String {
        let receipt = PlantedJSON.object([
            ("receipt_type", PlantedJSON.string(receiptType)), ("adam_id", PlantedJSON.string(app.appItem)),
            ("app_item_id", PlantedJSON.string(app.appItem)), ("bundle_id", PlantedJSON.string(app.bundle)),
            ("application_version", PlantedJSON.string("100")),
            ("in_app", PlantedJSON.array(inApp.map(\.json))),
        ])
        var members: [(String, String)] = [
            ("status", "0"), ("environment", PlantedJSON.string(environment)), ("receipt", receipt),
        ]
        if let latest { members.append(("latest_receipt_info", PlantedJSON.array(latest.map(\.json)))) }
        if withPendingRenewal, let last = (latest ?? inApp).last {
            members.append(
                (
                    "pending_renewal_info",
                    PlantedJSON.array([
                        PlantedJSON.object([
                            ("auto_renew_product_id", PlantedJSON.string(last.productID)),
                            ("original_transaction_id", PlantedJSON.string(last.originalTransactionID)),
                            ("product_id", PlantedJSON.string(last.productID)), ("auto_renew_status", "\"1\""),
                        ])
                    ])
                ))
        }
        return PlantedJSON.object(members)
    }

    /// An iOS 6 transaction receipt response.
    func transactionReceipt(_ app: (bundle: String, appItem: String), _ entry: PlantedEntry) -> String {
        var object = entry.json
        object.removeLast()
        object +=
            ",\"bid\":" + PlantedJSON.string(app.bundle) + ",\"app_item_id\":" + PlantedJSON.string(app.appItem)
            + ",\"bvrs\":\"1.0\"}"
        return PlantedJSON.object([("status", "0"), ("receipt", object)])
    }

    /// A response with an error status and no receipt.
    func errorResponse(_ status: Int) -> String {
        PlantedJSON.object([("status", String(status))])
    }

    mutating func expect(_ pattern: String, _ rule: String, _ subject: FraudManifest.Subject, _ severity: String) {
        planted.append(FraudManifest.Planted(pattern: pattern, rule: rule, subject: subject, severity: severity))
    }

    mutating func trap(_ trap: String, _ subjects: [FraudManifest.Subject]) {
        traps.append(FraudManifest.Trap(trap: trap, subjects: subjects))
    }

    mutating func allowTester(_ username: String) {
        testerAccountKeys.append(Self.key(username))
    }

    func account(_ username: String) -> FraudManifest.Subject {
        FraudManifest.Subject(kind: "app-account", key: Self.key(username))
    }

    func receipt(line: Int) -> FraudManifest.Subject {
        FraudManifest.Subject(receiptIn: file, line: line)
    }
}
