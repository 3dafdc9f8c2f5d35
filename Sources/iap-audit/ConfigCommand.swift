import ArgumentParser
import Foundation
import IAPAudit

/// `iap-audit config check FILE`.
struct ConfigCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "config", abstract: "Configuration files.", subcommands: [Check.self])

    struct Check: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Validate a configuration file and print the effective settings (secrets masked).")

        @Argument(help: "The TOML file.")
        var file: String

        func run() throws {
            try runReportingFailure {
                var configuration = try RunConfiguration.load(path: file)
                configuration.applyEnvironment(ProcessInfo.processInfo.environment)
                print(configuration.effectiveSettings)
                return 0
            }
        }
    }
}
