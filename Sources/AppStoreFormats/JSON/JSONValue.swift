/// A parsed JSON value that keeps what receipts need and Foundation loses: exact number text and member positions.
package enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    /// A number, kept as its exact source text (transaction ids exceed what a Double holds exactly).
    case number(String)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)

    /// The object, when this value is one.
    package var object: JSONObject? {
        if case .object(let object) = self { return object }
        return nil
    }

    /// The array, when this value is one.
    package var array: [JSONValue]? {
        if case .array(let array) = self { return array }
        return nil
    }

    /// A short name of the value's JSON type, for error messages.
    package var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "boolean"
        case .number: "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }
}

/// A JSON object with its members in source order; duplicate keys are kept, and lookups see the first.
package struct JSONObject: Sendable, Equatable {
    /// One `"key": value` member and where it stands in the source bytes.
    package struct Member: Sendable, Equatable {
        package var key: String {
            didSet { keyTag = JSONObject.tag(of: key) }
        }
        package var value: JSONValue
        /// Byte range from the key's opening quote to the end of the value, relative to the parsed input.
        package var range: Range<Int>
        /// `JSONObject.tag(of: key)`, kept so that a lookup passes over the other members by one comparison.
        private(set) var keyTag: UInt64

        package init(key: String, value: JSONValue, range: Range<Int>) {
            self.init(key: key, keyTag: JSONObject.tag(of: key), value: value, range: range)
        }

        /// A member whose key's tag the parser took from the key's bytes where they lay.
        init(key: String, keyTag: UInt64, value: JSONValue, range: Range<Int>) {
            self.key = key
            self.value = value
            self.range = range
            self.keyTag = keyTag
        }
    }

    /// The members in source order.
    package var members: [Member]

    /// The value of the first member named `key`.
    package subscript(key: String) -> JSONValue? {
        let tag = Self.tag(of: key)
        // Most lookups are of members an object does not have (a transaction's twenty-odd optional fields): each
        // member is passed over by its tag, and only a member whose tag matches is compared as a string.
        for member in members where member.keyTag == tag && member.key == key { return member.value }
        return nil
    }

    /// Whether any member is named `key`.
    package func contains(_ key: String) -> Bool {
        let tag = Self.tag(of: key)
        return members.contains { $0.keyTag == tag && $0.key == key }
    }

    /// A summary of a key's UTF-8 bytes — its length and its last eight bytes — that equal keys share. Keys of one
    /// record differ mostly in their endings (`purchase_date_ms`, `purchase_date_pst`) or lengths.
    static func tag(of key: String) -> UInt64 {
        if let tag = key.utf8.withContiguousStorageIfAvailable(tag(of:)) { return tag }
        return tag(of: Array(key.utf8))
    }

    /// `tag(of:)` of a key's UTF-8 bytes.
    static func tag(of bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var last: UInt64 = 0
        if bytes.count >= 8, let base = UnsafeRawPointer(bytes.baseAddress) {
            last = base.loadUnaligned(fromByteOffset: bytes.count - 8, as: UInt64.self)
        } else {
            for byte in bytes { last = last << 8 | UInt64(byte) }
        }
        return last ^ UInt64(bytes.count) &* 0x9E37_79B9_7F4A_7C15
    }

    private static func tag(of bytes: [UInt8]) -> UInt64 {
        bytes.withUnsafeBufferPointer { tag(of: $0) }
    }
}
