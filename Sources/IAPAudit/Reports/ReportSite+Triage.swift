internal import Foundation
internal import Postgres

/// Triage on the site (docs/triage.md): each flag's page shows its status and decision log, a subject page its flags'
/// decisions, and `queue.html` the open queue by severity and by how long each flag has waited, then the flags
/// analysts decided. The pages read the log; only `iap-audit flags` (or `serve`'s forms) write to it.
extension ReportSite {
    /// The queue by severity and age, from the output directory.
    static let queuePath = "queue.html"

    /// The queue's views that exist (those of the open flags' rules and severities): a decided flag's page links to
    /// its rule's view only when there is one.
    struct OpenViews {
        var rules: Set<String>
        var severities: Set<String>
    }

    /// The ages the queue page counts by: days since detect first raised a flag, up to and including `through`.
    static let ageBuckets: [(label: String, through: Int)] = [
        ("under 1 day", 0), ("1–7 days", 7), ("8–30 days", 30), ("31–90 days", 90), ("over 90 days", Int.max),
    ]

    /// The decisions on flags `ids` (`site_flag_decisions.sql`), each flag's oldest first, by flag id.
    static func decisions(of ids: [String], connection: Connection) throws -> [String: [SiteRow]] {
        guard !ids.isEmpty else { return [:] }
        var result: [String: [SiteRow]] = [:]
        for row in try connection.query(
            SQLQuery.siteFlagDecisions.text, [ids], context: "read the flags' decisions"
        ).allRows {
            let decision = try SiteRow(row, columns: SiteRow.Columns.decision)
            result[decision["flag_id"] ?? "", default: []].append(decision)
        }
        return result
    }

    /// The decision a flag's status rests on: its latest confirm, dismiss or reopen (a note changes nothing).
    static func statusDecision(_ decisions: [SiteRow]) -> SiteRow? {
        decisions.last { $0["action"] != "note" }
    }

    /// A flag's decisions as a table, oldest first; `flagCell` adds a first column naming the flag (a subject page
    /// lists several flags' decisions).
    static func decisionTable(_ rows: [SiteRow], flagCell: ((String) -> SitePage.Cell)? = nil) -> SitePage.Block {
        let columns = ["When (UTC)", "Decision", "Reason", "By", "Login", "Status after", "Text"]
        return .table(
            columns: (flagCell == nil ? [] : ["Flag"]) + columns,
            rows: rows.map { row in
                (flagCell.map { [$0(row["flag_id"] ?? "")] } ?? []) + [
                    text(row["decided_utc"]), .name(row["action"] ?? ""), row["reason"].map { .name($0) } ?? .empty,
                    text(row["actor"]), row["database_user"].map { .code($0) } ?? .empty,
                    .name(row["status_after"] ?? ""), (row["note"] ?? "").isEmpty ? .empty : .text(row["note"] ?? ""),
                ]
            })
    }

    /// A flag's status as it reads: the status, and since when, by whom and why when an analyst set it.
    static func statusCell(_ status: String, decisions: [SiteRow]) -> SitePage.Cell {
        guard let decision = statusDecision(decisions) else {
            return .cells([.name(status), .text("(no decision yet)")])
        }
        // "dismissed (family-sharing, by alice, 2026-03-02 10:00 UTC)"; a reopening says it was one.
        let how = [decision["action"] == "reopen" ? "reopened" : nil, decision["reason"]].compactMap { $0 }
        return .cells([
            .name(status),
            .text(
                "("
                    + (how + ["by \(decision["actor"] ?? "?")", "\(decision["decided_utc"] ?? "?") UTC"])
                    .joined(separator: ", ") + ")"),
        ])
    }

