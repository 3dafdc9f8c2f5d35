/// How a deliberately bad line is broken; `rawValue` is the reason code the ingest should quarantine it with.
package enum BadRecordReason: String, Sendable, CaseIterable, Codable, Comparable {
    /// Not JSON: a `=` where the first key's `:` belongs, or an HTML error page where the response belongs; the
    /// syntax error is mid-line, with every bracket balanced.
    case invalidJSON = "invalid-json"
    /// A good line cut short (30–95 % of its bytes kept, at a UTF-8 character boundary): input ends inside an object.
    case truncated
    /// Valid JSON with a field of the wrong type: `"in_app": "nope"` (iOS 7) or `"receipt": "nope"` (iOS 6).
    case wrongType = "wrong-type"
    /// An envelope without `response`.
    case missingResponse = "missing-response"
    /// One transaction's `purchase_date` is an impossible date (`2014-13-45 07:00:00 Etc/GMT`) and its `_ms` and
    /// `_pst` forms are left out, so the string is all there is to read.
    case invalidDate = "invalid-date"

    /// Orders reasons by code, for stable output.
    package static func < (lhs: BadRecordReason, rhs: BadRecordReason) -> Bool {
        lhs.rawValue < rhs.rawValue
    }
}
