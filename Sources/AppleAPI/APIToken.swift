internal import Crypto
public import Foundation
internal import Synchronization

/// The JSON Web Tokens Apple's APIs take as `Authorization: Bearer …`, ES256-signed with an `APIKey`, as "Generating
/// tokens for API requests" describes: header `alg`, `kid`, `typ`; payload `iss`, `iat`, `exp`, `aud`
/// (`appstoreconnect-v1`), and for the App Store Server API `bid`, the app's bundle id.
///
/// A token is made once and reused until a minute before it expires; Apple refuses one that lives longer than 20
/// minutes (App Store Connect) or 60 (Server API), so every token here lives 20 minutes at most.
public final class TokenIssuer: Sendable {
    /// What Apple accepts as the longest life of a token (App Store Connect's limit, the stricter of the two).
    public static let lifetime: TimeInterval = 20 * 60
    private static let renewalMargin: TimeInterval = 60

    private let key: APIKey
    private let bundleID: String?
    private let now: @Sendable () -> Date
    private let current = Mutex<(token: String, expires: Date)?>(nil)

    /// A token issuer for `key`; `bundleID` for the App Store Server API (its `bid` claim), nil for App Store Connect.
    public init(key: APIKey, bundleID: String? = nil, now: @escaping @Sendable () -> Date = { Date() }) {
        self.key = key
        self.bundleID = bundleID
        self.now = now
    }

    /// The key the tokens are signed with (its id and file only, for messages).
    public var keyDescription: String { key.description }

    /// A token valid for at least another minute.
    public func token() throws(AppleAPIError) -> String {
        let time = now()
        if let current = current.withLock({ $0 }), current.expires.timeIntervalSince(time) > Self.renewalMargin {
            return current.token
        }
        let issued = Int(time.timeIntervalSince1970)
        let expires = issued + Int(Self.lifetime)
        let token = try Self.sign(key: key, bundleID: bundleID, issuedAt: issued, expiresAt: expires)
        current.withLock { $0 = (token, Date(timeIntervalSince1970: TimeInterval(expires))) }
        return token
    }

    /// One signed token; `package` so tests can make expired or over-long ones.
    package static func sign(
        key: APIKey, bundleID: String?, issuedAt: Int, expiresAt: Int, audience: String = "appstoreconnect-v1"
    ) throws(AppleAPIError) -> String {
        let header: [String: String] = ["alg": "ES256", "kid": key.keyID, "typ": "JWT"]
        var payload: [String: Any] = ["iss": key.issuerID, "iat": issuedAt, "exp": expiresAt, "aud": audience]
        if let bundleID { payload["bid"] = bundleID }
        let headerData: Data
        let payloadData: Data
        do {
            headerData = try JSONSerialization.data(withJSONObject: header, options: [.sortedKeys])
            payloadData = try JSONSerialization.data(withJSONObject: payload, options: [.sortedKeys])
        } catch {
            throw AppleAPIError.key(path: key.path, problem: "token claims do not encode as JSON")
        }
        let signingInput = base64URL(headerData) + "." + base64URL(payloadData)
        let signature: P256.Signing.ECDSASignature
        do {
            signature = try key.privateKey.signature(for: Data(signingInput.utf8))
        } catch {
            throw AppleAPIError.key(path: key.path, problem: "cannot sign a token")
        }
        return signingInput + "." + base64URL(signature.rawRepresentation)
    }

    /// Base64url without padding (RFC 7515).
    package static func base64URL(_ data: Data) -> String {
        data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}
