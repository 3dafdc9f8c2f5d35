/// Byte-level helpers for the report parsers: no Foundation, no allocation unless a `String` is asked for.
enum ReportBytes {
    static let tab = UInt8(ascii: "\t")
    static let space = UInt8(ascii: " ")
    /// How a financial report's trailer lines begin.
    static let totalPrefix: [UInt8] = Array("Total_".utf8)

    /// The decimal value of an ASCII digit.
    @inline(__always)
    static func digit(_ byte: UInt8) -> Int? {
        byte >= 0x30 && byte <= 0x39 ? Int(byte &- 0x30) : nil
    }

    /// The slice without leading and trailing spaces (reports pad dates and leave `" "` in blank fields).
    @inline(__always)
    static func trimmed(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        var start = bytes.startIndex
        var end = bytes.endIndex
        while start < end, bytes[start] == space { start += 1 }
        while end > start, bytes[end - 1] == space { end -= 1 }
        return bytes[start..<end]
    }

    /// True when the line holds nothing but spaces and tabs.
    static func isBlank(_ bytes: ArraySlice<UInt8>) -> Bool {
        bytes.allSatisfy { $0 == space || $0 == tab }
    }

    /// The trimmed text, or `nil` when it is blank: how canonical fields treat `" "` and empty values.
    @inline(__always)
    static func text(_ bytes: ArraySlice<UInt8>) -> String? {
        let value = trimmed(bytes)
        return value.isEmpty ? nil : String(decoding: value, as: UTF8.self)
    }

    /// A whole number with an optional sign, surrounding spaces ignored; `nil` when it is not one or overflows.
    static func integer(_ bytes: ArraySlice<UInt8>) -> Int? {
        let text = trimmed(bytes)
        var index = text.startIndex
        var isNegative = false
        if index < text.endIndex, text[index] == UInt8(ascii: "-") || text[index] == UInt8(ascii: "+") {
            isNegative = text[index] == UInt8(ascii: "-")
            index += 1
        }
        guard index < text.endIndex else { return nil }
        var value = 0
        while index < text.endIndex {
            guard let digit = digit(text[index]) else { return nil }
            let (shifted, overflowA) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflowB) = shifted.addingReportingOverflow(digit)
            guard !overflowA, !overflowB else { return nil }
            value = sum
            index += 1
        }
        return isNegative ? -value : value
    }

    /// Whether `bytes` contains `needle` (a short ASCII marker); only used on header lines.
    static func contains(_ bytes: ArraySlice<UInt8>, _ needle: String) -> Bool {
        let pattern = Array(needle.utf8)
        guard !pattern.isEmpty, bytes.count >= pattern.count else { return false }
        var start = bytes.startIndex
        while start + pattern.count <= bytes.endIndex {
            if bytes[start..<(start + pattern.count)].elementsEqual(pattern) { return true }
            start += 1
        }
        return false
    }

    /// Splits on tabs, returning `[start, end)` offsets relative to `bytes.startIndex`, two entries per field.
    static func tabBounds(_ bytes: ArraySlice<UInt8>, into bounds: inout [UInt32]) -> (fields: Int, highBits: UInt8) {
        bounds.removeAll(keepingCapacity: true)
        var highBits: UInt8 = 0
        bytes.withUnsafeBufferPointer { buffer in
            var start = 0
            for offset in 0..<buffer.count {
                let byte = buffer[offset]
                highBits |= byte
                if byte == tab {
                    bounds.append(UInt32(truncatingIfNeeded: start))
                    bounds.append(UInt32(truncatingIfNeeded: offset))
                    start = offset + 1
                }
            }
            bounds.append(UInt32(truncatingIfNeeded: start))
            bounds.append(UInt32(truncatingIfNeeded: buffer.count))
        }
        return (bounds.count / 2, highBits & 0x80)
    }

    /// Splits one CSV line (RFC 4180 quoting; text after a closing quote is kept literally) into values.
    static func csvFields(_ bytes: ArraySlice<UInt8>) -> [[UInt8]] {
        let quote = UInt8(ascii: "\"")
        let comma = UInt8(ascii: ",")
        var fields: [[UInt8]] = []
        var current: [UInt8] = []
        var isQuoted = false
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            if isQuoted {
                if byte == quote {
                    if index + 1 < bytes.endIndex, bytes[index + 1] == quote {
                        current.append(quote)
                        index += 1
                    } else {
                        isQuoted = false
                    }
                } else {
                    current.append(byte)
                }
            } else if byte == comma {
                fields.append(current)
                current = []
            } else if byte == quote && current.isEmpty {
                isQuoted = true
            } else {
                current.append(byte)
            }
            index += 1
        }
        fields.append(current)
        return fields
    }

    /// A header or column name for matching: lowercase ASCII letters and digits only, so that Apple's spellings
    /// `Country of Sale` / `Country Of Sale` and `Pre-order Flag` / `Preorder Flag` compare equal.
    static func nameKey(_ name: String) -> String {
        var key = ""
        key.reserveCapacity(name.utf8.count)
        for scalar in name.unicodeScalars {
            if scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) {
                key.unicodeScalars.append(contentsOf: scalar.properties.lowercaseMapping.unicodeScalars)
            }
        }
        return key
    }
}
