internal import AppStoreFormats
internal import Crypto
internal import Dispatch
internal import Foundation
internal import Postgres

/// A run's report site in the output directory: `index.html` (what the run did, links to every report, the runs
/// before it), `flags.html` with each subject linked to its page, and `subjects/` with one page per flagged subject
/// and the subjects one step from them (docs/reports.md).
///
/// Pages are written for flagged subjects only, and within `window` days (the batch reports' window), so the site
/// stays small at any data size, and a page links to another subject only when that subject has a page.
struct ReportSite {
    /// A flagged subject, or one next to a flagged subject.
    struct Subject: Hashable {
        /// `app-account`, `store-account`, `transaction`, `receipt` or `receipt-data`.
        var kind: String
        /// The subject's key as the flag stores it.
        var key: String
    }

    /// The folder, inside the output directory, of the subject pages.
    static let subjectsFolder = "subjects"

    let connection: Connection
    let directory: String
    /// The days of flags the site covers, ending on the newest open flag's window end; 0: all.
    var window = 0

    /// Writes the site for run `runID` (nil: the latest recorded `run`), linking to `reportFiles`; returns the paths
    /// written, `index.html` first.
    func write(runID: Int64?, reportFiles: [String]) throws -> [String] {
        let (flags, subjects, pages) = try subjectPages()

        let subjectsDirectory = (directory as NSString).appendingPathComponent(Self.subjectsFolder)
        // Pages of subjects no longer flagged would otherwise stay behind and be mistaken for current ones (and a page
        // a killed run left half-written, beside its old version).
        if FileManager.default.fileExists(atPath: subjectsDirectory) {
            let current = Set(subjects.map { (pages.href($0, from: .subject) as NSString).lastPathComponent })
            for name in try FileManager.default.contentsOfDirectory(atPath: subjectsDirectory)
            where (name.hasSuffix(".html") && !current.contains(name)) || name.hasSuffix(".partial") {
                try FileManager.default.removeItem(atPath: (subjectsDirectory as NSString).appendingPathComponent(name))
            }
        }
        try FileManager.default.createDirectory(atPath: subjectsDirectory, withIntermediateDirectories: true)

        var written: [String] = []
        written.append(
            try save(try indexPage(runID: runID, reportFiles: reportFiles, flags: flags), "index.html"))
        let files = Set(reportFiles.map { ($0 as NSString).lastPathComponent })
        let decisions = try Self.decisions(of: flags.compactMap { $0["id"] }, connection: connection)
        written.append(try save(queuePage(flags, decisions: decisions, pages: pages), Self.queuePath))
        let queue = try flagPages(flags, decisions: decisions, pages: pages, files: files)
        try Self.removeStale(
            in: (directory as NSString).appendingPathComponent(Self.flagsFolder),
            keeping: Set(queue.map { ($0.path as NSString).lastPathComponent }))
        try FileManager.default.createDirectory(
            atPath: (directory as NSString).appendingPathComponent(Self.flagsFolder), withIntermediateDirectories: true)
        for (path, page) in queue { written.append(try save(page, path)) }
        for start in stride(from: 0, to: subjects.count, by: Self.subjectsPerRead) {
            let batch = Array(subjects[start..<min(start + Self.subjectsPerRead, subjects.count)])
            let data = try SubjectData.read(batch, connection: connection)
            written += try Self.writeSubjectPages(batch, data: data, pages: pages, directory: directory)
        }
        return written
    }

    /// Removes the pages in `folder` not named in `current`, and what a killed run left half-written.
    private static func removeStale(in folder: String, keeping current: Set<String>) throws {
        guard FileManager.default.fileExists(atPath: folder) else { return }
        for name in try FileManager.default.contentsOfDirectory(atPath: folder)
        where (name.hasSuffix(".html") && !current.contains(name)) || name.hasSuffix(".partial") {
            try FileManager.default.removeItem(atPath: (folder as NSString).appendingPathComponent(name))
        }
    }

