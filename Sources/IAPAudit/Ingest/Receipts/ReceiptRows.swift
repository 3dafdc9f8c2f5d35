internal import AppStoreFormats
internal import AppStoreSignatures
internal import Postgres

/// Renders parsed receipts into COPY rows for `receipt`, `receipt_purchase`, `pending_renewal` and `stage_entry`.
enum ReceiptRows {
    static let receiptCopy = """
        COPY receipt (id, file_id, record_number, line, shape, style, recorded_at, account_key, app_account_token, \
        store_account, receipt_data_sha256, status, environment, is_sandbox, is_retryable, receipt_type, bundle_id, \
        app_item_id, adam_id, download_id, application_version, original_application_version, \
        version_external_identifier, receipt_creation_date, request_date, original_purchase_date, notification_type, \
        transaction_entries, raw, record_key, date_disagreements) FROM STDIN (FORMAT binary)
        """

    /// The columns of `stage_entry`, in COPY order, with their SQL types: the one list of a staged transaction copy.
    ///
    /// `appendStagedEntry` writes them in this order and `entryCopy` is derived from it. The SQL spells them too, so
    /// that analysts read plain SQL: `receipt_stage.sql` (the same list), the `purchase` table of
    /// `0001_create_core.sql` with the columns `0010_signed_data.sql` adds, and `receipt_store_new.sql` (all but the
    /// first three, which say where the copy was found);
    /// `StagedColumnsTests` fails when any of them disagrees with this list.
    static let stagedEntryColumns: [(name: String, type: String)] = [
        ("receipt_id", "bigint"), ("source", "text"), ("ordinal", "integer"), ("environment", "text"),
        ("transaction_id", "text"), ("original_transaction_id", "text"), ("product_id", "text"),
        ("quantity", "integer"), ("purchase_date", "timestamptz"), ("original_purchase_date", "timestamptz"),
        ("expires_date", "timestamptz"), ("cancellation_date", "timestamptz"), ("cancellation_reason", "integer"),
        ("web_order_line_item_id", "text"), ("is_trial_period", "boolean"), ("is_in_intro_offer_period", "boolean"),
        ("is_upgraded", "boolean"), ("in_app_ownership_type", "text"), ("subscription_group_identifier", "text"),
        ("promotional_offer_id", "text"), ("offer_code_ref_name", "text"), ("app_account_token", "uuid"),
        ("item_id", "text"), ("bundle_id", "text"), ("app_item_id", "text"), ("signed_date", "timestamptz"),
        ("price", "bigint"), ("currency", "text"), ("storefront", "text"), ("storefront_id", "text"), ("type", "text"),
        ("transaction_reason", "text"), ("revocation_date", "timestamptz"), ("revocation_reason", "integer"),
        ("revocation_type", "text"), ("revocation_percentage", "integer"), ("offer_type", "integer"),
        ("offer_identifier", "text"), ("offer_discount_type", "text"), ("offer_period", "text"),
        ("app_transaction_id", "text"),
    ]

    /// The staged columns that locate a copy (which receipt, which array, which position) rather than describe the
    /// purchase: `purchase` has every other staged column.
    static let stagedLocationColumnCount = 3

    static let entryCopy =
        "COPY stage_entry (" + stagedEntryColumns.map(\.name).joined(separator: ", ") + ") FROM STDIN"

    static let linkCopy = """
        COPY receipt_purchase (receipt_id, source, ordinal, environment, transaction_id) FROM STDIN (FORMAT binary)
        """

    static let renewalCopy = """
        COPY pending_renewal (receipt_id, ordinal, original_transaction_id, product_id, auto_renew_product_id, \
        auto_renew_status, expiration_intent, is_in_billing_retry_period, grace_period_expires_date, \
        price_consent_status, offer_code_ref_name, promotional_offer_id) FROM STDIN
        """

    static let signedObjectCopy = """
        COPY signed_object (receipt_id, ordinal, kind, path, outcome, signed_date, environment, bundle_id, \
        transaction_id, original_transaction_id, product_id, app_transaction_id, notification_uuid, notification_type, \
        notification_subtype) FROM STDIN (FORMAT binary)
        """

