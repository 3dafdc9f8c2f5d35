/// What the month-end generator wrote (`month-end-manifest.json`): a fiscal year of the four amounts (recorded,
/// sold, owed, paid) and the one difference of each cause it planted, with the month, step and cause the bridge must
/// show it under (docs/reconciliation.md, "The bridge"). Nothing else may come out `unexplained`.
package struct MonthEndManifest: Codable, Sendable, Equatable {
    /// One fiscal month the files cover.
    package struct Month: Codable, Sendable, Equatable {
        /// `YYYY-MM`, as the Payments summary names it.
        package var month: String
        /// The fiscal month's first and last day (`YYYY-MM-DD`).
        package var begin: String
        package var end: String
        /// What Apple paid that month in the bank currency (the sum of the regions' Proceeds): the bank amount a
        /// person would enter.
        package var paid: String
    }

    /// One planted difference.
    package struct Plant: Codable, Sendable, Equatable {
        /// A short name: `late-refund`, `refund-reversed`, `withholding-tax`, `adjustment`, `exchange-rate-move`,
        /// `unreported-purchase`, `missed-delivery`, `rounding`.
        package var name: String
        /// The fiscal month (`YYYY-MM`) whose bridge shows it.
        package var month: String
        /// The bridge's cause and step (`month_end_bridge`'s `cause` and `step` columns).
        package var cause: String
        package var step: String
        /// The currency the difference is in (the bridge's `currency`), and its amount there.
        package var currency: String
        package var amount: String
        /// The amount in the reporting currency (the bank's), as `report month-end-bridge` shows it.
        package var reportingAmount: String
        /// What was done, for a person.
        package var note: String

        enum CodingKeys: String, CodingKey {
            case name, month, cause, step, currency, amount
            case reportingAmount = "reporting_amount"
            case note
        }
    }

    /// Apple's fiscal year the files cover (2026: fiscal October 2025 through fiscal September 2026).
    package var fiscalYear: Int
    /// The bank account currency, which is also the reporting currency of the bridge.
    package var bankCurrency: String
    package var months: [Month]
    package var plants: [Plant]
    /// Files written, relative to the output directory.
    package var files: [String]
    /// The root certificate that verifies the signed transactions (relative path).
    package var trustedRoot: String
    /// The catalog of the app and product the year sells (relative path).
    package var catalog: String

    enum CodingKeys: String, CodingKey {
        case fiscalYear = "fiscal_year"
        case bankCurrency = "bank_currency"
        case months, plants, files
        case trustedRoot = "trusted_root"
        case catalog
    }
}
