/// Spells out one recorded receipt — envelope, verifyReceipt response, entries — as one JSON line in Apple's value
/// style, optionally broken into a bad record, and notes each transaction entry it wrote for the manifest.
struct ReceiptRecordWriter {
    /// One transaction entry written (an `in_app` or `latest_receipt_info` object, or an iOS 6 `receipt`).
    struct NotedEntry {
        var isSandbox: Bool
        var transactionID: UInt64
        var flags: UInt8
    }

    /// Bits of `NotedEntry.flags`: what the entry showed about its transaction.
    enum EntryFlag {
        static let refunded: UInt8 = 1
        static let upgraded: UInt8 = 2
        static let familyShared: UInt8 = 4
        static let trialPeriod: UInt8 = 8
    }

    let catalog: SyntheticCatalog
    /// The line, newline included, after `write`.
    private(set) var json = JSONByteWriter(capacity: 256 * 1024)
    /// The entries of the line just written (meaningful only if it is a good record).
    private(set) var entries: [NotedEntry] = []
    /// Whether the line holds the account's raw name in full (a truncated line may have lost it).
    private(set) var containsFullUsername = false
    /// Set by an invalid-date corruption; the next entry written spends it.
    private var pendingImpossibleDate: String?
    private var isWrongType = false

    /// Apple's fixed `original_purchase_date` of every sandbox app receipt: 2013-08-01 07:00:00 Etc/GMT.
    private static let sandboxOriginalPurchase: Int64 = 1_375_340_400_000
    private static let impossibleDates = [
        "2014-13-45 07:00:00 Etc/GMT", "2014-02-30 25:61:00 Etc/GMT", "0000-00-00 00:00:00 Etc/GMT",
    ]

    /// With a `receiptDataLength`: the part every receipt's blob repeats, and how many random characters follow it.
    private let sharedReceiptData: [UInt8]
    private let receiptDataTail: ClosedRange<Int>

    init(catalog: SyntheticCatalog, receiptDataLength: Int? = nil) {
        self.catalog = catalog
        (sharedReceiptData, receiptDataTail) = Self.realSizedReceiptData(length: receiptDataLength)
    }

    /// Whether a plan's response lists at least one transaction entry (an invalid date needs one to break).
    static func listsEntries(_ plan: RecordPlan, account: SimulatedAccount) -> Bool {
        switch plan {
        case .legacyPurchase: true
        case .appReceipt(let consumable): consumable != nil || account.hasReceiptContents
        case .sandboxReceipt(let purchases, let subscription): !purchases.isEmpty || subscription != nil
        case .status: false
        }
    }

