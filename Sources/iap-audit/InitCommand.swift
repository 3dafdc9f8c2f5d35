import ArgumentParser
import IAPAudit

/// `iap-audit init`: create or upgrade the schema (every command does this first anyway).
struct InitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "init", abstract: "Create or upgrade the database schema, then exit.")

    @OptionGroup var global: GlobalOptions

    func run() throws {
        try runReportingFailure {
            let workspace = try global.openWorkspace()
            print("schema up to date (\(workspace.settings.database.redactedDescription))")
            return 0
        }
    }
}
