internal import AppStoreFormats
internal import AppStoreSignatures
internal import Foundation
internal import Postgres

/// The signed objects of a bundle's records: each JWS written as its own file, verbatim, and described for
/// signatures.json — the outcome ingest stored, the outcome now under the same roots, its chain and the root it
/// was trusted through.
struct EvidenceSignatures {
    let verifier: SignatureVerifier

    /// Writes the JWS of the record `raw` and returns their entries. `stored`: the record's `signed_object` rows by
    /// ordinal; one the record no longer yields is still listed, with no file and the reason.
    func describe(
        record raw: [UInt8], receiptID: String, stored: [Int: QueryResult.Row], writer: inout EvidenceBundleWriter
    ) throws -> [[String: Any]] {
        let copies = (try? SignedCopy.copies(inRecord: raw)) ?? []
        var entries: [[String: Any]] = []
        for ordinal in Set(copies.map(\.ordinal)).union(stored.keys).sorted() {
            var entry: [String: Any] = [:]
            entry["receipt_id"] = receiptID
            entry["ordinal"] = ordinal
            entry["record_file"] = EvidenceBundle.recordPath(receiptID)
            if let row = stored[ordinal] {
                for column in ["kind", "path", "signed_date", "transaction_id"] {
                    let value: String? = try row.string(column)
                    entry[column] = value ?? NSNull()
                }
                entry["outcome_at_ingest"] = try row.string("outcome") ?? ""
            }
            guard let copy = copies.first(where: { $0.ordinal == ordinal }) else {
                entry["file"] = NSNull()
                entry["problem"] = "the stored record does not hold this JWS verbatim"
                entries.append(entry)
                continue
            }
            let file = EvidenceBundle.signedPath(receiptID, ordinal: ordinal)
            try writer.write(file, copy.text)
            entry["file"] = file
            entry["kind"] = copy.kind
            entry["path"] = copy.path
            entry["sha256"] = EvidenceBundle.sha256(copy.text)
            entry["outcome"] = SignedCopy.outcome(of: copy.text, fallbackDate: copy.jws.signedDate, verifier: verifier)
            let chain = copy.jws.certificateChain ?? []
            entry["chain"] = CertificateSummary.chain(chain).map(Self.certificate)
            let root: String? = verifier.trustStore.issuingRoot(of: chain)?.sha256
            entry["trusted_root"] = root ?? NSNull()
            entries.append(entry)
        }
        return entries
    }

    /// A certificate of a chain as signatures.json lists it.
    private static func certificate(_ summary: CertificateSummary?) -> [String: String] {
        guard let summary else { return ["problem": "not an X.509 certificate"] }
        var object: [String: String] = [:]
        object["subject"] = summary.subject
        object["issuer"] = summary.issuer
        object["not_before"] = summary.notValidBefore
        object["not_after"] = summary.notValidAfter
        object["sha256"] = summary.sha256
        return object
    }
}
