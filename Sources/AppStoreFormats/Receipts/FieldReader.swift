/// Reads fields leniently — Apple and recorders write numbers and booleans sometimes as strings, sometimes not — and
/// rejects precisely, naming the field's path.
struct FieldReader {
    let object: JSONObject
    /// The path up to the reader this one was read from; `member` and `index` name the step from there, and are
    /// joined to it only when a message needs the whole path: every transaction of every receipt is read through
    /// a reader of its own, and building its path (`response.receipt.in_app[3]`) each time was two strings.
    private let base: String
    private let member: String?
    private let index: Int?

    init(_ object: JSONObject, path: String) {
        self.object = object
        self.base = path
        self.member = nil
        self.index = nil
    }

    /// A reader of `object`, the value of `parent`'s `member` (at `index`, when the member is an array).
    init(_ object: JSONObject, member: String, index: Int? = nil, of parent: FieldReader) {
        self.object = object
        self.base = parent.path
        self.member = member
        self.index = index
    }

    /// Where the object stands in the record, e.g. `response.receipt.in_app[3]` (empty for the record itself).
    var path: String {
        guard let member else { return base }
        let named = base.isEmpty ? member : base + "." + member
        return index.map { named + "[\($0)]" } ?? named
    }

    func name(_ key: String) -> String {
        let path = self.path
        return path.isEmpty ? key : path + "." + key
    }

    /// A text field; numbers and booleans are taken as their text. Absent, null or "" → nil. Longer than `limit`
    /// bytes (`IdentifierLimit` unless the field is known to be long, like `receipt_data`): `value-too-long`.
    func string(_ key: String, limit: Int = IdentifierLimit.bytes) throws(ReceiptRecordError) -> String? {
        guard let value = object[key] else { return nil }
        let text: String
        switch value {
        case .null: return nil
        case .string(let string): text = string
        case .number(let number): text = number
        case .bool(let flag): text = flag ? "true" : "false"
        case .array, .object:
            throw ReceiptRecordError(.wrongType, "\"\(name(key))\" should be text, found \(value.typeName)")
        }
        if text.utf8.count > limit {
            throw ReceiptRecordError(
                .valueTooLong, IdentifierLimit.message(field: "\"\(name(key))\"", length: text.utf8.count))
        }
        return text.isEmpty ? nil : text
    }

    /// A required text field.
    func requiredString(_ key: String) throws(ReceiptRecordError) -> String {
        guard let text = try string(key) else {
            throw ReceiptRecordError(.missingField, "\"\(name(key))\" is missing")
        }
        return text
    }

