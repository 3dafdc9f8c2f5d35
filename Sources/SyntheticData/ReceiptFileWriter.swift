import Foundation
import Gzip

/// All file output of the generator: directories, small whole files, and receipt files streamed as plain `.jsonl`
/// or gzip `.jsonl.gz` — one place to change if the storage changes.
final class ReceiptFileWriter {
    private enum Sink {
        case plain(FileHandle)
        case gzip(GzipWriter)
    }

    /// Bytes gathered before a write; bounds memory whatever the file size.
    private static let flushThreshold = 1 << 20
    /// zlib's default: a realistic archive, and decompression speed hardly depends on the level.
    private static let compressionLevel: Int32 = 6

    let path: String
    private var sink: Sink
    private var buffer: [UInt8] = []

    /// Creates (or truncates) the receipt file at `path`; gzip when `compress`.
    init(path: String, compress: Bool) throws {
        self.path = path
        buffer.reserveCapacity(Self.flushThreshold + 64 * 1024)
        if compress {
            do {
                sink = .gzip(try GzipWriter(path: path, level: Self.compressionLevel))
            } catch {
                throw SyntheticDataError.cannotWrite(path: path, reason: "\(error)")
            }
        } else {
            guard FileManager.default.createFile(atPath: path, contents: nil),
                let handle = FileHandle(forWritingAtPath: path)
            else { throw SyntheticDataError.cannotWrite(path: path, reason: "cannot create the file") }
            sink = .plain(handle)
        }
    }

    /// Appends bytes (whole lines), writing through once a megabyte has gathered.
    func append(_ bytes: [UInt8]) throws {
        buffer.append(contentsOf: bytes)
        if buffer.count >= Self.flushThreshold { try flush() }
    }

    /// Writes what is left and closes the file.
    func close() throws {
        try flush()
        do {
            switch sink {
            case .plain(let handle): try handle.close()
            case .gzip(let writer):
                // Finish the member explicitly (even an empty file gets a complete one), then close.
                try writer.finishMember()
                try writer.close()
            }
        } catch {
            throw SyntheticDataError.cannotWrite(path: path, reason: "\(error)")
        }
    }

    private func flush() throws {
        guard !buffer.isEmpty else { return }
        do {
            switch sink {
            case .plain(let handle): try handle.write(contentsOf: Data(buffer))
            case .gzip(let writer): try writer.write(buffer)
            }
        } catch {
            throw SyntheticDataError.cannotWrite(path: path, reason: "\(error)")
        }
        buffer.removeAll(keepingCapacity: true)
    }

    /// Creates a directory and its parents (no error if it exists).
    static func createDirectory(_ path: String) throws {
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            throw SyntheticDataError.cannotWrite(path: path, reason: "\(error)")
        }
    }

    /// Writes a small file whole (catalog, manifest), replacing any old one.
    static func writeFile(_ path: String, bytes: [UInt8]) throws {
        guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else {
            throw SyntheticDataError.cannotWrite(path: path, reason: "cannot create the file")
        }
    }

    /// Writes a manifest as every generator's manifest is written: indented, keys sorted so the same data gives the
    /// same bytes, and `/` unescaped so paths read as paths.
    static func writeManifest(_ path: String, _ manifest: some Encodable) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        try writeFile(path, bytes: Array(try encoder.encode(manifest)))
    }
}
