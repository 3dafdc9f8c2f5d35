internal import AppStoreFormats
internal import Foundation

/// The identifiers one erasure removes — account keys and app account tokens — and how they are found in stored text:
/// in any case, with or without their dashes, and inside the signed payload of a JWS (base64url, nested as a
/// notification nests its transaction), where no plain search of the text would see them.
struct ErasedIdentifiers {
    /// Every spelling searched for, lowercase.
    let needles: [String]

    init(keys: [String], tokens: [String]) {
        var needles: [String] = []
        for identifier in keys + tokens {
            let lower = identifier.lowercased()
            needles.append(lower)
            needles.append(lower.replacingOccurrences(of: "-", with: ""))
        }
        self.needles = needles
    }

    /// What an erased JWS becomes in a stored record: its SHA-256, so that whoever holds the original (the customer,
    /// Apple's history of the transaction) can show it was this one, while the record no longer names the customer.
    static func erasedJWS(_ jws: Substring) -> String {
        "erased:jws-sha256:" + LowercaseHex.string(ContentHash.sha256(Array(jws.utf8)))
    }

    /// Whether `text` names one of the identifiers, plainly or inside a JWS's payload.
    func isMentioned(in text: String) -> Bool {
        let lower = text.lowercased()
        if needles.contains(where: { lower.contains($0) }) { return true }
        return text.matches(of: Self.jws).contains { isMentioned(inPayloadOf: $0.output) }
    }

    /// `raw` without the identifiers: each JWS whose payload names them replaced by `erasedJWS`, and with
    /// `envelopeFields` (the record is the customer's own) the envelope's username hash, token and store-account id
    /// set to "erased"; any other spelling left over is replaced too. Nil when nothing changed.
    func redacted(_ raw: String, envelopeFields: Bool) -> String? {
        var text = raw
        for match in raw.matches(of: Self.jws).reversed() where isMentioned(inPayloadOf: match.output) {
            text.replaceSubrange(match.range, with: Self.erasedJWS(match.output))
        }
        if envelopeFields {
            text = text.replacing(Self.envelopeField) { "\"\($0.output.1)\":\"erased\"" }
        }
        for needle in needles {
            text = text.replacingOccurrences(of: needle, with: "erased", options: .caseInsensitive)
        }
        return text == raw ? nil : text
    }

    private func isMentioned(inPayloadOf jws: Substring) -> Bool {
        let parts = jws.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let payload = Base64URL.decode(Array(parts[1].utf8)) else { return false }
        return isMentioned(in: String(decoding: payload, as: UTF8.self))
    }

    /// A compact JWS whose header and payload are JSON objects (base64url of "{" begins "eyJ").
    private static var jws: Regex<Substring> { /eyJ[A-Za-z0-9_-]*\.eyJ[A-Za-z0-9_-]*\.[A-Za-z0-9_-]*/ }
    /// The envelope's fields that name the customer (docs/inputs.md, "An envelope").
    private static var envelopeField: Regex<(Substring, Substring)> {
        /"(application_username_hash|app_account_token|store_account)"\s*:\s*(?:"[^"]*"|[0-9]+)/
    }
}
