#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Thin POSIX wrappers that retry on `EINTR`, so callers see only data, end of file, or a real error.
enum SystemCalls {
    /// Reads at most `count` bytes with one successful `read(2)`; returns the count (0 at end of file) or `-errno`.
    static func readSome(_ fd: Int32, into base: UnsafeMutableRawPointer, count: Int) -> Int {
        while true {
            let result = read(fd, base, count)
            if result >= 0 { return result }
            let code = errno
            if code != EINTR { return -Int(code) }
        }
    }

    /// Writes all `count` bytes, looping over short writes; returns 0 or `errno`.
    static func writeAll(_ fd: Int32, from base: UnsafeRawPointer, count: Int) -> Int32 {
        var offset = 0
        while offset < count {
            let result = write(fd, base + offset, count - offset)
            if result > 0 {
                offset += result
            } else if result < 0 && errno == EINTR {
                continue
            } else {
                // A zero-byte write for a non-empty request would loop forever; report it as "no space".
                return result < 0 ? errno : ENOSPC
            }
        }
        return 0
    }

    /// Closes a descriptor; returns 0 or `errno` (`EINTR` is not retried: on Linux the descriptor is gone anyway).
    static func closeDescriptor(_ fd: Int32) -> Int32 {
        close(fd) == 0 ? 0 : errno
    }
}
