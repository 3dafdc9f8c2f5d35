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
                try configuration.applyEnvironment(ProcessInfo.processInfo.environment)
                // The pepper is judged as `run` judges it (mode, owner, length): a check that passes promises a run
                // that starts. Its contents are read and dropped, never printed.
                var environment = ProcessInfo.processInfo.environment
                if let pepperFile = configuration.pepperFile { environment["IAP_AUDIT_PEPPER_FILE"] = pepperFile }
                _ = try Settings.pepper(environment: environment)
                print(configuration.effectiveSettings)
                return 0
            }
        }
    }
}