    /// An identifier: digits and other id characters as text, trimmed.
    func identifier(_ key: String) throws(ReceiptRecordError) -> String? {
        try string(key).map { $0.trimmingASCIIWhitespace() }.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// An integer written as a JSON number or a decimal string, within 32 bits (Apple's integer fields are codes and
    /// counts; the columns that keep them are `integer`).
    func int(_ key: String) throws(ReceiptRecordError) -> Int? {
        guard let text = try string(key) else { return nil }
        let trimmed = text.trimmingASCIIWhitespace()
        guard let value = Int32(trimmed) else {
            let problem = Int(trimmed) == nil ? "is not an integer" : "is out of range for a 32-bit integer"
            throw ReceiptRecordError(.invalidNumber, "\"\(name(key))\" \(problem) (\(quoted(text)))")
        }
        return Int(value)
    }

    /// A boolean written as true/false, "true"/"false", 1/0 or "1"/"0".
    func bool(_ key: String) throws(ReceiptRecordError) -> Bool? {
        guard let text = try string(key) else { return nil }
        switch text.trimmingASCIIWhitespace().lowercased() {
        case "true", "1", "yes": return true
        case "false", "0", "no": return false
        default:
            throw ReceiptRecordError(.invalidValue, "\"\(name(key))\" is not a boolean (\(quoted(text)))")
        }
    }

    /// A date from `key_ms` (preferred), `key` (Apple text, or epoch milliseconds as iOS 6 `expires_date` has it),
    /// or `key_pst`. Every form present must be a possible date; a form that names an instant more than a day from
    /// the kept one is still taken (the kept value stays) but appended to `disagreements`, for `forged-fields`.
    func date(
        _ field: DateField, disagreements: inout [DateDisagreement]
    ) throws(ReceiptRecordError) -> Timestamp? {
        var kept: (member: String, value: Timestamp)?
        if let text = try string(field.milliseconds) {
            guard let value = DateText.milliseconds(text) else {
                throw dateError(field.milliseconds, text, otherwise: "is not epoch milliseconds")
            }
            kept = (field.milliseconds, value)
        }
        if let text = try string(field.name) {
            guard let value = DateText.milliseconds(text) ?? DateText.appleDate(text) ?? DateText.rfc3339(text) else {
                throw dateError(field.name, text, otherwise: "is not a date")
            }
            if let kept {
                note(field, kept, (field.name, value), in: &disagreements)
            } else {
                kept = (field.name, value)
            }
        }
        if let text = try string(field.pacific) {
            if let kept {
                // Only checked as before (a zone this machine does not know passes), then compared when convertible:
                // Apple writes the same instant in every form, so an edited one shows once converted.
                // Converted (slow) only when the bounds of its zone's offset cannot already tell that it agrees.
                switch DateText.appleDateExtent(text) {
                case .notADate:
                    throw dateError(field.pacific, text, otherwise: "is not a date")
                case .within(let bounds) where agrees(bounds, with: kept.value):
                    break
                case .within, .elsewhere:
                    if let value = DateText.appleDate(text) {
                        note(field, kept, (field.pacific, value), in: &disagreements)
                    }
                }
            } else {
                guard let value = DateText.appleDate(text) else {
                    throw dateError(field.pacific, text, otherwise: "is not a date")
                }
                kept = (field.pacific, value)
            }
        }
        return kept?.value
    }

    /// The `invalid-date` error for `text` in `key`: `problem` unless the text is a date the database cannot store.
    func dateError(_ key: String, _ text: String, otherwise problem: String) -> ReceiptRecordError {
        let isOutOfRange = DateText.isOutsideStorableRange(text.trimmingASCIIWhitespace())
        let described = isOutOfRange ? "is " + DateText.storableRangeNote : problem
        return ReceiptRecordError(.invalidDate, "\"\(name(key))\" \(described) (\(quoted(text)))")
    }

    /// Whether every instant in `bounds` is within `DateDisagreement.toleranceMilliseconds` of `kept`.
    private func agrees(_ bounds: ClosedRange<Timestamp>, with kept: Timestamp) -> Bool {
        let tolerance = Int64(DateDisagreement.toleranceMilliseconds)
        return bounds.lowerBound.millisecondsSince1970 >= kept.millisecondsSince1970 - tolerance
            && bounds.upperBound.millisecondsSince1970 <= kept.millisecondsSince1970 + tolerance
    }

    /// Appends a disagreement when `other` is more than `DateDisagreement.toleranceMilliseconds` from `kept`.
    private func note(
        _ field: DateField, _ kept: (member: String, value: Timestamp), _ other: (member: String, value: Timestamp),
        in disagreements: inout [DateDisagreement]
    ) {
        let difference = other.value.millisecondsSince1970 - kept.value.millisecondsSince1970
        guard difference.magnitude > DateDisagreement.toleranceMilliseconds else { return }
        disagreements.append(
            DateDisagreement(
                field: name(field.name), keptMember: kept.member, kept: kept.value, otherMember: other.member,
                other: other.value))
    }

    /// A nested object; absent or null → nil.
    func object(_ key: String) throws(ReceiptRecordError) -> JSONObject? {
        guard let value = object[key] else { return nil }
        switch value {
        case .null: return nil
        case .object(let nested): return nested
        default: throw ReceiptRecordError(.wrongType, "\"\(name(key))\" should be an object, found \(value.typeName)")
        }
    }

    /// A list of objects; a single object counts as a list of one (old auto-renewable responses).
    func objects(_ key: String) throws(ReceiptRecordError) -> [JSONObject] {
        guard let value = object[key] else { return [] }
        switch value {
        case .null: return []
        case .object(let single): return [single]
        case .array(let elements):
            var objects: [JSONObject] = []
            objects.reserveCapacity(elements.count)
            for (index, element) in elements.enumerated() {
                guard case .object(let nested) = element else {
                    throw ReceiptRecordError(
                        .wrongType, "\"\(name(key))[\(index)]\" should be an object, found \(element.typeName)")
                }
                objects.append(nested)
            }
            return objects
        default:
            throw ReceiptRecordError(.wrongType, "\"\(name(key))\" should be an array, found \(value.typeName)")
        }
    }

    /// Shows a value in a message, shortened so a 100 MB field cannot flood a log.
    private func quoted(_ text: String) -> String {
        let limit = 80
        return "\"" + (text.count > limit ? String(text.prefix(limit)) + "…" : text) + "\""
    }
}

/// A date member with its `_ms` and `_pst` twins, spelled once rather than concatenated for every lookup.
struct DateField: Sendable {
    let name: String
    let milliseconds: String
    let pacific: String

