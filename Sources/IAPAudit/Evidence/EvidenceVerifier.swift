internal import AppStoreFormats
package import AppStoreSignatures
internal import Foundation

/// `evidence verify`: re-checks a bundle offline (docs/evidence.md). Every file against the manifest (a changed,
/// missing or added file is named), then every JWS against the roots of `trustStore` at its signing date, which
/// must give the outcome the bundle records, and be the very JWS its record holds.
package struct EvidenceVerifier {
    let trustStore: TrustStore

    package init(trustStore: TrustStore) {
        self.trustStore = trustStore
    }

    /// What a check found.
    package struct Report: Sendable {
        /// One line per problem, each naming its file; empty when the bundle verifies.
        package var problems: [String] = []
        package var files = 0
        package var signedObjects = 0
        /// Of which Apple (or a configured root) signed: `verified` now and as recorded.
        package var verifiedSignatures = 0
        package var manifestSHA256 = ""
        /// The subject the bundle is about, as recorded.
        package var subject = ""
        /// The roots the check trusted (subject and SHA-256), and those the export had trusted that it did not.
        package var roots: [String] = []
        package var untrustedExportRoots: [String] = []
    }

    /// Checks the bundle in `directory`; `expectedManifestSHA256`, when given, must be the manifest's digest.
    package func verify(_ directory: String, expectedManifestSHA256: String? = nil) throws -> Report {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue
        else { throw IAPAuditError.input("no evidence bundle at \(directory): not a folder") }
        var report = Report()
        report.roots = trustStore.rootSummaries.map { "\($0.subject) (SHA-256 \($0.sha256))" }
        guard let manifestBytes = EvidenceBundle.read(EvidenceBundle.manifest, in: directory) else {
            report.problems.append("\(EvidenceBundle.manifest): missing; without it nothing can be checked")
            return report
        }
        report.manifestSHA256 = EvidenceBundle.sha256(manifestBytes)
        let digestLine = EvidenceBundle.read(EvidenceBundle.manifestDigest, in: directory)
        if digestLine == nil {
            report.problems.append("\(EvidenceBundle.manifestDigest): missing")
        } else if digestLine != EvidenceBundle.manifestDigestLine(report.manifestSHA256) {
            report.problems.append(
                "\(EvidenceBundle.manifest) or \(EvidenceBundle.manifestDigest) changed: the manifest's SHA-256 is "
                    + "\(report.manifestSHA256), \(EvidenceBundle.manifestDigest) says "
                    + String(decoding: (digestLine ?? []).prefix(64), as: UTF8.self))
        }
        if let expected = expectedManifestSHA256, expected.lowercased() != report.manifestSHA256 {
            report.problems.append(
                "\(EvidenceBundle.manifest): its SHA-256 is \(report.manifestSHA256), not the \(expected) given")
        }
        guard let manifest = EvidenceBundle.parse(manifestBytes) as? [String: Any],
            manifest["format"] as? String == EvidenceBundle.format, let listed = manifest["files"] as? [[String: Any]]
        else {
            report.problems.append("\(EvidenceBundle.manifest): not a manifest of format \(EvidenceBundle.format)")
            return report
        }
        if let subject = manifest["subject"] as? [String: Any] {
            report.subject = [subject["kind"] as? String, subject["key"] as? String].compactMap { $0 }
                .joined(separator: ":")
        }
        checkFiles(listed, in: directory, into: &report)
        checkSignatures(in: directory, into: &report)
        let trusted = Set(trustStore.rootSummaries.map(\.sha256))
        report.untrustedExportRoots = (manifest["trusted_roots"] as? [String] ?? []).filter { !trusted.contains($0) }
        return report
    }

    /// Every file the manifest lists is there with its digest, and nothing else is.
    private func checkFiles(_ listed: [[String: Any]], in directory: String, into report: inout Report) {
        var expected: [String: String] = [:]
        for entry in listed {
            if let path = entry["path"] as? String { expected[path] = entry["sha256"] as? String ?? "" }
        }
        let present = (try? EvidenceBundle.files(in: directory)) ?? []
        for path in present
        where path != EvidenceBundle.manifest && path != EvidenceBundle.manifestDigest && expected[path] == nil {
            report.problems.append("\(path): not in the manifest (a file added to the bundle)")
        }
        for path in expected.keys.sorted() {
            guard let bytes = EvidenceBundle.read(path, in: directory) else {
                report.problems.append("\(path): missing (the manifest lists it)")
                continue
            }
            report.files += 1
            let digest = EvidenceBundle.sha256(bytes)
            if digest != expected[path] {
                report.problems.append("\(path): SHA-256 \(digest) differs from the manifest's \(expected[path] ?? "")")
            }
        }
    }

    /// Every JWS of signatures.json: the same bytes as in its record, and the recorded outcome again.
    private func checkSignatures(in directory: String, into report: inout Report) {
        guard let bytes = EvidenceBundle.read(EvidenceBundle.signatures, in: directory),
            let entries = EvidenceBundle.parse(bytes) as? [[String: Any]]
        else {
            report.problems.append("\(EvidenceBundle.signatures): missing or not JSON; no signature was checked")
            return
        }
        let verifier = SignatureVerifier(trustStore: trustStore)
        var copies: [String: [SignedCopy]] = [:]
        for entry in entries {
            guard let file = entry["file"] as? String else { continue }
            report.signedObjects += 1
            guard let text = EvidenceBundle.read(file, in: directory) else { continue }  // named as missing already
            let recordFile = entry["record_file"] as? String ?? ""
            if copies[recordFile] == nil {
                copies[recordFile] =
                    EvidenceBundle.read(recordFile, in: directory)
                    .flatMap { try? SignedCopy.copies(inRecord: $0) } ?? []
            }
            let ordinal = entry["ordinal"] as? Int
            let copy = copies[recordFile]?.first { $0.ordinal == ordinal }
            if copy?.text != text {
                report.problems.append(
                    "\(file): not the JWS its record \(recordFile) holds at ordinal \(ordinal ?? -1)")
            }
            let outcome = SignedCopy.outcome(of: text, fallbackDate: copy?.jws.signedDate, verifier: verifier)
            let recorded = entry["outcome"] as? String ?? ""
            if outcome != recorded {
                var line = "\(file): the signature check gives \(outcome), the bundle records \(recorded)"
                if let root = entry["trusted_root"] as? String,
                    !trustStore.rootSummaries.contains(where: { $0.sha256 == root })
                {
                    line += " (it was trusted through root \(root), which this check does not trust: --trusted-root)"
                }
                report.problems.append(line)
            } else if outcome == VerificationOutcome.verified.rawValue {
                report.verifiedSignatures += 1
            }
        }
    }
}
