internal import Foundation
internal import IAPAudit
internal import Reports

/// The console's queue (`/flags.html`): the triage desk's flags, filtered by rule, severity, status and age and
/// sorted by any column the analyst picks, with the counts per rule and severity as links that add that filter (as
/// Datasette's facets do), and the username search.
struct QueueQuery: Sendable {
    var filter = FlagFilter()
    var sort = FlagListOrder.severity
    var descending = false

    /// The most flags one page shows; a filter narrows the rest.
    static let limit = 500

    /// The open queue, most severe first.
    private init() {}

    /// Reads the query string's filters; a value no filter takes is a `BadRequest` (400) saying which.
    init(_ form: FormValues) throws(BadRequest) {
        if let rule = form["rule"] {
            guard DetectionRule.allCases.contains(where: { $0.id == rule }) else { throw BadRequest("no rule \(rule)") }
            filter.rule = rule
        }
        if let severity = form["severity"] {
            guard FlagFilter.severities.contains(severity) else { throw BadRequest("no severity \(severity)") }
            filter.severity = severity
        }
        let status = form["status"] ?? "open"
        guard status == "all" || FlagFilter.statuses.contains(status) else { throw BadRequest("no status \(status)") }
        filter.status = status == "all" ? nil : status
        filter.olderThanDays = try Self.days(form, "older_than")
        filter.newerThanDays = try Self.days(form, "newer_than")
        filter.limit = Self.limit + 1
        if let sort = form["sort"] {
            guard let order = FlagListOrder(rawValue: sort) else { throw BadRequest("no sort \(sort)") }
            self.sort = order
        }
        if let order = form["order"] {
            guard order == "asc" || order == "desc" else { throw BadRequest("order takes asc or desc") }
            descending = order == "desc"
        }
    }

    private static func days(_ form: FormValues, _ name: String) throws(BadRequest) -> Int? {
        guard let text = form[name] else { return nil }
        guard let days = Int(text), days >= 0, days <= 100_000 else {
            throw BadRequest("\(name) takes a number of days, 0 or more")
        }
        return days
    }

    /// This query as a query string, with `changes` applied (nil removes a field).
    func link(_ changes: [String: String?] = [:]) -> String {
        var fields: [(String, String?)] = [
            ("rule", filter.rule), ("severity", filter.severity), ("status", filter.status ?? "all"),
            ("older_than", filter.olderThanDays.map(String.init)),
            ("newer_than", filter.newerThanDays.map(String.init)),
            ("sort", sort.rawValue), ("order", descending ? "desc" : "asc"),
        ]
        for (index, field) in fields.enumerated() where changes.keys.contains(field.0) {
            fields[index].1 = changes[field.0] ?? nil
        }
        let query = fields.compactMap { name, value in value.map { "\(name)=\(Self.escape($0))" } }
        return "flags.html" + (query.isEmpty ? "" : "?" + query.joined(separator: "&"))
    }

    /// The written site's view of the open flags of one rule or severity (`/flags/rule-X.html`,
    /// `/flags/severity-X.html`, which its flag pages link to) as the queue with that filter; nil for any other path.
    static func filter(forView path: String) -> String? {
        for (prefix, name) in [("/flags/rule-", "rule"), ("/flags/severity-", "severity")]
        where path.hasPrefix(prefix) && path.hasSuffix(".html") {
            let value = String(path.dropFirst(prefix.count).dropLast(".html".count))
            guard !value.isEmpty, value.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }) else {
                return nil
            }
            return "/" + QueueQuery().link([name: value])
        }
        return nil
    }

    private static func escape(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(["-", "_", "."])) ?? ""
    }
}

/// A request the console cannot take: a 400 with the reason on the page.
struct BadRequest: Error {
    let reason: String
    init(_ reason: String) { self.reason = reason }
}