    init(_ name: String) {
        self.name = name
        self.milliseconds = name + "_ms"
        self.pacific = name + "_pst"
    }

    static let purchase = DateField("purchase_date")
    static let originalPurchase = DateField("original_purchase_date")
    static let expires = DateField("expires_date")
    static let cancellation = DateField("cancellation_date")
    static let receiptCreation = DateField("receipt_creation_date")
    static let request = DateField("request_date")
    static let gracePeriodExpires = DateField("grace_period_expires_date")

    static let all: [DateField] = [
        .purchase, .originalPurchase, .expires, .cancellation, .receiptCreation, .request, .gracePeriodExpires,
    ]
}

extension String {
    /// The string without leading and trailing ASCII white space (by bytes: no Unicode tables on the hot path).
    func trimmingASCIIWhitespace() -> String {
        let bytes = utf8
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }
        guard let first = bytes.first, let last = bytes.last, isSpace(first) || isSpace(last) else { return self }
        let start = bytes.firstIndex { !isSpace($0) } ?? bytes.endIndex
        let end = bytes.lastIndex { !isSpace($0) }.map { bytes.index(after: $0) } ?? start
        return start < end ? String(decoding: bytes[start..<end], as: UTF8.self) : ""
    }
}

extension FieldReader {
    /// An instant written as epoch milliseconds (a number or its text); a fraction, as Xcode writes, is cut to the
    /// millisecond below.
    func epochMilliseconds(_ key: String) throws(ReceiptRecordError) -> Timestamp? {
        guard let text = try string(key) else { return nil }
        guard let instant = DateText.epochMilliseconds(text) else {
            throw dateError(key, text, otherwise: "is not epoch milliseconds")
        }
        return instant
    }

    /// A quantity: 1 when absent, never negative.
    func quantity(_ key: String) throws(ReceiptRecordError) -> Int {
        let quantity = try int(key) ?? 1
        guard quantity >= 0 else {
            throw ReceiptRecordError(.invalidValue, "\"\(name(key))\" is negative (\(quantity))")
        }
        return quantity
    }

    /// A 64-bit integer (a price in milliunits).
    func int64(_ key: String) throws(ReceiptRecordError) -> Int64? {
        guard let text = try string(key) else { return nil }
        guard let value = Int64(text.trimmingASCIIWhitespace()) else {
            throw ReceiptRecordError(.invalidNumber, "\"\(name(key))\" is not an integer (\(quoted(text)))")
        }
        return value
    }

    /// A UUID, lowercased.
    func uuid(_ key: String) throws(ReceiptRecordError) -> String? {
        guard let text = try string(key) else { return nil }
        return try ReceiptRecordParser.uuid(text, field: name(key))
    }
}
