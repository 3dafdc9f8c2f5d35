package import AppStoreFormats
internal import Foundation
package import Logging
package import Postgres

/// Writes a catalog into the database: upserts apps and products; products of the file's apps that the file no
/// longer lists are marked retired, never deleted (old receipts still name them).
package struct CatalogImport {
    private let connection: Connection
    private let logger: Logger

    /// An importer writing through `connection`.
    package init(connection: Connection, logger: Logger) {
        self.connection = connection
        self.logger = logger
    }

    /// What an import changed.
    package struct Outcome: Sendable, Codable, Equatable {
        package var apps = 0
        package var products = 0
        package var retired = 0
    }

    /// Imports `catalog` in one transaction.
    @discardableResult
    package func apply(_ catalog: CatalogFile, source: String) throws -> Outcome {
        try connection.transaction {
            var outcome = Outcome()
            // An update takes the time from the row it would have inserted (the column's default, now()): Citus allows
            // no function but immutable ones in ON CONFLICT DO UPDATE (docs/scale.md).
            for app in catalog.apps {
                // A product-list import names only the bundle id: keep what the full catalog said about the app.
                try connection.query(
                    SQLQuery.catalogAppUpsert.text, [app.bundleID, app.appleID, app.sku, app.name],
                    context: "import app \(app.bundleID)")
                outcome.apps += 1
            }
            for product in catalog.products {
                try connection.query(
                    SQLQuery.catalogProductUpsert.text,
                    [product.bundleID, product.productID, product.type, product.name],
                    context: "import product \(product.productID)")
                outcome.products += 1
            }
            for app in catalog.apps {
                let listed = catalog.products.filter { $0.bundleID == app.bundleID }.map(\.productID)
                let retired = try connection.query(
                    SQLQuery.catalogProductsRetire.text, [app.bundleID, PostgresTextArray(listed)],
                    context: "retire products of \(app.bundleID)")
                outcome.retired += retired.affectedRows
            }
            logger.info(
                "imported catalog",
                metadata: [
                    "source": "\(source)", "apps": "\(outcome.apps)", "products": "\(outcome.products)",
                    "retired": "\(outcome.retired)",
                ])
            return outcome
        }
    }

    /// The active product ids of each app, sorted: what `catalog export` writes as `products_v1.json`.
    package func activeProducts(bundleID: String? = nil) throws -> [(bundleID: String, productIDs: [String])] {
        let result = try connection.query(
            SQLQuery.catalogActiveProducts.text, [bundleID], context: "read catalog")
        return try result.allRows.map { row in
            let json = Data(try row.decode(String.self, "product_ids").utf8)
            let ids = try JSONDecoder().decode([String].self, from: json)
            return (try row.decode(String.self, "bundle_id"), ids)
        }
    }
}