    /// The flags the site lists (open, confirmed and dismissed: each gets a page with its status and decisions; the
    /// queue lists the open ones), the subjects that get a page (the flagged ones first, then their neighbours), and
    /// where their pages are.
    func subjectPages() throws -> (flags: [SiteRow], subjects: [Subject], pages: SubjectPages) {
        let flags = try siteFlags()
        var subjects: [Subject] = []
        var seen = Set<Subject>()
        for row in flags {
            let subject = Subject(kind: row["subject_kind"] ?? "", key: row["subject_key"] ?? "")
            if seen.insert(subject).inserted { subjects.append(subject) }
        }
        let flagged = subjects
        let neighbours = try connection.query(
            SQLQuery.siteNeighbours.text,
            [flagged.map(\.kind), flagged.map(\.key)],
            context: "find the subjects next to the flagged ones")
        for row in neighbours.allRows {
            let subject = Subject(kind: try row.decode(String.self, "kind"), key: try row.decode(String.self, "key"))
            if seen.insert(subject).inserted { subjects.append(subject) }
        }
        return (flags, subjects, SubjectPages(subjects: seen, flags: Set(flags.compactMap { $0["id"] })))
    }

    /// The site's flags (`site_flags.sql`), or the one flag `id` whatever the window and its status.
    func siteFlags(id: Int64? = nil) throws -> [SiteRow] {
        try siteFlags([id == nil ? window : 0, id] + Array(repeating: nil, count: 7))
    }

    /// The flags `filter` selects (the console's queue), in the site's order, whatever the window; a filter without a
    /// status selects every status, superseded too.
    func siteFlags(_ filter: FlagFilter) throws -> [SiteRow] {
        try siteFlags([
            0, nil, filter.rule, filter.severity, filter.status.map { [$0] } ?? FlagFilter.statuses,
            filter.olderThanDays, filter.newerThanDays, filter.subject, filter.limit,
        ])
    }

    private func siteFlags(_ parameters: [(any PostgresParameter)?]) throws -> [SiteRow] {
        try connection.query(SQLQuery.siteFlags.text, parameters, context: "read the flags for the site")
            .allRows.map { try SiteRow($0, columns: SiteRow.Columns.flag) }
    }

    /// The report columns whose values name a subject, and its kind.
    static let subjectColumns = [
        "store_account_key": "store-account", "transaction_id": "transaction",
        "original_transaction_id": "transaction", "receipt_id": "receipt", "account_key": "app-account",
    ]

    /// For a report page written beside the site: each cell naming a subject that has a page, linked to it.
    static func cellLinks(_ table: ReportTable, pages: SubjectPages) -> [String: [String: String]] {
        var links: [String: [String: String]] = [:]
        for (index, column) in table.columns.enumerated() {
            guard let kind = subjectColumns[column.name] else { continue }
            for row in table.rows {
                guard index < row.count, let key = row[index] else { continue }
                let subject = Subject(kind: kind, key: key)
                if pages.hasPage(subject) { links[column.name, default: [:]][key] = pages.href(subject, from: .root) }
            }
        }
        return links
    }

    /// Subjects whose pages are read together: few statements, and the data of a few hundred pages in memory at once.
    static let subjectsPerRead = 250

    /// Renders and saves `subjects`' pages on a few threads (rendering and comparing with the page on disk is most of
    /// a daily site's cost); returns their paths in the order of `subjects`.
    private static func writeSubjectPages(
        _ subjects: [Subject], data: SubjectData, pages: SubjectPages, directory: String
    ) throws -> [String] {
        var results = [Result<String, any Error>?](repeating: nil, count: subjects.count)
        let threads = max(1, min(ProcessInfo.processInfo.activeProcessorCount, 4, subjects.count))
        results.withUnsafeMutableBufferPointer { buffer in
            let output = UncheckedSendable(buffer)
            DispatchQueue.concurrentPerform(iterations: threads) { thread in
                // Each thread renders every `threads`-th page: page sizes vary a hundredfold, so no thread gets all
                // the large ones.
                for index in stride(from: thread, to: subjects.count, by: threads) {
                    let subject = subjects[index]
                    output.value[index] = Result {
                        try save(
                            subjectPage(subject, data: data, pages: pages), pages.href(subject, from: .root),
                            in: directory)
                    }
                }
            }
        }
        return try results.map { result in
            guard let result else { throw IAPAuditError.internalInconsistency("a subject page was not written") }
            return try result.get()
        }
    }

    /// " whose window ends in the last N days", or nothing when the site covers all history.
    var windowPhrase: String {
        window > 0 ? " whose window ends in the last \(window) days (iap-audit report flags: all)" : ""
    }

    /// Writes `page` unless its file already holds the same bytes (most pages of a daily run do: a browser or a
    /// sync tool sees only what changed). A new version is written beside the old one and renamed over it, so a
    /// reader never sees half a page; it is not synced to disk, as the next run writes a page lost to a crash again.
    private func save(_ page: SitePage, _ relativePath: String) throws -> String {
        try Self.save(page, relativePath, in: directory)
    }

