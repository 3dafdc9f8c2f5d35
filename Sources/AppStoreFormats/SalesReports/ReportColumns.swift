/// Every column of one report row, by header name and in header order, values verbatim (padding and `" "` kept).
///
/// Values are decoded from the row's bytes only when read, so keeping all columns costs two allocations per row.
package struct ReportColumns: Sendable, Equatable, RandomAccessCollection {
    /// One column: its header name and its value as written.
    package struct Column: Sendable, Equatable {
        /// The header name (empty for a value past the last named column).
        package let name: String
        /// The value exactly as written, e.g. `" "` or `"08/28/2010          "`.
        package let value: String

        /// Creates a column.
        package init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// The header names, shared by every row of a file.
    package let names: [String]
    private let storage: [UInt8]
    /// Two offsets into `storage` per value: start and end.
    private let bounds: [UInt32]

    init(names: [String], storage: [UInt8], bounds: [UInt32]) {
        self.names = names
        self.storage = storage
        self.bounds = bounds
    }

    /// Builds columns from already-decoded values (CSV rows, whose quotes are not in the stored bytes).
    init(names: [String], values: [[UInt8]]) {
        var storage: [UInt8] = []
        var bounds: [UInt32] = []
        bounds.reserveCapacity(values.count * 2)
        for value in values {
            bounds.append(UInt32(truncatingIfNeeded: storage.count))
            storage.append(contentsOf: value)
            bounds.append(UInt32(truncatingIfNeeded: storage.count))
        }
        self.init(names: names, storage: storage, bounds: bounds)
    }

    /// The first position.
    package var startIndex: Int { 0 }
    /// One past the last position: the number of values in the row.
    package var endIndex: Int { bounds.count / 2 }

    /// The column at `position`.
    package subscript(position: Int) -> Column {
        Column(name: position < names.count ? names[position] : "", value: value(at: position))
    }

    /// The verbatim value of the first column with this exact header name, or `nil` when there is none.
    package subscript(name: String) -> String? {
        guard let position = names.firstIndex(of: name), position < endIndex else { return nil }
        return value(at: position)
    }

    /// The verbatim value at `position`.
    package func value(at position: Int) -> String {
        String(decoding: bytes(at: position), as: UTF8.self)
    }

    /// The verbatim UTF-8 bytes at `position`, without decoding them into a `String` (for bulk loading).
    package func bytes(at position: Int) -> ArraySlice<UInt8> {
        storage[Int(bounds[2 * position])..<Int(bounds[2 * position + 1])]
    }

    /// Rows are equal when their names and values are.
    package static func == (lhs: ReportColumns, rhs: ReportColumns) -> Bool {
        guard lhs.names == rhs.names, lhs.count == rhs.count else { return false }
        return (0..<lhs.count).allSatisfy { lhs.bytes(at: $0).elementsEqual(rhs.bytes(at: $0)) }
    }
}