    /// Writes the line for `account` posting a receipt at `now` — Apple's response alone when `isBare`, else in an
    /// envelope — broken as `corruption` says when it is not nil.
    mutating func write(
        account: SimulatedAccount, plan: RecordPlan, recordedAt now: Int64, isBare: Bool,
        corruption: BadRecordReason?, rng: inout SeededGenerator
    ) {
        json.reset()
        json.escapesSlashes = account.escapesSlashes
        entries.removeAll(keepingCapacity: true)
        containsFullUsername = false
        isWrongType = corruption == .wrongType
        pendingImpossibleDate =
            corruption == .invalidDate ? Self.impossibleDates[rng.nextInt(below: Self.impossibleDates.count)] : nil
        var usernameEnd: Int?
        var storedErrorPage = false

        if isBare {
            writeResponse(account: account, plan: plan, now: now, rng: &rng)
        } else {
            json.beginObject()
            json.key("recorded_at")
            json.rfc3339Date(now)
            switch account.identity {
            case .username:
                json.key("application_username")
                json.string(account.identityValue)
                usernameEnd = json.bytes.count
            case .usernameHash:
                json.key("application_username_hash")
                json.string(account.identityValue)
            case .accountToken:
                json.key("app_account_token")
                json.string(account.identityValue)
            case .none:
                break
            }
            if let storeAccount = account.storeAccount {
                json.key("store_account")
                json.string(storeAccount)
            }
            if account.recordsReceiptData {
                json.key("receipt_data")
                if case .legacyPurchase = plan {
                    // An iOS 6 receipt is a base64 property list: it starts `{\n\t"signature" = "`.
                    fakeBase64(prefix: "ewoJInNpZ25hdHVyZSIgPSAi", rng: &rng)
                } else {
                    fakeBase64(prefix: "MIIT", rng: &rng)  // DER: an iOS 7 receipt is a PKCS #7 container.
                }
            }
            if corruption == .invalidJSON && rng.chance(0.3) {
                // The recorder stored a proxy's error page instead of Apple's answer.
                json.key("response")
                json.raw("<html><head><title>502 Bad Gateway</title></head><body>nginx</body></html>")
                storedErrorPage = true
            } else if corruption != .missingResponse {
                json.key("response")
                writeResponse(account: account, plan: plan, now: now, rng: &rng)
            }
            json.endObject()
        }

        switch corruption {
        case .invalidJSON where !storedErrorPage:
            // `{"recorded_at"=…`: the first colon always separates the first key from its value.
            json.replaceFirst(UInt8(ascii: ":"), with: UInt8(ascii: "="))
        case .truncated:
            let length = json.bytes.count
            var cut = Int(Double(length) * (0.3 + 0.65 * rng.nextUnit()))
            // Cut between UTF-8 characters: a split character would make it an encoding error, not a truncation.
            while cut > 1 && json.bytes[cut] & 0xC0 == 0x80 { cut -= 1 }
            json.truncate(to: cut)
        default:
            break
        }
        if let usernameEnd, usernameEnd <= json.bytes.count { containsFullUsername = true }
        json.rawByte(UInt8(ascii: "\n"))
    }

    // MARK: Responses

    private mutating func writeResponse(
        account: SimulatedAccount, plan: RecordPlan, now: Int64, rng: inout SeededGenerator
    ) {
        switch plan {
        case .status(let status):
            writeStatus(status)
        case .legacyPurchase(let transaction):
            // iOS 6-era production responses had no `environment`: absent means Production.
            json.beginObject()
            json.key("receipt")
            if isWrongType {
                json.string("nope")
            } else {
                writeLegacyReceipt(transaction, account: account)
            }
            json.key("status")
            json.number(Int64(0))
            json.endObject()
        case .appReceipt(let consumable):
            writeAppReceiptResponse(
                account: account, isSandbox: false, purchases: account.owned, subscription: account.subscription,
                newConsumable: consumable, now: now, rng: &rng)
        case .sandboxReceipt(let purchases, let subscription):
            writeAppReceiptResponse(
                account: account, isSandbox: true, purchases: purchases, subscription: subscription,
                newConsumable: nil, now: now, rng: &rng)
        }
    }

    private mutating func writeStatus(_ status: Int) {
        json.beginObject()
        switch status {
        case 21010:
            json.key("environment")
            json.string("Production")
            json.key("status")
            json.number(Int64(status))
            json.key("is_retryable")
            json.bool(false)
        case 21005, 21009:
            json.key("status")
            json.number(Int64(status))
            json.key("is_retryable")
            json.bool(true)
        case 21100:
            json.key("status")
            json.number(Int64(status))
            json.key("is-retryable")  // Apple has used both spellings.
            json.bool(true)
        default:
            json.key("status")
            json.number(Int64(status))
        }
        json.endObject()
    }

