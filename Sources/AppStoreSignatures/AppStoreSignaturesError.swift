/// Why a trusted root could not be added: the file or bytes a user named hold no certificate we can read.
package struct AppStoreSignaturesError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Where the bytes came from (a file path, or a caller's label) and what is wrong with them.
    package var source: String
    package var reason: String

    /// An error about `source`.
    package init(source: String, reason: String) {
        self.source = source
        self.reason = reason
    }

    package var description: String { "trusted root \(source): \(reason)" }
}
