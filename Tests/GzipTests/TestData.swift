import Gzip

/// Deterministic fixture bytes and a helper that drains a `DecodedFile`.
enum TestData {
    /// Tab-separated text lines: very compressible, like a sales report.
    static func text(lines: Int, seed: Int = 0) -> [UInt8] {
        var result: [UInt8] = []
        for index in 0..<lines {
            result += Array("row \(index + seed)\tIA1\t\(index % 7)\t\(index * 31 % 1000).99\tUSD\n".utf8)
        }
        return result
    }

    /// Pseudo-random bytes (SplitMix64): incompressible, so compressed sizes are predictable and large.
    static func random(count: Int, seed: UInt64) -> [UInt8] {
        var state = seed
        var result: [UInt8] = []
        result.reserveCapacity(count)
        while result.count < count {
            state &+= 0x9E37_79B9_7F4A_7C15
            var mixed = state
            mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
            mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
            mixed ^= mixed >> 31
            for shift in stride(from: 0, to: 64, by: 8) where result.count < count {
                result.append(UInt8(truncatingIfNeeded: mixed >> UInt64(shift)))
            }
        }
        return result
    }

    /// Reads `file` to the end or to its first error, `chunk` bytes at a time.
    static func drain(_ file: DecodedFile, chunk: Int = 65_536) -> (bytes: [UInt8], error: GzipError?) {
        var bytes: [UInt8] = []
        do throws(GzipError) {
            while try file.read(into: &bytes, maxCount: chunk) > 0 {}
            return (bytes, nil)
        } catch {
            return (bytes, error)
        }
    }

    /// Opens and drains the file at `path`.
    static func decode(_ path: String, chunk: Int = 65_536) throws -> (bytes: [UInt8], error: GzipError?) {
        drain(try DecodedFile(path: path), chunk: chunk)
    }

    /// Where two byte arrays first differ, or nil if they are equal; keeps failure messages short for large data.
    static func difference(_ actual: [UInt8], _ expected: [UInt8]) -> String? {
        guard actual != expected else { return nil }
        let shared = min(actual.count, expected.count)
        let index = (0..<shared).first { actual[$0] != expected[$0] } ?? shared
        return "\(actual.count) bytes instead of \(expected.count), first difference at byte \(index)"
    }
}