enum QueuePage {
    /// The queue over `list`: the search, the filters, the counts per rule and severity, the sorts, and the flags as
    /// the written site lists them.
    static func page(_ list: FlagList, query: QueueQuery) -> SitePage {
        let statusWord = query.filter.status ?? "all"
        var page = SitePage(
            title: "Flags: \(statusWord)",
            description: "The triage queue, live from the database: filter, sort, open a flag to confirm, dismiss, "
                + "reopen or note it. docs/triage.md says what each decision means.")
        page.blocks.append(.form(searchForm))
        page.blocks.append(.form(filterForm(query)))
        var count = "\(list.shown) flag\(list.shown == 1 ? "" : "s")"
        if list.found > QueueQuery.limit { count += " shown, the first \(QueueQuery.limit): narrow the filter" }
        page.blocks.append(
            .line([
                .text(count + ". "), .link("JSON", href: jsonLink(query), isCode: false), .text(". Waiting longest: "),
                .link("the open queue by age", href: "queue.html", isCode: false), .text("."),
            ]))
        page.blocks.append(facet("Rule", "rule", list.rules, query: query))
        page.blocks.append(facet("Severity", "severity", list.severities, query: query))
        page.blocks.append(
            .line(
                [.text("Sort by: ")]
                    + FlagListOrder.allCases.flatMap { sort -> [SitePage.Cell] in
                        let label =
                            sort == query.sort ? "\(sort.rawValue) \(query.descending ? "↓" : "↑")" : sort.rawValue
                        let order = sort == query.sort && !query.descending ? "desc" : "asc"
                        return [
                            .link(label, href: query.link(["sort": sort.rawValue, "order": order]), isCode: false),
                            .text(" "),
                        ]
                    }))
        page.blocks.append(list.table)
        return page
    }

    static func jsonLink(_ query: QueueQuery) -> String {
        query.link().replacingOccurrences(of: "flags.html", with: "flags.json")
    }

    /// The username search: posted, so the name is in no URL, history or log; the server hashes it and sends the
    /// browser to the account's page.
    static let searchForm = SiteForm(
        action: "/search", isPost: true,
        fields: [
            .text(name: "username", label: "Application username (hashed on the server)", value: "", isSecret: true)
        ],
        submit: "Find account")

    static func filterForm(_ query: QueueQuery) -> SiteForm {
        let any = [(value: "", label: "any")]
        return SiteForm(
            action: "/flags.html", isPost: false,
            fields: [
                .select(
                    name: "rule", label: "Rule", options: any + DetectionRule.allCases.map { ($0.id, $0.id) },
                    selected: query.filter.rule ?? ""),
                .select(
                    name: "severity", label: "Severity", options: any + FlagFilter.severities.map { ($0, $0) },
                    selected: query.filter.severity ?? ""),
                .select(
                    name: "status", label: "Status", options: (FlagFilter.statuses + ["all"]).map { ($0, $0) },
                    selected: query.filter.status ?? "all"),
                .number(
                    name: "older_than", label: "Raised at least N days ago",
                    value: query.filter.olderThanDays.map(String.init) ?? ""),
                .number(
                    name: "newer_than", label: "Raised less than N days ago",
                    value: query.filter.newerThanDays.map(String.init) ?? ""),
                .hidden(name: "sort", value: query.sort.rawValue),
                .hidden(name: "order", value: query.descending ? "desc" : "asc"),
            ], submit: "Filter")
    }

    /// The counts of `values` as links adding `name`'s filter, the chosen one unlinked with a link removing it.
    private static func facet(_ title: String, _ name: String, _ values: [String], query: QueueQuery) -> SitePage.Block
    {
        var counts: [String: Int] = [:]
        for value in values { counts[value, default: 0] += 1 }
        let chosen = name == "rule" ? query.filter.rule : query.filter.severity
        var cells: [SitePage.Cell] = [.text("\(title): ")]
        for value in counts.keys.sorted() {
            let label = "\(value) (\(counts[value] ?? 0))"
            cells.append(value == chosen ? .name(label) : .link(label, href: query.link([name: value]), isCode: false))
            cells.append(.text(" "))
        }
        if chosen != nil { cells.append(.link("(any)", href: query.link([name: nil]), isCode: false)) }
        return .line(cells)
    }
}
