import ArgumentParser
import Foundation
import IAPAudit

/// `iap-audit month-end bank --month YYYY-MM --amount N --currency CUR [--note TEXT]`.
///
/// A command rather than a configuration entry: the bank amount is a fact about one month, entered once when the
/// statement arrives, and it belongs with the month's other figures in the database (with when it was entered),
/// where the month-end pack of any later run reads it; a configuration file would grow a line a month and change
/// past packs when edited.
struct MonthEndCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "month-end",
        abstract: "Month-end figures a person enters (the month-end pack is `report month-end`).",
        subcommands: [MonthEndBankCommand.self])
}

/// `iap-audit month-end bank`.
struct MonthEndBankCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bank",
        abstract: "Record the amount that reached the bank for an Apple fiscal month.",
        discussion: "The latest entry for a month and currency counts; earlier ones are kept. Prints what Apple's "
            + "Payments summary says it paid for the month and the difference.")

    @OptionGroup var global: GlobalOptions

    @Option(help: "The fiscal month as YYYY-MM, as the Payments summary names it (2014-09: September, 2014).")
    var month: String

    @Option(help: "The amount credited, e.g. 234.58.")
    var amount: String

    @Option(help: "Its currency, ISO 4217 (e.g. EUR).")
    var currency: String

    @Option(help: "A note kept with the entry (the bank's reference, who entered it).")
    var note: String?

    func validate() throws {
        if case .failure(let error) = BankDeposit.validated(month: month, amount: amount, currency: currency) {
            throw ValidationError(error.description)
        }
    }

    func run() throws {
        try runReportingFailure {
            let (resolved, logger) = try global.resolve()
            let settings = resolved.settings
            let workspace = try Workspace(settings: settings, logger: logger)
            let entry = try workspace.enterBankDeposit(month: month, amount: amount, currency: currency, note: note)
            var line = "bank \(entry.amount) \(entry.currency) recorded for fiscal \(month)"
            if let paid = entry.applePaid, let difference = entry.difference {
                line += "; Apple's Payments summary paid \(paid) \(entry.currency), difference \(difference)"
            } else {
                line += "; no Payments summary of the month paid in \(entry.currency) is stored"
            }
            print(line)
            return 0
        }
    }
}
