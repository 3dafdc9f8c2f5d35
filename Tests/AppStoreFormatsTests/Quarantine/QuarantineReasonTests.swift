import AppStoreFormats
import Gzip
import Testing

struct QuarantineReasonTests {
    @Test func rawValuesAreUniqueAndKebabCase() {
        let codes = QuarantineReason.allCases.map(\.rawValue)
        #expect(Set(codes).count == codes.count, "a reason code is used by two cases")
        for code in codes {
            let words = code.split(separator: "-", omittingEmptySubsequences: false)
            let isKebab =
                !words.isEmpty
                && words.allSatisfy { word in
                    !word.isEmpty && word.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) }
                }
            #expect(isKebab, "\(code) is not kebab-case")
        }
    }

    @Test func keepsTheStoredCodesOfBothIngestPaths() {
        // Stored in quarantine.reason_code and read by reports: renaming one breaks every earlier run's rows.
        let stored: Set<String> = [
            "invalid-json", "invalid-utf8", "not-an-object", "missing-response", "missing-field", "wrong-type",
            "invalid-date", "invalid-number", "invalid-value", "nul-character", "invalid-username-hash",
            "username-hash-mismatch", "record-too-long", "trailing-data", "short-row", "long-row", "missing-key",
            "line-too-long", "nul-byte", "unrecognised-header", "duplicate-header", "missing-columns",
            "truncated-gzip", "corrupt-gzip", "read-error", "empty-file",
        ]
        // New reasons may be added; none of the stored ones may go.
        #expect(stored.subtracting(QuarantineReason.allCases.map(\.rawValue)).isEmpty)
    }

    @Test func namesGzipFailuresByKind() {
        #expect(QuarantineReason(decoding: GzipError(.truncated)) == .truncatedGzip)
        #expect(QuarantineReason(decoding: GzipError(.corrupt("bad block"))) == .corruptGzip)
        #expect(QuarantineReason(decoding: GzipError(.trailingGarbage)) == .corruptGzip)
        #expect(QuarantineReason(decoding: GzipError(.io(errno: 5, path: "x"))) == .readError)
    }
}
