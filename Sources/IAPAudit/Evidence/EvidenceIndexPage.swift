internal import Foundation
internal import Reports

/// A bundle's index.html: everything in it, readable in any browser without a script, each file linked. Drawn with
/// the report site's `SitePage`, so it reads like the rest of IAPAudit's pages on a desk and on a phone.
///
/// Rows are built one cell at a time with declared types: literals of `Any` values keep the type checker slow.
struct EvidenceIndexPage {
    typealias Object = [String: Any]
    typealias Cell = SitePage.Cell

    var subject: EvidenceSubject
    var created: String
    var flags: [Any]
    var records: [Object]
    var signatures: [Object]
    var inputFiles: [Any]
    var roots: [Object]

    func html() -> [UInt8] {
        var page = SitePage(
            title: "Evidence bundle",
            description:
                "The evidence on \(subject.description), exported by iap-audit \(Workspace.version) at \(created). "
                + "manifest.json lists every file with its SHA-256; `iap-audit evidence verify FOLDER` checks them "
                + "and every signature again, offline.")
        var facts: [(name: String, value: Cell)] = []
        facts.append(("Subject", .code(subject.description)))
        facts.append(("Flags", .number(String(flags.count))))
        facts.append(("Records cited", .number(String(records.count))))
        facts.append(("Signed objects", .number(String(signatures.count))))
        facts.append(("Manifest", .link(EvidenceBundle.manifest, href: EvidenceBundle.manifest, isCode: true)))
        page.blocks.append(.facts(facts))
        page.blocks.append(
            .note(
                "The manifest is not signed. A changed file shows against the manifest, and a changed JWS fails "
                    + "its signature; but whoever can rewrite the whole bundle can rewrite the manifest too. Compare "
                    + "the manifest's SHA-256 with the one the sender gave you by another way."))
        for case let flag as Object in flags { appendFlag(flag, to: &page) }
        section("Records cited", file: EvidenceBundle.records, to: &page)
        page.blocks.append(
            .table(
                columns: ["Record", "Input file", "Line", "Account key", "Status", "Signed objects"],
                rows: records.map(Self.recordRow)))
        section("Signed objects", file: EvidenceBundle.signatures, to: &page)
        page.blocks.append(
            .table(
                columns: ["JWS", "Kind", "Signed (UTC)", "At ingest", "At export", "Signer"],
                rows: signatures.map(Self.signatureRow)))
        section("Input files", file: EvidenceBundle.inputFiles, to: &page)
        page.blocks.append(
            .table(
                columns: ["File", "SHA-256", "Bytes", "Ingested (UTC)", "Run"],
                rows: inputFiles.compactMap { $0 as? Object }.map(Self.inputFileRow)))
        section("Trusted roots", file: EvidenceBundle.roots, to: &page)
        page.blocks.append(
            .table(columns: ["Root", "Source", "SHA-256", "Valid (UTC)"], rows: roots.map(Self.rootRow)))
        return page.html()
    }

    private func section(_ title: String, file: String, to page: inout SitePage) {
        page.blocks.append(.heading(title))
        page.blocks.append(.line([.link(file, href: file, isCode: true)]))
    }

    private func appendFlag(_ flag: Object, to page: inout SitePage) {
        page.blocks.append(.heading("Flag \(Self.text(flag["id"])): \(Self.text(flag["rule"]))"))
        var evidence: Cell = .empty
        if let value = flag["evidence"], let bytes = try? EvidenceBundle.json(value),
            let parsed = EvidenceValue.parse(String(decoding: bytes, as: UTF8.self))
        {
            evidence = .evidence(parsed)
        }
        var facts: [(name: String, value: Cell)] = []
        facts.append(("Status", .name(Self.text(flag["status"]))))
        facts.append(("Severity", .name(Self.text(flag["severity"]))))
        facts.append(("Rule version", .number(Self.text(flag["rule_version"]))))
        facts.append(("Subject", .code(Self.text(flag["subject_kind"]) + " " + Self.text(flag["subject_key"]))))
        facts.append(("Window (UTC)", .text(Self.text(flag["window_start"]) + " – " + Self.text(flag["window_end"]))))
        facts.append(("Score", .number(Self.text(flag["score"]))))
        facts.append(("Evidence", evidence))
        page.blocks.append(.facts(facts))
        let decisions = flag["decisions"] as? [Object] ?? []
        page.blocks.append(.paragraph("Decisions, oldest first:"))
        page.blocks.append(
            .table(
                columns: ["Decided (UTC)", "Action", "Reason", "Who", "Note", "Status after"],
                rows: decisions.map(Self.decisionRow)))
    }

    private static func decisionRow(_ decision: Object) -> [Cell] {
        var row: [Cell] = []
        row.append(.text(text(decision["decided_at"])))
        row.append(.name(text(decision["action"])))
        row.append(.name(text(decision["reason"])))
        row.append(.text(text(decision["actor"]) + " (" + text(decision["database_user"]) + ")"))
        row.append(.text(text(decision["note"])))
        row.append(.name(text(decision["status_after"])))
        return row
    }

    private static func recordRow(_ record: Object) -> [Cell] {
        var signed: [Cell] = []
        for file in record["signed_objects"] as? [String] ?? [] {
            signed.append(.link((file as NSString).lastPathComponent + " ", href: file, isCode: true))
        }
        var row: [Cell] = []
        row.append(.link(text(record["receipt_id"]), href: text(record["file"]), isCode: true))
        row.append(.text(text(record["input_file_id"])))
        row.append(.number(text(record["line"])))
        row.append(code(record["account_key"]))
        row.append(.number(text(record["status"])))
        row.append(.cells(signed))
        return row
    }

    private static func signatureRow(_ entry: Object) -> [Cell] {
        let leaf = (entry["chain"] as? [Object])?.first
        var row: [Cell] = []
        if let file = entry["file"] as? String {
            row.append(.link(file, href: file, isCode: true))
        } else {
            row.append(.text(text(entry["problem"])))
        }
        row.append(.name(text(entry["kind"])))
        row.append(.text(text(entry["signed_date"])))
        row.append(.name(text(entry["outcome_at_ingest"])))
        row.append(.name(text(entry["outcome"])))
        row.append(.text(text(leaf?["subject"])))
        return row
    }

    private static func inputFileRow(_ file: Object) -> [Cell] {
        var row: [Cell] = []
        row.append(code(file["path"]))
        row.append(code(file["sha256"]))
        row.append(.number(text(file["size_bytes"])))
        row.append(.text(text(file["ingested_at"])))
        row.append(.text(text(file["run_id"]) + " " + text(file["run_command"])))
        return row
    }

    private static func rootRow(_ root: Object) -> [Cell] {
        var row: [Cell] = []
        row.append(.link(text(root["subject"]), href: text(root["file"]), isCode: false))
        row.append(.name(text(root["source"])))
        row.append(code(root["sha256"]))
        row.append(.text(text(root["not_before"]) + " – " + text(root["not_after"])))
        return row
    }

    private static func text(_ value: Any?) -> String {
        guard let value, !(value is NSNull) else { return "" }
        if let text = value as? String { return text }
        if let number = value as? Int { return String(number) }
        return "\(value)"
    }

    private static func code(_ value: Any?) -> Cell {
        let text = text(value)
        return text.isEmpty ? .empty : .code(text)
    }
}
