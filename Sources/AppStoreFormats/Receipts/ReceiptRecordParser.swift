/// Reads one recorded receipt (docs/inputs.md, "Recorded receipts") from the bytes of one JSON object.
///
/// Pure: bytes in, a `RecordedReceipt` or a `ReceiptRecordError` out. The raw application username is hashed here,
/// the moment it is read, and cut out of the stored record.
package struct ReceiptRecordParser: Sendable {
    /// Top-level members never stored: the raw username, and a V1 notification's shared secret.
    static let secretMembers: Set<String> = ["application_username", "password"]
    /// `receipt_type` values of receipts from the sandbox.
    static let sandboxReceiptTypes: Set<String> = ["ProductionSandbox", "ProductionVPPSandbox", "Sandbox"]
    /// What Apple calls production: `Production` in a verifyReceipt answer, `PROD` at the top of a V1 notification.
    static let productionEnvironments: Set<String> = ["Production", "PROD"]
    /// The receipt types Apple documents for verifyReceipt; any other (`Xcode`) marks a test environment.
    static let receiptTypes: Set<String> = [
        "Production", "ProductionVPP", "ProductionSandbox", "ProductionVPPSandbox", "Sandbox",
    ]

    /// The long member names this parser reads, so that a record's parse takes them from a table instead of
    /// allocating each (`JSONKeyTable`); the date forms are `DateField`'s own strings, which its lookups then match
    /// by identity.
    static let keyTable = JSONKeyTable(
        DateField.all.flatMap { [$0.name, $0.milliseconds, $0.pacific] } + [
            "app_account_token", "application_username", "application_username_hash", "application_version",
            "auto_renew_product_id", "auto_renew_status", "cancellation_reason", "expiration_intent",
            "in_app_ownership_type", "is_in_billing_retry_period", "is_in_intro_offer_period",
            "latest_expired_receipt_info", "latest_receipt_info", "notification_type", "offer_code_ref_name",
            "original_application_version", "original_transaction_id", "pending_renewal_info",
            "price_consent_status", "promotional_offer_id", "subscription_group_identifier",
            "version_external_identifier", "web_order_line_item_id",
        ])

    private let hasher: AccountKeyHasher

    /// A parser that turns usernames into keys with `hasher`.
    package init(hasher: AccountKeyHasher) {
        self.hasher = hasher
    }

    /// Parses one record.
    package func parse(_ bytes: some Collection<UInt8>) throws(ReceiptRecordError) -> RecordedReceipt {
        if let jws = Self.bareJWS(bytes) {
            var reader = SignedRecordReader(shape: .signed)
            try reader.readJWS(jws)
            // Stored as the JSON string a recorder of strings writes: one record, one text, however it was written.
            return finished(reader, storing: [UInt8(ascii: "\"")] + jws + [UInt8(ascii: "\"")])
        }
        let value: JSONValue
        do {
            value = try JSONParser.parse(bytes, keys: Self.keyTable)
        } catch {
            if error.reason == .invalidUTF8 {
                throw ReceiptRecordError(.invalidUTF8, "record is not valid UTF-8: \(error)")
            }
            if error.reason == .nulCharacter {
                throw ReceiptRecordError(
                    .nulCharacter, "record holds a NUL character, which cannot be stored: \(error)")
            }
            throw ReceiptRecordError(.invalidJSON, "record is not valid JSON: \(error)")
        }
        if case .string(let text) = value {
            // A recorder that writes JSON Lines of strings: the JWS as a JSON string.
            var reader = SignedRecordReader(shape: .signed)
            try reader.readJWS(Array(text.utf8))
            return finished(reader, storing: [UInt8(ascii: "\"")] + Array(text.utf8) + [UInt8(ascii: "\"")])
        }
        guard case .object(let top) = value else {
            throw ReceiptRecordError(.notAnObject, "record should be a JSON object, found \(value.typeName)")
        }
        let envelope = FieldReader(top, path: "")
        if let signedShape = Self.signedShape(of: top) {
            var reader = SignedRecordReader(shape: signedShape)
            if signedShape == .envelope { try reader.readEnvelope(envelope) } else { try reader.readBody(envelope) }
            try readAccount(envelope, into: &reader.receipt)
            return finished(reader, storing: Self.storedForm(of: bytes, top: top))
        }
        let shape: RecordedReceipt.Shape
        // The object holding the verifyReceipt fields, and — for a V1 notification — the notification's own object.
        let response: FieldReader
        var notification: FieldReader?
        if top.contains("response") {
            guard let nested = try envelope.object("response") else {
                throw ReceiptRecordError(.missingResponse, "\"response\" is null")
            }
            // A recorder may keep a V1 notification body as the envelope's response: read it as the bare body is.
            let body = FieldReader(nested, path: "response")
            if let unified = try Self.notificationResponse(body) {
                (response, notification) = (unified, body)
            } else {
                response = body
            }
            shape = .envelope
        } else if let unified = try Self.notificationResponse(envelope) {
            (shape, response, notification) = (.notificationV1, unified, envelope)
        } else if top.contains("status") {
            (shape, response) = (.bareResponse, envelope)
        } else {
            throw ReceiptRecordError(
                .missingResponse, "no \"response\" object, and not a bare verifyReceipt answer (no \"status\")")
        }
        var receipt = try readResponse(response, shape: shape, isNotification: notification != nil)
        try readAccount(envelope, into: &receipt)
        if let notification {
            if receipt.bundleID == nil { receipt.bundleID = try notification.identifier("bid") }
            if receipt.applicationVersion == nil { receipt.applicationVersion = try notification.string("bvrs") }
            receipt.notificationType = try notification.string("notification_type")
            if try notification.string("environment")?.lowercased() == "sandbox" { receipt.isSandbox = true }
        }
        receipt.storedRecord = Self.storedForm(of: bytes, top: top)
        return receipt
    }

    /// The shape of a StoreKit 2 record (an envelope with signed members or a signed `response`, a V2 notification
    /// body, a Server API response); nil for a verifyReceipt record.
    private static func signedShape(of top: JSONObject) -> RecordedReceipt.Shape? {
        if let response = top["response"]?.object {
            return SignedRecordReader.isSignedBody(response) ? .envelope : nil
        }
        if SignedRecordReader.envelopeMembers.contains(where: top.contains) { return .envelope }
        return SignedRecordReader.isSignedBody(top) ? SignedRecordReader.bareShape(of: top) : nil
    }

    /// The record's bytes when they are meant as a compact JWS (surrounding whitespace aside): they start as every
    /// JOSE header does (`eyJ`, the base64url of `{"`), which no JSON text can. Whether they are one — three parts of
    /// canonical base64url — is for `CompactJWS` to judge (`invalid-jws`).
    static func bareJWS(_ bytes: some Collection<UInt8>) -> ArraySlice<UInt8>? {
        let all = Array(bytes)
        guard let first = all.firstIndex(where: { !isJSONWhitespace($0) }),
            let last = all.lastIndex(where: { !isJSONWhitespace($0) })
        else { return nil }
        let text = all[first...last]
        return text.starts(with: "eyJ".utf8) ? text : nil
    }

    private func finished(_ reader: SignedRecordReader, storing stored: [UInt8]) -> RecordedReceipt {
        var reader = reader
        reader.finish()
        var receipt = reader.receipt
        receipt.storedRecord = stored
        return receipt
    }

    /// The fields of a V1 notification body's receipt: its `unified_receipt`, or — in the pre-2020 layout, with
    /// `latest_receipt_info` / `latest_expired_receipt_info` beside `notification_type` and no `status` — the body
    /// itself. Nil when `body` is not a V1 notification.
    private static func notificationResponse(_ body: FieldReader) throws(ReceiptRecordError) -> FieldReader? {
        if body.object.contains("unified_receipt") {
            guard let unified = try body.object("unified_receipt") else {
                throw ReceiptRecordError(.missingResponse, "\"\(body.name("unified_receipt"))\" is null")
            }
            return FieldReader(unified, path: body.name("unified_receipt"))
        }
        if body.object.contains("notification_type") && !body.object.contains("status") {
            return body
        }
        return nil
    }

    private func readAccount(_ envelope: FieldReader, into receipt: inout RecordedReceipt) throws(ReceiptRecordError) {
        var appleHash: String?
        if let value = envelope.object["application_username"] {
            switch value {
            case .null: break
            case .string(let name):
                // The raw name lives only in this scope; only its hash leaves it.
                if !name.isEmpty { appleHash = AccountKeyHasher.appleHash(of: name) }
            default:
                throw ReceiptRecordError(.wrongType, "\"application_username\" should be text, found \(value.typeName)")
            }
        }
        if let given = try envelope.string("application_username_hash") {
            guard let canonical = AccountKeyHasher.canonicalAppleHash(given) else {
                throw ReceiptRecordError(
                    .invalidUsernameHash,
                    "\"application_username_hash\" is not an Apple-format hash (8 groups of 8 hex digits joined by '-')"
                )
            }
            if let appleHash, appleHash != canonical {
                throw ReceiptRecordError(
                    .usernameHashMismatch,
                    "\"application_username_hash\" does not match the hash of \"application_username\"")
            }
            appleHash = canonical
        }
        receipt.accountKey = appleHash.map { hasher.key(forAppleHash: $0) }
        if let token = try envelope.string("app_account_token") {
            receipt.appAccountToken = try Self.uuid(token, field: "app_account_token")
        }
        receipt.storeAccount = try envelope.identifier("store_account")
        if let text = try envelope.string("recorded_at") {
            guard let instant = DateText.rfc3339(text) ?? DateText.appleDate(text) ?? DateText.milliseconds(text) else {
                throw envelope.dateError("recorded_at", text, otherwise: "is not an RFC 3339 date")
            }
            receipt.recordedAt = instant
        }
        if let data = try envelope.string("receipt_data", limit: .max) {
            receipt.receiptDataSHA256 = ContentHash.sha256(data.utf8)
        }
    }

    private func readResponse(
        _ response: FieldReader, shape: RecordedReceipt.Shape, isNotification: Bool
    ) throws(ReceiptRecordError)
        -> RecordedReceipt
    {
        // Apple sends a notification only about a valid receipt; before 2020 its receipt carried no status at all.
        guard let status = try response.int("status") ?? (isNotification ? 0 : nil) else {
            throw ReceiptRecordError(.missingField, "\"\(response.name("status"))\" is missing")
        }
        var receipt = RecordedReceipt(
            shape: shape, style: .none, status: status, environment: try Self.environment(response),
            isSandbox: false, transactions: [], pendingRenewals: [], storedRecord: [])
        receipt.isRetryable = try response.bool("is_retryable")
        if receipt.isRetryable == nil { receipt.isRetryable = try response.bool("is-retryable") }
        if let body = try response.object("receipt") {
            let fields = FieldReader(body, path: response.name("receipt"))
            if body.contains("in_app") || body.contains("bundle_id") || body.contains("receipt_type") {
                receipt.style = .ios7
                receipt.receiptType = try fields.string("receipt_type")
                receipt.adamID = try fields.identifier("adam_id")
                receipt.appItemID = try fields.identifier("app_item_id")
                receipt.bundleID = try fields.identifier("bundle_id")
                receipt.applicationVersion = try fields.string("application_version")
                receipt.originalApplicationVersion = try fields.string("original_application_version")
                receipt.downloadID = try fields.identifier("download_id")
                receipt.versionExternalIdentifier = try fields.identifier("version_external_identifier")
                receipt.receiptCreationDate = try fields.date(
                    .receiptCreation, disagreements: &receipt.dateDisagreements)
                receipt.requestDate = try fields.date(.request, disagreements: &receipt.dateDisagreements)
                receipt.originalPurchaseDate = try fields.date(
                    .originalPurchase, disagreements: &receipt.dateDisagreements)
                for (index, entry) in try fields.objects("in_app").enumerated() {
                    receipt.transactions.append(
                        try Self.transaction(
                            FieldReader(entry, member: "in_app", index: index, of: fields), source: .inApp,
                            ordinal: index,
                            disagreements: &receipt.dateDisagreements))
                }
            } else if body.contains("transaction_id") || body.contains("bid") || body.contains("product_id") {
                receipt.style = .ios6
                receipt.bundleID = try fields.identifier("bid")
                receipt.appItemID = try fields.identifier("app_item_id")
                receipt.applicationVersion = try fields.string("bvrs")
                receipt.versionExternalIdentifier = try fields.identifier("version_external_identifier")
                receipt.transactions.append(
                    try Self.transaction(
                        fields, source: .receipt, ordinal: 0, disagreements: &receipt.dateDisagreements))
            }
        }
        var ordinal = 0
        for key in ["latest_receipt_info", "latest_expired_receipt_info"] {
            // Pre-2020 notifications write `{}` for "no such transaction": an empty lone object lists none.
            if case .object(let single)? = response.object[key], single.members.isEmpty { continue }
            let isArray = response.object[key]?.array != nil
            for (index, entry) in try response.objects(key).enumerated() {
                let fields = FieldReader(entry, member: key, index: isArray ? index : nil, of: response)
                receipt.transactions.append(
                    try Self.transaction(
                        fields, source: .latestReceiptInfo, ordinal: ordinal,
                        disagreements: &receipt.dateDisagreements))
                ordinal += 1
            }
        }
        for (index, entry) in try response.objects("pending_renewal_info").enumerated() {
            let fields = FieldReader(entry, member: "pending_renewal_info", index: index, of: response)
            receipt.pendingRenewals.append(
                PendingRenewal(
                    ordinal: index, originalTransactionID: try fields.identifier("original_transaction_id"),
                    productID: try fields.string("product_id"),
                    autoRenewProductID: try fields.string("auto_renew_product_id"),
                    autoRenewStatus: try fields.bool("auto_renew_status"),
                    expirationIntent: try fields.int("expiration_intent"),
                    isInBillingRetryPeriod: try fields.bool("is_in_billing_retry_period"),
                    gracePeriodExpiresDate: try fields.date(
                        .gracePeriodExpires, disagreements: &receipt.dateDisagreements),
                    priceConsentStatus: try fields.int("price_consent_status"),
                    offerCodeRefName: try fields.string("offer_code_ref_name"),
                    promotionalOfferID: try fields.string("promotional_offer_id")))
        }
        receipt.isTestEnvironment = Self.isTestEnvironment(receipt.environment, receiptType: receipt.receiptType)
        receipt.isSandbox =
            receipt.environment?.lowercased() == "sandbox"
            || receipt.receiptType.map(Self.sandboxReceiptTypes.contains) == true
            || status == 21007 || receipt.isTestEnvironment
        return receipt
    }

    /// Whether an answer says it is neither production nor sandbox: an `environment` that is not `Production`,
    /// `PROD` or sandbox, or a `receipt_type` Apple does not document (`Xcode`).
    private static func isTestEnvironment(_ environment: String?, receiptType: String?) -> Bool {
        if let environment, !productionEnvironments.contains(environment), environment.lowercased() != "sandbox" {
            return true
        }
        return receiptType.map { !receiptTypes.contains($0) } ?? false
    }

    /// `environment` as written: an empty string is kept (not "absent", as elsewhere), so that it is never read as
    /// an iOS 6 production answer, which carries none.
    private static func environment(_ response: FieldReader) throws(ReceiptRecordError) -> String? {
        if case .string("")? = response.object["environment"] { return "" }
        return try response.string("environment")
    }

    private static func transaction(
        _ fields: FieldReader, source: TransactionEntry.Source, ordinal: Int,
        disagreements: inout [DateDisagreement]
    )
        throws(ReceiptRecordError) -> TransactionEntry
    {
        guard let transactionID = try fields.identifier("transaction_id") else {
            throw ReceiptRecordError(.missingField, "\"\(fields.name("transaction_id"))\" is missing")
        }
        let productID = try fields.requiredString("product_id")
        let quantity = try fields.quantity("quantity")
        return TransactionEntry(
            source: source, ordinal: ordinal, productID: productID, transactionID: transactionID,
            originalTransactionID: try fields.identifier("original_transaction_id"), quantity: quantity,
            purchaseDate: try fields.date(.purchase, disagreements: &disagreements),
            originalPurchaseDate: try fields.date(.originalPurchase, disagreements: &disagreements),
            expiresDate: try fields.date(.expires, disagreements: &disagreements),
            cancellationDate: try fields.date(.cancellation, disagreements: &disagreements),
            cancellationReason: try fields.int("cancellation_reason"),
            webOrderLineItemID: try fields.identifier("web_order_line_item_id"),
            isTrialPeriod: try fields.bool("is_trial_period"),
            isInIntroOfferPeriod: try fields.bool("is_in_intro_offer_period"),
            isUpgraded: try fields.bool("is_upgraded"),
            inAppOwnershipType: try fields.string("in_app_ownership_type"),
            subscriptionGroupIdentifier: try fields.identifier("subscription_group_identifier"),
            promotionalOfferID: try fields.string("promotional_offer_id"),
            offerCodeRefName: try fields.string("offer_code_ref_name"),
            appAccountToken: try fields.uuid("app_account_token"),
            itemID: try fields.identifier("item_id"))
    }

    /// A UUID in canonical lowercase form. Read over the bytes in place, and lowercased only when it has a capital:
    /// every signed transaction carries one, and an array, a set of dash positions and a lowercased copy each time
    /// were most of its parsing's allocations. `field` names it in the error only.
    static func uuid(_ text: String, field: @autoclosure () -> String) throws(ReceiptRecordError) -> String {
        var hasCapital = false
        var count = 0
        var isUUID = true
        for byte in text.utf8 {
            switch count {
            case 8, 13, 18, 23: isUUID = isUUID && byte == UInt8(ascii: "-")
            default:
                let lower = byte | 0x20
                let isHex = (byte >= 0x30 && byte <= 0x39) || (lower >= 0x61 && lower <= 0x66)
                isUUID = isUUID && isHex
                hasCapital = hasCapital || (isHex && byte >= 0x41 && byte <= 0x46)
            }
            count += 1
        }
        guard isUUID && count == 36 else {
            throw ReceiptRecordError(.invalidValue, "\"\(field())\" is not a UUID (\"\(text.prefix(80))\")")
        }
        return hasCapital ? text.lowercased() : text
    }

    /// The record as stored: its own bytes, with secret members cut out — at the top level, and inside the envelope's
    /// `response` (where a recorder may keep a V1 notification body with its `password`).
    static func storedForm(of bytes: some Collection<UInt8>, top: JSONObject) -> [UInt8] {
        let original = Array(bytes)
        let leading = original.firstIndex { !isJSONWhitespace($0) } ?? 0
        let trailing = (original.lastIndex { !isJSONWhitespace($0) } ?? (original.count - 1)) + 1
        guard holdsSecrets(top) || top["response"]?.object.map(holdsSecrets) == true else {
            // Most records are kept whole: share their bytes rather than copy several kilobytes again.
            if leading == 0 && trailing == original.count { return original }
            return Array(original[leading..<trailing])
        }
        return rebuilt(top, from: original, descendingInto: "response")
    }

    private static func holdsSecrets(_ object: JSONObject) -> Bool {
        object.members.contains { secretMembers.contains($0.key) }
    }

    /// The object from the members we keep, verbatim (member ranges are relative to the parsed bytes); the member
    /// named `nestedKey`, when an object, is rebuilt the same way.
    private static func rebuilt(
        _ object: JSONObject, from original: [UInt8], descendingInto nestedKey: String?
    ) -> [UInt8] {
        var stored: [UInt8] = [UInt8(ascii: "{")]
        // Never longer than the record: room for all of it at once, rather than growing it a member at a time.
        stored.reserveCapacity(original.count)
        var first = true
        for member in object.members where !secretMembers.contains(member.key) {
            if !first { stored.append(UInt8(ascii: ",")) }
            if member.key == nestedKey, let nested = member.value.object, holdsSecrets(nested) {
                stored.append(contentsOf: Array("\"\(member.key)\":".utf8))
                stored.append(contentsOf: rebuilt(nested, from: original, descendingInto: nil))
            } else {
                stored.append(contentsOf: original[member.range])
            }
            first = false
        }
        stored.append(UInt8(ascii: "}"))
        return stored
    }

    static func isJSONWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }
}
