/// Why one recorded receipt cannot be stored: a reason code for machines and a message for people.
///
/// Messages name the field and, for dates and numbers, the offending value — never an application username.
public struct ReceiptRecordError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Stable reason codes, stored in the quarantine and counted in summaries.
    public enum Code: String, Sendable, CaseIterable {
        case invalidJSON = "invalid-json"
        case invalidUTF8 = "invalid-utf8"
        case notAnObject = "not-an-object"
        case missingResponse = "missing-response"
        case missingField = "missing-field"
        case wrongType = "wrong-type"
        case invalidDate = "invalid-date"
        case invalidNumber = "invalid-number"
        case invalidValue = "invalid-value"
        case nulCharacter = "nul-character"
        case invalidUsernameHash = "invalid-username-hash"
        case usernameHashMismatch = "username-hash-mismatch"
    }

    public var code: Code
    public var message: String

    /// An error with a code and a message.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }
}
