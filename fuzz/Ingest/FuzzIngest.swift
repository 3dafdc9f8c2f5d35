// libFuzzer target for the whole way of untrusted bytes into COPY rows: read, parse, verify and render, as ingest does
// (docs/operating.md, "Performance budgets and fuzzing"). `fuzz/run-ingest` builds it with -sanitize=fuzzer,address
// and -DFUZZING; an ordinary build makes a stub that says so.
import Foundation
import FuzzSupport
import IAPAudit

/// The scratch files each input is written to: the readers take files, as ingest's do.
private let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("fuzz-ingest-\(getpid())")
private let created: Void = {
    try? FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
}()

/// Hands the same bytes to ingest's rendering as a JSON Lines file, a JSON document and a sales report. A trap (an
/// overflow, a failed conversion), a hang or a sanitizer report is a finding, and so is a value the binary rows
/// could not encode: the parser should have quarantined it.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    _ = created
    guard let data, size > 0 else { return 0 }
    let bytes = Data(bytes: data, count: size)
    for name in ["receipts.jsonl", "receipts.json", "S_D_80000001_20140302.txt"] {
        let path = scratch.appendingPathComponent(name).path
        guard (try? bytes.write(to: URL(fileURLWithPath: path))) != nil else { continue }
        if name.hasPrefix("S_") {
            _ = try? IngestRendering.salesReport(path: path)
        } else if let outcome = try? IngestRendering.receipts(path: path),
            let problem = outcome.unencodable
        {
            fatalError("a parsed value has no binary form: \(problem)")
        }
    }
    return 0
}

@main
enum FuzzIngest {
    static func main() { FuzzDriver.main(fuzzOneInput, program: "fuzz-ingest", script: "fuzz/run-ingest") }
}
