import ArgumentParser
import Foundation
import IAPAudit

/// `iap-audit erase --account HASH | --app-account-token UUID`: erasure on request (docs/privacy.md, "Erasure").
struct EraseCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "erase",
        abstract: "Erase one customer: their account key and app account tokens, from every table and stored record.",
        discussion: """
            Purchases stay as anonymous rows, so reconciliation and month-end totals do not move. Logged in the \
            erasure table (who, when, rows per table), never with the key. Re-running is harmless; a later file that \
            brings the account back is stored normally. Exit 0 also when nothing held the customer (it says so); \
            64 for a value that is not a key or a UUID; 73 when a file of the report folder still names the customer \
            after it was written again. See docs/privacy.md.
            """)

    @OptionGroup var global: GlobalOptions

    @Option(
        help: ArgumentHelp(
            "The account key as stored (what `iap-audit hash-username NAME` prints, peppered if configured).",
            valueName: "key"))
    var account: String?

    @Option(
        help: ArgumentHelp(
            "The app account token (a UUID, any case) the app gave the customer's purchases.", valueName: "uuid"))
    var appAccountToken: String?

    @Option(
        help: ArgumentHelp(
            "Your name for the request (a ticket number), kept in the log in place of the key.", valueName: "text"))
    var reference = ""

    @Option(
        name: .customLong("as"),
        help: ArgumentHelp("Who erases (default: IAP_AUDIT_ANALYST, else the OS user).", valueName: "name"))
    var actor: String?

    @Option(
        help: ArgumentHelp(
            """
            The report folder to clean: written again when a file in it names the customer (default: the \
            configured output directory, when it exists).
            """, valueName: "folder"))
    var reports: String?

    func run() throws {
        try runReportingFailure {
            let (resolved, logger) = try global.resolve()
            guard let actor = AnalystName.resolve(flag: actor, environment: resolved.settings.environment) else {
                throw IAPAuditError.usage("cannot tell who erases: pass --as NAME or set \(AnalystName.variable)")
            }
            let request = try ErasureRequest(
                accountKey: account, appAccountToken: appAccountToken, actor: actor, reference: reference)
            let workspace = try Workspace(settings: resolved.settings, logger: logger)
            let folder = reports ?? resolved.configuration.outputDirectory
            var isDirectory: ObjCBool = false
            let exists =
                FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory) && isDirectory.boolValue
            if reports != nil && !exists { throw IAPAuditError.usage("--reports \(folder) is not a directory") }
            return printed(
                try workspace.runAlone(EraseStage(request: request, reportDirectory: exists ? folder : nil)))
        }
    }
}
