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
                    """
                    INSERT INTO app (bundle_id, apple_id, sku, name) VALUES ($1, $2, $3, $4)
                    ON CONFLICT (bundle_id) DO UPDATE SET
                        apple_id = coalesce(excluded.apple_id, app.apple_id), sku = coalesce(excluded.sku, app.sku),
                        name = coalesce(excluded.name, app.name), updated_at = excluded.updated_at
                    """, [app.bundleID, app.appleID, app.sku, app.name], context: "import app \(app.bundleID)")
                outcome.apps += 1
            }
            for product in catalog.products {
                try connection.query(
                    """
                    INSERT INTO product (bundle_id, product_id, type, name) VALUES ($1, $2, $3, $4)
                    ON CONFLICT (bundle_id, product_id) DO UPDATE SET
                        type = coalesce(excluded.type, product.type), name = coalesce(excluded.name, product.name),
                        is_retired = false, updated_at = excluded.updated_at
                    """, [product.bundleID, product.productID, product.type, product.name],
                    context: "import product \(product.productID)")
                outcome.products += 1
            }
            for app in catalog.apps {
                let listed = catalog.products.filter { $0.bundleID == app.bundleID }.map(\.productID)
                let retired = try connection.query(
                    """
                    UPDATE product SET is_retired = true, updated_at = now()
                    WHERE bundle_id = $1 AND NOT is_retired AND NOT (product_id = ANY($2::text[]))
                    """, [app.bundleID, PostgresTextArray(listed)], context: "retire products of \(app.bundleID)")
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
            """
            SELECT a.bundle_id, coalesce(array_to_json(array_agg(p.product_id ORDER BY p.product_id)
                       FILTER (WHERE p.product_id IS NOT NULL))::text, '[]') AS product_ids
            FROM app a LEFT JOIN product p ON p.bundle_id = a.bundle_id AND NOT p.is_retired
            WHERE $1::text IS NULL OR a.bundle_id = $1
            GROUP BY a.bundle_id ORDER BY a.bundle_id
            """, [bundleID], context: "read catalog")
        return try result.allRows.map { row in
            let json = Data(try row.decode(String.self, "product_ids").utf8)
            let ids = try JSONDecoder().decode([String].self, from: json)
            return (try row.decode(String.self, "bundle_id"), ids)
        }
    }
}
