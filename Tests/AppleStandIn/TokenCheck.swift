package import Crypto
package import Foundation

/// The stand-in's check of a bearer token, as Apple documents it: three base64url parts; header `alg` ES256 and the
/// key's `kid`; payload `iss` the key's issuer, `aud` `appstoreconnect-v1`, `exp` in the future and at most 20
/// minutes (App Store Connect) or 60 (Server API) after `iat`; `bid` one of the apps for the Server API; and an ES256
/// signature that the key's public half verifies.
package struct TokenCheck: Sendable {
    /// A key the stand-in knows: its id, issuer and public half.
    package struct Key: Sendable {
        package var keyID: String
        package var issuerID: String
        /// The public key's raw bytes (swift-crypto 3's key type is not `Sendable`).
        let publicKeyBytes: Data

        package init(keyID: String, issuerID: String, publicKey: P256.Signing.PublicKey) {
            self.keyID = keyID
            self.issuerID = issuerID
            self.publicKeyBytes = publicKey.rawRepresentation
        }
    }

    let key: Key
    /// The longest life Apple allows, seconds.
    let maxLifetime: Int
    /// The bundle ids a Server API token's `bid` may name; nil for App Store Connect (no `bid` wanted).
    let bundleIDs: Set<String>?

    /// Why `authorization` is refused, or nil when it is good.
    func problem(with authorization: String?, now: Date = Date()) -> String? {
        guard let authorization, authorization.hasPrefix("Bearer ") else { return "no bearer token" }
        let parts = authorization.dropFirst("Bearer ".count).split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let headerData = Self.decode(parts[0]), let payloadData = Self.decode(parts[1]),
            let signature = Self.decode(parts[2]),
            let header = try? JSONSerialization.jsonObject(with: headerData) as? [String: Any],
            let payload = try? JSONSerialization.jsonObject(with: payloadData) as? [String: Any]
        else { return "not a JWT" }
        guard header["alg"] as? String == "ES256" else { return "alg is not ES256" }
        guard header["kid"] as? String == key.keyID else { return "unknown kid" }
        guard payload["iss"] as? String == key.issuerID else { return "wrong iss" }
        guard payload["aud"] as? String == "appstoreconnect-v1" else { return "wrong aud" }
        guard let exp = payload["exp"] as? Int, let iat = payload["iat"] as? Int else { return "no exp or iat" }
        let time = Int(now.timeIntervalSince1970)
        guard exp > time else { return "expired" }
        guard exp - iat <= maxLifetime, iat <= time + 60 else { return "lifetime longer than Apple allows" }
        if let bundleIDs {
            guard let bid = payload["bid"] as? String, bundleIDs.contains(bid) else { return "wrong bid" }
        }
        guard let ecdsa = try? P256.Signing.ECDSASignature(rawRepresentation: signature),
            let publicKey = try? P256.Signing.PublicKey(rawRepresentation: key.publicKeyBytes),
            publicKey.isValidSignature(ecdsa, for: Data((parts[0] + "." + parts[1]).utf8))
        else { return "bad signature" }
        return nil
    }

    /// The `bid` claim of a bearer token (checked before by `problem(with:)`).
    static func bundleID(_ authorization: String?) -> String? {
        guard let parts = authorization?.dropFirst("Bearer ".count).split(separator: "."), parts.count == 3,
            let payload = decode(parts[1]),
            let object = try? JSONSerialization.jsonObject(with: payload) as? [String: Any]
        else { return nil }
        return object["bid"] as? String
    }

    static func decode(_ part: Substring) -> Data? {
        var text = part.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while text.count % 4 != 0 { text += "=" }
        return Data(base64Encoded: text)
    }
}
