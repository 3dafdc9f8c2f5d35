internal import Crypto
internal import Foundation
internal import HTTPTypes

/// Who may use the console, checked on every request before anything is read:
///
/// - **Host.** On loopback the `Host` header must name loopback too: a page elsewhere that points a name of its own
///   at 127.0.0.1 (DNS rebinding) is refused.
/// - **Token.** With a token set, a request carries it as `Authorization: Bearer …` or in the cookie `/login` sets;
///   it is compared in constant time (digests of both, compared byte by byte without stopping early) and never
///   logged.
/// - **Same origin.** A POST comes from the console's own pages: `Sec-Fetch-Site` says `same-origin`, or (a browser
///   that sends no `Sec-Fetch-Site`) its `Origin` names the host it was sent to. Neither header: refused, so a page
///   on another site cannot post a decision with the analyst's browser. Scripts use `iap-audit flags`.
struct AccessGuard: Sendable {
    static let cookieName = "iap_audit_console"

    let isLoopback: Bool
    /// The token's SHA-256; nil: no token (loopback only).
    let tokenDigest: [UInt8]?

    init(settings: ServeSettings) {
        isLoopback = ServeSettings.isLoopback(settings.host)
        tokenDigest = settings.token.map { Array(SHA256.hash(data: Array($0.utf8))) }
    }

    enum Refusal: Error {
        case host, unauthenticated, crossSite
    }

    /// Whether the request may be served; `.unauthenticated` lets the caller send a browser to the login page.
    func check(_ request: HTTPRequest, host: String?, isLogin: Bool) -> Refusal? {
        if isLoopback {
            guard let host, ServeSettings.isLoopback(Self.hostName(host)) else { return .host }
        }
        if request.method == .post {
            // The browser's own word first: the console's pages send no referrer, and a browser then posts them with
            // `Origin: null`, which a page on another site can send too.
            if let name = HTTPField.Name("Sec-Fetch-Site"), let site = request.headerFields[name] {
                guard site == "same-origin" else { return .crossSite }
            } else if let origin = request.headerFields[.origin] {
                guard let host, origin == "http://\(host)" || origin == "https://\(host)" else { return .crossSite }
            } else {
                return .crossSite
            }
        }
        if tokenDigest != nil && !isLogin && !carriesToken(request) { return .unauthenticated }
        return nil
    }

    /// Whether `candidate` is the token, in time that does not depend on where they differ.
    func matches(_ candidate: String) -> Bool {
        guard let tokenDigest else { return false }
        let digest = Array(SHA256.hash(data: Array(candidate.utf8)))
        var difference: UInt8 = 0
        for (a, b) in zip(digest, tokenDigest) { difference |= a ^ b }
        return difference == 0
    }

    private func carriesToken(_ request: HTTPRequest) -> Bool {
        if let authorization = request.headerFields[.authorization], authorization.hasPrefix("Bearer ") {
            return matches(String(authorization.dropFirst("Bearer ".count)))
        }
        for header in request.headerFields[values: .cookie] {
            for pair in header.split(separator: ";") {
                let parts = pair.trimmingCharacters(in: .whitespaces).split(separator: "=", maxSplits: 1)
                if parts.count == 2, parts[0] == Self.cookieName,
                    let value = String(parts[1]).removingPercentEncoding, matches(value)
                {
                    return true
                }
            }
        }
        return false
    }

    /// The name in a `Host` header without its port: `127.0.0.1:8421` → `127.0.0.1`, `[::1]:8421` → `[::1]`.
    static func hostName(_ host: String) -> String {
        if host.hasPrefix("["), let end = host.firstIndex(of: "]") { return String(host[...end]) }
        return host.split(separator: ":", maxSplits: 1).first.map(String.init) ?? host
    }
}
