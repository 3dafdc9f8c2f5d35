/// The canonical fields a report row is mapped to, each with the header spellings Apple has used for it.
enum ReportField: Int, CaseIterable, Sendable {
    case vendorIdentifier, productTypeIdentifier, units, proceedsPerUnit, extendedProceeds, proceedsCurrency
    case customerPrice, customerCurrency, countryCode, beginDate, endDate, appleIdentifier, parentIdentifier, title
    case subscription, period, salesOrReturn, promoCode, orderType, proceedsReason, preservedPricing, device, category
    case transactionDate, settlementDate

    /// Header names (as `ReportBytes.nameKey` reduces them) that map to this field.
    var nameKeys: [String] {
        switch self {
        case .vendorIdentifier: ["sku", "vendoridentifier"]
        case .productTypeIdentifier: ["producttypeidentifier"]
        case .units: ["units", "quantity"]
        case .proceedsPerUnit: ["developerproceeds", "royaltyprice", "partnershare"]
        case .extendedProceeds: ["extendedpartnershare"]
        case .proceedsCurrency: ["currencyofproceeds", "royaltycurrency", "partnersharecurrency", "proceedscurrency"]
        case .customerPrice: ["customerprice"]
        case .customerCurrency: ["customercurrency"]
        case .countryCode: ["countrycode", "countryofsale", "country"]
        case .beginDate: ["begindate", "startdate", "eventdate"]
        case .endDate: ["enddate"]
        case .appleIdentifier: ["appleidentifier", "appleid", "subscriptionappleid"]
        case .parentIdentifier: ["parentidentifier", "appappleid"]
        case .title: ["title", "titleepisodeseason", "subscriptionname"]
        case .subscription: ["subscription"]
        case .period: ["period"]
        // Apple's reference spells it "Sale or Return"; its files have said "Sales or Return".
        case .salesOrReturn: ["salesorreturn", "saleorreturn"]
        case .promoCode: ["promocode"]
        case .orderType: ["ordertype"]
        case .proceedsReason: ["proceedsreason"]
        case .preservedPricing: ["preservedpricing"]
        case .device: ["device"]
        case .category: ["category"]
        case .transactionDate: ["transactiondate"]
        case .settlementDate: ["settlementdate"]
        }
    }

    /// The field a header name maps to, if any.
    static func field(forNameKey key: String) -> ReportField? {
        lookup[key]
    }

    private static let lookup: [String: ReportField] = {
        var table: [String: ReportField] = [:]
        for field in ReportField.allCases {
            for key in field.nameKeys { table[key] = field }
        }
        return table
    }()

    /// The columns a layout cannot be read without, with the name Apple uses for each in that layout.
    static func required(by layout: ReportLayout) -> [(field: ReportField, name: String)] {
        switch layout {
        case .sales27:
            [
                (.vendorIdentifier, "Vendor Identifier"), (.productTypeIdentifier, "Product Type Identifier"),
                (.units, "Units"), (.proceedsPerUnit, "Royalty Price"), (.beginDate, "Begin Date"),
                (.endDate, "End Date"), (.proceedsCurrency, "Royalty Currency"),
            ]
        case .sales:
            [
                (.vendorIdentifier, "SKU"), (.productTypeIdentifier, "Product Type Identifier"), (.units, "Units"),
                (.proceedsPerUnit, "Developer Proceeds"), (.beginDate, "Begin Date"), (.endDate, "End Date"),
                (.proceedsCurrency, "Currency of Proceeds"),
            ]
        case .financial:
            [
                (.beginDate, "Start Date"), (.endDate, "End Date"), (.vendorIdentifier, "Vendor Identifier"),
                (.units, "Quantity"), (.proceedsPerUnit, "Partner Share"),
                (.extendedProceeds, "Extended Partner Share"), (.proceedsCurrency, "Partner Share Currency"),
                (.salesOrReturn, "Sales or Return"), (.productTypeIdentifier, "Product Type Identifier"),
            ]
        case .financeDetail:
            [
                (.transactionDate, "Transaction Date"), (.settlementDate, "Settlement Date"),
                (.vendorIdentifier, "Vendor Identifier"), (.units, "Quantity"), (.proceedsPerUnit, "Partner Share"),
                (.proceedsCurrency, "Partner Share Currency"), (.salesOrReturn, "Sale or Return"),
                (.productTypeIdentifier, "Product Type Identifier"),
            ]
        case .subscriptionEvent, .subscriber:
            [(.beginDate, "Event Date")]
        case .subscription, .paymentsSummary, .unknown:
            []
        }
    }
}