    /// One `signed_object` row per JWS of `receipt`, with its verification outcome, in binary COPY format (as
    /// `receipt_purchase`): the server neither parses its integers and instant from text nor scans it for escapes.
    static func appendSignedObjects(
        _ receipt: RecordedReceipt, outcomes: [VerificationOutcome], receiptID: Int, to rows: inout BinaryCopyRows
    ) {
        // Each object's fields are read in place (`objects[index].path`): a copy of a whole `SignedObject`, its JWS
        // included, retains and releases some fifteen references, and every JWS of a signed ingest passes here.
        // So are its transaction's and renewal's three ids: a copy of a whole `TransactionEntry` retained some twenty.
        let objects = receipt.signedObjects
        for (index, outcome) in zip(objects.indices, outcomes) {
            let kind = objects[index].kind
            let entry = kind == .transaction ? objects[index].entryIndex : nil
            let renewal = kind == .renewalInfo ? objects[index].entryIndex : nil
            rows.beginRow(fieldCount: 15)
            rows.int64(receiptID)
            rows.int32(objects[index].ordinal)
            rows.text(kind.rawValue)
            rows.text(objects[index].path)
            rows.text(outcome.rawValue)
            rows.timestamp(millisecondsSince1970: objects[index].jws.signedDate?.millisecondsSince1970)
            rows.text(objects[index].environment)
            rows.text(objects[index].bundleID)
            if let entry {
                rows.text(receipt.transactions[entry].transactionID)
                rows.text(receipt.transactions[entry].originalTransactionID)
                rows.text(receipt.transactions[entry].productID)
            } else if let renewal {
                rows.text(nil)
                rows.text(receipt.pendingRenewals[renewal].originalTransactionID)
                rows.text(receipt.pendingRenewals[renewal].productID)
            } else {
                for _ in 0..<3 { rows.text(nil) }
            }
            rows.text(objects[index].appTransactionID)
            rows.text(objects[index].notificationUUID)
            rows.text(objects[index].notificationType)
            rows.text(objects[index].notificationSubtype)
            rows.endRow()
        }
    }

    /// One `receipt` row, in binary COPY format (the raw record is most of the bytes a run loads; binary spares the
    /// server from scanning it for escapes), with the record's `recordKey(_:)`.
    static func appendReceipt(
        _ receipt: RecordedReceipt, recordKey: Int, fileID: Int64, recordNumber: Int, line: Int,
        to rows: inout BinaryCopyRows
    ) {
        rows.beginRow(fieldCount: 31)
        rows.int64(receiptID(fileID: fileID, recordNumber: recordNumber))
        rows.int64(Int(fileID))
        rows.int32(recordNumber)
        rows.int32(line)
        rows.text(receipt.shape.rawValue)
        rows.text(receipt.style.rawValue)
        rows.timestamp(millisecondsSince1970: receipt.recordedAt?.millisecondsSince1970)
        rows.text(receipt.accountKey)
        rows.uuid(receipt.appAccountToken)
        rows.text(receipt.storeAccount)
        rows.bytea(receipt.receiptDataSHA256)
        rows.int32(receipt.status)
        rows.text(receipt.environment)
        rows.bool(receipt.isSandbox)
        rows.bool(receipt.isRetryable)
        rows.text(receipt.receiptType)
        rows.text(receipt.bundleID)
        rows.text(receipt.appItemID)
        rows.text(receipt.adamID)
        rows.text(receipt.downloadID)
        rows.text(receipt.applicationVersion)
        rows.text(receipt.originalApplicationVersion)
        rows.text(receipt.versionExternalIdentifier)
        rows.timestamp(millisecondsSince1970: receipt.receiptCreationDate?.millisecondsSince1970)
        rows.timestamp(millisecondsSince1970: receipt.requestDate?.millisecondsSince1970)
        rows.timestamp(millisecondsSince1970: receipt.originalPurchaseDate?.millisecondsSince1970)
        rows.text(receipt.notificationType)
        rows.int32(receipt.transactions.count)
        rows.text(utf8: receipt.storedRecord)
        rows.int64(recordKey)
        rows.jsonb(utf8: dateDisagreements(receipt))
        rows.endRow()
    }

    /// The receipt's date disagreements as a JSON array for `receipt.date_disagreements` (see sql/0009), or nil when
    /// it has none: `[{"field", "kept_member", "kept", "other_member", "other"}]`, instants as PostgreSQL text in UTC.
    static func dateDisagreements(_ receipt: RecordedReceipt) -> [UInt8]? {
        guard !receipt.dateDisagreements.isEmpty else { return nil }
        var json: [UInt8] = [UInt8(ascii: "[")]
        for (index, disagreement) in receipt.dateDisagreements.enumerated() {
            if index > 0 { json.append(UInt8(ascii: ",")) }
            let members = [
                ("field", disagreement.field), ("kept_member", disagreement.keptMember),
                ("kept", disagreement.kept.postgresText), ("other_member", disagreement.otherMember),
                ("other", disagreement.other.postgresText),
            ]
            json.append(UInt8(ascii: "{"))
            for (position, (key, value)) in members.enumerated() {
                if position > 0 { json.append(UInt8(ascii: ",")) }
                JSONStringEscaping.appendQuoted(key, to: &json)
                json.append(UInt8(ascii: ":"))
                JSONStringEscaping.appendQuoted(value, to: &json)
            }
            json.append(UInt8(ascii: "}"))
        }
        json.append(UInt8(ascii: "]"))
        return json
    }

