/// What a report row's Product Type Identifier says was sold; the raw code stays on the row.
///
/// Named `ReportProductType` (not `ProductType`) so it cannot be confused with a catalog product's type
/// (consumable, non-consumable, …).
package enum ReportProductType: String, Sendable, Hashable, CaseIterable {
    /// An in-app purchase sale: `IA1`, `IA1-M`, `FI1`, `IA9`, `IA9-M`, `IAY`, `IAY-M`, `IAC`.
    case inAppPurchase
    /// A restored non-consumable (`IA3`): not a sale.
    case restoredInAppPurchase
    /// An app download: `1`, `1F`, `1T`, `F1`, `1-B`, `F1-B`, `1E`, `1EP`, `1EU`.
    case app
    /// A re-download: `3`, `3F`.
    case redownload
    /// An update: `7`, `7F`, `7T`, `F7`.
    case update
    /// A code this parser does not know; kept, never rejected.
    case unknown

    /// Classifies a raw Product Type Identifier (surrounding spaces ignored, case-sensitive as Apple writes them).
    package init(code: String) {
        switch String(decoding: ReportBytes.trimmed(Array(code.utf8)[...]), as: UTF8.self) {
        case "IA1", "IA1-M", "FI1", "IA9", "IA9-M", "IAY", "IAY-M", "IAC": self = .inAppPurchase
        case "IA3": self = .restoredInAppPurchase
        case "1", "1F", "1T", "F1", "1-B", "F1-B", "1E", "1EP", "1EU": self = .app
        case "3", "3F": self = .redownload
        case "7", "7F", "7T", "F7": self = .update
        default: self = .unknown
        }
    }

    /// True for the codes reconciliation counts as sales (in-app purchases, not restores).
    package var isInAppPurchaseSale: Bool { self == .inAppPurchase }
}
