internal import Foundation
internal import HTTPTypes
internal import Hummingbird
internal import IAPAudit
internal import Logging
internal import Reports

/// What each path of the console answers. The paths are the written site's, so the relative links of its pages
/// work unchanged: `/flags.html` (the queue, filtered), `/queue.html` (the queue by age), `/flags/flag-ID.html`,
/// `/subjects/KIND-KEY.html`, each also as `.json`, and the queue's views by rule and severity as filters; and the
/// posts: `/search` (a username, hashed here) and `/flags/flag-ID/decide`.
///
/// A request is logged by method, path and status only: never a query, a body, a cookie or a header.
struct ConsoleResponder: Sendable {
    let database: ConsoleDatabase
    let access: AccessGuard
    let settings: ServeSettings
    /// The resolved environment, whose pepper (if any) the search hashes with, as `hash-username` does.
    let environment: [String: String]
    let logger: Logger

    /// The largest form body taken; a triage note is short.
    static let maximumBody = 64 * 1024

    func respond(_ request: Request) async -> Response {
        let path = request.uri.path
        let response: Response
        do {
            response = try await route(request, path: path)
        } catch let error as BadRequest {
            response = Self.page(status: .badRequest, title: "Not accepted", text: error.reason)
        } catch IAPAuditError.usage(let message) {
            response = Self.page(status: .badRequest, title: "Not accepted", text: message)
        } catch {
            logger.error("console: \(request.method) \(path) failed: \(error)")
            response = Self.page(
                status: .internalServerError, title: "Failed", text: "The request failed; the console's log says why.")
        }
        logger.info("console: \(request.method) \(path) \(response.status.code)")
        return response
    }

    private func route(_ request: Request, path: String) async throws -> Response {
        let isLogin = path == "/login"
        if let refusal = access.check(request.head, host: request.head.authority, isLogin: isLogin) {
            switch refusal {
            case .host:
                return Self.page(
                    status: .forbidden, title: "Refused", text: "This console answers to its loopback address only.")
            case .crossSite:
                return Self.page(
                    status: .forbidden, title: "Refused", text: "A form must be posted from the console's own pages.")
            case .unauthenticated:
                if request.method == .get { return Self.redirect("/login") }
                return Self.page(status: .unauthorized, title: "Sign in", text: "This console needs its token.")
            }
        }
        switch (request.method, path) {
        case (.get, "/"), (.get, "/index.html"): return Self.redirect("/flags.html")
        case (.get, "/login"): return Self.html(.ok, LoginPage.page(failed: false))
        case (.post, "/login"): return try await login(request)
        case (.get, "/flags.html"), (.get, "/flags.json"):
            let query = try QueueQuery(
                FormValues(request.uri.query ?? "") ?? { throw BadRequest("unreadable query") }())
            let list = try await database.run {
                try LiveSite(desk: $0).flagList(
                    query.filter, order: query.sort, descending: query.descending, shown: QueueQuery.limit)
            }
            return Self.render(QueuePage.page(list, query: query), json: path.hasSuffix(".json"))
        case (.get, "/queue.html"), (.get, "/queue.json"):
            return Self.render(
                try await database.run { try LiveSite(desk: $0).queuePage() }, json: path.hasSuffix(".json"))
        case (.post, "/search"): return try await search(request)
        default: break
        }
        if request.method == .get, let filter = QueueQuery.filter(forView: path) { return Self.redirect(filter) }
        if let (id, suffix) = Self.flagID(path, prefix: "/flags/flag-", suffixes: [".html", ".json", "/decide"]) {
            switch (request.method, suffix) {
            case (.get, ".html"), (.get, ".json"):
                let analyst = settings.analyst
                guard
                    let page = try await database.run({
                        try FlagPage.page(id: id, site: LiveSite(desk: $0), analyst: analyst)
                    })
                else { return Self.notFound() }
                return Self.render(page, json: suffix == ".json")
            case (.post, "/decide"):
                let form = try await Self.form(request)
                let decision = try FlagPage.decision(form, flagID: id)
                _ = try await database.run { try $0.decide(decision) }
                return Self.redirect("/" + FlagPage.path(id))
            default: return Self.notFound()
            }
        }
        if request.method == .get, path.hasPrefix("/subjects/"),
            path.hasSuffix(".html") || path.hasSuffix(".json")
        {
            let stem = String(path.dropFirst("/subjects/".count).dropLast(5))
            guard let (kind, key) = LiveSite.subject(fileStem: stem) else { return Self.notFound() }
            let page = try await database.run { try LiveSite(desk: $0).subjectPage(kind: kind, key: key) }
            return Self.render(page, json: path.hasSuffix(".json"))
        }
        return Self.notFound()
    }

