#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A failure to read, decode or write a possibly gzip-compressed file.
package struct GzipError: Error, Sendable, CustomStringConvertible, Equatable {
    /// What went wrong.
    package enum Kind: Sendable, Equatable {
        /// The input ended inside a gzip member (header, deflate data or trailer).
        case truncated
        /// The gzip data is damaged (bad header, invalid deflate data, CRC or length mismatch); carries zlib's message.
        case corrupt(String)
        /// Bytes after the last complete member are neither zero padding nor the start of another member.
        case trailingGarbage
        /// A read or write on an open file failed with this `errno`.
        case io(errno: Int32, path: String)
        /// The file could not be opened or created; carries `errno`.
        case open(errno: Int32, path: String)
        /// zlib refused an operation that does not depend on the data (initialisation, memory); carries its message.
        case zlib(String)
    }

    /// What went wrong.
    package var kind: Kind
    /// How many decoded bytes had been delivered to the caller when the failure was reported (0 for writers).
    package var decodedOffset: Int

    /// Creates an error of the given kind, reported after `decodedOffset` decoded bytes were delivered.
    package init(_ kind: Kind, decodedOffset: Int = 0) {
        self.kind = kind
        self.decodedOffset = decodedOffset
    }

    /// A sentence for the user: what failed and why.
    package var description: String {
        switch kind {
        case .truncated:
            return "gzip data ends in the middle of a member (truncated file)"
        case .corrupt(let message):
            return "gzip data is corrupt after \(decodedOffset) decoded bytes: \(message)"
        case .trailingGarbage:
            return "gzip data is followed by bytes that are not another gzip member (trailing garbage)"
        case .io(let code, let path):
            return "\(path): I/O error: \(Self.systemMessage(code))"
        case .open(let code, let path):
            return "\(path): cannot open: \(Self.systemMessage(code))"
        case .zlib(let message):
            return "zlib failed: \(message)"
        }
    }

    /// The C library's text for an `errno` value, e.g. "No such file or directory".
    static func systemMessage(_ code: Int32) -> String {
        guard let text = strerror(code) else { return "errno \(code)" }
        return String(cString: text)
    }
}
