internal import Foundation

/// A response Apple gave that was not retried away: its status, headers and the body's bytes exactly as sent.
public struct AppleResponse: Sendable {
    /// The HTTP status.
    public let status: Int
    /// Header names lower-cased.
    public let headers: [String: String]
    /// The body as received (gzip stays gzip).
    public let body: [UInt8]

    /// The `detail` of Apple's first error object (`{"errors": [{"status", "code", "title", "detail"}]}`, the App
    /// Store Connect form) or the `errorMessage` of the Server API's form; else the body's first 200 characters.
    public var errorDetail: String {
        let object = try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any]
        if let errors = object?["errors"] as? [[String: Any]], let first = errors.first {
            let code = first["code"] as? String
            let detail = (first["detail"] as? String) ?? (first["title"] as? String) ?? ""
            return [code, detail].compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: ": ")
        }
        if let message = object?["errorMessage"] as? String {
            return (object?["errorCode"].map { "\($0): " } ?? "") + message
        }
        let text = String(decoding: body.prefix(200), as: UTF8.self)
        return text.isEmpty ? "no body" : text
    }
}
