import AppStoreFormats
import AppStoreSignatures
import Foundation
import SyntheticData
import Testing

/// The generated StoreKit 2 data, read back independently of the generator: every JWS is found by walking each
/// line's JSON (and each JWS payload), parsed with `CompactJWS` and verified with `SignatureVerifier`.
@Suite struct SignedRecordWriterTests {
    /// One JWS found in the output.
    struct FoundJWS {
        var file: String
        var line: Int
        var pointer: String
        var text: String
        /// nil when the text is no JWS (`invalid-jws`).
        var jws: CompactJWS?
    }

    /// A small scenario, quick to generate.
    static let scenario = StoreKit2Scenario(seed: 11, days: 10, accounts: 12)

    /// Generates into a fresh directory (plain JSON Lines) and returns the manifest and every JWS found.
    static func generate(
        _ scenario: StoreKit2Scenario = scenario, in directory: borrowing TemporaryDirectory
    ) throws -> (SignedManifest, [FoundJWS]) {
        let manifest = try SignedRecordWriter(scenario: scenario).write(to: directory.path, compress: false)
        return (manifest, try read(manifest.files, in: directory.path))
    }

    /// Every JWS in `files` (plain JSON Lines, relative to `directory`).
    static func read(_ files: [String], in directory: String) throws -> [FoundJWS] {
        var found: [FoundJWS] = []
        for file in files {
            let text = String(
                decoding: try Data(contentsOf: URL(fileURLWithPath: directory + "/" + file)), as: UTF8.self)
            for (index, line) in text.split(separator: "\n").enumerated() {
                if line.hasPrefix("{") || line.hasPrefix("\"") {
                    let value = try JSONSerialization.jsonObject(with: Data(line.utf8), options: [.fragmentsAllowed])
                    collect(value, pointer: "", file: file, line: index + 1, into: &found)
                } else {
                    collect(String(line), pointer: "", file: file, line: index + 1, into: &found)
                }
            }
        }
        return found
    }

    /// Every JWS-looking string in `value`, and in the payloads of those that parse.
    static func collect(_ value: Any, pointer: String, file: String, line: Int, into found: inout [FoundJWS]) {
        switch value {
        case let text as String:
            guard text.hasPrefix("eyJ") else { return }
            let jws = try? CompactJWS(text)
            found.append(FoundJWS(file: file, line: line, pointer: pointer, text: text, jws: jws))
            if let jws, let payload = try? JSONSerialization.jsonObject(with: Data(jws.payloadBytes)) {
                collect(payload, pointer: pointer + "/payload", file: file, line: line, into: &found)
            }
        case let array as [Any]:
            for (index, element) in array.enumerated() {
                collect(element, pointer: pointer + "/\(index)", file: file, line: line, into: &found)
            }
        case let object as [String: Any]:
            for (key, element) in object {
                collect(element, pointer: pointer + "/" + key, file: file, line: line, into: &found)
            }
        default: return
        }
    }

    static func key(_ file: String, _ line: Int, _ pointer: String) -> String { "\(file):\(line)\(pointer)" }

