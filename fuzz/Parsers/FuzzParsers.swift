// libFuzzer target for every parser of untrusted bytes (docs/operating.md, "Performance budgets and fuzzing").
// `fuzz/run` builds it with -sanitize=fuzzer,address and -DFUZZING; an ordinary build makes a stub that says so.
import AppStoreFormats
import Foundation
import FuzzSupport

private let receiptParser = ReceiptRecordParser(hasher: AccountKeyHasher(pepper: nil))

/// Hands the same bytes to each parser: as one JSON value, one recorded receipt, a compact JWS, a catalog, a
/// product list, and the lines of a sales report. A crash, a hang or a sanitizer report is a finding; thrown
/// errors are the expected outcome.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = size == 0 ? [] : Array(UnsafeBufferPointer(start: data, count: size))
    _ = try? JSONParser.parse(bytes)
    _ = try? receiptParser.parse(bytes)
    _ = try? CompactJWS(bytes)
    _ = try? CatalogFile.parseCatalog(bytes)
    if bytes.first == UInt8(ascii: "[") {
        // Our JSON path only: property lists go to Foundation's parser, which is not ours to fuzz (and leaks a
        // CFError for every list it rejects, which would swamp the run's memory).
        _ = try? CatalogFile.parseProductList(bytes, bundleID: "com.example.fuzz")
    }
    var report = SalesReportParser()
    for (number, line) in bytes.split(separator: 0x0A, omittingEmptySubsequences: false).enumerated() {
        _ = report.consume(line: line, number: number + 1)
    }
    _ = report.finish()
    return 0
}

@main
enum FuzzParsers {
    static func main() { FuzzDriver.main(fuzzOneInput, program: "fuzz-parsers", script: "fuzz/run") }
}