    /// `queue.html`: how many open flags of each severity have waited how long, each severity's flags oldest first,
    /// and the flags analysts decided, latest decision first.
    func queuePage(_ listed: [SiteRow], decisions: [String: [SiteRow]], pages: SubjectPages) -> SitePage {
        let path = Self.queuePath
        let open = listed.filter { $0["status"] == "open" }
        let decided = listed.filter { $0["status"] != "open" }
        var page = SitePage(
            title: "Open queue by severity and age",
            description: "The open flags by severity and by how long they have waited: whole days since detect first "
                + "raised them, when this page was written (iap-audit flags list --older-than counts the same). Each "
                + "severity's flags follow, oldest first, then the flags analysts decided (docs/triage.md).",
            breadcrumbs: [("Run summary", "index.html"), ("Open flags", "flags.html")])
        page.blocks.append(
            .line([
                .number("\(open.count)"), .text(" open, "),
                .number("\(decided.filter { $0["status"] == "confirmed" }.count)"), .text(" confirmed, "),
                .number("\(decided.filter { $0["status"] == "dismissed" }.count)"),
                .text(" dismissed\(windowPhrase)."),
            ]))
        let severities = Self.severities.filter { severity in open.contains { $0["severity"] == severity } }
        func bucket(_ row: SiteRow) -> Int {
            let days = Int(row["age_days"] ?? "") ?? 0
            return Self.ageBuckets.firstIndex { days <= $0.through } ?? Self.ageBuckets.count - 1
        }
        page.blocks.append(
            .table(
                columns: ["Severity"] + Self.ageBuckets.map(\.label) + ["Open", "Oldest raised (UTC)"],
                rows: severities.map { severity in
                    let rows = open.filter { $0["severity"] == severity }
                    let counts = Self.ageBuckets.indices.map { index in rows.filter { bucket($0) == index }.count }
                    return [viewLink(severity, to: Self.severityPath(severity), from: path)]
                        + counts.map { SitePage.Cell.number("\($0)") }
                        + [.number("\(rows.count)"), Self.text(rows.compactMap { $0["raised_utc"] }.min())]
                }))
        for severity in severities {
            let rows = open.filter { $0["severity"] == severity }.sorted {
                ($0["raised_utc"] ?? "", Int($0["id"] ?? "") ?? 0) < ($1["raised_utc"] ?? "", Int($1["id"] ?? "") ?? 0)
            }
            page.blocks.append(.heading("Severity \(severity): \(rows.count) open, oldest first"))
            page.blocks.append(
                .table(
                    columns: ["Flag", "Rule", "Subject", "First raised (UTC)", "Days waiting", "Latest note"],
                    rows: rows.prefix(Self.flagsPerPage).map { row in
                        let id = row["id"] ?? ""
                        return [
                            .link("flag \(id)", href: Self.flagPath(id), isCode: true), .name(row["rule"] ?? ""),
                            subjectCell(
                                Subject(kind: row["subject_kind"] ?? "", key: row["subject_key"] ?? ""), row: row,
                                pages: pages, from: path),
                            Self.text(row["raised_utc"]), Self.number(row["age_days"]),
                            Self.text((decisions[id] ?? []).last { $0["action"] == "note" }?["note"]),
                        ]
                    }))
            if rows.count > Self.flagsPerPage {
                page.blocks.append(
                    .line([
                        .text("And \(rows.count - Self.flagsPerPage) more: "),
                        viewLink("every \(severity) flag", to: Self.severityPath(severity), from: path), .text("."),
                    ]))
            }
        }
        page.blocks.append(.heading("Decided: \(decided.count) flags, latest decision first"))
        let latest = decided.map { row in (row: row, decision: Self.statusDecision(decisions[row["id"] ?? ""] ?? [])) }
            .sorted { ($0.decision?["decided_utc"] ?? "") > ($1.decision?["decided_utc"] ?? "") }
        page.blocks.append(
            .table(
                columns: ["Flag", "Status", "Rule", "Subject", "Decided (UTC)", "By", "Reason"],
                rows: latest.prefix(Self.flagsPerPage).map { item in
                    let id = item.row["id"] ?? ""
                    return [
                        .link("flag \(id)", href: Self.flagPath(id), isCode: true), .name(item.row["status"] ?? ""),
                        .name(item.row["rule"] ?? ""),
                        subjectCell(
                            Subject(kind: item.row["subject_kind"] ?? "", key: item.row["subject_key"] ?? ""),
                            row: item.row, pages: pages, from: path),
                        Self.text(item.decision?["decided_utc"]), Self.text(item.decision?["actor"]),
                        item.decision?["reason"].map { .name($0) } ?? .empty,
                    ]
                }))
        return page
    }
}

/// Pages rendered from a database session, one at a time, for a reader that serves them live (`serve`) instead of
/// writing the whole site: the same renderer as the written site's pages, with every subject and flag taken to have a
/// page of its own.
extension ReportSite {
    /// The queue by severity and age over the site's window.
    func queuePage() throws -> SitePage {
        let flags = try siteFlags()
        return queuePage(
            flags, decisions: try Self.decisions(of: flags.compactMap { $0["id"] }, connection: connection),
            pages: livePages(flags))
    }

    /// `subject`'s page: its flags with their status and decisions, and what it is (history, copies, members).
    func subjectPage(_ subject: Subject) throws -> SitePage {
        let data = try SubjectData.read([subject], connection: connection)
        return Self.subjectPage(subject, data: data, pages: livePages(try siteFlags(), also: [subject]))
    }

    /// Every subject of `flags`, and `also`, with a page; every flag of `flags`, with its own.
    func livePages(_ flags: [SiteRow], also: [Subject] = []) -> SubjectPages {
        SubjectPages(
            subjects: Set(flags.map { Subject(kind: $0["subject_kind"] ?? "", key: $0["subject_key"] ?? "") } + also),
            flags: Set(flags.compactMap { $0["id"] }))
    }
}