    /// An iOS 6 transaction receipt: one flat object, every value a string, keys in Apple's hash order.
    private mutating func writeLegacyReceipt(_ transaction: SimulatedTransaction, account: SimulatedAccount) {
        let typed = account.usesTypedValues
        let app = catalog.apps[account.app]
        let product = catalog.products[transaction.product]
        let impossibleDate = pendingImpossibleDate
        pendingImpossibleDate = nil
        json.beginObject()
        json.key("original_purchase_date_pst")
        json.pacificDate(transaction.originalPurchaseMilliseconds)
        if impossibleDate == nil {
            numeric("purchase_date_ms", transaction.purchaseMilliseconds, typed: typed)
        }
        json.key("unique_identifier")
        json.string(account.deviceIdentifier)
        numeric("original_transaction_id", transaction.originalTransactionID, typed: typed)
        json.key("bvrs")
        json.string(app.shortVersion)
        numeric("app_item_id", app.appleID, typed: typed)
        numeric("transaction_id", transaction.transactionID, typed: typed)
        numeric("quantity", UInt64(transaction.quantity), typed: typed)
        json.key("unique_vendor_identifier")
        json.string(account.vendorIdentifier)
        numeric("item_id", product.itemID, typed: typed)
        numeric("version_external_identifier", UInt64(app.buildNumber) * 1_000 + 7, typed: typed)
        json.key("product_id")
        json.string(product.productUTF8)
        json.key("purchase_date")
        if let impossibleDate {
            json.string(impossibleDate)
        } else {
            json.gmtDate(transaction.purchaseMilliseconds)
        }
        json.key("original_purchase_date")
        json.gmtDate(transaction.originalPurchaseMilliseconds)
        if impossibleDate == nil {
            json.key("purchase_date_pst")
            json.pacificDate(transaction.purchaseMilliseconds)
        }
        json.key("bid")
        json.string(app.bundleUTF8)
        numeric("original_purchase_date_ms", transaction.originalPurchaseMilliseconds, typed: typed)
        json.endObject()
        entries.append(NotedEntry(isSandbox: false, transactionID: transaction.transactionID, flags: 0))
    }

    /// An iOS 7 app receipt response; subscribers also get `latest_receipt_info` and `pending_renewal_info`.
    private mutating func writeAppReceiptResponse(
        account: SimulatedAccount, isSandbox: Bool, purchases: [SimulatedTransaction],
        subscription: SimulatedSubscription?, newConsumable: SimulatedTransaction?, now: Int64,
        rng: inout SeededGenerator
    ) {
        let typed = account.usesTypedValues
        let app = catalog.apps[account.app]
        let requestDate = now - rng.nextInt64(in: 40...900)
        let latestPurchase = newConsumable?.purchaseMilliseconds ?? (now - rng.nextInt64(in: 1...5) * 1000)
        json.beginObject()
        json.key("status")
        json.number(Int64(0))
        json.key("environment")
        json.string(isSandbox ? "Sandbox" : "Production")
        json.key("receipt")
        json.beginObject()
        json.key("receipt_type")
        json.string(isSandbox ? "ProductionSandbox" : "Production")
        // Apple writes these four as JSON numbers even where everything else is a string; 0 in the sandbox.
        json.key("adam_id")
        json.number(isSandbox ? 0 : app.appleID)
        json.key("app_item_id")
        json.number(isSandbox ? 0 : app.appleID)
        json.key("bundle_id")
        json.string(app.bundleUTF8)
        json.key("application_version")
        json.quotedNumber(Int64(app.buildNumber))
        json.key("download_id")
        json.number(isSandbox ? 0 : account.downloadID)
        json.key("version_external_identifier")
        json.number(isSandbox ? 0 : UInt64(app.buildNumber) * 1_000 + 7)
        json.appleDate(
            "receipt_creation_date", "receipt_creation_date_ms", "receipt_creation_date_pst",
            AppleTime.floorDivide(latestPurchase, 1000) * 1000 + 1000, typedNumbers: typed)
        json.appleDate("request_date", "request_date_ms", "request_date_pst", requestDate, typedNumbers: typed)
        json.appleDate(
            "original_purchase_date", "original_purchase_date_ms", "original_purchase_date_pst",
            isSandbox ? Self.sandboxOriginalPurchase : account.appPurchaseMilliseconds, typedNumbers: typed)
        json.key("original_application_version")
        json.quotedNumber(Int64(isSandbox ? 1 : account.originalApplicationVersion))
        json.key("in_app")
        if isWrongType {
            json.string("nope")
        } else {
            json.beginArray()
            for transaction in purchases {
                writeEntry(transaction, account: account, isSandbox: isSandbox, now: now)
            }
            for transaction in subscription?.periods ?? [] {
                writeEntry(transaction, account: account, isSandbox: isSandbox, now: now)
            }
            if let newConsumable {
                writeEntry(newConsumable, account: account, isSandbox: isSandbox, now: now)
            }
            json.endArray()
        }
        json.endObject()

        if let subscription, !subscription.periods.isEmpty {
            // Newest first, as Apple lists them.
            json.key("latest_receipt_info")
            json.beginArray()
            for transaction in subscription.periods.reversed() {
                writeEntry(transaction, account: account, isSandbox: isSandbox, now: now)
            }
            json.endArray()
            json.key("latest_receipt")
            fakeBase64(prefix: "MIIT", rng: &rng)
            json.key("pending_renewal_info")
            json.beginArray()
            writeRenewalInfo(subscription, now: now)
            json.endArray()
        }
        json.endObject()
    }

