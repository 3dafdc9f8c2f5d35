/// Reads the StoreKit 2 shapes of a recorded record (docs/inputs.md, "StoreKit 2 signed data"): a line that is a JWS, an envelope
/// carrying signed members, a Server Notification V2 body, and App Store Server API responses. Every JWS found is
/// split and decoded (`CompactJWS`), never verified here: the ingest judges each one and keeps the outcome.
///
/// What is not a JWS at all, or a transaction payload without a transaction id, makes the record `invalid-jws`.
struct SignedRecordReader {
    /// Envelope members that carry signed data instead of a verifyReceipt `response`.
    static let envelopeMembers = [
        "signed_transaction", "signed_transactions", "signed_renewal_info", "app_transaction",
        "notification",
    ]

    /// The record read so far (the parser adds the envelope's account fields).
    var receipt: RecordedReceipt

    init(shape: RecordedReceipt.Shape) {
        receipt = RecordedReceipt(
            shape: shape, style: .signed, status: 0, environment: nil, isSandbox: false, transactions: [],
            pendingRenewals: [], storedRecord: [])
    }

    /// A V2 notification body or a Server API response.
    static func isSignedBody(_ object: JSONObject) -> Bool {
        ["signedPayload", "signedTransactions", "notificationHistory", "signedTransactionInfo", "signedRenewalInfo"]
            .contains(where: object.contains) || isStatusesPage(object) || isEmptyServerAPIPage(object)
    }

    /// A Server API page that carries no signed object: a history page without `signedTransactions` (`revision`,
    /// `hasMore`), a notification-history page without entries (`paginationToken`, `hasMore`), statuses with no
    /// group (`appAppleId`, `data`). Stored like any page, with nothing signed (it says there was nothing), never
    /// read as a verifyReceipt answer.
    private static func isEmptyServerAPIPage(_ object: JSONObject) -> Bool {
        if object.contains("hasMore") && (object.contains("revision") || object.contains("paginationToken")) {
            return true
        }
        guard case .array? = object["data"] else { return false }
        return object.contains("appAppleId") || object.contains("bundleId")
    }

    /// All subscription statuses: `data` is an array of groups with `lastTransactions`.
    private static func isStatusesPage(_ object: JSONObject) -> Bool {
        guard case .array(let groups)? = object["data"] else { return false }
        return groups.contains { $0.object?.contains("lastTransactions") == true }
    }

    /// The shape of a record whose top-level object `isSigned`, when no envelope holds it.
    static func bareShape(of object: JSONObject) -> RecordedReceipt.Shape {
        object.contains("signedPayload") ? .notificationV2 : .serverAPI
    }

    /// Reads a JWS given as the whole record.
    mutating func readJWS(_ text: some Collection<UInt8>) throws(ReceiptRecordError) {
        try readObject(try CompactJWS(text), kind: nil, path: "")
    }

    /// Reads an envelope's signed members (`signed_transaction`…), or a bare body's.
    mutating func readEnvelope(_ fields: FieldReader) throws(ReceiptRecordError) {
        try readMember(fields, "signed_transaction", kind: .transaction)
        try readList(fields, "signed_transactions", kind: .transaction)
        try readMember(fields, "signed_renewal_info", kind: .renewalInfo)
        try readMember(fields, "app_transaction", kind: .appTransaction)
        if let body = try fields.object("notification") {
            try readBody(FieldReader(body, path: fields.name("notification")))
        }
        if let body = try fields.object("response"), Self.isSignedBody(body) {
            try readBody(FieldReader(body, path: fields.name("response")))
        }
    }

    /// Reads a V2 notification body or a Server API response.
    mutating func readBody(_ fields: FieldReader) throws(ReceiptRecordError) {
        if receipt.environment == nil { receipt.environment = try fields.string("environment") }
        if receipt.bundleID == nil { receipt.bundleID = try fields.identifier("bundleId") }
        if receipt.appItemID == nil { receipt.appItemID = try fields.identifier("appAppleId") }
        try readMember(fields, "signedPayload", kind: .notification)
        try readList(fields, "signedTransactions", kind: .transaction)
        try readMember(fields, "signedTransactionInfo", kind: .transaction)
        try readMember(fields, "signedRenewalInfo", kind: .renewalInfo)
        if Self.isStatusesPage(fields.object) {
            for (groupIndex, group) in try fields.objects("data").enumerated() {
                let groupFields = FieldReader(group, path: fields.name("data") + "[\(groupIndex)]")
                for (index, last) in try groupFields.objects("lastTransactions").enumerated() {
                    let lastFields = FieldReader(last, path: groupFields.name("lastTransactions") + "[\(index)]")
                    try readMember(lastFields, "signedTransactionInfo", kind: .transaction)
                    try readMember(lastFields, "signedRenewalInfo", kind: .renewalInfo)
                }
            }
        }
        for (index, entry) in try fields.objects("notificationHistory").enumerated() {
            let entryFields = FieldReader(entry, path: fields.name("notificationHistory") + "[\(index)]")
            try readMember(entryFields, "signedPayload", kind: .notification)
        }
    }

