internal import AppStoreFormats
internal import Foundation

/// The catalog: `catalog import` and `catalog export`.
extension Workspace {
    /// `catalog import FILE` (a JSON catalog) or, with `bundleID`, a product-identifier list for that app.
    package func importCatalog(path: String, bundleID: String?) throws -> CatalogImport.Outcome {
        guard let bytes = FileManager.default.contents(atPath: path).map(Array.init) else {
            throw IAPAuditError.input("cannot read \(path)")
        }
        let catalog: CatalogFile
        do {
            if let bundleID {
                catalog = try CatalogFile.parseProductList(bytes, bundleID: bundleID)
            } else {
                catalog = try CatalogFile.parseCatalog(bytes)
            }
        } catch {
            throw IAPAuditError.input("\(path): \(error)")
        }
        return try exclusively {
            try CatalogImport(connection: connection, logger: logger).apply(catalog, source: path)
        }
    }

    /// `catalog export`: writes `DIR/<bundle id>/products_v1.json` per app; returns the files written.
    package func exportCatalog(to directory: String, bundleID: String?) throws -> [String] {
        var written: [String] = []
        for app in try CatalogImport(connection: connection, logger: logger).activeProducts(bundleID: bundleID) {
            let folder = (directory as NSString).appendingPathComponent(app.bundleID)
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            let path = (folder as NSString).appendingPathComponent("products_v1.json")
            try Self.productListJSON(app.productIDs).write(to: URL(fileURLWithPath: path), options: .atomic)
            written.append(path)
        }
        return written
    }

    /// The product-identifier list an app fetches: a JSON array of strings, the shape Apple's guide shows.
    static func productListJSON(_ ids: [String]) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .withoutEscapingSlashes]
        return try encoder.encode(ids) + Data("\n".utf8)
    }
}
