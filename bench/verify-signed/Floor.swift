// The verification floor of a signed-data ingest (bench/ingest-signed): the CPU it takes to verify each distinct JWS
// of some receipt files once, which no ingest of those files can go below however it is built.
//
//   verify-signed --floor ROOT THREADS FILE…
//
// Reads every record of the files (JSON Lines or documents, gzip or not) with the ingest's own reader and parser,
// keeps each distinct JWS once (the same bytes reach a data set in several envelopes, notifications and history
// pages), then verifies them all through one SignatureVerifier trusting ROOT (and Apple's root) on THREADS threads.
// Prints the counts, then `floor: <verification CPU seconds> <wall seconds>` for scripts to read.
import AppStoreFormats
import AppStoreSignatures
import Dispatch
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// This process's CPU time so far (all its threads), in seconds.
func processCPUSeconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

func measureFloor(root: String, threads: Int, files: [String]) throws -> Never {
    var trust = TrustStore.apple
    try trust.addRoots(contentsOfFile: root)
    // Usernames are hashed with a pepper of our own: the floor does not depend on the keys.
    let parser = ReceiptRecordParser(hasher: AccountKeyHasher(pepper: Array("floor".utf8)))
    var distinct: [[UInt8]: CompactJWS] = [:]
    var read = 0
    for file in files {
        let name = (file as NSString).lastPathComponent
        guard let format = ReceiptFileFormat(fileName: name) else { continue }
        let reader = try ReceiptFileReader(path: file, format: format, maxRecordLength: 16 << 20)
        while let item = reader.next() {
            guard case .record(_, _, let bytes) = item, let receipt = try? parser.parse(bytes) else { continue }
            for object in receipt.signedObjects {
                read += 1
                distinct[object.jws.signingInput + [UInt8(ascii: ".")] + object.jws.signature] = object.jws
            }
        }
    }
    let all = Array(distinct.values)
    let verifier = SignatureVerifier(trustStore: trust)
    let verified = Mutex(0)
    let cpuBefore = processCPUSeconds()
    let wallBefore = DispatchTime.now().uptimeNanoseconds
    DispatchQueue.concurrentPerform(iterations: threads) { thread in
        let range = (all.count * thread / threads)..<(all.count * (thread + 1) / threads)
        let count = all[range].count { verifier.verify($0) == .verified }
        verified.withLock { $0 += count }
    }
    let wall = Double(DispatchTime.now().uptimeNanoseconds - wallBefore) / 1e9
    let cpu = processCPUSeconds() - cpuBefore
    print("JWS read: \(read), distinct: \(all.count), verified: \(verified.withLock { $0 }) (\(verifier.statistics))")
    print(String(format: "floor: %.3f %.3f", cpu, wall))
    exit(0)
}