    /// One `in_app` / `latest_receipt_info` object, as a receipt recorded at `now` shows it.
    private mutating func writeEntry(
        _ transaction: SimulatedTransaction, account: SimulatedAccount, isSandbox: Bool, now: Int64
    ) {
        let typed = account.usesTypedValues
        let app = catalog.apps[account.app]
        let product = catalog.products[transaction.product]
        var flags: UInt8 = 0
        json.element()
        json.beginObject()
        numeric("quantity", UInt64(transaction.quantity), typed: typed)
        json.key("product_id")
        json.string(product.productUTF8)
        numeric("transaction_id", transaction.transactionID, typed: typed)
        numeric("original_transaction_id", transaction.originalTransactionID, typed: typed)
        if let impossibleDate = pendingImpossibleDate {
            pendingImpossibleDate = nil
            json.key("purchase_date")
            json.string(impossibleDate)
        } else {
            json.appleDate(
                "purchase_date", "purchase_date_ms", "purchase_date_pst", transaction.purchaseMilliseconds,
                typedNumbers: typed)
        }
        json.appleDate(
            "original_purchase_date", "original_purchase_date_ms", "original_purchase_date_pst",
            transaction.originalPurchaseMilliseconds, typedNumbers: typed)
        if transaction.expiresMilliseconds != 0 {
            json.appleDate(
                "expires_date", "expires_date_ms", "expires_date_pst", transaction.expiresMilliseconds,
                typedNumbers: typed)
        }
        if transaction.webOrderLineItemID != 0 {
            numeric("web_order_line_item_id", transaction.webOrderLineItemID, typed: typed)
        }
        flag("is_trial_period", transaction.isTrialPeriod, typed: typed)
        if transaction.isTrialPeriod { flags |= EntryFlag.trialPeriod }
        if app.hasModernFields && product.kind == .autoRenewable {
            flag("is_in_intro_offer_period", false, typed: typed)
        }
        if transaction.isCancelled(asOf: now) {
            if transaction.isUpgraded {
                flag("is_upgraded", true, typed: typed)
                flags |= EntryFlag.upgraded
            }
            json.appleDate(
                "cancellation_date", "cancellation_date_ms", "cancellation_date_pst",
                transaction.cancellationMilliseconds, typedNumbers: typed)
            if !transaction.isUpgraded {
                numeric("cancellation_reason", UInt64(transaction.cancellationReason), typed: typed)
                flags |= EntryFlag.refunded
            }
        }
        if app.hasModernFields {
            json.key("in_app_ownership_type")
            json.string(transaction.isFamilyShared ? "FAMILY_SHARED" : "PURCHASED")
            if let group = product.groupID {
                json.key("subscription_group_identifier")
                json.quotedNumber(group)
            }
        }
        if transaction.isFamilyShared { flags |= EntryFlag.familyShared }
        if transaction.carriesAccountToken && account.identity == .accountToken {
            json.key("app_account_token")
            json.string(account.identityValue)
        }
        json.endObject()
        entries.append(NotedEntry(isSandbox: isSandbox, transactionID: transaction.transactionID, flags: flags))
    }

