/// Why one recorded receipt cannot be stored: a reason code for machines and a message for people.
///
/// Messages name the field and, for dates and numbers, the offending value — never an application username.
package struct ReceiptRecordError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Stable reason codes, stored in the quarantine and counted in summaries: the shared quarantine vocabulary.
    package typealias Code = QuarantineReason

    package var code: Code
    package var message: String

    /// An error with a code and a message.
    package init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    package var description: String { message }
}