    /// The record's identity (see sql/0007): the first 64 bits of SHA-256 over the stored record, a zero byte and
    /// the account key — the same formula the migration used for receipts stored before it.
    static func recordKey(_ receipt: RecordedReceipt) -> Int {
        var hash = ContentHash.Stream()
        receipt.storedRecord.withUnsafeBytes { hash.update($0) }
        withUnsafeBytes(of: UInt8(0)) { hash.update($0) }
        var account = receipt.accountKey ?? ""
        account.withUTF8 { hash.update(UnsafeRawBufferPointer($0)) }
        return hash.finalize().prefix(8).reduce(0) { $0 << 8 | Int($1) }
    }

    /// Where each entry of `receipt` points: one `receipt_purchase` row per entry, in binary COPY format.
    static func appendLinks(_ receipt: RecordedReceipt, receiptID: Int, to rows: inout BinaryCopyRows) {
        for entry in receipt.transactions {
            rows.beginRow(fieldCount: 5)
            rows.int64(receiptID)
            rows.text(entry.source.rawValue)
            rows.int32(entry.ordinal)
            rows.text(receipt.environment(of: entry))
            rows.text(entry.transactionID)
            rows.endRow()
        }
    }

    /// One copy of a transaction for the server to merge (see `TransactionCopies` for which copies).
    static func appendStagedEntry(
        _ entry: TransactionEntry, of receipt: RecordedReceipt, receiptID: Int, to rows: inout CopyWriter
    ) throws(PostgresError) {
        rows.field(receiptID)
        rows.field(entry.source.rawValue)
        rows.field(entry.ordinal)
        rows.field(receipt.environment(of: entry))
        rows.field(entry.transactionID)
        rows.field(entry.originalTransactionID)
        rows.field(entry.productID)
        rows.field(entry.quantity)
        rows.field(timestamp: entry.purchaseDate)
        rows.field(timestamp: entry.originalPurchaseDate)
        rows.field(timestamp: entry.expiresDate)
        rows.field(timestamp: entry.cancellationDate)
        rows.field(entry.cancellationReason)
        rows.field(entry.webOrderLineItemID)
        rows.field(entry.isTrialPeriod)
        rows.field(entry.isInIntroOfferPeriod)
        rows.field(entry.isUpgraded)
        rows.field(entry.inAppOwnershipType)
        rows.field(entry.subscriptionGroupIdentifier)
        rows.field(entry.promotionalOfferID)
        rows.field(entry.offerCodeRefName)
        rows.field(entry.appAccountToken)
        rows.field(entry.itemID)
        let signed = entry.signed
        // A signed transaction names its app itself; a record (a history page, an envelope) may hold several apps'.
        rows.field(signed?.bundleID ?? receipt.bundleID)
        rows.field(receipt.appItemID)
        rows.field(timestamp: signed?.signedDate)
        rows.field(signed?.price.map(Int.init))
        rows.field(signed?.currency)
        rows.field(signed?.storefront)
        rows.field(signed?.storefrontID)
        rows.field(signed?.type)
        rows.field(signed?.transactionReason)
        rows.field(timestamp: signed?.revocationDate)
        rows.field(signed?.revocationReason)
        rows.field(signed?.revocationType)
        rows.field(signed?.revocationPercentage)
        rows.field(signed?.offerType)
        rows.field(signed?.offerIdentifier)
        rows.field(signed?.offerDiscountType)
        rows.field(signed?.offerPeriod)
        rows.field(signed?.appTransactionID)
        try rows.endRow()
    }

    static func appendRenewals(
        _ receipt: RecordedReceipt, receiptID: Int, to rows: inout CopyWriter
    )
        throws(PostgresError)
    {
        for renewal in receipt.pendingRenewals {
            rows.field(receiptID)
            rows.field(renewal.ordinal)
            rows.field(renewal.originalTransactionID)
            rows.field(renewal.productID)
            rows.field(renewal.autoRenewProductID)
            rows.field(renewal.autoRenewStatus)
            rows.field(renewal.expirationIntent)
            rows.field(renewal.isInBillingRetryPeriod)
            rows.field(timestamp: renewal.gracePeriodExpiresDate)
            rows.field(renewal.priceConsentStatus)
            rows.field(renewal.offerCodeRefName)
            rows.field(renewal.promotionalOfferID)
            try rows.endRow()
        }
    }

    /// A receipt's id: its file's id in the high 32 bits, its record number in the low (see sql/0001).
    static func receiptID(fileID: Int64, recordNumber: Int) -> Int {
        Int(fileID) << 32 | recordNumber
    }
}

extension CopyWriter {
    /// A `timestamptz` field in UTC, or NULL. Its text, which has nothing to escape, is passed in place: through
    /// `field(verbatim:)`, an array of it was built and then appended a byte at a time.
    mutating func field(timestamp: Timestamp?) {
        guard let timestamp else { return field(nil as String?) }
        timestamp.withPostgresBytes { field(utf8: $0) }
    }
}