    /// The username is hashed as `hash-username` does (the pepper included) and forgotten: the browser is sent to
    /// the account's page, whose URL holds only the hash.
    private func search(_ request: Request) async throws -> Response {
        let form = try await Self.form(request)
        guard let username = form.raw("username"), !username.isEmpty else {
            throw BadRequest("type an application username to find its account")
        }
        return Self.redirect(
            "/"
                + LiveSite.subjectPath(
                    kind: "app-account", key: try Settings.accountKey(forUsername: username, environment: environment)))
    }

    private func login(_ request: Request) async throws -> Response {
        let form = try await Self.form(request)
        guard let token = form["token"], access.matches(token) else {
            return Self.html(.unauthorized, LoginPage.page(failed: true))
        }
        var response = Self.redirect("/flags.html")
        let value = token.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
        response.headers[.setCookie] = "\(AccessGuard.cookieName)=\(value); Path=/; HttpOnly; SameSite=Strict"
        return response
    }

    /// The id in `/flags/flag-ID<suffix>`, and which suffix.
    static func flagID(_ path: String, prefix: String, suffixes: [String]) -> (Int64, String)? {
        guard path.hasPrefix(prefix) else { return nil }
        let rest = path.dropFirst(prefix.count)
        for suffix in suffixes where rest.hasSuffix(suffix) {
            if let id = Int64(rest.dropLast(suffix.count)), id > 0 { return (id, suffix) }
        }
        return nil
    }

    static func form(_ request: Request) async throws -> FormValues {
        var request = request
        guard request.headers[.contentType]?.hasPrefix("application/x-www-form-urlencoded") == true else {
            throw BadRequest("a form is sent as application/x-www-form-urlencoded")
        }
        let body: ByteBuffer
        do {
            body = try await request.collectBody(upTo: maximumBody)
        } catch {
            throw BadRequest("the form is larger than \(maximumBody / 1024) KiB")
        }
        guard let form = FormValues(String(buffer: body)) else { throw BadRequest("the form is not readable") }
        return form
    }

    static func render(_ page: SitePage, json: Bool) -> Response {
        json ? respond(.ok, "application/json; charset=utf-8", page.json()) : html(.ok, page)
    }

    static func html(_ status: HTTPResponse.Status, _ page: SitePage) -> Response {
        respond(status, "text/html; charset=utf-8", page.html())
    }

    static func page(status: HTTPResponse.Status, title: String, text: String) -> Response {
        html(status, SitePage(title: title, description: text, breadcrumbs: [("Queue", "/flags.html")]))
    }

    static func notFound() -> Response { page(status: .notFound, title: "Not found", text: "No such page.") }

    /// 303: after a post the browser asks for the page with GET, so a reload does not post again.
    static func redirect(_ location: String) -> Response {
        var response = Response(status: .seeOther)
        response.headers[.location] = location
        return response
    }

    private static func respond(_ status: HTTPResponse.Status, _ type: String, _ bytes: [UInt8]) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = type
        headers[.cacheControl] = "no-store"
        for (name, value) in [("X-Frame-Options", "DENY"), ("X-Content-Type-Options", "nosniff")] {
            if let name = HTTPField.Name(name) { headers[name] = value }
        }
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
    }
}

enum LoginPage {
    static func page(failed: Bool) -> SitePage {
        SitePage(
            title: "Sign in",
            description: failed
                ? "That is not the console's token." : "This console listens beyond loopback: give its token.",
            blocks: [
                .form(
                    SiteForm(
                        action: "/login", isPost: true,
                        fields: [.text(name: "token", label: "Token", value: "", isSecret: true)], submit: "Sign in"))
            ])
    }
}
