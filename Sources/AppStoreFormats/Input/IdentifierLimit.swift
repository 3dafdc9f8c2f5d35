/// The longest identifier any parser accepts (transaction, product, bundle, store-account ids, report keys).
///
/// Apple's own are tens of bytes; these values go into PostgreSQL B-tree indexes, whose entries cannot exceed about
/// 2.7 kB, often two to a composite key. A longer value is not a real id: its record is quarantined as
/// `value-too-long` with the field's name, instead of failing the file's COPY and, with it, every later run.
package enum IdentifierLimit {
    /// Bytes of UTF-8.
    package static let bytes = 512

    /// The message for a value over the limit.
    static func message(field: String, length: Int) -> String {
        "\(field) is \(length) bytes long; identifiers are at most \(bytes) bytes"
    }
}
