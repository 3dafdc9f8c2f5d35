internal import AppStoreFormats
internal import AppStoreSignatures
internal import Foundation
package import Logging
internal import Postgres

/// `evidence export`: writes a subject's evidence bundle (docs/evidence.md) — its flags and their decisions, the
/// stored records their evidence cites (verbatim, the username already cut out and only its hash kept), every JWS
/// those records hold as Apple signed it with its verification outcome and chain, where each record's file came from,
/// the trusted roots it was judged against, an index.html and a manifest of every file's SHA-256.
///
/// It reads and never migrates. `receipt.raw` is the pipeline role's alone: an analyst's login is refused, by name.
package struct EvidenceExporter {
    let settings: Settings
    let logger: Logger

    package init(settings: Settings, logger: Logger) {
        self.settings = settings
        self.logger = logger
    }

    /// What an export wrote.
    package struct Summary: Sendable {
        package var flags = 0
        package var records = 0
        package var signedObjects = 0
        package var files = 0
        package var manifestSHA256 = ""
        /// Signed objects whose outcome now differs from ingest's: most often a root ingest trusted and this export
        /// was not given.
        package var changedSinceIngest = 0
    }

    /// Writes the bundle of `subject` into `directory` (new or empty).
    package func export(_ subject: EvidenceSubject, to directory: String) throws -> Summary {
        let connection = try settings.database.connect(
            environment: settings.environment, logger: logger, schema: .requireCurrent)
        let flags = try read(connection, .evidenceFlags, [subject.kind, subject.key], "read the subject's flags")
        guard !flags.isEmpty else {
            throw IAPAuditError.usage(
                "no flag on \(subject.description) (iap-audit flags list --status all --subject \(subject.key) "
                    + "lists a subject's flags)")
        }
        var citations = EvidenceCitations()
        var flagObjects: [Any] = []
        for row in flags {
            let flag = try row.decode(String.self, "flag")
            let object = EvidenceBundle.parse(Array(flag.utf8)) as? [String: Any] ?? [:]
            citations.add(
                evidence: try row.decode(String.self, "evidence"), subjectKind: object["subject_kind"] as? String ?? "",
                subjectKey: object["subject_key"] as? String ?? "")
            flagObjects.append(object)
        }
        let records = try read(
            connection, .evidenceRecords,
            [
                citations.receiptIDs.sorted().map(String.init),
                citations.transactionIDs.sorted(),
                citations.receiptDataSHA256.sorted(),
            ], "read the cited records")
        let receiptIDs = try records.map { try $0.decode(String.self, "id") }
        let stored = try read(
            connection, .evidenceSignedObjects, [receiptIDs], "read the signed objects")
        var storedOutcomes: [String: [Int: QueryResult.Row]] = [:]
        for row in stored {
            let receipt: String = try row.decode(String.self, "receipt_id")
            let ordinal: Int = try row.decode(Int.self, "ordinal")
            storedOutcomes[receipt, default: [:]][ordinal] = row
        }
        var fileIDs: Set<String> = []
        for row in records { fileIDs.insert(String(try row.decode(Int64.self, "file_id"))) }
        var inputFiles: [Any] = []
        for row in try read(
            connection, .evidenceInputFiles, [fileIDs.sorted()], "read the input files")
        {
            let text: String = try row.decode(String.self, "file")
            inputFiles.append(EvidenceBundle.parse(Array(text.utf8)) ?? NSNull())
        }

        let trustStore = try settings.trustStore()
        var writer = try EvidenceBundleWriter(directory: directory)
        let signatures = EvidenceSignatures(verifier: SignatureVerifier(trustStore: trustStore))
        var recordObjects: [[String: Any]] = []
        var signatureObjects: [[String: Any]] = []
        for row in records {
            let id = try row.decode(String.self, "id")
            let raw = Array(try row.decode(String.self, "raw").utf8)
            // The store keeps the username's hash in account_key and cuts the raw one out of the record on read;
            // a record that still held one would carry it out of the building: refused, never exported.
            guard raw.firstRange(of: Array("\"application_username\"".utf8)) == nil else {
                throw IAPAuditError.internalInconsistency(
                    "receipt \(id) holds an application username in its stored record; nothing was exported")
            }
            try writer.write(EvidenceBundle.recordPath(id), raw)
            let objects = try signatures.describe(
                record: raw, receiptID: id, stored: storedOutcomes[id] ?? [:], writer: &writer)
            signatureObjects += objects
            recordObjects.append(try Self.record(row, id: id, raw: raw, signed: objects))
        }
        let roots = try Self.roots(trustStore, writer: &writer)
        var subjectObject: [String: Any] = ["key": subject.key]
        subjectObject["kind"] = subject.kind ?? NSNull()
        let created = ISO8601DateFormatter().string(from: Date())
        var flagsFile: [String: Any] = [:]
        flagsFile["subject"] = subjectObject
        flagsFile["flags"] = flagObjects
        try writer.write(EvidenceBundle.flags, EvidenceBundle.json(flagsFile))
        try writer.write(EvidenceBundle.records, EvidenceBundle.json(recordObjects))
        try writer.write(EvidenceBundle.signatures, EvidenceBundle.json(signatureObjects))
        try writer.write(EvidenceBundle.inputFiles, EvidenceBundle.json(inputFiles))
        try writer.write(EvidenceBundle.roots, EvidenceBundle.json(roots))
        try writer.write(
            EvidenceBundle.index,
            EvidenceIndexPage(
                subject: subject, created: created, flags: flagObjects, records: recordObjects,
                signatures: signatureObjects, inputFiles: inputFiles, roots: roots
            ).html())
        var manifest: [String: Any] = [:]
        manifest["format"] = EvidenceBundle.format
        manifest["tool"] = "iap-audit \(Workspace.version)"
        manifest["created_at"] = created
        manifest["subject"] = subjectObject
        manifest["signed"] = false
        manifest["note"] =
            "Not signed: compare this file's SHA-256 with the one the sender gave you (docs/evidence.md)."
        manifest["trusted_roots"] = roots.map { root -> String in root["sha256"] as? String ?? "" }
        manifest["files"] = writer.manifestFiles
        let listed = writer.entries.count
        let manifestBytes = try EvidenceBundle.json(manifest)
        try writer.write(EvidenceBundle.manifest, manifestBytes)
        try writer.write(
            EvidenceBundle.manifestDigest, EvidenceBundle.manifestDigestLine(EvidenceBundle.sha256(manifestBytes)))
        var summary = Summary()
        summary.flags = flagObjects.count
        summary.records = recordObjects.count
        summary.signedObjects = signatureObjects.count
        summary.files = listed
        summary.changedSinceIngest = signatureObjects.filter(Self.changedSinceIngest).count
        summary.manifestSHA256 = EvidenceBundle.sha256(manifestBytes)
        return summary
    }

    /// Whether a signed object's outcome now differs from the one ingest stored.
    private static func changedSinceIngest(_ entry: [String: Any]) -> Bool {
        guard let atIngest = entry["outcome_at_ingest"] as? String else { return false }
        return entry["outcome"] as? String != atIngest
    }

    /// A record's entry in records.json: its stored columns, its file in the bundle and its signed objects'.
    private static func record(
        _ row: QueryResult.Row, id: String, raw: [UInt8], signed: [[String: Any]]
    ) throws -> [String: Any] {
        var object: [String: Any] = [:]
        object["receipt_id"] = id
        object["file"] = EvidenceBundle.recordPath(id)
        object["raw_sha256"] = EvidenceBundle.sha256(raw)
        object["input_file_id"] = try row.decode(Int64.self, "file_id")
        object["line"] = try row.decode(Int.self, "line")
        object["record_number"] = try row.decode(Int.self, "record_number")
        object["status"] = try row.decode(Int.self, "status")
        object["signed_objects"] = signed.compactMap { entry -> String? in entry["file"] as? String }
        for column in [
            "shape", "style", "environment", "account_key", "app_account_token", "store_account",
            "receipt_data_sha256", "record_key", "recorded_at",
        ] {
            let value: String? = try row.string(column)
            object[column] = value ?? NSNull()
        }
        return object
    }

    /// The roots the export judged against, each written as DER under roots/, for roots.json.
    private static func roots(
        _ trustStore: TrustStore, writer: inout EvidenceBundleWriter
    ) throws -> [[String: Any]] {
        let builtIn = Set(TrustStore.apple.rootSummaries.map(\.sha256))
        var roots: [[String: Any]] = []
        for root in trustStore.rootSummaries {
            try writer.write(EvidenceBundle.rootPath(root.sha256), root.der)
            var object: [String: Any] = [:]
            object["sha256"] = root.sha256
            object["subject"] = root.subject
            object["not_before"] = root.notValidBefore
            object["not_after"] = root.notValidAfter
            object["file"] = EvidenceBundle.rootPath(root.sha256)
            object["source"] = builtIn.contains(root.sha256) ? "built-in" : "configured"
            roots.append(object)
        }
        return roots
    }

    private func read(
        _ connection: Connection, _ query: SQLQuery, _ parameters: [(any PostgresParameter)?], _ what: String
    ) throws -> [QueryResult.Row] {
        let result: QueryResult
        do {
            result = try connection.query(query.text, parameters, context: what)
        } catch {
            guard error.sqlState == "42501" else { throw error }
            // A permission (77), as for the pipeline's other commands, in words of its own: why this one needs the role.
            throw IAPAuditError.permissionDenied(
                error,
                advice: "the database refused to \(what): an evidence bundle holds the stored records, which only the "
                    + "pipeline's role reads; export with its login")
        }
        return result.allRows
    }
}
