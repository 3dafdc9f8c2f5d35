/// Recognises a text file written in UTF-16 (Windows tools and some spreadsheet exports do this), which every reader
/// here would otherwise see as lines full of NUL bytes.
enum UTF16Detection {
    enum ByteOrder: String {
        case littleEndian = "little-endian"
        case bigEndian = "big-endian"
    }

    /// The byte order when `bytes` (the start of a file) are UTF-16: a byte order mark, or ASCII text whose every
    /// other byte is zero.
    static func byteOrder(ofFirstLine bytes: ArraySlice<UInt8>) -> ByteOrder? {
        let start = bytes.startIndex
        guard bytes.count >= 2 else { return nil }
        switch (bytes[start], bytes[start + 1]) {
        case (0xFF, 0xFE): return .littleEndian
        case (0xFE, 0xFF): return .bigEndian
        case (0x00, let next) where next != 0: return .bigEndian
        case (let first, 0x00) where first != 0: return .littleEndian
        default: return nil
        }
    }

    static func message(_ order: ByteOrder) -> String {
        "the file is UTF-16 (\(order.rawValue)), not UTF-8; convert it (iconv -f UTF-16 -t UTF-8) and ingest it again"
    }
}
