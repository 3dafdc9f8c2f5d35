// Verification throughput of signed data (a tool, not a test: tests are never timed). Build with -c release:
//
//   verify-signed JWS_FILE [RECORDS] [THREADS]
//   verify-signed --floor ROOT THREADS FILE…   (the verification floor of an ingest of FILE…: Floor.swift)
//
// Parses the compact JWS in JWS_FILE (the file itself, or a V2 body's "signedPayload") once, then verifies it
// RECORDS times (default 200000) through one shared SignatureVerifier on THREADS threads (default 1): the cached
// path, where each record costs one ES256 check. It also times a fresh verifier per record (a chain check each
// time) over RECORDS/100 records, and parsing alone, and prints records per second for each.
import AppStoreFormats
import AppStoreSignatures
import Dispatch
import Foundation
import Synchronization

let arguments = CommandLine.arguments
if arguments.count >= 5, arguments[1] == "--floor", let threads = Int(arguments[3]), threads >= 1 {
    do {
        try measureFloor(root: arguments[2], threads: threads, files: Array(arguments[4...]))
    } catch {
        FileHandle.standardError.write(Data("verify-signed: \(error)\n".utf8))
        exit(65)
    }
}
guard arguments.count >= 2, arguments.count <= 4,
    let records = arguments.count > 2 ? Int(arguments[2]) : 200_000,
    let threads = arguments.count > 3 ? Int(arguments[3]) : 1, records >= 100, threads >= 1,
    let contents = FileManager.default.contents(atPath: arguments[1])
else {
    FileHandle.standardError.write(
        Data("usage: verify-signed JWS_FILE [RECORDS >= 100] [THREADS] | --floor ROOT THREADS FILE…\n".utf8))
    exit(64)
}

var text = String(decoding: contents, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
if text.hasPrefix("{"),
    let body = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any],
    let signed = body["signedPayload"] as? String
{
    text = signed
}

func seconds(_ body: () throws -> Void) rethrows -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    try body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
}

func rate(_ count: Int, _ time: Double) -> String {
    String(format: "%.0f records/s (%.1f µs each)", Double(count) / time, time / Double(count) * 1e6)
}

do {
    let jws = try CompactJWS(text)
    let shared = SignatureVerifier()
    let failures = Mutex(0)
    print("outcome: \(shared.verify(jws).rawValue)")

    var parsed = 0
    let parseTime = try seconds {
        for _ in 0..<records { parsed += try CompactJWS(text).signature.count }
    }
    print("parse only:               \(rate(records, parseTime))")

    let cachedTime = seconds {
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            let share = records / threads + (thread < records % threads ? 1 : 0)
            let failed = (0..<share).count { _ in shared.verify(jws) != .verified }
            failures.withLock { $0 += failed }
        }
    }
    print("verify, cached chain:     \(rate(records, cachedTime)) on \(threads) thread(s); \(shared.statistics)")

    let fresh = records / 100
    let freshTime = seconds {
        let failed = (0..<fresh).count { _ in SignatureVerifier().verify(jws) != .verified }
        failures.withLock { $0 += failed }
    }
    print("verify, chain every time: \(rate(fresh, freshTime))")
    if failures.withLock({ $0 }) > 0 {
        FileHandle.standardError.write(Data("verify-signed: an outcome changed between runs\n".utf8))
        exit(70)
    }
} catch {
    FileHandle.standardError.write(Data("verify-signed: \(error)\n".utf8))
    exit(65)
}
