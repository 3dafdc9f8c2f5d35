/// Why a request to Apple failed for good. Each case's text says what to do; none ever holds a token or a key.
public enum AppleAPIError: Error, Sendable, CustomStringConvertible {
    /// The key file cannot be used (missing, readable by others, not a P-256 key).
    case key(path: String, problem: String)
    /// A URL that is not `https://`, or `http://` to a host other than loopback.
    case insecureURL(String)
    /// 401: Apple did not accept the token.
    case unauthorized(api: AppleService, key: String, detail: String)
    /// 403: the token is good but the key may not do this.
    case forbidden(api: AppleService, key: String, detail: String)
    /// 429 or 5xx, or the connection failing, on every attempt until the retry bound ran out.
    case retriesExhausted(request: String, attempts: Int, seconds: Int, last: String)
    /// A status Apple documents no retry for (400, 404 where a report was expected, …).
    case unexpectedStatus(request: String, status: Int, detail: String)
    /// A 200 whose body is not what Apple documents.
    case malformedResponse(request: String, problem: String)

    public var description: String {
        switch self {
        case .key(let path, let problem): "the private key file \(path) \(problem)"
        case .insecureURL(let url):
            "\(url): Apple's APIs are reached over https; http:// is accepted only for a loopback host (a stand-in)"
        case .unauthorized(let api, let key, let detail):
            "Apple refused \(key) for the \(api.name) (401 \(detail)): check that key_id and issuer_id are the key's "
                + "own, that private_key_file is that key's .p8, that the key is not revoked, and that this machine's "
                + "clock is right"
        case .forbidden(let api, let key, let detail):
            "Apple accepted \(key) but forbids it this request (403 \(detail)): \(api.roleAdvice)"
        case .retriesExhausted(let request, let attempts, let seconds, let last):
            "Apple kept refusing \(request): \(attempts) attempts over \(seconds) s, last \(last); the retry bound is "
                + "spent (raise [apple] retry_seconds, or run again later)"
        case .unexpectedStatus(let request, let status, let detail):
            "Apple answered \(request) with \(status): \(detail)"
        case .malformedResponse(let request, let problem): "Apple's answer to \(request) \(problem)"
        }
    }

    /// True for the failures a key or its role causes, which no retry can mend.
    public var isPermission: Bool {
        switch self {
        case .unauthorized, .forbidden: true
        default: false
        }
    }
}

/// Which of Apple's two APIs, for messages.
public enum AppleService: Sendable {
    /// The App Store Connect API (sales and finance reports).
    case appStoreConnect
    /// The App Store Server API (notification, transaction and refund history).
    case appStoreServer

    var name: String {
        switch self {
        case .appStoreConnect: "App Store Connect API"
        case .appStoreServer: "App Store Server API"
        }
    }

    var roleAdvice: String {
        switch self {
        case .appStoreConnect:
            "sales and finance reports need a Team key (not an Individual key) with the Finance, Sales and Reports, "
                + "or Admin role, and the vendor number of that team"
        case .appStoreServer:
            "the Server API needs an In-App Purchase key of the team that owns the app, and the app's bundle id"
        }
    }
}
