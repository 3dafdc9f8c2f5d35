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
                // Resolved as every command resolves it; the pepper is judged as `run` judges it (mode, owner, length):
                // a check that passes promises a run that starts. Its contents are read and dropped, never printed.
                var options = CommandLineOptions()
                options.configPath = file
                let resolved = try ResolvedSettings.resolve(options, environment: ProcessInfo.processInfo.environment)
                print(resolved.configuration.effectiveSettings)
                return 0
            }
        }
    }
}
