import ArgumentParser
import Console
import Foundation
import IAPAudit

/// `iap-audit serve`: the triage console, the report site's pages live from the database with the queue's filters,
/// a username search and the triage forms (docs/operating.md, "The triage console").
struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the triage console: the site's pages live, with filters and triage forms.",
        discussion: "Listens on 127.0.0.1 by default: whoever reaches a loopback port is this machine's analyst. "
            + "Another address needs a token (--token-file or IAP_AUDIT_SERVE_TOKEN_FILE) and refuses to start "
            + "without one. Decisions go through the same database function as iap-audit flags. Stop with Ctrl-C.")

    @OptionGroup var global: GlobalOptions
    @Option(help: "The address to listen on (else IAP_AUDIT_SERVE_HOST, else 127.0.0.1).") var host: String?
    @Option(help: "The port (else IAP_AUDIT_SERVE_PORT, else 8421); 0: any free port, printed on stderr.")
    var port: Int?
    @Option(help: "A file whose first line is the token every request must carry (required beyond loopback).")
    var tokenFile: String?
    @Option(
        name: .customLong("as"),
        help:
            "Who the forms propose as deciding (default: IAP_AUDIT_ANALYST, else the OS user); each form can change it."
    )
    var analyst: String?

    func run() throws {
        try runReportingFailure {
            let environment = ProcessInfo.processInfo.environment
            let serve = try ServeSettings.resolve(
                host: host, port: port, tokenFile: tokenFile, analyst: analyst, environment: environment)
            let (resolved, logger) = try global.resolve()
            try ConsoleServer.run(settings: resolved.settings, serve: serve, logger: logger)
            return 0
        }
    }
}
