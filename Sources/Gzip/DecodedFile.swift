import CZlib

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A file read as its decoded bytes: gzip data (every member) is inflated, anything else passes through unchanged.
///
/// Whether the file is gzip is decided by its first two bytes (`1f 8b`), never by its name. The file is read in
/// chunks of ``inputBufferSize`` bytes, so memory stays bounded whatever its size. When decoding fails, every byte
/// decoded before the fault is returned first and the error is thrown by the following call (and every call after
/// it), so a caller can keep the good records of a damaged file.
package final class DecodedFile {
    /// The size of the raw read buffer; the file is never read whole.
    package static let inputBufferSize = 256 * 1024

    /// The path the file was opened with.
    package let path: String
    /// Whether the file starts with the gzip magic bytes and is therefore inflated.
    package let isGzip: Bool
    /// How many raw (compressed, for gzip) bytes have been read from the file so far, for progress reporting.
    package private(set) var compressedBytesRead: Int
    /// How many decoded bytes have been delivered to the caller so far.
    package private(set) var decodedByteOffset = 0

    private let fd: Int32
    private let input: UnsafeMutableRawBufferPointer
    /// Raw bytes `inputStart..<inputEnd` of `input` are read from the file but not yet consumed.
    private var inputStart = 0
    private var inputEnd: Int
    private var isAtEndOfInput: Bool
    /// Only set for gzip files; heap-allocated because zlib keeps a pointer back to the stream and checks it.
    private let stream: UnsafeMutablePointer<z_stream>?
    private var isInsideMember = false
    private var isFinished = false
    /// A fault found after some good bytes were returned; thrown by the next call, and by every call after that.
    private var pendingError: GzipError?
    /// For a plain file restricted to a byte range: how many bytes of it are still to be delivered.
    private var remainingInRange: Int?

    /// Opens `path` for reading and sniffs its first bytes to decide between gzip and plain data.
    package init(path: String) throws(GzipError) {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw GzipError(.open(errno: errno, path: path)) }
        let input = UnsafeMutableRawBufferPointer.allocate(byteCount: Self.inputBufferSize, alignment: 16)
        // Sniff the magic; a short read is legal (pipes), so read until two bytes or the end of the file.
        var filled = 0
        var isAtEnd = false
        while filled < 2 && !isAtEnd {
            let base = input.baseAddress.unsafelyUnwrapped
            let count = SystemCalls.readSome(fd, into: base + filled, count: input.count - filled)
            if count < 0 {
                input.deallocate()
                close(fd)
                throw GzipError(.io(errno: Int32(-count), path: path))
            }
            filled += count
            isAtEnd = count == 0
        }
        let isGzip = filled >= 2 && input[0] == 0x1f && input[1] == 0x8b
        var stream: UnsafeMutablePointer<z_stream>?
        if isGzip {
            let allocated = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
            allocated.initialize(to: z_stream())
            // 15 + 16: a full 32 KiB window and gzip framing only (the magic has been checked already).
            let result = czlib_inflate_init2(allocated, 15 + 16)
            guard result == Z_OK else {
                allocated.deinitialize(count: 1)
                allocated.deallocate()
                input.deallocate()
                close(fd)
                throw GzipError(.zlib("inflateInit2 returned \(result)"))
            }
            stream = allocated
        }
        self.path = path
        self.fd = fd
        self.input = input
        self.inputEnd = filled
        self.isAtEndOfInput = isAtEnd
        self.compressedBytesRead = filled
        self.isGzip = isGzip
        self.stream = stream
    }

    deinit {
        if let stream {
            inflateEnd(stream)
            stream.deinitialize(count: 1)
            stream.deallocate()
        }
        input.deallocate()
        close(fd)
    }

    /// Appends up to `maxCount` decoded bytes to `buffer` and returns how many were appended; 0 means the end.
    package func read(into buffer: inout [UInt8], maxCount: Int) throws(GzipError) -> Int {
        if let pendingError { throw pendingError }
        guard maxCount > 0 else { return 0 }
        let oldCount = buffer.count
        buffer.append(contentsOf: repeatElement(0, count: maxCount))
        var outcome: Result<Int, GzipError> = .success(0)
        buffer.withUnsafeMutableBytes { bytes in
            do throws(GzipError) {
                outcome = .success(try read(into: UnsafeMutableRawBufferPointer(rebasing: bytes[oldCount...])))
            } catch {
                outcome = .failure(error)
            }
        }
        switch outcome {
        case .success(let count):
            buffer.removeLast(maxCount - count)
            return count
        case .failure(let error):
            buffer.removeLast(maxCount)
            throw error
        }
    }

    /// Decodes into `destination` and returns how many bytes were written there; 0 means the end of the data.
    package func read(into destination: UnsafeMutableRawBufferPointer) throws(GzipError) -> Int {
        if let pendingError { throw pendingError }
        guard let base = destination.baseAddress, destination.count > 0, !isFinished else { return 0 }
        var failure: GzipError.Kind?
        let produced: Int
        if isGzip {
            produced = inflateSome(into: base, count: destination.count, failure: &failure)
        } else {
            produced = copyPlain(into: base, count: destination.count, failure: &failure)
        }
        decodedByteOffset += produced
        if let failure {
            let error = GzipError(failure, decodedOffset: decodedByteOffset)
            pendingError = error
            // Good bytes go out first; the fault is reported by the next call.
            if produced == 0 { throw error }
        }
        return produced
    }

    /// Moves unconsumed input to the front of the buffer and reads more after it; returns a failure, if any.
    private func refill() -> GzipError.Kind? {
        let base = input.baseAddress.unsafelyUnwrapped
        let kept = inputEnd - inputStart
        if inputStart > 0 {
            if kept > 0 { base.copyMemory(from: base + inputStart, byteCount: kept) }
            inputStart = 0
            inputEnd = kept
        }
        let count = SystemCalls.readSome(fd, into: base + inputEnd, count: input.count - inputEnd)
        if count < 0 { return .io(errno: Int32(-count), path: path) }
        inputEnd += count
        compressedBytesRead += count
        isAtEndOfInput = count == 0
        return nil
    }

    /// Makes a plain (not gzip) file deliver only the bytes `range` of it — the part of a growing file not read
    /// before, up to its last complete line. Call before the first read; false (and no change) for a gzip file.
    package func restrict(toPlainBytes range: Range<Int>) throws(GzipError) -> Bool {
        guard !isGzip, decodedByteOffset == 0 else { return false }
        guard lseek(fd, off_t(range.lowerBound), SEEK_SET) >= 0 else {
            throw GzipError(.io(errno: errno, path: path))
        }
        inputStart = 0
        inputEnd = 0
        isAtEndOfInput = false
        remainingInRange = range.count
        return true
    }

    private func copyPlain(into base: UnsafeMutableRawPointer, count: Int, failure: inout GzipError.Kind?) -> Int {
        var count = count
        if let remaining = remainingInRange {
            guard remaining > 0 else {
                isFinished = true
                return 0
            }
            count = min(count, remaining)
        }
        let produced = copyPlainUnbounded(into: base, count: count, failure: &failure)
        if let remaining = remainingInRange { remainingInRange = remaining - produced }
        return produced
    }

    private func copyPlainUnbounded(
        into base: UnsafeMutableRawPointer, count: Int, failure: inout GzipError.Kind?
    ) -> Int {
        // Bytes already read while sniffing go out first; after that, read straight into the caller's memory.
        let buffered = min(inputEnd - inputStart, count)
        if buffered > 0 {
            base.copyMemory(from: input.baseAddress.unsafelyUnwrapped + inputStart, byteCount: buffered)
            inputStart += buffered
            return buffered
        }
        if isAtEndOfInput {
            isFinished = true
            return 0
        }
        let result = SystemCalls.readSome(fd, into: base, count: count)
        if result < 0 {
            failure = .io(errno: Int32(-result), path: path)
            return 0
        }
        compressedBytesRead += result
        if result == 0 {
            isAtEndOfInput = true
            isFinished = true
        }
        return result
    }

    private func inflateSome(into base: UnsafeMutableRawPointer, count: Int, failure: inout GzipError.Kind?) -> Int {
        guard let stream else { return 0 }
        let inputBase = input.baseAddress.unsafelyUnwrapped
        var produced = 0
        decoding: while produced < count {
            if inputStart == inputEnd && !isAtEndOfInput {
                if let kind = refill() {
                    failure = kind
                    break
                }
            }
            if !isInsideMember {
                // Between members: zero padding is tolerated, anything else must be the next member's magic.
                while inputStart < inputEnd && input[inputStart] == 0 { inputStart += 1 }
                if inputStart == inputEnd {
                    if isAtEndOfInput {
                        isFinished = true
                        break
                    }
                    continue
                }
                if inputEnd - inputStart < 2 && !isAtEndOfInput {
                    if let kind = refill() {
                        failure = kind
                        break
                    }
                    continue
                }
                if inputEnd - inputStart < 2 {
                    failure = input[inputStart] == 0x1f ? .truncated : .trailingGarbage
                    break
                }
                guard input[inputStart] == 0x1f && input[inputStart + 1] == 0x8b else {
                    failure = .trailingGarbage
                    break
                }
                inflateReset(stream)
                isInsideMember = true
            }
            let available = inputEnd - inputStart
            let room = min(count - produced, Int(UInt32.max))
            stream.pointee.next_in = (inputBase + inputStart).assumingMemoryBound(to: Bytef.self)
            stream.pointee.avail_in = uInt(available)
            stream.pointee.next_out = (base + produced).assumingMemoryBound(to: Bytef.self)
            stream.pointee.avail_out = uInt(room)
            let result = inflate(stream, Z_NO_FLUSH)
            inputStart += available - Int(stream.pointee.avail_in)
            produced += room - Int(stream.pointee.avail_out)
            switch result {
            case Z_OK:
                continue
            case Z_STREAM_END:
                // zlib has verified the member's CRC-32 and length; more members may follow.
                isInsideMember = false
            case Z_BUF_ERROR:
                // No progress was possible: the input is used up. At the end of the file that means truncation.
                if inputStart == inputEnd && isAtEndOfInput {
                    failure = .truncated
                    break decoding
                }
                if inputStart != inputEnd {
                    failure = .zlib("inflate made no progress")
                    break decoding
                }
            case Z_DATA_ERROR:
                failure = .corrupt(zlibMessage(stream, fallback: "invalid deflate data"))
                break decoding
            case Z_NEED_DICT:
                failure = .corrupt("the member needs a preset dictionary, which gzip does not allow")
                break decoding
            case Z_MEM_ERROR:
                failure = .zlib("out of memory")
                break decoding
            default:
                failure = .zlib(zlibMessage(stream, fallback: "inflate returned \(result)"))
                break decoding
            }
        }
        return produced
    }

    private func zlibMessage(_ stream: UnsafeMutablePointer<z_stream>, fallback: String) -> String {
        guard let message = stream.pointee.msg else { return fallback }
        return String(cString: message)
    }
}

/// A decoded file owns a file descriptor and a zlib stream, which must not be used from two threads at once.
@available(*, unavailable)
extension DecodedFile: Sendable {}
