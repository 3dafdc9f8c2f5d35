// A stand-in for Apple's APIs on loopback, for bench/fetch: a year of daily sales reports from the generator and a
// number of signed notifications spread over Apple's 180 days of history, answered after a fixed latency.
//
//   apple-stand-in DIR [--latency SECONDS] [--notifications N] [--days D]
//
// Writes DIR/connect.p8 and DIR/server.p8 (the keys it accepts), prints its base URL on stdout, and serves until
// stdin closes.
import AppleStandIn
import Crypto
import Foundation
import SyntheticData

let arguments = CommandLine.arguments
guard arguments.count >= 2 else {
    FileHandle.standardError.write(
        Data("usage: apple-stand-in DIR [--latency S] [--notifications N] [--days D]\n".utf8))
    exit(64)
}
func option(_ name: String, _ fallback: Double) -> Double {
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count,
        let value = Double(arguments[index + 1])
    else { return fallback }
    return value
}
let directory = arguments[1]
let latency = option("--latency", 0.1)
let notificationCount = Int(option("--notifications", 100_000))
let days = Int(option("--days", 365))

func writeKey(_ key: P256.Signing.PrivateKey, _ name: String) throws {
    let path = directory + "/" + name
    try Data(key.pemRepresentation.utf8).write(to: URL(fileURLWithPath: path))
    try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path)
}

func base64URL(_ data: Data) -> String {
    data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        .replacingOccurrences(of: "=", with: "")
}

do {
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    let connectKey = P256.Signing.PrivateKey()
    let serverKey = P256.Signing.PrivateKey()
    try writeKey(connectKey, "connect.p8")
    try writeKey(serverKey, "server.p8")
    let standIn = AppleStandIn(
        connectKey: .init(keyID: "BENCHKEY01", issuerID: "bench-issuer", publicKey: connectKey.publicKey),
        vendorNumber: "80012345",
        serverKey: .init(keyID: "BENCHKEY02", issuerID: "bench-issuer", publicKey: serverKey.publicKey),
        bundleIDs: ["com.example.bench"])
    guard let start = CalendarDay(year: 2025, month: 1, day: 1) else { exit(70) }
    let files = try SalesBulkReportWriter(rows: days * 200, days: days, seed: 3).write(
        to: directory + "/source", startDay: start, vendorNumber: "80012345")
    for file in files {
        let bytes = try Data(contentsOf: URL(fileURLWithPath: directory + "/source/" + file))
        standIn.addReport(URL(fileURLWithPath: file).lastPathComponent, bytes: Array(bytes))
    }
    standIn.publish(through: "2025-12-31")
    // Notifications signed by a plain P-256 key: bench/fetch measures fetching, which verifies nothing.
    let signer = P256.Signing.PrivateKey()
    let header = base64URL(Data(#"{"alg":"ES256","x5c":[]}"#.utf8))
    let now = Int64(Date().timeIntervalSince1970 * 1000)
    let span: Int64 = 179 * 86_400_000
    var sent: [AppleStandIn.SentNotification] = []
    sent.reserveCapacity(notificationCount)
    for index in 0..<notificationCount {
        let signedDate = now - span + span * Int64(index) / Int64(max(1, notificationCount))
        let payload =
            #"{"data":{"bundleId":"com.example.bench","environment":"Production"},"notificationType":"DID_RENEW","#
            + #""notificationUUID":"\#(UUID().uuidString.lowercased())","signedDate":\#(signedDate),"version":"2.0"}"#
        let input = header + "." + base64URL(Data(payload.utf8))
        let signature = try signer.signature(for: Data(input.utf8))
        let delivered = index % 50 != 0
        sent.append(
            .init(
                bundleID: "com.example.bench", signedPayload: input + "." + base64URL(signature.rawRepresentation),
                signedDate: signedDate, attempts: [(signedDate, delivered ? "SUCCESS" : "TIMED_OUT")]))
    }
    standIn.addNotifications(sent)
    standIn.setLatency(latency)
    let url = try standIn.start()
    FileHandle.standardOutput.write(Data((url + "\n").utf8))
    while readLine() != nil {}
    standIn.stop()
} catch {
    FileHandle.standardError.write(Data("apple-stand-in: \(error)\n".utf8))
    exit(70)
}