    /// Each JWS by its place, with its payload (JSONSerialization walks objects in no fixed order); a JWS inside a
    /// notification's payload carries a signature of its own, so it counts by its place only.
    static func payloads(_ list: [FoundJWS]) throws -> [String] {
        let nestedJWS = try Regex(#""eyJ[A-Za-z0-9_.-]*""#)
        return list.sorted { ($0.file, $0.line, $0.pointer) < ($1.file, $1.line, $1.pointer) }.map {
            "\($0.file):\($0.line)\($0.pointer) "
                + String(decoding: $0.jws?.payloadBytes ?? [], as: UTF8.self).replacing(nestedJWS, with: "JWS")
        }
    }

    /// Whether every JWS found gets the outcome `manifest` gives it when only the root beside the files is trusted.
    static func expectOutcomes(of found: [FoundJWS], _ manifest: SignedManifest, rootIn directory: String) throws {
        var store = TrustStore.empty
        try store.addRoots(contentsOfFile: directory + "/" + manifest.rootCertificate)
        let verifier = SignatureVerifier(trustStore: store)
        let expected = Dictionary(
            manifest.entries.map { (key($0.file, $0.line, $0.pointer), $0.outcome) }, uniquingKeysWith: { $1 })
        #expect(found.count == manifest.entries.count)
        let kinds = Self.kinds(manifest)
        for jws in found {
            let outcome = Self.outcome(of: jws, kind: kinds[key(jws.file, jws.line, jws.pointer)], verifier: verifier)
            #expect(expected[key(jws.file, jws.line, jws.pointer)] == outcome, "\(jws.file):\(jws.line) \(jws.pointer)")
        }
    }

    /// Each manifest entry's kind, by place.
    static func kinds(_ manifest: SignedManifest) -> [String: String] {
        Dictionary(manifest.entries.map { (key($0.file, $0.line, $0.pointer), $0.kind) }, uniquingKeysWith: { $1 })
    }

    /// What the ingest concludes about one JWS of `kind`: judged at its kind's signing date, as the reader does.
    static func outcome(of found: FoundJWS, kind: String?, verifier: SignatureVerifier) -> String {
        guard var jws = found.jws else { return "invalid-jws" }
        if let kind = kind.flatMap(SignedObject.Kind.init(rawValue:)) { try? jws.adoptSigningDate(of: kind) }
        return verifier.verify(jws).rawValue
    }

    @Test func everyJWSGetsTheOutcomeTheManifestGivesWhenTheGeneratorsRootIsTrusted() throws {
        let directory = try TemporaryDirectory()
        let (manifest, found) = try Self.generate(in: directory)
        var store = TrustStore.empty
        try store.addRoots(contentsOfFile: directory.path + "/" + manifest.rootCertificate)
        let verifier = SignatureVerifier(trustStore: store)

        let expected = Dictionary(
            manifest.entries.map { (Self.key($0.file, $0.line, $0.pointer), $0.outcome) }, uniquingKeysWith: { $1 })
        #expect(expected.count == manifest.entries.count, "two entries name the same place")
        #expect(found.count == manifest.entries.count)
        var outcomes: [String: Int] = [:]
        let kinds = Self.kinds(manifest)
        for jws in found {
            let outcome = Self.outcome(
                of: jws, kind: kinds[Self.key(jws.file, jws.line, jws.pointer)], verifier: verifier)
            outcomes[outcome, default: 0] += 1
            #expect(
                expected[Self.key(jws.file, jws.line, jws.pointer)] == outcome, "\(jws.file):\(jws.line) \(jws.pointer)"
            )
        }
        // Exactly the planted records fail, each with its outcome; everything else verifies.
        var plantedOutcomes: [String: Int] = [:]
        for planted in manifest.planted { plantedOutcomes[planted.outcome, default: 0] += 1 }
        #expect(
            plantedOutcomes == [
                "bad-signature": 1, "untrusted-chain": 1, "missing-apple-oid": 1, "expired-at-signed-date": 1,
                "unsupported-algorithm": 1, "missing-x5c": 2, "invalid-jws": 2,
            ])
        #expect(outcomes.filter { $0.key != "verified" } == plantedOutcomes)
        #expect((outcomes["verified"] ?? 0) > 100)
        for planted in manifest.planted {
            #expect(expected[Self.key(planted.file, planted.line, planted.pointer)] == planted.outcome)
        }
        let xcode = try #require(manifest.planted.first { $0.environment == "Xcode" })
        #expect(xcode.outcome == "missing-x5c" && xcode.severity == "info")
        #expect(manifest.planted.filter { $0.severity == "high" }.allSatisfy { $0.environment == "Production" })
    }

    @Test func withoutTheGeneratorsRootNothingGenuineVerifies() throws {
        let directory = try TemporaryDirectory()
        let (manifest, found) = try Self.generate(in: directory)
        let verifier = SignatureVerifier(trustStore: .apple)
        let expected = Dictionary(
            manifest.entries.map { (Self.key($0.file, $0.line, $0.pointer), $0.outcome) }, uniquingKeysWith: { $1 })
        var genuine = 0
        for case (let place, let jws?) in found.map({ (Self.key($0.file, $0.line, $0.pointer), $0.jws) }) {
            let outcome = verifier.verify(jws)
            #expect(outcome != .verified, "\(place)")
            if expected[place] == "verified" {
                genuine += 1
                #expect(outcome == .untrustedChain, "\(place)")
            }
        }
        #expect(genuine > 100)
    }

    @Test func theSameSeedSignsTheSamePayloadsAndAnotherSeedOthers() throws {
        let first = try TemporaryDirectory()
        let second = try TemporaryDirectory()
        let third = try TemporaryDirectory()
        let (manifest, found) = try Self.generate(in: first)
        let (again, foundAgain) = try Self.generate(in: second)
        #expect(manifest == again)
        // Each JWS by its place, with its payload (JSONSerialization walks objects in no fixed order); a JWS inside
        // a notification's payload carries a signature of its own, so it counts by its place only.
        let isSame = try Self.payloads(found) == Self.payloads(foundAgain)
        #expect(isSame)
        // The signatures are ECDSA's random draws: the texts differ while the payloads do not.
        #expect(Set(found.map(\.text)) != Set(foundAgain.map(\.text)))
        var other = Self.scenario
        other.seed = 12
        let (_, foundOther) = try Self.generate(other, in: third)
        let isDifferent = try Self.payloads(found) != Self.payloads(foundOther)
        #expect(isDifferent)
    }

    @Test func everyShapeOfFormatsSection5Appears() throws {
        let directory = try TemporaryDirectory()
        // One account is enough: the traps and planted records carry every shape on their own.
        let (manifest, _) = try Self.generate(StoreKit2Scenario(seed: 3, days: 8, accounts: 1), in: directory)
        #expect(Set(manifest.records.map(\.shape)) == Set(SignedManifest.shapes))
        #expect(
            Set(manifest.entries.map(\.kind)) == ["transaction", "renewal-info", "notification", "app-transaction"])
        let lines = try manifest.files.map { String(decoding: try directory.contents(of: $0), as: UTF8.self) }
        #expect(lines.allSatisfy { $0.contains("eyJ") })
    }

    @Test func trapsCarryWhatTheyClaimAndVerify() throws {
        let directory = try TemporaryDirectory()
        let (manifest, found) = try Self.generate(in: directory)
        let byTrap = Dictionary(manifest.traps.map { ($0.trap, $0) }, uniquingKeysWith: { $1 })
        #expect(
            Set(byTrap.keys) == [
                "three-ways", "upgrade", "family-shared", "prorated-refund", "leaf-expired-since", "reversed-refund",
                "open-consumption-request",
            ])
        let transactions = found.compactMap { $0.jws }.filter { $0.payload["transactionId"] != nil }
        func payloads(of id: String) -> [JSONObject] {
            transactions.map(\.payload).filter { $0["transactionId"] == .string(id) }
        }

        let threeWays = try #require(byTrap["three-ways"])
        let threeWayShapes = Set(threeWays.records.map(\.shape))
        #expect(threeWayShapes == ["envelope-signed-transaction", "envelope-notification", "transaction-history"])
        let id = try #require(threeWays.transactionIDs.first)
        let tokens = Set(payloads(of: id).compactMap { $0["appAccountToken"].map { "\($0)" } })
        #expect(payloads(of: id).count == 3 && tokens.count == 1)

        let upgraded = try #require(byTrap["upgrade"]?.transactionIDs.first)
        #expect(payloads(of: upgraded).contains { $0["isUpgraded"] == .bool(true) })
        let shared = try #require(byTrap["family-shared"]?.transactionIDs.first)
        #expect(payloads(of: shared).allSatisfy { $0["inAppOwnershipType"] == .string("FAMILY_SHARED") })
        let refunded = try #require(byTrap["prorated-refund"]?.transactionIDs.first)
        #expect(
            payloads(of: refunded).contains {
                $0["revocationType"] == .string("REFUND_PRORATED") && $0["revocationDate"] != nil
            })

        // Refunded, then signed again without the refund; a refund request on a purchase never refunded.
        let reversed = try #require(byTrap["reversed-refund"]?.transactionIDs.first)
        let reversedCopies = payloads(of: reversed)
        #expect(reversedCopies.contains { $0["revocationType"] == .string("REFUND_FULL") })
        #expect(reversedCopies.filter { $0["revocationDate"] == nil }.count == 2)
        let asked = try #require(byTrap["open-consumption-request"]?.transactionIDs.first)
        #expect(payloads(of: asked).allSatisfy { $0["revocationDate"] == nil })
        let types = found.compactMap { $0.jws?.payload["notificationType"] }
        #expect(types.contains(.string("REFUND_REVERSED")) && types.contains(.string("CONSUMPTION_REQUEST")))

        // The retired leaf was valid when it signed, and has expired since.
        let retired = try #require(byTrap["leaf-expired-since"])
        #expect(!retired.records.isEmpty && !retired.transactionIDs.isEmpty)
        var store = TrustStore.empty
        try store.addRoots(contentsOfFile: directory.path + "/" + manifest.rootCertificate)
        let verifier = SignatureVerifier(trustStore: store)
        let retiredSigner = try #require(manifest.entries.first { $0.signer.hasSuffix("(retired)") })
        let retiredJWS = try #require(
            found.first {
                $0.file == retiredSigner.file && $0.line == retiredSigner.line && $0.pointer == retiredSigner.pointer
            }?.jws)
        #expect(verifier.verify(retiredJWS) == .verified)
        let now = Timestamp(millisecondsSince1970: Int64(Date().timeIntervalSince1970 * 1000))
        #expect(verifier.verifyChain(retiredJWS.certificateChain, at: now) == .expiredAtSignedDate)
    }

    @Test func compressedFilesAreGzipJSONLinesBesideTheRoot() throws {
        let directory = try TemporaryDirectory()
        let manifest = try SignedRecordWriter(scenario: Self.scenario).write(to: directory.path, compress: true)
        #expect(manifest.files.count == 4)
        for file in manifest.files {
            #expect(file.hasPrefix("receipts/storekit2/") && file.hasSuffix(".jsonl.gz"))
            #expect(try directory.contents(of: file).prefix(2) == Data([0x1f, 0x8b]))
        }
        let files = try directory.relativeFiles()
        #expect(files.contains("test-root.der") && files.contains("storekit2-manifest.json"))
        let decoded = try JSONDecoder().decode(
            SignedManifest.self, from: try directory.contents(of: "storekit2-manifest.json"))
        #expect(decoded == manifest)
    }
}
