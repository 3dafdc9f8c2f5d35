import ArgumentParser
import IAPAudit

/// `iap-audit init`: create or upgrade the schema (every command does this first anyway).
struct InitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "init", abstract: "Create or upgrade the database schema, then exit.")

    @OptionGroup var global: GlobalOptions

    func run() throws {
        try runReportingFailure {
            let (settings, logger) = try global.settings()
            _ = try Workspace(settings: settings, logger: logger)
            print("schema up to date (\(settings.database.redactedDescription))")
            return 0
        }
    }
}
