import ArgumentParser
import Foundation
import IAPAudit

/// `iap-audit catalog import|export`.
struct CatalogCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "catalog", abstract: "The apps and products we sell.",
        subcommands: [CatalogImportCommand.self, CatalogExportCommand.self])
}

/// `iap-audit catalog import FILE`.
struct CatalogImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import a JSON catalog, or with --bundle-id a product-identifier list (JSON array or plist).",
        discussion: "Upserts; products of the imported apps missing from the file are marked retired, not deleted.")

    @OptionGroup var global: GlobalOptions

    @Option(help: "The app a plain product-identifier list belongs to.")
    var bundleID: String?

    @Argument(help: "catalog.json, or a product list with --bundle-id.")
    var file: String

    func run() throws {
        try runReportingFailure {
            _ = SignalHandling.installStopHandlers()  // a catalog is one transaction: a signal lets it finish
            let outcome = try global.openWorkspace().importCatalog(
                path: file, bundleID: bundleID)
            print("catalog: \(outcome.apps) apps, \(outcome.products) products, \(outcome.retired) retired")
            return 0
        }
    }
}

/// `iap-audit catalog export`.
struct CatalogExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write each app's active product identifiers as DIR/<bundle id>/products_v1.json.")

    @OptionGroup var global: GlobalOptions

    @Option(help: "Only this app.")
    var bundleID: String?

    @Option(help: "Output directory.")
    var out: String = "out/catalog"

    func run() throws {
        try runReportingFailure {
            for path in try global.openWorkspace(schema: .requireCurrent).exportCatalog(to: out, bundleID: bundleID) {
                print(path)
            }
            return 0
        }
    }
}
