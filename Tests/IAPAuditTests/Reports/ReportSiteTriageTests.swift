import Foundation
import Postgres
import TestSupport
import Testing

@testable import IAPAudit

/// Triage on the report site, through the binary: the demo's decisions (one confirmed, one dismissed as family
/// sharing) on the flag and subject pages, and the open queue by severity and age, read from the pages' structure
/// (facts by their name, table cells by their column's label).
@Suite(.serialized) struct ReportSiteTriageTests {
    /// The page's facts (`<dt>name</dt><dd>…</dd>` of its top-level fact lists) as text.
    static func facts(_ html: String) -> [String: String] {
        var result: [String: String] = [:]
        for match in html.matches(of: /<dt>([^<]*)<\/dt><dd>(.*?)<\/dd>/) {
            result[String(match.1)] = result[String(match.1)] ?? text(String(match.2))
        }
        return result
    }

    /// The rows of the page's tables, each a column label → cell text map, table by table, in order.
    static func tables(_ html: String) -> [[[String: String]]] {
        html.components(separatedBy: "<tbody>").dropFirst().map { table in
            let body = table.components(separatedBy: "</tbody>")[0]
            return body.components(separatedBy: "<tr>").dropFirst().map { row in
                var cells: [String: String] = [:]
                for match in row.matches(of: /<td[^>]*data-label="([^"]*)"[^>]*>(.*?)<\/td>/) {
                    cells[String(match.1)] = text(String(match.2))
                }
                return cells
            }
        }
    }

    /// The rows of the table under heading `heading` (an `<h2>`).
    static func table(under heading: String, in html: String) -> [[String: String]]? {
        guard let start = html.range(of: "<h2>\(heading)</h2>") else { return nil }
        let rest = String(html[start.upperBound...])
        let section = rest.components(separatedBy: "<h2>")[0]
        return tables(section).first ?? []
    }

    /// Markup without its tags, entities decoded, spaces collapsed.
    static func text(_ markup: String) -> String {
        markup.replacing(/<[^>]*>/, with: "").replacingOccurrences(of: "&#39;", with: "'")
            .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&lt;", with: "<")
            .replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&amp;", with: "&")
            .split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    static func read(_ path: String) throws -> String {
        try String(contentsOfFile: path, encoding: .utf8)
    }

    @Test func theDemoSiteShowsItsDecisionsOnFlagAndSubjectPagesAndTheQueueByAge() throws {
        let test = try TestWorkspace()
        let out = test.demoOut
        let demo = try test.runTheDemoThroughTheBinary()
        #expect(demo.status == 0, "\(demo.stderr)")

        // The decisions are the log's, made through flag_decide as `flags confirm/dismiss` make them.
        let logged = try test.connection.query(
            """
            SELECT d.flag_id, d.action, coalesce(d.reason, ''), d.actor, f.status, f.rule, f.subject_kind, f.subject_key
            FROM flag_decision d JOIN flag f ON f.id = d.flag_id ORDER BY d.id
            """
        ).rows
        #expect(
            logged.map { [$0[1], $0[2], $0[3], $0[4]] } == [
                ["confirm", "", "demo analyst", "confirmed"],
                ["dismiss", "family-sharing", "demo analyst", "dismissed"],
            ])
        guard logged.count == 2 else { return }
        let (confirmed, dismissed) = (logged[0][0] ?? "", logged[1][0] ?? "")
        #expect(
            demo.stdout.contains(
                "demo decisions: flag \(confirmed) (receipt-replay) confirmed, flag \(dismissed) "
                    + "(shared-store-account) dismissed as family-sharing"), "\(demo.stdout)")

        // The dismissed flag's page: its status with who and why, and its log.
        let flagPage = try Self.read(out + "/flags/flag-\(dismissed).html")
        let facts = Self.facts(flagPage)
        #expect(facts["Status"]?.hasPrefix("dismissed (family-sharing, by demo analyst, ") == true, "\(facts)")
        let decisions = try #require(Self.table(under: "Decisions", in: flagPage))
        #expect(decisions.count == 1)
        #expect(decisions.first?["Decision"] == "dismiss" && decisions.first?["Reason"] == "family-sharing")
        #expect(decisions.first?["By"] == "demo analyst" && decisions.first?["Status after"] == "dismissed")
        #expect(decisions.first?["Text"]?.contains("one family's devices") == true)
        let confirmedFacts = Self.facts(try Self.read(out + "/flags/flag-\(confirmed).html"))
        #expect(confirmedFacts["Status"]?.hasPrefix("confirmed (by demo analyst, ") == true, "\(confirmedFacts)")
        // An open flag says no one has decided yet, and its log is empty.
        let openID = try test.connection.query("SELECT min(id) FROM flags_open").requireString(0, 0)
        let openPage = try Self.read(out + "/flags/flag-\(openID).html")
        #expect(Self.facts(openPage)["Status"] == "open (no decision yet)")
        #expect(Self.table(under: "Decisions", in: openPage)?.isEmpty == true)

        // The subject page lists the flag with its status, and its decision.
        let subjectPage = try Self.read(out + "/subjects/\(logged[1][6] ?? "")-\(logged[1][7] ?? "").html")
        let subjectFlags = try #require(Self.table(under: "Flags", in: subjectPage))
        #expect(subjectFlags.contains { $0["Flag"] == dismissed && $0["Status"] == "dismissed" }, "\(subjectFlags)")
        let subjectDecisions = try #require(Self.table(under: "Decisions", in: subjectPage))
        #expect(
            subjectDecisions.map { [$0["Flag"], $0["Decision"], $0["Reason"]] } == [
                [dismissed, "dismiss", "family-sharing"]
            ])

        // The open queue leaves decided flags out; the queue by age is linked from the index and counts every open
        // flag of each severity.
        let flagsPage = try Self.read(out + "/flags.html")
        let openCount = try test.connection.query("SELECT count(*) FROM flags_open").requireInt(0, 0)
        #expect(Self.tables(flagsPage).first?.count == openCount)
        let index = try Self.read(out + "/index.html")
        #expect(ReportSiteTests.links(in: index).contains("queue.html"))
        #expect(Self.facts(index)["Triage"]?.hasPrefix("\(openCount) open · 1 confirmed · 1 dismissed") == true)
        try expectQueue(out: out, connection: test.connection, olderID: nil)

        // A flag waiting ten days moves to its bucket on the next site (report --all, through the binary).
        try test.connection.query(
            "UPDATE flag SET created_at = now() - interval '10 days 1 hour' WHERE id = $1", [Int64(openID)])
        let again = try BinaryUnderTest.run(
            ["report", "--all", "--out", out, "--database-url", test.conninfo, "--log-level", "warning"])
        #expect(again.status == 0, "\(again.stderr)")
        try expectQueue(out: out, connection: test.connection, olderID: openID)
        let decided = try #require(
            Self.table(
                under: "Decided: 2 flags, latest decision first",
                in: try Self.read(
                    out + "/queue.html")))
        #expect(
            Set(decided.map { "\($0["Flag"] ?? "") \($0["Status"] ?? "") \($0["Reason"] ?? "")" }) == [
                "flag \(confirmed) confirmed ", "flag \(dismissed) dismissed family-sharing",
            ])

        // A second demo decides nothing again: each flag keeps its one decision.
        let second = try test.runTheDemoThroughTheBinary()
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.stdout.contains("demo decisions: none new"), "\(second.stdout)")
        #expect(try test.connection.query("SELECT count(*) FROM flag_decision").requireInt(0, 0) == 2)
        #expect(try ReportSiteTests.walk(out).broken.isEmpty)
    }

    /// The pages a live server renders one at a time from a session (`serve`) are the written site's pages.
    @Test func aPageRenderedFromTheDatabaseIsTheWrittenPage() throws {
        let test = try TestWorkspace()
        let out = test.directory.appendingPathComponent("out").path
        _ = try test.workspace.run(ExampleData.plan(examples: ReportSiteTests.examples, outputDirectory: out))
        let site = ReportSite(connection: test.connection, directory: out)
        let decided = try test.connection.query("SELECT id FROM flag WHERE status = 'dismissed'").requireString(0, 0)
        let flag = try #require(try site.flagPage(id: Int64(decided) ?? -1))
        #expect(Data(flag.html()) == (try Data(contentsOf: URL(fileURLWithPath: out + "/flags/flag-\(decided).html"))))
        #expect(Data(try site.queuePage().html()) == (try Data(contentsOf: URL(fileURLWithPath: out + "/queue.html"))))
        #expect(try site.flagPage(id: 999_999) == nil)
        let subject = try test.connection.query(
            "SELECT subject_kind, subject_key FROM flag WHERE id = $1",
            [
                Int64(decided)
            ]
        ).rows[0]
        let page = String(
            decoding: try site.subjectPage(ReportSite.Subject(kind: subject[0] ?? "", key: subject[1] ?? "")).html(),
            as: UTF8.self)
        #expect(Self.table(under: "Flags", in: page)?.first?["Status"] == "dismissed")
    }

    /// The queue page's counts per severity and age agree with the database; `olderID`'s flag waits in 8–30 days.
    private func expectQueue(out: String, connection: Connection, olderID: String?) throws {
        let queue = try Self.read(out + "/queue.html")
        let matrix = try #require(Self.tables(queue).first)
        let expected = try connection.query(
            """
            SELECT severity, count(*) FILTER (WHERE created_at > now() - interval '1 day'),
                   count(*) FILTER (WHERE created_at <= now() - interval '8 days'
                                    AND created_at > now() - interval '31 days'),
                   count(*)
            FROM flags_open GROUP BY severity
            """
        ).rows
        #expect(matrix.count == expected.count)
        for row in expected {
            let line = matrix.first { $0["Severity"] == row[0] }
            #expect(
                line?["under 1 day"] == row[1] && line?["8–30 days"] == row[2] && line?["Open"] == row[3], "\(matrix)")
        }
        if let olderID {
            let severity = try connection.query("SELECT severity FROM flag WHERE id = $1", [Int64(olderID)])
                .requireString(0, 0)
            let lines = try #require(
                Self.table(
                    under: "Severity \(severity): \(expected.first { $0[0] == severity }?[3] ?? "") open, oldest first",
                    in: queue))
            #expect(lines.first?["Flag"] == "flag \(olderID)" && lines.first?["Days waiting"] == "10", "\(lines)")
        }
    }
}
