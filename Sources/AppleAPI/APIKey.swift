public import Crypto
public import Foundation

/// An App Store Connect or In-App Purchase API key: its id, its team's issuer id and the private half, read from the
/// `.p8` file Apple lets one download once.
///
/// The key's bytes never leave this value: `description` names the key id and the file, nothing else.
public struct APIKey: Sendable, CustomStringConvertible {
    /// The key id App Store Connect shows beside the key (the `kid` of every token).
    public let keyID: String
    /// The team's issuer id (the `iss` of every token).
    public let issuerID: String
    /// The file the key was read from, for messages.
    public let path: String
    /// The private key's raw scalar: swift-crypto 3's key type is not `Sendable`, its bytes are.
    private let secret: Data

    /// The private key, to sign with.
    var privateKey: P256.Signing.PrivateKey {
        get throws { try P256.Signing.PrivateKey(rawRepresentation: secret) }
    }

    /// Reads a `.p8` (PKCS#8 PEM) file; refuses one that other users can read, as ssh does a private key.
    public init(keyID: String, issuerID: String, path: String) throws(AppleAPIError) {
        var status = stat()
        guard stat(path, &status) == 0 else {
            throw AppleAPIError.key(path: path, problem: "cannot be read: \(String(cString: strerror(errno)))")
        }
        let others = status.st_mode & 0o077
        guard others == 0 else {
            throw AppleAPIError.key(
                path: path,
                problem: "can be read by other users (mode \(String(status.st_mode & 0o777, radix: 8))); "
                    + "a private key must be the owner's alone: chmod 600 \(path)")
        }
        guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8)
        else { throw AppleAPIError.key(path: path, problem: "cannot be read") }
        do {
            secret = try P256.Signing.PrivateKey(pemRepresentation: text).rawRepresentation
        } catch {
            // The parser's own words could quote the file; say only what it is not.
            throw AppleAPIError.key(
                path: path, problem: "is not an ES256 (P-256) private key in PEM form, as Apple's .p8 files are")
        }
        guard !keyID.isEmpty, !issuerID.isEmpty else {
            throw AppleAPIError.key(path: path, problem: "needs its key id and issuer id beside it")
        }
        self.keyID = keyID
        self.issuerID = issuerID
        self.path = path
    }

    /// A key held in memory (tests and the stand-in).
    public init(keyID: String, issuerID: String, privateKey: P256.Signing.PrivateKey) {
        self.keyID = keyID
        self.issuerID = issuerID
        self.path = "(in memory)"
        self.secret = privateKey.rawRepresentation
    }

    public var description: String { "key \(keyID) (\(path))" }
}
