import ArgumentParser
import Foundation
import IAPAudit

/// `iap-audit hash-username NAME`: the key stored for an application username.
struct HashUsernameCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hash-username",
        abstract: "Print the stored form of an application username (Apple's SHA-256 format, peppered if configured).",
        discussion:
            "Use it to look an account up: iap-audit report account --param account=$(iap-audit hash-username NAME)"
    )

    @Argument(help: "The application username, exactly as the app sent it (no normalisation).")
    var name: String

    func run() throws {
        try runReportingFailure {
            print(try Settings.accountKey(forUsername: name, environment: ProcessInfo.processInfo.environment))
            return 0
        }
    }
}
