import Foundation
import IAPAudit
import Postgres
import Testing

/// The report site on the shipped example data over a real PostgreSQL: every link of every page finds its target,
/// every flagged subject has a page, and hostile subjects stay escaped and out of file names.
/// Counting substrings, as the report tests do.
enum ReportFixturesForSite {
    static func count(_ needle: String, in haystack: String) -> Int {
        haystack.components(separatedBy: needle).count - 1
    }
}

@Suite(.serialized) struct ReportSiteTests {
    static var examples: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("examples").path
    }

    /// Every `href` of an HTML page, unescaped.
    static func links(in html: String) -> [String] {
        var links: [String] = []
        var rest = html[...]
        while let start = rest.range(of: "href=\"") {
            rest = rest[start.upperBound...]
            guard let end = rest.firstIndex(of: "\"") else { break }
            links.append(
                String(rest[..<end]).replacingOccurrences(of: "&quot;", with: "\"")
                    .replacingOccurrences(of: "&#39;", with: "'").replacingOccurrences(of: "&lt;", with: "<")
                    .replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&amp;", with: "&"))
            rest = rest[end...]
        }
        return links
    }

    /// Follows every link from `index.html`; returns the pages reached (relative paths) and the broken links.
    static func walk(_ directory: String) throws -> (pages: Set<String>, broken: [String]) {
        var reached: Set<String> = ["index.html"]
        var queue = ["index.html"]
        var broken: [String] = []
        let root = URL(fileURLWithPath: directory).standardizedFileURL
        while let page = queue.popLast() {
            let url = root.appendingPathComponent(page)
            let html = try String(contentsOf: url, encoding: .utf8)
            for link in links(in: html) {
                let target = URL(fileURLWithPath: link, relativeTo: url.deletingLastPathComponent()).standardizedFileURL
                guard !link.contains(":"), target.path.hasPrefix(root.path + "/"),
                    FileManager.default.fileExists(atPath: target.path)
                else {
                    broken.append("\(page) → \(link)")
                    continue
                }
                let relative = String(target.path.dropFirst(root.path.count + 1))
                if relative.hasSuffix(".html"), reached.insert(relative).inserted { queue.append(relative) }
            }
        }
        return (reached, broken)
    }

    @Test func theDemoSiteLinksEveryFlagToItsSubjectAndEveryLinkFindsItsTarget() throws {
        let test = try TestWorkspace()
        let out = test.directory.appendingPathComponent("out").path
        let summary = try test.workspace.run(ExampleData.plan(examples: Self.examples, outputDirectory: out))
        let site = try #require(summary.sitePages)
        #expect(site.first == out + "/index.html")

        let (pages, broken) = try Self.walk(out)
        #expect(broken.isEmpty, "\(broken.prefix(10))")
        // Every page the site wrote is reachable from the index, and every report file is linked.
        let subjectPages = try FileManager.default.contentsOfDirectory(atPath: out + "/subjects")
        #expect(Set(subjectPages.map { "subjects/" + $0 }).isSubset(of: pages))
        #expect(pages.contains("flags.html") && pages.contains("reconciliation-summary.html"))
        let index = try String(contentsOfFile: out + "/index.html", encoding: .utf8)
        for file in summary.reportsWritten {
            #expect(index.contains("href=\"\((file as NSString).lastPathComponent)\""), "index does not link \(file)")
        }

        // One page per flagged subject (and the subjects next to them), for every kind the example flags.
        let flagged = try test.connection.query("SELECT DISTINCT subject_kind, subject_key FROM flags_open").rows
        #expect(flagged.count > 5)
        for kind in ["app-account", "store-account", "transaction", "receipt"] {
            #expect(subjectPages.contains { $0.hasPrefix(kind + "-") }, "no \(kind) page")
        }
        #expect(subjectPages.count >= flagged.count)
        #expect(subjectPages.count < 200, "the site should stay small: \(subjectPages.count) subject pages")

        // Subjects read as what they are, evidence as a list, and nothing on the pages runs or loads anything.
        let flags = try String(contentsOfFile: out + "/flags.html", encoding: .utf8)
        #expect(flags.contains("<code>account "))
        #expect(flags.contains("<code>receipt ") && flags.contains(".jsonl:"))
        #expect(!flags.contains("{&quot;"))
        #expect(flags.contains("<svg"))
        // The queue: one line per flag, each leading to the flag's own page with the whole evidence, and views by
        // severity and by rule.
        let flagIDs = try test.connection.query("SELECT id FROM flags_open").rows.compactMap { $0[0] }
        for id in flagIDs {
            #expect(pages.contains("flags/flag-\(id).html"), "no page for flag \(id)")
        }
        let flagPage = try String(contentsOfFile: out + "/flags/flag-\(flagIDs[0]).html", encoding: .utf8)
        #expect(flagPage.contains("<dl class=\"evidence\">"))
        #expect(pages.contains("flags/severity-high.html") && pages.contains("flags/rule-forged-signature.html"))
        // The report pages link the store accounts and transactions that have pages of their own.
        let storeAccounts = try String(contentsOfFile: out + "/store-accounts.html", encoding: .utf8)
        #expect(storeAccounts.contains("<a href=\"subjects/store-account-"))
        #expect(ReportFixturesForSite.count("<tr>", in: flags) == flagIDs.count + 1)
        // A subject page's flags lead to the flags' own pages.
        for row in try test.connection.query("SELECT id, subject_kind, subject_key FROM flags_open").rows {
            let page = "subjects/\(row[1] ?? "")-\(row[2] ?? "").html"
            guard pages.contains(page) else { continue }
            let html = try String(contentsOfFile: out + "/" + page, encoding: .utf8)
            #expect(html.contains("<a href=\"../flags/flag-\(row[0] ?? "").html\">"), "\(page) does not link its flag")
        }
        for page in pages {
            let html = try String(contentsOfFile: out + "/" + page, encoding: .utf8)
            #expect(!html.contains("<script"), "\(page)")
            // No page is a dead end: each leads back to the index, directly or from the subjects and flags folders.
            if page != "index.html" {
                #expect(
                    html.contains("href=\"index.html\"") || html.contains("href=\"../index.html\""),
                    "\(page) has no way back to the index")
            }
        }
        // The index tells the run's story from its record.
        let runID = try test.connection.query("SELECT max(id) FROM pipeline_run").int(0, 0) ?? -1
        #expect(index.contains("<h2>Run \(runID)</h2>"))
        #expect(index.contains("<code class=\"name\">invalid-json</code>"))
        #expect(index.contains("<code class=\"name\">missing-in-report</code>"))
        #expect(index.contains("<td data-label=\"Stage\">ingest receipts</td>"))
        #expect(index.contains("<code class=\"name\">many-store-accounts</code>"))

        // A second run lists the first under the runs before it, and `report --all`'s entry point rewrites the site.
        // It rewrites only the pages that changed, and removes the pages of subjects no longer on the site and what a
        // killed run left half-written.
        func inodes() throws -> [String: (inode: Int, bytes: Data)] {
            var files: [String: (Int, Data)] = [:]
            for name in try FileManager.default.contentsOfDirectory(atPath: out + "/subjects") {
                let path = out + "/subjects/" + name
                let inode = try FileManager.default.attributesOfItem(atPath: path)[.systemFileNumber] as? Int ?? -1
                files[name] = (inode, try Data(contentsOf: URL(fileURLWithPath: path)))
            }
            return files
        }
        let before = try inodes()
        try test.write("out/subjects/app-account-gone.html", "<p>a subject no longer flagged</p>")
        try test.write("out/subjects/app-account-abc.html.partial", "<p>half a pa")
        _ = try test.workspace.run(ExampleData.plan(examples: Self.examples, outputDirectory: out))
        let after = try inodes()
        #expect(Set(after.keys) == Set(before.keys))
        let unchanged = before.filter { after[$0.key]?.bytes == $0.value.bytes }
        #expect(unchanged.count > 5)
        for (name, file) in unchanged {
            #expect(after[name]?.inode == file.inode, "\(name) was rewritten with the same bytes")
        }
        let second = try String(contentsOfFile: out + "/index.html", encoding: .utf8)
        #expect(second.contains("<td class=\"num\" data-label=\"Run\">\(runID)</td>"))
        // An account page shows what each StoreKit 2 transaction cost, in its currency, and a legacy one's price
        // blank. The example flags no account with StoreKit 2 purchases: one is flagged here.
        let priced = try #require(
            try test.connection.query(
                "SELECT account_key FROM account_history WHERE price IS NOT NULL ORDER BY account_key LIMIT 1"
            ).rows.first?[0])
        try test.connection.query(
            """
            INSERT INTO flag (rule, rule_version, severity, subject_kind, subject_key, score, evidence)
            VALUES ('many-store-accounts', 1, 'warning', 'app-account', $1, 1, '{}')
            """, [priced])
        let again = test.directory.appendingPathComponent("again").path
        let written = try test.workspace.writeAllReports(to: again, formats: [.html])
        #expect(written.first == again + "/index.html")
        #expect(try Self.walk(again).broken.isEmpty)
        let account = try String(contentsOfFile: again + "/subjects/app-account-\(priced).html", encoding: .utf8)
        let prices = try test.connection.query(
            "SELECT price::text, currency FROM account_history WHERE account_key = $1 AND price IS NOT NULL", [priced]
        ).rows
        #expect(!prices.isEmpty)
        for row in prices {
            #expect(account.contains(">\(row[0] ?? "") \(row[1] ?? "")</td>"), "no price \(row[0] ?? "") on the page")
        }
    }

    @Test func aHostileSubjectIsEscapedOnEveryPageAndNeverBecomesAFileName() throws {
        let test = try TestWorkspace()
        let hostile = "../../<script>alert(1)</script>\u{202E}gpj.exe"
        try test.connection.query(
            """
            INSERT INTO flag (rule, rule_version, severity, subject_kind, subject_key, score, evidence)
            VALUES ('receipt-replay', 1, 'high', 'transaction', $1, 1, jsonb_build_object($1::text, $1::text)),
                   ('many-store-accounts', 1, 'warning', 'app-account', $1, 1, '{}')
            """, [hostile])
        let out = test.directory.appendingPathComponent("out").path
        _ = try test.workspace.writeAllReports(to: out, formats: [.html])
        let (pages, broken) = try Self.walk(out)
        #expect(broken.isEmpty, "\(broken)")
        let subjectPages = try FileManager.default.contentsOfDirectory(atPath: out + "/subjects")
        #expect(subjectPages.count == 2)
        #expect(subjectPages.allSatisfy { !$0.contains("<") && !$0.contains(".exe") && !$0.contains("..") })
        #expect(try FileManager.default.contentsOfDirectory(atPath: test.directory.path).sorted() == ["out"])
        for page in pages {
            let html = try String(contentsOfFile: out + "/" + page, encoding: .utf8)
            #expect(!html.contains("<script"), "\(page)")
            #expect(!html.unicodeScalars.contains("\u{202E}"), "\(page)")
        }
        let flags = try String(contentsOfFile: out + "/flags.html", encoding: .utf8)
        #expect(flags.contains("&lt;script&gt;alert(1)&lt;/script&gt;<span class=\"control\""))
        #expect(flags.contains("No finished run") == false)
        let index = try String(contentsOfFile: out + "/index.html", encoding: .utf8)
        #expect(index.contains("No finished run is recorded"))
    }
}
