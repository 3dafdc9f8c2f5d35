/// Decodes the payloads of signed transactions and renewal infos into the model verifyReceipt answers fill, so that
/// one transaction is one transaction whichever way it arrived. Unknown payload fields are kept in the stored record,
/// never an error.
enum SignedPayloads {
    /// A JWSTransactionDecodedPayload; `signedDate` as `CompactJWS` read it.
    static func transaction(
        _ payload: FieldReader, signedDate: Timestamp?, ordinal: Int
    ) throws(ReceiptRecordError) -> TransactionEntry {
        guard let transactionID = try payload.identifier("transactionId") else {
            throw ReceiptRecordError(.invalidJWS, "a signed transaction without \"\(payload.name("transactionId"))\"")
        }
        let productID = try payload.requiredString("productId")
        let quantity = try payload.quantity("quantity")
        var signed = SignedTransactionFields()
        signed.environment = try payload.string("environment")
        signed.bundleID = try payload.identifier("bundleId")
        signed.signedDate = signedDate
        signed.price = try payload.int64("price")
        signed.currency = try payload.string("currency")
        signed.storefront = try payload.string("storefront")
        signed.storefrontID = try payload.identifier("storefrontId")
        signed.type = try payload.string("type")
        signed.transactionReason = try payload.string("transactionReason")
        signed.revocationDate = try payload.epochMilliseconds("revocationDate")
        signed.revocationReason = try payload.int("revocationReason")
        signed.revocationType = try payload.string("revocationType")
        signed.revocationPercentage = try payload.int("revocationPercentage")
        signed.offerType = try payload.int("offerType")
        signed.offerIdentifier = try payload.string("offerIdentifier")
        signed.offerDiscountType = try payload.string("offerDiscountType")
        signed.offerPeriod = try payload.string("offerPeriod")
        signed.appTransactionID = try payload.identifier("appTransactionId")

        // A revocation is a refund unless it takes back a family-shared copy: refunds are what verifyReceipt called
        // cancellations, and the rules and reconciliation read them there.
        let isRefund = signed.revocationDate != nil && signed.revocationType != "FAMILY_REVOKE"
        let isIntroductory = signed.offerType == 1
        let isFreeTrial =
            isIntroductory
            && (signed.offerDiscountType == "FREE_TRIAL" || (signed.offerDiscountType == nil && signed.price == 0))
        let offer = offerIdentifiers(type: signed.offerType, identifier: signed.offerIdentifier)
        return TransactionEntry(
            source: .signed, ordinal: ordinal, productID: productID, transactionID: transactionID,
            originalTransactionID: try payload.identifier("originalTransactionId"), quantity: quantity,
            purchaseDate: try payload.epochMilliseconds("purchaseDate"),
            originalPurchaseDate: try payload.epochMilliseconds("originalPurchaseDate"),
            expiresDate: try payload.epochMilliseconds("expiresDate"),
            cancellationDate: isRefund ? signed.revocationDate : nil,
            cancellationReason: isRefund ? signed.revocationReason : nil,
            webOrderLineItemID: try payload.identifier("webOrderLineItemId"),
            isTrialPeriod: isFreeTrial, isInIntroOfferPeriod: isIntroductory && !isFreeTrial,
            isUpgraded: try payload.bool("isUpgraded"),
            inAppOwnershipType: try payload.string("inAppOwnershipType"),
            subscriptionGroupIdentifier: try payload.identifier("subscriptionGroupIdentifier"),
            promotionalOfferID: offer.promotional, offerCodeRefName: offer.offerCode,
            appAccountToken: try payload.uuid("appAccountToken"), itemID: nil, signed: signed)
    }

    /// A JWSRenewalInfoDecodedPayload, as the `pending_renewal_info` entry it stands for.
    static func renewalInfo(_ payload: FieldReader, ordinal: Int) throws(ReceiptRecordError) -> PendingRenewal {
        let offer = offerIdentifiers(
            type: try payload.int("offerType"), identifier: try payload.string("offerIdentifier"))
        return PendingRenewal(
            ordinal: ordinal, originalTransactionID: try payload.identifier("originalTransactionId"),
            productID: try payload.string("productId"),
            autoRenewProductID: try payload.string("autoRenewProductId"),
            autoRenewStatus: try payload.bool("autoRenewStatus"),
            expirationIntent: try payload.int("expirationIntent"),
            isInBillingRetryPeriod: try payload.bool("isInBillingRetryPeriod"),
            gracePeriodExpiresDate: try payload.epochMilliseconds("gracePeriodExpiresDate"),
            priceConsentStatus: try payload.int("priceIncreaseStatus"),
            offerCodeRefName: offer.offerCode, promotionalOfferID: offer.promotional)
    }

    /// Where verifyReceipt kept an offer's identifier: a promotional offer's (`offerType` 2) in
    /// `promotional_offer_id`, an offer code's (3) in `offer_code_ref_name`.
    private static func offerIdentifiers(
        type: Int?, identifier: String?
    ) -> (promotional: String?, offerCode: String?) {
        (type == 2 ? identifier : nil, type == 3 ? identifier : nil)
    }
}