    /// Marks the record as sandbox data when anything in it says so, and finishes its environment.
    mutating func finish() {
        if receipt.environment == nil {
            receipt.environment = receipt.signedObjects.lazy.compactMap(\.environment).first
        }
        receipt.isSandbox =
            receipt.environment.map { $0 != "Production" } == true
            || receipt.signedObjects.contains { $0.environment.map { $0 != "Production" } == true }
    }

    private mutating func readMember(
        _ fields: FieldReader, _ key: String, kind: SignedObject.Kind
    ) throws(ReceiptRecordError) {
        guard let text = try fields.string(key, limit: .max) else { return }
        let path = fields.name(key)
        try readObject(try jws(text, at: path), kind: kind, path: path)
    }

    private mutating func readList(
        _ fields: FieldReader, _ key: String, kind: SignedObject.Kind
    ) throws(ReceiptRecordError) {
        guard let value = fields.object[key], value != .null else { return }
        guard case .array(let items) = value else {
            throw ReceiptRecordError(.wrongType, "\"\(fields.name(key))\" should be an array, found \(value.typeName)")
        }
        for (index, item) in items.enumerated() {
            let path = fields.name(key) + "[\(index)]"
            guard case .string(let text) = item else {
                throw ReceiptRecordError(.wrongType, "\"\(path)\" should be a JWS string, found \(item.typeName)")
            }
            try readObject(try jws(text, at: path), kind: kind, path: path)
        }
    }

    /// A JWS inside a record fails with the reason a JWS line would (`invalid-jws`, or `wrong-type`/`invalid-date`
    /// for its `signedDate`), its message naming where in the record it sits.
    private func jws(_ text: String, at path: String) throws(ReceiptRecordError) -> CompactJWS {
        do {
            return try CompactJWS(text)
        } catch {
            throw ReceiptRecordError(error.code, "\"\(path)\": \(error.message)")
        }
    }

    /// Adds one JWS; `kind` nil means "tell by its payload" (a line that is a JWS and nothing else).
    private mutating func readObject(
        _ jws: CompactJWS, kind: SignedObject.Kind?, path: String
    ) throws(ReceiptRecordError) {
        let payload = FieldReader(jws.payload, path: path.isEmpty ? "payload" : path + ".payload")
        guard let kind = kind ?? Self.kind(of: jws.payload) else {
            throw ReceiptRecordError(
                .invalidJWS,
                "a signed payload of no known kind (no transactionId, notificationType, autoRenewStatus "
                    + "or appTransactionId)")
        }
        var object = SignedObject(
            kind: kind, ordinal: receipt.signedObjects.count, path: path, jws: jws,
            environment: try payload.string("environment"), bundleID: try payload.identifier("bundleId"))
        // A notification's facts are in its `data`, with its own transaction and renewal info as JWS of their own.
        var notificationData: FieldReader?
        switch kind {
        case .transaction:
            let entry = try SignedPayloads.transaction(
                payload, signedDate: jws.signedDate, ordinal: receipt.transactions.count)
            object.entryIndex = receipt.transactions.count
            object.appTransactionID = entry.signed?.appTransactionID
            receipt.transactions.append(entry)
        case .renewalInfo:
            object.entryIndex = receipt.pendingRenewals.count
            receipt.pendingRenewals.append(
                try SignedPayloads.renewalInfo(payload, ordinal: receipt.pendingRenewals.count))
        case .appTransaction:
            try object.jws.adoptSigningDate(of: kind, path: payload.path)
            // Its environment is its receiptType (Production, Sandbox, Xcode).
            if object.environment == nil { object.environment = try payload.string("receiptType") }
            object.appTransactionID = try payload.identifier("appTransactionId")
            if receipt.originalApplicationVersion == nil {
                receipt.originalApplicationVersion = try payload.string("originalApplicationVersion")
            }
        case .notification:
            object.notificationUUID = try payload.identifier("notificationUUID")
            object.notificationType = try payload.string("notificationType")
            object.notificationSubtype = try payload.string("subtype")
            if receipt.notificationType == nil { receipt.notificationType = object.notificationType }
            if let data = try payload.object("data") {
                let dataFields = FieldReader(data, path: payload.name("data"))
                object.environment = try dataFields.string("environment")
                object.bundleID = try dataFields.identifier("bundleId")
                if receipt.appItemID == nil { receipt.appItemID = try dataFields.identifier("appAppleId") }
                notificationData = dataFields
            }
        }
        if receipt.bundleID == nil { receipt.bundleID = object.bundleID }
        receipt.signedObjects.append(object)
        if let notificationData {
            try readMember(notificationData, "signedTransactionInfo", kind: .transaction)
            try readMember(notificationData, "signedRenewalInfo", kind: .renewalInfo)
        }
    }

    /// A bare JWS line says what it is only by its payload.
    private static func kind(of payload: JSONObject) -> SignedObject.Kind? {
        if payload.contains("notificationType") || payload.contains("notificationUUID") { return .notification }
        if payload.contains("transactionId") { return .transaction }
        if payload.contains("autoRenewProductId") || payload.contains("autoRenewStatus") { return .renewalInfo }
        if payload.contains("appTransactionId") || payload.contains("originalApplicationVersion") {
            return .appTransaction
        }
        return nil
    }
}
