/// One compact JWS the generator wrote, and what its manifest entry says about it.
struct SignedToken: Sendable {
    /// The compact serialisation (or, for a planted `invalid-jws`, the broken text).
    var text: String
    /// The payload as signed, when it is JSON (nested JWS inside are found through it).
    var payload: SignedJSON?
    /// `transaction`, `renewal-info`, `notification` or `app-transaction`.
    var kind: String
    var transactionID: String?
    var originalTransactionID: String?
    var environment: String
    var signedDate: Int64
    /// The `SigningChain.Identity` name, or `none`.
    var signer: String
    /// The outcome the verifier must give with the generator's root trusted (or `invalid-jws`).
    var outcome: String
}
