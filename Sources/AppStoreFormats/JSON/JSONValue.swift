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
        package var key: String
        package var value: JSONValue
        /// Byte range from the key's opening quote to the end of the value, relative to the parsed input.
        package var range: Range<Int>
    }

    /// The members in source order.
    package var members: [Member]

    /// The value of the first member named `key`.
    package subscript(key: String) -> JSONValue? {
        let length = key.utf8.count
        // Comparing lengths first (O(1) for native strings) skips most members without a string comparison.
        for member in members where member.key.utf8.count == length && member.key == key { return member.value }
        return nil
    }

    /// Whether any member is named `key`.
    package func contains(_ key: String) -> Bool {
        let length = key.utf8.count
        return members.contains { $0.key.utf8.count == length && $0.key == key }
    }
}
