package import Reports

/// A list of flags, drawn once: the written site's `flags.html` and its views, and `serve`'s filtered queue
/// (`/flags.html?…`), which is this table over the flags its filter selects.
extension ReportSite {
    /// One line per flag of `rows`: its subject linked to the subject's page and its evidence to the flag's own page.
    /// With `decisions` (a list that may hold decided flags) a Status column says each flag's status and the decision
    /// it rests on; the written site lists open flags only, and has none.
    func flagTable(
        _ rows: [SiteRow], pages: SubjectPages, from path: String, decisions: [String: [SiteRow]]? = nil
    ) -> SitePage.Block {
        .table(
            columns: ["Severity", "Rule", "Subject"] + (decisions == nil ? [] : ["Status"])
                + ["Last event (UTC)", "Score", "Evidence"],
            rows: rows.map { row in
                let id = row["id"] ?? ""
                let subject = Subject(kind: row["subject_kind"] ?? "", key: row["subject_key"] ?? "")
                let evidence = row["evidence"].flatMap(EvidenceValue.parse)?.summary() ?? row["evidence"] ?? ""
                let status = decisions.map { [Self.statusCell(row["status"] ?? "", decisions: $0[id] ?? [])] } ?? []
                return [
                    .name(row["severity"] ?? ""), .name(row["rule"] ?? ""),
                    subjectCell(subject, row: row, pages: pages, from: path),
                ] + status + [
                    Self.text((row["window_end_utc"] ?? row["window_start_utc"]).map { String($0.prefix(10)) }),
                    Self.number(row["score"]),
                    .link(
                        evidence.isEmpty ? "details" : evidence, href: Self.link(Self.flagPath(id), from: path),
                        isCode: false),
                ]
            })
    }

    /// `rows` (in the site's order, `site_flags.sql`) in `order`; flags alike in it keep the site's order.
    static func ordered(_ rows: [SiteRow], by order: FlagListOrder, descending: Bool) -> [SiteRow] {
        let ordered: [SiteRow]
        switch order {
        case .severity: ordered = rows
        case .age: ordered = rows.stableSorted { ($0["raised_utc"] ?? "") < ($1["raised_utc"] ?? "") }
        case .rule: ordered = rows.stableSorted { ($0["rule"] ?? "") < ($1["rule"] ?? "") }
        case .score: ordered = rows.stableSorted { Double($0["score"] ?? "") ?? 0 > Double($1["score"] ?? "") ?? 0 }
        case .status: ordered = rows.stableSorted { ($0["status"] ?? "") < ($1["status"] ?? "") }
        case .subject: ordered = rows.stableSorted { ($0["subject_key"] ?? "") < ($1["subject_key"] ?? "") }
        }
        return descending ? ordered.reversed() : ordered
    }
}

/// The orders `serve`'s queue can list flags in. `severity` is the written site's (most severe first, then by rule,
/// subject and window); the others keep that order among flags alike in theirs.
package enum FlagListOrder: String, CaseIterable, Sendable {
    case severity, age, rule, score, status, subject
}

/// The flags a filter selected, with their list drawn as the written site draws it.
package struct FlagList {
    /// Flags the filter selected (at most its limit).
    package var found: Int
    /// Each selected flag's rule and severity, for the counts per rule and per severity.
    package var rules: [String]
    package var severities: [String]
    /// Flags in `table`: the first ones found, up to the number asked for.
    package var shown: Int
    /// The written site's flag table over them (a Status column where the filter is not the open queue), its links
    /// relative to the site's root.
    package var table: SitePage.Block
}

extension LiveSite {
    /// The flags `filter` selects, the first `shown` of them in `order` as the written site's list draws them.
    package func flagList(
        _ filter: FlagFilter, order: FlagListOrder, descending: Bool, shown limit: Int
    ) throws -> FlagList {
        try desk.reading("list flags") {
            let site = ReportSite(connection: desk.connection, directory: "")
            let found = try site.siteFlags(filter)
            let rows = ReportSite.ordered(Array(found.prefix(limit)), by: order, descending: descending)
            let decisions =
                filter.status == "open"
                ? nil : try ReportSite.decisions(of: rows.compactMap { $0["id"] }, connection: desk.connection)
            return FlagList(
                found: found.count, rules: found.compactMap { $0["rule"] },
                severities: found.compactMap { $0["severity"] },
                shown: rows.count,
                table: site.flagTable(rows, pages: site.livePages(rows), from: "flags.html", decisions: decisions))
        }
    }
}

extension Array {
    /// Sorted by `areInIncreasingOrder`, elements it finds equal kept in their order.
    fileprivate func stableSorted(by areInIncreasingOrder: (Element, Element) -> Bool) -> [Element] {
        enumerated().sorted { a, b in
            areInIncreasingOrder(a.element, b.element)
                || (!areInIncreasingOrder(b.element, a.element) && a.offset < b.offset)
        }.map(\.element)
    }
}
