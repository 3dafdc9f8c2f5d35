internal import AppStoreFormats

/// An append-only JSON writer over a byte buffer: much faster than `JSONEncoder` for millions of small objects, and its
/// output (key order, spacing) is fixed, which byte-identical output from one seed needs.
///
/// Commas are placed without a container stack: a separator is due before every key or array element except the
/// first in its container, and closing a container always leaves its parent non-empty.
struct JSONByteWriter {
    /// The bytes written so far.
    private(set) var bytes: [UInt8] = []
    /// Whether the next key or element is the first in its container.
    private var isFirst = true
    /// Writes `\/` for `/` in strings, as some of Apple's responses do (`Etc\/GMT`).
    var escapesSlashes = false

    init(capacity: Int = 0) {
        bytes.reserveCapacity(capacity)
    }

    /// Empties the buffer, keeping its storage.
    mutating func reset() {
        bytes.removeAll(keepingCapacity: true)
        isFirst = true
        escapesSlashes = false
    }

    // MARK: Structure

    mutating func beginObject() { open(UInt8(ascii: "{")) }

    mutating func endObject() { close(UInt8(ascii: "}")) }

    mutating func beginArray() { open(UInt8(ascii: "[")) }

    mutating func endArray() { close(UInt8(ascii: "]")) }

    /// A new container: its first key or element takes no comma.
    private mutating func open(_ bracket: UInt8) {
        bytes.append(bracket)
        isFirst = true
    }

    /// The container ends, and its parent now holds something: the next key or element there takes a comma.
    private mutating func close(_ bracket: UInt8) {
        bytes.append(bracket)
        isFirst = false
    }

    /// Writes the comma due before an array element.
    mutating func element() {
        if !isFirst { bytes.append(UInt8(ascii: ",")) }
        isFirst = false
    }

    /// For hand-indented output: writes the comma due before the next key or element, then `whitespace`; the
    /// `key` or `element` call that follows adds no second comma.
    mutating func lineBreak(_ whitespace: StaticString) {
        if !isFirst { bytes.append(UInt8(ascii: ",")) }
        raw(whitespace)
        isFirst = true
    }

    /// For the hand-indented files (manifests, catalog): `"key":` on a new line, indented two spaces.
    mutating func indentedKey(_ name: StaticString) {
        lineBreak("\n  ")
        key(name)
    }

    /// For the hand-indented files: `"key":` on a new line, then an array with one element a line, indented four
    /// spaces; `write` writes each element's value.
    mutating func indentedArray<Element>(
        _ name: StaticString, _ elements: [Element], write: (inout JSONByteWriter, Element) -> Void
    ) {
        indentedKey(name)
        beginArray()
        for value in elements {
            lineBreak("\n    ")
            element()
            write(&self, value)
        }
        raw(elements.isEmpty ? "" : "\n  ")
        endArray()
    }

    /// Writes `"key":` (with a leading comma when due); keys are ASCII literals and need no escaping.
    mutating func key(_ name: StaticString) {
        element()
        bytes.append(UInt8(ascii: "\""))
        name.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
    }

    // MARK: Values

