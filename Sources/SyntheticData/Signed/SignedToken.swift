/// One compact JWS the generator wrote, and what its manifest entry says about it.
struct SignedToken: Sendable {
    /// The compact serialisation (or, for a planted `invalid-jws`, the broken text).
    var text: String
    /// The payload as signed, when it is JSON (nested JWS inside are found through it).
    var payload: SignedJSON?
    /// What the manifest records of it, wherever it is written.
    var facts: SignedManifest.Facts
}
