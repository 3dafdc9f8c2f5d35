internal import Foundation

/// A JSON value with its members in the order written, rendered compactly: the payloads, headers and records of the
/// signed data, whose bytes must be the same for a seed (a dictionary's order would not be).
indirect enum SignedJSON: Sendable, Equatable {
    case string(String)
    case integer(Int64)
    case bool(Bool)
    case array([SignedJSON])
    case object([(String, SignedJSON)])
    /// A JWS, written as its string; the token keeps what the manifest says about it and its payload.
    case jws(SignedToken)

    /// The compact UTF-8 text.
    var bytes: [UInt8] {
        var out: [UInt8] = []
        append(to: &out)
        return out
    }

    /// The compact text.
    var text: String { String(decoding: bytes, as: UTF8.self) }

    /// The member `name` of an object, or nil.
    subscript(name: String) -> SignedJSON? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.0 == name }?.1
    }

    /// A copy of an object with `name` set to `value` (replaced in place, or appended).
    func setting(_ name: String, to value: SignedJSON) -> SignedJSON {
        guard case .object(var members) = self else { return self }
        if let index = members.firstIndex(where: { $0.0 == name }) {
            members[index].1 = value
        } else {
            members.append((name, value))
        }
        return .object(members)
    }

    private func append(to out: inout [UInt8]) {
        switch self {
        case .string(let text): Self.appendString(text, to: &out)
        case .jws(let token): Self.appendString(token.text, to: &out)
        case .integer(let value): out.append(contentsOf: String(value).utf8)
        case .bool(let value): out.append(contentsOf: (value ? "true" : "false").utf8)
        case .array(let elements):
            out.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                element.append(to: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let members):
            out.append(UInt8(ascii: "{"))
            for (index, (name, value)) in members.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                Self.appendString(name, to: &out)
                out.append(UInt8(ascii: ":"))
                value.append(to: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    private static func appendString(_ text: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out.append(contentsOf: #"\""#.utf8)
            case UInt8(ascii: "\\"): out.append(contentsOf: #"\\"#.utf8)
            case 0..<0x20: out.append(contentsOf: String(format: "\\u%04x", byte).utf8)
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    /// Every JWS in the value with its JSON Pointer under `prefix`, including those inside JWS payloads (a
    /// `payload` segment after the JWS's own pointer), outermost first.
    func tokens(under prefix: String = "") -> [(pointer: String, token: SignedToken)] {
        switch self {
        case .string, .integer, .bool: return []
        case .jws(let token):
            return [(prefix, token)] + (token.payload?.tokens(under: prefix + "/payload") ?? [])
        case .array(let elements):
            return elements.enumerated().flatMap { $0.element.tokens(under: prefix + "/\($0.offset)") }
        case .object(let members):
            return members.flatMap { name, value in
                value.tokens(
                    under: prefix + "/"
                        + name.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1"))
            }
        }
    }

    static func == (lhs: SignedJSON, rhs: SignedJSON) -> Bool {
        lhs.bytes == rhs.bytes
    }

    /// Unpadded base64url of `bytes` (RFC 7515), as every part of a compact JWS is written.
    static func base64URL(_ bytes: some Sequence<UInt8>) -> String {
        var text = Data(bytes).base64EncodedString()
        text = text.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        while text.hasSuffix("=") { text.removeLast() }
        return text
    }
}