    private static func save(_ page: SitePage, _ relativePath: String, in directory: String) throws -> String {
        let path = (directory as NSString).appendingPathComponent(relativePath)
        let bytes = Data(page.html())
        if let existing = FileManager.default.contents(atPath: path), existing == bytes { return path }
        let temporary = path + ".partial"
        try bytes.write(to: URL(fileURLWithPath: temporary))
        guard rename(temporary, path) == 0 else {
            let code = errno
            try? FileManager.default.removeItem(atPath: temporary)
            throw NSError(domain: NSPOSIXErrorDomain, code: Int(code), userInfo: [NSFilePathErrorKey: path])
        }
        return path
    }
}

/// Which subjects have a page, where it is, and how a subject reads.
struct SubjectPages {
    /// Where a link starts from: the output directory, or the subjects folder.
    enum Origin {
        case root
        case subject
    }

    let subjects: Set<ReportSite.Subject>
    /// The ids of the flags that have a page of their own (the site's window of flags).
    var flags: Set<String> = []

    /// Whether `subject` has a page.
    func hasPage(_ subject: ReportSite.Subject) -> Bool { subjects.contains(subject) }

    /// A cell naming flag `id`, linked from a subject page to the flag's own page when it has one.
    func flagCell(_ id: String) -> SitePage.Cell {
        flags.contains(id) ? .link(id, href: "../" + ReportSite.flagPath(id), isCode: true) : .code(id)
    }

    /// The relative link to `subject`'s page from `origin`.
    func href(_ subject: ReportSite.Subject, from origin: Origin) -> String {
        let name = "\(subject.kind)-\(Self.fileSafe(subject.key)).html"
        return origin == .root ? "\(ReportSite.subjectsFolder)/\(name)" : name
    }

    /// The key itself when it is short and plain (ids, hashes, `sa-…` keys), else a digest of it: keys come from
    /// input files, so they never become a path as they are.
    static func fileSafe(_ key: String) -> String {
        let plain = key.utf8.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
        }
        if plain && !key.isEmpty && key.utf8.count <= 100 { return key }
        return "h" + LowercaseHex.string(SHA256.hash(data: Array(key.utf8)).prefix(16))
    }

    /// How a subject reads: "account 3f2a…", "transaction 1000000123", "store account sa-…".
    static func noun(_ kind: String) -> String {
        switch kind {
        case "app-account": "account"
        case "store-account": "store account"
        case "receipt-data": "receipt data (SHA-256)"
        default: kind
        }
    }

    /// A cell naming `subject` with `text`, linked when it has a page.
    func cell(_ subject: ReportSite.Subject, text: String? = nil, from origin: Origin) -> SitePage.Cell {
        let shown = text ?? subject.key
        return hasPage(subject) ? .link(shown, href: href(subject, from: origin), isCode: true) : .code(shown)
    }
}

extension ReportSite {
    fileprivate static let crumbsFromSubject: [(text: String, href: String)] = [
        ("Run summary", "../index.html"), ("Open flags", "../flags.html"), ("Queue by age", "../" + queuePath),
    ]

    /// Evidence or JSON text as a readable list; text that is not JSON as it is.
    static func evidence(_ text: String?) -> SitePage.Cell {
        guard let text else { return .empty }
        return EvidenceValue.parse(text).map { .evidence($0) } ?? .text(text)
    }

    static func number(_ text: String?) -> SitePage.Cell {
        text.map { .number($0) } ?? .empty
    }

    /// An amount with its currency (`0.99 USD`), right-aligned; empty where the row carries no price.
    static func price(_ amount: String?, _ currency: String?) -> SitePage.Cell {
        guard let amount else { return .empty }
        return .number(currency.map { "\(amount) \($0)" } ?? amount)
    }

    static func text(_ text: String?) -> SitePage.Cell {
        text.map { .text($0) } ?? .empty
    }

    static func window(_ start: String?, _ end: String?) -> SitePage.Cell {
        switch (start, end) {
        case (nil, nil): .empty
        case (let start?, let end?) where start == end: .text(start)
        default: .text("\(start ?? "…") – \(end ?? "…")")
        }
    }

