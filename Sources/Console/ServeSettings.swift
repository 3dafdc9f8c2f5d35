internal import Foundation
package import IAPAudit

/// Where `iap-audit serve` listens and who may use it (docs/operating.md, "The triage console").
///
/// Anyone who can reach a loopback port is the machine's own user: an analyst. Any other address is reachable by
/// others, so it needs a token (`IAP_AUDIT_SERVE_TOKEN_FILE`, or `IAP_AUDIT_SERVE_TOKEN`), and the console refuses to
/// start there without one.
package struct ServeSettings: Sendable {
    package static let portVariable = "IAP_AUDIT_SERVE_PORT"
    package static let hostVariable = "IAP_AUDIT_SERVE_HOST"
    package static let tokenFileVariable = "IAP_AUDIT_SERVE_TOKEN_FILE"
    package static let tokenVariable = "IAP_AUDIT_SERVE_TOKEN"
    package static let defaultPort = 8421
    /// A token shorter than this is guessable: refused.
    package static let minimumTokenCharacters = 32

    package var host: String
    /// 0: any free port (the line on stderr says which).
    package var port: Int
    /// The token every request must carry; nil on loopback without one.
    package var token: String?
    /// Who the forms propose as the person deciding (`--as`, `IAP_AUDIT_ANALYST`, the OS user).
    package var analyst: String

    /// Flags over the environment over the defaults; a refusal is a configuration error (exit 78) naming what to set.
    package static func resolve(
        host hostFlag: String?, port portFlag: Int?, tokenFile tokenFileFlag: String?, analyst analystFlag: String?,
        environment: [String: String]
    ) throws -> ServeSettings {
        let host = hostFlag ?? environment[hostVariable].flatMap { $0.isEmpty ? nil : $0 } ?? "127.0.0.1"
        var port = defaultPort
        if let portFlag {
            port = portFlag
        } else if let text = environment[portVariable], !text.isEmpty {
            guard let value = Int(text) else {
                throw IAPAuditError.configuration("\(portVariable) is not a port number: \(text)")
            }
            port = value
        }
        guard (0...65_535).contains(port) else {
            throw IAPAuditError.configuration("the port must be 0 to 65535 (\(port))")
        }
        let token = try readToken(file: tokenFileFlag ?? environment[tokenFileVariable], environment: environment)
        if token == nil && !isLoopback(host) {
            throw IAPAuditError.configuration(
                "serve refuses to listen on \(host) without a token: anyone who reaches it could triage. Put a token "
                    + "of at least \(minimumTokenCharacters) characters in a file and pass --token-file (or set "
                    + "\(tokenFileVariable)), or listen on 127.0.0.1 (docs/operating.md)")
        }
        guard let analyst = AnalystName.resolve(flag: analystFlag, environment: environment) else {
            throw IAPAuditError.usage("cannot tell who decides: pass --as NAME or set \(AnalystName.variable)")
        }
        return ServeSettings(host: host, port: port, token: token, analyst: analyst)
    }

    /// The token from `file` (its first line), else from the environment; never printed, so errors name only where
    /// it came from.
    static func readToken(file: String?, environment: [String: String]) throws -> String? {
        var token: String?
        var source = tokenVariable
        if let file, !file.isEmpty {
            guard let data = FileManager.default.contents(atPath: file), let text = String(data: data, encoding: .utf8)
            else { throw IAPAuditError.configuration("cannot read the token file \(file)") }
            token = text.split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
            source = "the token file \(file)"
        } else if let value = environment[tokenVariable], !value.isEmpty {
            token = value
        }
        guard let token else { return nil }
        let trimmed = token.trimmingCharacters(in: .whitespaces)
        guard trimmed.count >= minimumTokenCharacters else {
            throw IAPAuditError.configuration(
                "the token in \(source) is shorter than \(minimumTokenCharacters) characters: anyone could guess it "
                    + "(e.g. openssl rand -hex 32)")
        }
        return trimmed
    }

    /// Whether `host` names this machine only: `localhost`, 127.0.0.0/8 or ::1.
    package static func isLoopback(_ host: String) -> Bool {
        let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        if bare == "localhost" || bare == "::1" { return true }
        let parts = bare.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts[0] == "127" && parts.allSatisfy { UInt8($0) != nil }
    }
}
