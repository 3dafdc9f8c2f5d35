internal import Foundation

/// The fields of a query string or an `application/x-www-form-urlencoded` body: `+` is a space, `%XX` a byte. A field
/// given twice keeps its first value; bytes that are not UTF-8 make the whole form unreadable (nil), a 400.
struct FormValues: Sendable {
    private var values: [String: String] = [:]

    init?(_ encoded: String) {
        for pair in encoded.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = Self.decode(parts[0]), let value = Self.decode(parts.count > 1 ? parts[1] : "") else {
                return nil
            }
            if values[name] == nil { values[name] = value }
        }
    }

    /// The field's value, nil when absent or empty (an empty filter box means no filter).
    subscript(_ name: String) -> String? {
        guard let value = values[name]?.trimmingCharacters(in: .whitespacesAndNewlines), !value.isEmpty else {
            return nil
        }
        return value
    }

    /// The field's value exactly as sent (a username is hashed as the app sent it: no trimming).
    func raw(_ name: String) -> String? { values[name] }

    private static func decode(_ text: Substring) -> String? {
        String(text).replacingOccurrences(of: "+", with: " ").removingPercentEncoding
    }
}