    /// The subject's flags (`site_subject_flags.sql` without its subject columns), open ones first, each with its
    /// status and linked to its own page; then every decision analysts made on them (`site_flag_decisions.sql`).
    static func subjectFlags(
        _ rows: [SiteRow], decisions: [String: [SiteRow]], pages: SubjectPages
    ) -> [SitePage.Block] {
        let open = rows.filter { $0["status"] == "open" }.count
        let decided = rows.compactMap { row in row["flag_id"].map { (id: $0, rows: decisions[$0] ?? []) } }
            .filter { !$0.rows.isEmpty }
        return [
            .heading("Flags"),
            .line([
                .text("\(open) open, \(rows.count - open) decided (confirmed or dismissed by an analyst: "),
                .code("iap-audit flags show ID"), .text(")."),
            ]),
            .table(
                columns: ["Flag", "Status", "Rule", "Severity", "Score", "Window (UTC)", "Evidence"],
                rows: rows.map { row in
                    [
                        pages.flagCell(row["flag_id"] ?? ""), .name(row["status"] ?? ""), .name(row["rule"] ?? ""),
                        Self.text(row["severity"]), Self.number(row["score"]),
                        Self.window(row["window_start_utc"], row["window_end_utc"]), Self.evidence(row["evidence"]),
                    ]
                }),
        ]
            + (decided.isEmpty
                ? []
                : [
                    .heading("Decisions"),
                    decisionTable(decided.flatMap(\.rows), flagCell: { pages.flagCell($0) }),
                ])
    }

    /// What a subject page of `kind` shows, in a sentence under its title.
    private static func pageDescription(_ kind: String) -> String {
        switch kind {
        case "app-account":
            "An app account (the hash of its application username: iap-audit hash-username NAME "
                + "finds it): its receipts, transactions, store accounts and flags, oldest first."
        case "store-account":
            "A store account reconstructed from receipts (docs/fraud-rules.md): the original "
                + "transactions it holds and the app accounts that posted them."
        case "transaction":
            "A transaction id: every receipt copy that listed it, where it was read, and the app "
                + "account and store account it belongs to."
        case "receipt": "One recorded receipt: the file and line it was read from and what it said."
        default: "A receipt's data (the base64 text an app sent), by its SHA-256."
        }
    }

