internal import Foundation
internal import Postgres
package import Reports

/// A flag's page, drawn once: the written site saves it as `flags/flag-ID.html`, and `serve` renders the same page
/// for one flag on request, with its decision forms added (`deciding`).
extension ReportSite {
    /// Flag `row`'s own page: its status, the whole evidence, and its decision log. `deciding` (the console's forms)
    /// stands under its own heading between the evidence and the log; the written site has none.
    func flagPage(
        _ row: SiteRow, decisions: [SiteRow], pages: SubjectPages, views: OpenViews, deciding: [SitePage.Block] = []
    ) -> SitePage {
        let id = row["id"] ?? "?"
        let path = Self.flagPath(id)
        let subject = Subject(kind: row["subject_kind"] ?? "", key: row["subject_key"] ?? "")
        let rule = row["rule"] ?? ""
        let severity = row["severity"] ?? ""
        let status = row["status"] ?? ""
        let ruleCell: SitePage.Cell =
            views.rules.contains(rule)
            ? .link(rule, href: Self.link(Self.rulePath(rule), from: path), isCode: true) : .name(rule)
        let severityCell: SitePage.Cell =
            views.severities.contains(severity)
            ? .link(severity, href: Self.link(Self.severityPath(severity), from: path), isCode: false) : .name(severity)
        var page = SitePage(
            title: "Flag \(id): \(rule)",
            description: Self.flagPhrase(status)
                + ", the whole evidence that raised it, and every decision on it. docs/fraud-rules.md explains the "
                + "rule and its settings; docs/triage.md the decisions.",
            breadcrumbs: [
                ("Run summary", Self.link("index.html", from: path)),
                ("Open flags", Self.link("flags.html", from: path)),
                ("Queue by age", Self.link(Self.queuePath, from: path)),
            ] + (views.rules.contains(rule) ? [(rule, Self.link(Self.rulePath(rule), from: path))] : []))
        page.blocks.append(
            .facts([
                ("Status", Self.statusCell(status, decisions: decisions)), ("Rule", ruleCell),
                ("Severity", severityCell), ("Subject", subjectCell(subject, row: row, pages: pages, from: path)),
                ("Window (UTC)", Self.window(row["window_start_utc"], row["window_end_utc"])),
                ("Score", Self.number(row["score"])), ("First raised (UTC)", Self.text(row["raised_utc"])),
            ]))
        page.blocks.append(.heading("Evidence"))
        page.blocks.append(.facts([("Evidence", Self.evidence(row["evidence"]))]))
        if !deciding.isEmpty { page.blocks += [.heading("Decide")] + deciding }
        page.blocks.append(.heading("Decisions"))
        page.blocks.append(
            .line([
                .text(
                    "Every decision, oldest first, as the log keeps it (nothing in it is ever changed). Decide with "),
                .code("iap-audit flags confirm \(id) --text …"), .text(" or "),
                .code(
                    "iap-audit flags dismiss \(id) --reason "
                        + DismissalReason.allCases.map(\.rawValue).joined(separator: "|")),
                .text("."),
            ]))
        page.blocks.append(Self.decisionTable(decisions))
        return page
    }

    /// What a flag of `status` is, as its page's description begins.
    private static func flagPhrase(_ status: String) -> String {
        switch status {
        case "open": "One open flag"
        case "superseded": "One flag a later detect superseded (its store account was merged into another)"
        default: "One flag an analyst has \(status)"
        }
    }

    /// Flag `id`'s page (open, confirmed or dismissed), read for that flag alone: its row (`site_flags.sql` for one
    /// id), whether its rule and severity have views (`site_flag_views.sql`) and its log (`site_flag_decisions.sql`).
    /// `deciding` gets the flag's status and gives the forms to add. A superseded flag has a page here (the
    /// written site has none); nil when there is no such flag.
    func flagPage(id: Int64, deciding: (_ status: String) -> [SitePage.Block] = { _ in [] }) throws -> SitePage? {
        guard let row = try siteFlags(id: id).first else { return nil }
        let rule = row["rule"] ?? ""
        let severity = row["severity"] ?? ""
        let views = try connection.query(
            SQLQuery.siteFlagViews.text, [rule, severity], context: "read flag \(id)'s views")
        return flagPage(
            row, decisions: try Self.decisions(of: [String(id)], connection: connection)[String(id)] ?? [],
            pages: livePages([row]),
            views: OpenViews(
                rules: try views.first(Bool.self, "rule_has_view") ? [rule] : [],
                severities: try views.first(Bool.self, "severity_has_view") ? [severity] : []),
            deciding: deciding(row["status"] ?? ""))
    }
}

extension LiveSite {
    /// Flag `id`'s page as the written site draws it, with the blocks `deciding` gives for its status (the
    /// console's forms) added; nil when the site has no page for it.
    package func flagPage(id: Int64, deciding: (_ status: String) -> [SitePage.Block]) throws -> SitePage? {
        try ReportSite(connection: desk.connection, directory: "").flagPage(id: id, deciding: deciding)
    }

    /// The open queue by severity and age (`queue.html`), as the written site draws it.
    package func queuePage() throws -> SitePage {
        try ReportSite(connection: desk.connection, directory: "").queuePage()
    }
}