    /// Appends bytes verbatim: a value the caller already encoded, or deliberate garbage for a bad record.
    mutating func raw(_ literal: StaticString) {
        literal.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// Appends bytes verbatim.
    mutating func raw(_ data: [UInt8]) {
        bytes.append(contentsOf: data)
    }

    /// Appends bytes verbatim from a buffer the caller built.
    mutating func raw(_ buffer: UnsafeBufferPointer<UInt8>) {
        bytes.append(contentsOf: buffer)
    }

    /// Appends one byte verbatim.
    mutating func rawByte(_ byte: UInt8) {
        bytes.append(byte)
    }

    mutating func string(_ literal: StaticString) {
        bytes.append(UInt8(ascii: "\""))
        literal.withUTF8Buffer { appendEscaped($0) }
        bytes.append(UInt8(ascii: "\""))
    }

    /// Writes a JSON string from UTF-8 bytes, escaping `"`, `\`, control characters (and `/` when asked).
    mutating func string(_ utf8: [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        utf8.withUnsafeBufferPointer { appendEscaped($0) }
        bytes.append(UInt8(ascii: "\""))
    }

    mutating func string(_ text: String) {
        var text = text
        text.withUTF8 { buffer in
            bytes.append(UInt8(ascii: "\""))
            appendEscaped(buffer)
            bytes.append(UInt8(ascii: "\""))
        }
    }

    mutating func bool(_ value: Bool) {
        raw(value ? "true" : "false")
    }

    mutating func null() {
        raw("null")
    }

    /// Writes an integer as a JSON number.
    mutating func number(_ value: Int64) {
        appendDecimal(value)
    }

    /// Writes `"name":value` for each pair, in order (keys after the first take their comma).
    mutating func integers(_ members: [(name: StaticString, value: Int)]) {
        for (name, value) in members {
            key(name)
            number(Int64(value))
        }
    }

    /// Writes an unsigned integer as a JSON number.
    mutating func number(_ value: UInt64) {
        appendDecimal(value)
    }

    /// Writes an integer inside quotes, Apple's usual style (`"quantity": "1"`).
    mutating func quotedNumber(_ value: Int64) {
        bytes.append(UInt8(ascii: "\""))
        appendDecimal(value)
        bytes.append(UInt8(ascii: "\""))
    }

    /// Writes an unsigned integer inside quotes.
    mutating func quotedNumber(_ value: UInt64) {
        bytes.append(UInt8(ascii: "\""))
        appendDecimal(value)
        bytes.append(UInt8(ascii: "\""))
    }

    // MARK: Editing (bad records are made by breaking a good line)

    /// Keeps only the first `count` bytes.
    mutating func truncate(to count: Int) {
        bytes.removeSubrange(min(count, bytes.count)...)
    }

    /// Replaces the first `target` byte with `replacement`; false when there is none.
    @discardableResult
    mutating func replaceFirst(_ target: UInt8, with replacement: UInt8) -> Bool {
        guard let index = bytes.firstIndex(of: target) else { return false }
        bytes[index] = replacement
        return true
    }

    // MARK: Primitives

    /// Appends the decimal digits of `value` (no quotes).
    mutating func appendDecimal(_ value: Int64) {
        if value < 0 {
            bytes.append(UInt8(ascii: "-"))
            appendDecimal(value.magnitude)
        } else {
            appendDecimal(UInt64(value))
        }
    }

    /// Appends the decimal digits of `value` (no quotes).
    mutating func appendDecimal(_ value: UInt64) {
        // Digits fill a stack buffer from the right, two at a time, then go in with one append.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { scratch in
            var index = 20
            var remaining = value
            while remaining >= 100 {
                let pair = Int(remaining % 100) * 2
                remaining /= 100
                index -= 2
                scratch[index] = Self.digitPairs[pair]
                scratch[index + 1] = Self.digitPairs[pair + 1]
            }
            if remaining >= 10 {
                let pair = Int(remaining) * 2
                index -= 2
                scratch[index] = Self.digitPairs[pair]
                scratch[index + 1] = Self.digitPairs[pair + 1]
            } else {
                index -= 1
                scratch[index] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: remaining)
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: scratch[index..<20]))
        }
    }

    /// "00" through "99", for writing two digits at a time.
    static let digitPairs: [UInt8] = (0..<100).flatMap {
        [UInt8(ascii: "0") + UInt8($0 / 10), UInt8(ascii: "0") + UInt8($0 % 10)]
    }

    /// Appends `value` as exactly `width` digits, zero-padded (`width` ≤ 4 is all dates need).
    mutating func appendPadded(_ value: Int, width: Int) {
        var divisor = 1
        for _ in 1..<width { divisor *= 10 }
        var remaining = value
        while divisor > 0 {
            bytes.append(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: (remaining / divisor) % 10))
            remaining %= divisor
            divisor /= 10
        }
    }

    private mutating func appendEscaped(_ buffer: UnsafeBufferPointer<UInt8>) {
        JSONStringEscaping.append(buffer, to: &bytes, escapingSlashes: escapesSlashes)
    }
}
