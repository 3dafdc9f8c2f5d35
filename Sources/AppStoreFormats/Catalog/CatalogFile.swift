internal import Foundation

/// The apps and products we sell (docs/inputs.md, "The catalog").
package struct CatalogFile: Sendable, Equatable {
    /// One app.
    package struct App: Sendable, Equatable {
        package var bundleID: String
        package var appleID: String?
        package var sku: String?
        package var name: String?
    }

    /// One in-app product.
    package struct Product: Sendable, Equatable {
        package var productID: String
        package var bundleID: String
        /// `consumable`, `non-consumable`, `auto-renewable`, `non-renewing`, `free-subscription`, or nil (unknown).
        package var type: String?
        package var name: String?
    }

    package static let productTypes: Set<String> = [
        "consumable", "non-consumable", "auto-renewable", "non-renewing", "free-subscription",
    ]

    package var apps: [App]
    package var products: [Product]

    /// Parses a JSON catalog `{"apps": [...], "products": [...]}`.
    package static func parseCatalog(_ bytes: [UInt8]) throws(CatalogError) -> CatalogFile {
        let value: JSONValue
        do { value = try JSONParser.parse(bytes) } catch { throw CatalogError("catalog is not valid JSON: \(error)") }
        guard let top = value.object else { throw CatalogError("catalog should be a JSON object with \"apps\"") }
        var catalog = CatalogFile(apps: [], products: [])
        for (index, entry) in try objects(top, "apps").enumerated() {
            let path = "apps[\(index)]"
            catalog.apps.append(
                App(
                    bundleID: try text(entry, "bundle_id", path, required: true) ?? "",
                    appleID: try text(entry, "apple_id", path), sku: try text(entry, "sku", path),
                    name: try text(entry, "name", path)))
        }
        let bundles = Set(catalog.apps.map(\.bundleID))
        guard bundles.count == catalog.apps.count else { throw CatalogError("an app's bundle_id appears twice") }
        for (index, entry) in try objects(top, "products").enumerated() {
            let path = "products[\(index)]"
            let product = Product(
                productID: try text(entry, "product_id", path, required: true) ?? "",
                bundleID: try text(entry, "bundle_id", path, required: true) ?? "",
                type: try text(entry, "type", path), name: try text(entry, "name", path))
            if let type = product.type, !productTypes.contains(type) {
                throw CatalogError(
                    "\(path).type \"\(type)\" is not one of \(productTypes.sorted().joined(separator: ", "))")
            }
            guard bundles.contains(product.bundleID) else {
                throw CatalogError("\(path) names bundle_id \"\(product.bundleID)\", which is not among the apps")
            }
            catalog.products.append(product)
        }
        return catalog
    }

    /// Parses a plain product-identifier list for one app: a JSON array of strings, or a property-list array.
    package static func parseProductList(_ bytes: [UInt8], bundleID: String) throws(CatalogError) -> CatalogFile {
        let identifiers: [String]
        let start = bytes.first { ![0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) }
        if start == UInt8(ascii: "[") {
            guard case .array(let elements)? = try? JSONParser.parse(bytes) else {
                throw CatalogError("product list is not a valid JSON array")
            }
            identifiers = try elements.enumerated().map { index, element throws(CatalogError) in
                guard case .string(let id) = element, !id.isEmpty else {
                    throw CatalogError("product list entry \(index) is not a non-empty string")
                }
                return id
            }
        } else {
            let plist = try? PropertyListSerialization.propertyList(from: Data(bytes), options: [], format: nil)
            guard let array = plist as? [Any] else {
                throw CatalogError("product list is neither a JSON array nor a property-list <array>")
            }
            identifiers = try array.enumerated().map { index, element throws(CatalogError) in
                guard let id = element as? String, !id.isEmpty else {
                    throw CatalogError("property-list entry \(index) is not a non-empty <string>")
                }
                return id
            }
        }
        for (index, id) in identifiers.enumerated() where id.utf8.count > IdentifierLimit.bytes {
            throw CatalogError(IdentifierLimit.message(field: "product list entry \(index)", length: id.utf8.count))
        }
        return CatalogFile(
            apps: [App(bundleID: bundleID, appleID: nil, sku: nil, name: nil)],
            products: identifiers.map { Product(productID: $0, bundleID: bundleID, type: nil, name: nil) })
    }

    private static func objects(_ top: JSONObject, _ key: String) throws(CatalogError) -> [JSONObject] {
        guard let value = top[key] else { return [] }
        guard let array = value.array else { throw CatalogError("\"\(key)\" should be an array") }
        return try array.enumerated().map { index, element throws(CatalogError) in
            guard let object = element.object else { throw CatalogError("\(key)[\(index)] should be an object") }
            return object
        }
    }

    private static func text(
        _ object: JSONObject, _ key: String, _ path: String, required: Bool = false
    )
        throws(CatalogError) -> String?
    {
        switch object[key] {
        case .string(let text)? where !text.isEmpty:
            // Every catalog field but a name is an id that ends up in an index (names are display text).
            guard key == "name" || text.utf8.count <= IdentifierLimit.bytes else {
                throw CatalogError(IdentifierLimit.message(field: "\(path).\(key)", length: text.utf8.count))
            }
            return text
        case .number(let number)?: return number
        case nil, .null?, .string?:
            if required { throw CatalogError("\(path).\(key) is missing") }
            return nil
        case let other?: throw CatalogError("\(path).\(key) should be text, found \(other.typeName)")
        }
    }
}

/// Why a catalog file was refused (a catalog is imported whole or not at all).
package struct CatalogError: Error, Sendable, Equatable, CustomStringConvertible {
    package var message: String
    package init(_ message: String) { self.message = message }
    package var description: String { message }
}