    private mutating func writeRenewalInfo(_ subscription: SimulatedSubscription, now: Int64) {
        json.element()
        json.beginObject()
        json.key("auto_renew_product_id")
        json.string(catalog.products[subscription.product].productUTF8)
        json.key("product_id")
        json.string(catalog.products[subscription.periods.last?.product ?? subscription.product].productUTF8)
        json.key("original_transaction_id")
        json.quotedNumber(subscription.originalTransactionID)
        json.key("auto_renew_status")
        json.string(subscription.willAutoRenew ? "1" : "0")
        if !subscription.willAutoRenew && subscription.expirationIntent != 0 && !subscription.isActive(at: now) {
            json.key("expiration_intent")
            json.quotedNumber(Int64(subscription.expirationIntent))
        }
        json.key("is_in_billing_retry_period")
        json.string("0")
        json.endObject()
    }

    // MARK: Values

    /// Apple's style is a quoted decimal; some recorders re-encoded it as a JSON number.
    /// Writes `"key":` and a number: a JSON number from a recorder that kept types, else a string as Apple's.
    private mutating func numeric(_ key: StaticString, _ value: UInt64, typed: Bool) {
        json.key(key)
        if typed { json.number(value) } else { json.quotedNumber(value) }
    }

    private mutating func numeric(_ key: StaticString, _ value: Int64, typed: Bool) {
        json.key(key)
        if typed { json.number(value) } else { json.quotedNumber(value) }
    }

    /// Writes `"key":` and a Boolean: `true`/`false` from a recorder that kept types, else Apple's `"true"`/`"false"`.
    private mutating func flag(_ key: StaticString, _ value: Bool, typed: Bool) {
        json.key(key)
        if typed { json.bool(value) } else { json.string(value ? "true" : "false") }
    }

    private static let base64Alphabet: [UInt8] = Array(
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// The make-up of a real-sized receipt blob of about `length` characters: three quarters the same in every
    /// receipt (a PKCS #7 receipt is mostly Apple's certificate chain, which is why real receipt files compress to a
    /// quarter), then a random tail of a fifth to a third of `length` (the signed payload and signature). Without a
    /// length, no shared part and the short stand-ins' 96–240 characters.
    private static func realSizedReceiptData(length: Int?) -> (shared: [UInt8], tail: ClosedRange<Int>) {
        guard let length else { return ([], 96...240) }
        var rng = SeededGenerator(seed: 0x5043_4B53_3720)  // fixed: the same "chain" whatever the scenario's seed
        let shared = (0..<(length * 3 / 4)).map { _ in base64Alphabet[rng.nextInt(below: 64)] }
        return (shared, (length / 5)...(length / 3))
    }

    /// A quoted base64 string after `prefix`: random content in a receipt's outward shape, as long as
    /// `realSizedReceiptData` says.
    private mutating func fakeBase64(prefix: StaticString, rng: inout SeededGenerator) {
        json.rawByte(UInt8(ascii: "\""))
        json.raw(prefix)
        for character in sharedReceiptData {
            if character == UInt8(ascii: "/") && json.escapesSlashes { json.rawByte(UInt8(ascii: "\\")) }
            json.rawByte(character)
        }
        let count = rng.nextInt(in: (receiptDataTail.lowerBound / 4)...(receiptDataTail.upperBound / 4)) * 4
        var bits: UInt64 = 0
        for index in 0..<count {
            if index % 10 == 0 { bits = rng.next() }
            let character = Self.base64Alphabet[Int(bits & 63)]
            bits >>= 6
            if character == UInt8(ascii: "/") && json.escapesSlashes { json.rawByte(UInt8(ascii: "\\")) }
            json.rawByte(character)
        }
        json.rawByte(UInt8(ascii: "\""))
    }
}
