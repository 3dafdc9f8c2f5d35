import CZlib

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes a gzip file, optionally as several members (as App Store Connect has delivered reports since 2018).
///
/// Call ``close()`` when done: a writer that is dropped without it leaves an unfinished (truncated) member behind.
package final class GzipWriter {
    /// The size of the compressed-output buffer that is flushed to the file when full.
    static let outputBufferSize = 256 * 1024

    /// The path of the file being written.
    package let path: String
    /// How many complete gzip members have been written so far.
    package private(set) var membersWritten = 0

    private var fd: Int32
    private let output: UnsafeMutableRawBufferPointer
    /// Heap-allocated because zlib keeps a pointer back to the stream and checks it.
    private let stream: UnsafeMutablePointer<z_stream>
    /// Whether bytes (possibly none) were written since the last member was finished.
    private var isMemberOpen = false
    /// Free bytes at the end of `output`; the bytes before them await writing to the file.
    private var outputRoom = GzipWriter.outputBufferSize

    /// Creates or truncates the file at `path` (mode 0644) and prepares to compress at `level` (0 to 9).
    package init(path: String, level: Int32 = 6) throws(GzipError) {
        let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
        stream.initialize(to: z_stream())
        // 15 + 16: a full 32 KiB window with gzip framing (header, CRC-32 and length trailer).
        let result = czlib_deflate_init2(stream, level, 15 + 16)
        guard result == Z_OK else {
            stream.deinitialize(count: 1)
            stream.deallocate()
            throw GzipError(.zlib("deflateInit2 returned \(result) (level \(level))"))
        }
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            let code = errno
            deflateEnd(stream)
            stream.deinitialize(count: 1)
            stream.deallocate()
            throw GzipError(.open(errno: code, path: path))
        }
        self.path = path
        self.fd = fd
        self.stream = stream
        self.output = UnsafeMutableRawBufferPointer.allocate(byteCount: Self.outputBufferSize, alignment: 16)
    }

    deinit {
        deflateEnd(stream)
        stream.deinitialize(count: 1)
        stream.deallocate()
        output.deallocate()
        if fd >= 0 { _ = SystemCalls.closeDescriptor(fd) }
    }

    /// Compresses `bytes` into the current member, starting a new member if the previous one was finished.
    package func write(_ bytes: UnsafeRawBufferPointer) throws(GzipError) {
        try requireOpen()
        isMemberOpen = true
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        var offset = 0
        // avail_in is 32-bit, so very large buffers go in slices.
        while offset < bytes.count {
            let slice = min(bytes.count - offset, Int(UInt32.max))
            stream.pointee.next_in = UnsafeMutablePointer(mutating: (base + offset).assumingMemoryBound(to: Bytef.self))
            stream.pointee.avail_in = uInt(slice)
            while stream.pointee.avail_in > 0 {
                try deflateIntoOutput(flush: Z_NO_FLUSH)
            }
            offset += slice
        }
    }

    /// Compresses the bytes of `bytes` into the current member.
    package func write(_ bytes: some Collection<UInt8>) throws(GzipError) {
        let outcome: Result<Void, GzipError>? = bytes.withContiguousStorageIfAvailable { buffer in
            do throws(GzipError) {
                try write(UnsafeRawBufferPointer(buffer))
                return .success(())
            } catch {
                return .failure(error)
            }
        }
        switch outcome {
        case .success:
            return
        case .failure(let error):
            throw error
        case nil:
            try write(Array(bytes))
        }
    }

    /// Compresses the UTF-8 bytes of `text` into the current member.
    package func write(_ text: String) throws(GzipError) {
        try write(Array(text.utf8))
    }

    /// Ends the current member (an empty one if nothing was written since the last), so the next write starts anew.
    package func finishMember() throws(GzipError) {
        try requireOpen()
        stream.pointee.next_in = nil
        stream.pointee.avail_in = 0
        var result: Int32 = Z_OK
        repeat {
            result = try deflateIntoOutput(flush: Z_FINISH)
        } while result != Z_STREAM_END
        try flushOutput()
        deflateReset(stream)
        isMemberOpen = false
        membersWritten += 1
    }

    /// Finishes the open member (or writes one empty member into an otherwise empty file) and closes the file.
    package func close() throws(GzipError) {
        try requireOpen()
        if isMemberOpen || membersWritten == 0 {
            try finishMember()
        }
        let descriptor = fd
        fd = -1
        let code = SystemCalls.closeDescriptor(descriptor)
        guard code == 0 else { throw GzipError(.io(errno: code, path: path)) }
    }

    /// Compresses `bytes` as one gzip member in memory.
    package static func compress(_ bytes: [UInt8], level: Int32 = 6) -> [UInt8] {
        // Heap-allocated because zlib keeps a pointer back to the stream and checks it.
        let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
        stream.initialize(to: z_stream())
        // Only a bad level or an allocation failure can make this fail; neither depends on the data.
        precondition(czlib_deflate_init2(stream, level, 15 + 16) == Z_OK, "deflateInit2 failed (level \(level))")
        defer {
            deflateEnd(stream)
            stream.deinitialize(count: 1)
            stream.deallocate()
        }
        // deflateBound counts the gzip header and trailer for a gzip stream; the margin is cheap insurance.
        let capacity = Int(deflateBound(stream, uLong(bytes.count))) + 32
        var compressed = [UInt8](repeating: 0, count: capacity)
        let written = bytes.withUnsafeBufferPointer { source in
            compressed.withUnsafeMutableBufferPointer { target in
                stream.pointee.next_in = UnsafeMutablePointer(mutating: source.baseAddress)
                stream.pointee.avail_in = uInt(source.count)
                stream.pointee.next_out = target.baseAddress
                stream.pointee.avail_out = uInt(target.count)
                let result = deflate(stream, Z_FINISH)
                precondition(result == Z_STREAM_END, "deflate into a deflateBound-sized buffer did not finish")
                return target.count - Int(stream.pointee.avail_out)
            }
        }
        compressed.removeLast(capacity - written)
        return compressed
    }

    private func requireOpen() throws(GzipError) {
        guard fd >= 0 else { throw GzipError(.io(errno: EBADF, path: path)) }
    }

    /// Runs one deflate step into the output buffer, writing the buffer to the file whenever it is full.
    @discardableResult
    private func deflateIntoOutput(flush: Int32) throws(GzipError) -> Int32 {
        let used = Self.outputBufferSize - outputRoom
        stream.pointee.next_out = (output.baseAddress.unsafelyUnwrapped + used).assumingMemoryBound(to: Bytef.self)
        stream.pointee.avail_out = uInt(outputRoom)
        let result = deflate(stream, flush)
        outputRoom = Int(stream.pointee.avail_out)
        guard result == Z_OK || result == Z_STREAM_END || result == Z_BUF_ERROR else {
            let message = stream.pointee.msg.map { String(cString: $0) } ?? "deflate returned \(result)"
            throw GzipError(.zlib(message))
        }
        if outputRoom == 0 { try flushOutput() }
        return result
    }

    private func flushOutput() throws(GzipError) {
        let used = Self.outputBufferSize - outputRoom
        guard used > 0 else { return }
        let code = SystemCalls.writeAll(fd, from: UnsafeRawPointer(output.baseAddress.unsafelyUnwrapped), count: used)
        guard code == 0 else { throw GzipError(.io(errno: code, path: path)) }
        outputRoom = Self.outputBufferSize
    }
}

/// A writer owns a file descriptor and a zlib stream, which must not be used from two threads at once.
@available(*, unavailable)
extension GzipWriter: Sendable {}
