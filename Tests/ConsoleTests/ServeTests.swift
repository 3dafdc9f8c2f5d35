import Foundation
import NIOHTTP1
import TestSupport
import Testing

/// `iap-audit serve` through the binary: a real server on an ephemeral port, requests through AsyncHTTPClient.
@Suite struct ServeTests {
    @Test func loadFilterSearchDismissAndSeeIt() throws {
        let console = try ConsoleFixture()
        try console.start()
        try console.running {
            let (carol, dave) = try {
                let ids = try console.flagIDs(); return (ids[0], ids[1])
            }()
            let queue = try console.get("/flags.html")
            #expect(queue.status == 200)
            #expect(queue.body.contains("2 flags") && queue.body.contains("flags/flag-\(carol).html"), "\(queue.body)")
            #expect(queue.headers["Content-Security-Policy"].isEmpty, "the page carries its policy in a meta element")

            // Filters narrow the queue; a facet link keeps the other filters.
            let none = try console.get("/flags.html?severity=high")
            #expect(none.status == 200 && none.body.contains("0 flags"), "\(none.body)")
            let newer = try console.get("/flags.html?rule=invalid-receipts&newer_than=1&sort=age&order=desc")
            #expect(newer.body.contains("2 flags"))
            let older = try console.get("/flags.html?older_than=1")
            #expect(older.status == 200 && older.body.contains("0 flags"), "raised today: \(older.body)")
            let json = try console.get("/flags.json?rule=invalid-receipts")
            #expect(json.status == 200 && json.headers["Content-Type"].first?.hasPrefix("application/json") == true)
            let parsed = try JSONSerialization.jsonObject(with: Data(json.body.utf8)) as? [String: Any]
            #expect(parsed?["title"] as? String == "Flags: open", "\(json.body)")

            // The search is posted: the name is hashed on the server and the browser sent to the account's page.
            let key = try console.hash("carol@example.com")
            let found = try console.post("/search", form: [("username", "carol@example.com")])
            #expect(found.status == 303)
            #expect(found.headers["Location"] == ["/subjects/app-account-\(key).html"])
            let account = try console.get("/subjects/app-account-\(key).html")
            #expect(account.status == 200 && account.body.contains(key), "\(account.body)")
            #expect(!account.body.contains("carol@example.com"))
            let accountJSON = try console.get("/subjects/app-account-\(key).json")
            #expect(accountJSON.status == 200 && accountJSON.body.contains("\"title\""))

            // Dismiss carol's flag from its page's form, as a browser posts it.
            let page = try console.get("/flags/flag-\(carol).html")
            #expect(page.status == 200 && page.body.contains("action=\"/flags/flag-\(carol)/decide\""))
            #expect(page.body.contains("value=\"erin\""), "the form proposes the console's analyst")
            let dismissed = try console.post(
                "/flags/flag-\(carol)/decide",
                form: [
                    ("action", "dismiss"), ("reason", "family-sharing"), ("text", "her children's iPad"),
                    ("analyst", "alice"),
                ])
            #expect(dismissed.status == 303 && dismissed.headers["Location"] == ["/flags/flag-\(carol).html"])
            #expect(try console.trail(carol) == ("dismissed", ["dismiss:family-sharing by alice"]))
            let after = try console.get("/flags/flag-\(carol).html")
            #expect(
                after.body.contains("dismissed") && after.body.contains("her children") && after.body.contains("alice"))
            #expect(after.body.contains("value=\"reopen\""), "a dismissed flag offers reopen, not dismiss")
            let open = try console.get("/flags.html")
            #expect(open.body.contains("1 flag.") && !open.body.contains("flags/flag-\(carol).html"), "\(open.body)")
            #expect(open.body.contains("flags/flag-\(dave).html"))
            let decided = try console.get("/flags.html?status=dismissed")
            // A list of decided flags says each one's status and the decision it rests on.
            #expect(decided.body.contains("flags/flag-\(carol).html") && decided.body.contains(">Status</th>"))
            #expect(decided.body.contains("family-sharing, by alice"), "\(decided.body)")

            let confirmed = try console.post(
                "/flags/flag-\(dave)/decide",
                form: [("action", "confirm"), ("text", "forty accounts"), ("analyst", "bob")])
            #expect(confirmed.status == 303)
            #expect(try console.trail(dave) == ("confirmed", ["confirm by bob"]))
        }
        let (status, log) = try console.stop()
        #expect(status == 0, "serve stops cleanly on SIGTERM: \(log)")
        #expect(log.contains("POST /search 303") && log.contains("POST /flags/flag-"), "\(log)")
        #expect(!log.contains("carol@example.com"), "the raw username reached the log: \(log)")
    }

    /// A flag's page is the written site's, drawn by the same renderer, with the forms added; the queue's list is the
    /// written site's flag table; the queue by age is the written site's own page; its links to a rule's or a
    /// severity's view land on the queue filtered so.
    @Test func aFlagPageIsTheWrittenSitesWithItsFormsAndTheQueueByAgeIsTheSites() throws {
        let console = try ConsoleFixture()
        let id = try console.flagIDs()[0]
        try console.running {
            try console.start()
            // Write the site after a decision, so the flag's page has a status and a log to show.
            let noted = try console.post(
                "/flags/flag-\(id)/decide", form: [("action", "note"), ("text", "looking"), ("analyst", "alice")])
            #expect(noted.status == 303)
            let out = console.files.url.appendingPathComponent("site").path
            let report = try BinaryUnderTest.run(
                ["report", "--all", "--out", out, "--database-url", console.conninfo, "--log-level", "warning"])
            #expect(report.status == 0, "\(report.stderr)")
            let written = try String(contentsOfFile: out + "/flags/flag-\(id).html", encoding: .utf8)
            let served = try console.get("/flags/flag-\(id).html")
            #expect(served.status == 200)
            #expect(Self.parts(of: served.body) == Self.parts(of: written), "\(served.body)")
            #expect(Self.parts(of: written).count == 3, "facts, evidence and the log: \(written)")
            #expect(served.body.contains("value=\"confirm\"") && !written.contains("<form"))

            // The queue's list is the written site's: the same table over the same open flags.
            let list = try console.get("/flags.html")
            let writtenList = try String(contentsOfFile: out + "/flags.html", encoding: .utf8)
            #expect(Self.parts(of: list.body).count == 1, "\(list.body)")
            #expect(Self.parts(of: list.body).last == Self.parts(of: writtenList).last, "\(list.body)")

            let queue = try console.get("/queue.html")
            #expect(queue.status == 200)
            #expect(queue.body == (try String(contentsOfFile: out + "/queue.html", encoding: .utf8)))
            let view = try console.get("/flags/rule-invalid-receipts.html")
            #expect(view.status == 303)
            #expect(
                view.headers["Location"] == ["/flags.html?rule=invalid-receipts&status=open&sort=severity&order=asc"])
            #expect(try console.get("/flags/rule-%2F.html").status == 404)
        }
        try console.stop()
    }

    /// The facts lists and tables of a page, in order: what it says, without its title, links up or forms.
    private static func parts(of html: String) -> [String] {
        var parts: [String] = []
        var rest = html[...]
        while let start = rest.range(of: #"<(dl class="facts"|table)"#, options: .regularExpression) {
            let close = rest[start.lowerBound...].hasPrefix("<dl") ? "</dl>" : "</table>"
            guard let end = rest[start.upperBound...].range(of: close) else { break }
            parts.append(String(rest[start.lowerBound..<end.upperBound]))
            rest = rest[end.upperBound...]
        }
        return parts
    }

    @Test func badFormsAndCrossSitePostsAreRefusedAndDecideNothing() throws {
        let console = try ConsoleFixture()
        try console.start()
        try console.running {
            let id = try console.flagIDs()[0]
            let decide = "/flags/flag-\(id)/decide"
            let badForms: [[(String, String)]] = [
                [("action", "dismiss"), ("text", "no reason code"), ("analyst", "a")],
                [("action", "dismiss"), ("reason", "looked-fine"), ("analyst", "a")],
                [("action", "dismiss"), ("reason", "other"), ("analyst", "a")],
                [("action", "confirm"), ("analyst", "a")],
                [("action", "confirm"), ("reason", "tester"), ("text", "x"), ("analyst", "a")],
                [("action", "explode"), ("text", "x"), ("analyst", "a")],
                [("action", "confirm"), ("text", "x")],
                [("action", "reopen"), ("text", "it is open already"), ("analyst", "a")],
            ]
            for form in badForms {
                let reply = try console.post(decide, form: form)
                #expect(reply.status == 400, "\(form): \(reply.status)")
            }
            for query in ["severity=dire", "status=closed", "older_than=-1", "older_than=soon", "rule=nope", "sort=x"] {
                #expect(try console.get("/flags.html?" + query).status == 400, "\(query)")
            }
            let empty = try console.post("/search", form: [("username", "")])
            #expect(empty.status == 400)

            // Another site's page posting with the analyst's browser, or a post that says nothing of its origin.
            let good: [(String, String)] = [("action", "confirm"), ("text", "x"), ("analyst", "a")]
            #expect(try console.post(decide, form: good, origin: "http://evil.example").status == 403)
            #expect(try console.post(decide, form: good, origin: "null").status == 403)
            #expect(try console.post(decide, form: good, origin: nil).status == 403)
            let crossFetch = try console.post(
                decide, form: good, origin: nil, headers: [("Sec-Fetch-Site", "cross-site")])
            #expect(crossFetch.status == 403)
            // A browser says where a post came from even when the page sends no referrer (Origin: null).
            let crossNoReferrer = try console.post(
                decide, form: good, origin: "null", headers: [("Sec-Fetch-Site", "cross-site")])
            #expect(crossNoReferrer.status == 403)
            // A name of another site pointed at loopback (DNS rebinding): refused by its Host.
            #expect(try console.get("/flags.html", headers: [("Host", "evil.example")]).status == 403)
            #expect(try console.get("/flags/flag-999999.html").status == 404)
            #expect(try console.get("/subjects/../../etc/passwd").status == 404)
            #expect(try console.trail(id) == ("open", []))
        }
        try console.stop()
    }

    @Test func aTokenGuardsEveryPageAndIsNeverLogged() throws {
        let console = try ConsoleFixture()
        let token = String(repeating: "k3y", count: 12)
        try console.start(environment: ["IAP_AUDIT_SERVE_TOKEN": token])
        try console.running {
            let bare = try console.get("/flags.html")
            #expect(bare.status == 303 && bare.headers["Location"] == ["/login"])
            #expect(try console.get("/flags.html", headers: [("Authorization", "Bearer nope")]).status == 303)
            let bearer = try console.get("/flags.html", headers: [("Authorization", "Bearer \(token)")])
            #expect(bearer.status == 200)
            #expect(try console.post("/login", form: [("token", "wrong")]).status == 401)
            let login = try console.post("/login", form: [("token", token)])
            #expect(login.status == 303)
            let cookie = try #require(login.headers["Set-Cookie"].first)
            #expect(cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict"))
            let pair = String(cookie.prefix { $0 != ";" })
            #expect(try console.get("/flags.html", headers: [("Cookie", pair)]).status == 200)
        }
        let (_, log) = try console.stop()
        #expect(!log.contains(token), "the token reached the log")
    }

    @Test func beyondLoopbackWithoutATokenItRefusesToStart() throws {
        let files = try TemporaryDirectory()
        let refused = try BinaryUnderTest.run(["serve", "--host", "0.0.0.0", "--port", "0"], timeout: 60)
        #expect(refused.status == 78, "\(refused.stderr)")
        #expect(refused.stderr.contains("refuses to listen on 0.0.0.0 without a token"), "\(refused.stderr)")
        let short = try files.write(Array("short\n".utf8), to: "token")
        let weak = try BinaryUnderTest.run(
            ["serve", "--host", "192.0.2.1", "--port", "0", "--token-file", short], timeout: 60)
        #expect(weak.status == 78 && weak.stderr.contains("shorter than 32"), "\(weak.stderr)")
        #expect(!weak.stderr.contains("short\n"))
        let port = try BinaryUnderTest.run(["serve", "--port", "70000"], timeout: 60)
        #expect(port.status == 78, "\(port.stderr)")
    }
}