    static func subjectPage(_ subject: Subject, data: SubjectData, pages: SubjectPages) -> SitePage {
        var page = SitePage(
            title:
                "\(SubjectPages.noun(subject.kind).prefix(1).uppercased())\(SubjectPages.noun(subject.kind).dropFirst()) "
                + subject.key,
            description: Self.pageDescription(subject.kind), breadcrumbs: Self.crumbsFromSubject)
        page.blocks += subjectFlags(data.flags[subject] ?? [], decisions: data.decisions, pages: pages)
        switch subject.kind {
        case "app-account":
            page.blocks.append(.heading("History"))
            // The account's flags are listed above: the history does not repeat them.
            let history = (data.history[subject.key] ?? []).filter { $0["kind"] != "flag" }
            // Only StoreKit 2 transactions carry a price: an account of legacy receipts gets no empty price column.
            let priced = history.contains { $0["price"] != nil }
            page.blocks.append(
                .table(
                    columns: ["When (UTC)", "Kind", "Reference"] + (priced ? ["Unit price"] : []) + ["Detail"],
                    rows: history.map { row in
                        let kind = row["kind"] ?? ""
                        let reference: SitePage.Cell =
                            switch kind {
                            case "transaction", "store-account", "receipt":
                                pages.cell(Subject(kind: kind, key: row["ref"] ?? ""), from: .subject)
                            default: .code(row["ref"] ?? "")
                            }
                        return [Self.text(row["at_utc"]), .text(kind), reference]
                            + (priced ? [Self.price(row["price"], row["currency"])] : [])
                            + [
                                row["detail"].flatMap(EvidenceValue.parse).map { .evidence(Self.readableDetail($0)) }
                                    ?? Self.evidence(row["detail"])
                            ]
                    }))
        case "store-account":
            page.blocks += table(
                "Original transactions", rows: data.storeAccounts[subject.key],
                columns: [
                    "Original transaction", "First purchase (UTC)", "Last purchase (UTC)", "Ownable", "App accounts",
                ]
            ) { row in
                [
                    pages.cell(Subject(kind: "transaction", key: row["original_transaction_id"] ?? ""), from: .subject),
                    Self.text(row["first_purchase_utc"]), Self.text(row["last_purchase_utc"]),
                    Self.text(row["holds_ownable"] == "t" ? "yes" : "no"), accounts(row["app_accounts"], pages: pages),
                ]
            }
        case "transaction":
            if let history = data.transactions[subject.key]?.first?["history"] {
                page.blocks.append(.facts([("State history", .text(history))]))
            }
            page.blocks += table(
                "Receipt copies", rows: data.transactions[subject.key],
                columns: [
                    "Environment", "Product", "Original transaction", "Purchase (UTC)", "Cancelled (UTC)",
                    "Read from", "Account", "Store account",
                ]
            ) { row in
                [
                    Self.text(row["environment"]), .code(row["product_id"] ?? ""),
                    Self.text(row["original_transaction_id"]),
                    Self.text(row["purchase_utc"]), Self.text(row["cancellation_utc"]),
                    .code("\(row["file"] ?? "?"):\(row["line"] ?? "?") (\(row["source"] ?? ""))"),
                    accounts(row["account_key"], pages: pages),
                    row["store_account_key"].map { pages.cell(Subject(kind: "store-account", key: $0), from: .subject) }
                        ?? .empty,
                ]
            }
        case "receipt":
            if let row = data.receipts[subject.key] {
                page.title = "Receipt \(row["file"] ?? "?"):\(row["line"] ?? "?")"
                page.blocks.append(.heading("Receipt"))
                page.blocks.append(
                    .facts([
                        ("Read from", .code("\(row["file"] ?? "?") line \(row["line"] ?? "?")")),
                        ("Account", accounts(row["account_key"], pages: pages)), ("Status", Self.text(row["status"])),
                        ("Environment", Self.text(row["environment"])),
                        ("Sandbox", Self.text(row["is_sandbox"] == "t" ? "yes" : "no")),
                        ("Style", Self.text(row["style"])), ("Bundle", Self.text(row["bundle_id"])),
                        ("Recorded store account", Self.text(row["store_account"])),
                        ("Recorded (UTC)", Self.text(row["recorded_utc"])),
                        ("Transaction entries", Self.text(row["transaction_entries"])),
                        ("Receipt data SHA-256", Self.text(row["receipt_data_sha256"])),
                        ("Transactions", transactions(row["transactions"], pages: pages)),
                    ]))
            }
        default: break
        }
        return page
    }

    /// The detail fields a person looks for first, in this order; the rest follow in their own order.
    static let detailOrder = [
        "product_id", "quantity", "price", "original_transaction_id", "environment", "store_account_key",
        "store_account", "receipt_id", "bundle_id", "status", "style", "purchases", "is_confirmed",
        "last_purchase_date", "is_trial_period", "is_upgraded", "in_app_ownership_type", "cancellation_date",
        "cancellation_reason",
    ]

    /// A history row's detail with the fields that say nothing (null) left out, and the telling ones first.
    static func readableDetail(_ value: EvidenceValue) -> EvidenceValue {
        guard case .object(let members) = value else { return value }
        let kept = members.filter { $0.value != .null }
        func position(_ name: String) -> Int { detailOrder.firstIndex(of: name) ?? detailOrder.count }
        return .object(
            kept.enumerated().sorted { (position($0.element.name), $0.offset) < (position($1.element.name), $1.offset) }
                .map(\.element))
    }

    /// A heading and a table of one row per row of `rows`.
    private static func table(
        _ heading: String, rows: [SiteRow]?, columns: [String], row cells: (SiteRow) -> [SitePage.Cell]
    ) -> [SitePage.Block] {
        [.heading(heading), .table(columns: columns, rows: (rows ?? []).map(cells))]
    }

    /// Space-separated account hashes as cells linked to their pages.
    private static func accounts(_ list: String?, pages: SubjectPages) -> SitePage.Cell {
        linkedList(list, kind: "app-account", pages: pages)
    }

    private static func transactions(_ list: String?, pages: SubjectPages) -> SitePage.Cell {
        linkedList(list, kind: "transaction", pages: pages)
    }

    private static func linkedList(_ list: String?, kind: String, pages: SubjectPages) -> SitePage.Cell {
        guard let list, !list.isEmpty else { return .empty }
        let keys = list.split(separator: " ").map(String.init)
        if keys.count == 1 { return pages.cell(Subject(kind: kind, key: keys[0]), from: .subject) }
        return .cells(keys.map { pages.cell(Subject(kind: kind, key: $0), from: .subject) })
    }
}
