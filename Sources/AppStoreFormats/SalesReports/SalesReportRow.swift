/// One data row of a sales, financial or subscription report: the canonical fields reconciliation needs, plus every
/// column verbatim.
///
/// Canonical text fields are trimmed, and blank values (`" "` or empty) are `nil`. For sales and financial rows,
/// `vendorIdentifier`, `productTypeIdentifier`, `units`, `beginDate` and `endDate` are always present; other
/// layouts fill what they have (a Subscription Event row's `beginDate` and `endDate` are its Event Date, a
/// Payments summary row has only `columns`).
package struct SalesReportRow: Sendable, Equatable {
    /// The 1-based line number in the file.
    package let line: Int
    /// `SKU` or `Vendor Identifier`: the app's SKU, or the product id of an in-app purchase. Empty where the layout
    /// has none.
    package let vendorIdentifier: String
    /// The raw Product Type Identifier, e.g. `IA1`; empty where the layout has none.
    package let productTypeIdentifier: String
    /// The classification of `productTypeIdentifier`.
    package let productType: ReportProductType
    /// `Units` (financial: `Quantity`); negative for refunds and returns; 0 where the layout has no unit column.
    package let units: Int
    /// Proceeds per unit: `Developer Proceeds`, `Royalty Price` or `Partner Share` (positive on refunds too).
    package let proceedsPerUnit: ReportDecimal?
    /// A financial row's `Extended Partner Share` (negative on returns).
    package let extendedProceeds: ReportDecimal?
    /// `Currency of Proceeds`, `Royalty Currency`, `Partner Share Currency` or `Proceeds Currency`.
    package let proceedsCurrency: String?
    /// `Customer Price` (negative on refunds).
    package let customerPrice: ReportDecimal?
    /// `Customer Currency`.
    package let customerCurrency: String?
    /// `Country Code`, `Country Of Sale` or `Country`.
    package let countryCode: String?
    /// `Begin Date`, `Start Date` or `Event Date`; a detailed financial row's `Transaction Date`.
    package let beginDate: CalendarDate?
    /// `End Date` (the Event Date again for subscription event and subscriber rows, the Transaction Date again for
    /// detailed financial rows).
    package let endDate: CalendarDate?
    /// `Apple Identifier` (subscription reports: `Subscription Apple ID`).
    package let appleIdentifier: String?
    /// `Parent Identifier`: the parent app of an in-app purchase (subscription reports: `App Apple ID`).
    package let parentIdentifier: String?
    /// `Title` / `Title / Episode / Season` (subscription reports: `Subscription Name`), UTF-8 as written.
    package let title: String?
    /// `Subscription` (`New`, `Renewal`).
    package let subscription: String?
    /// `Period` (`7 Days`, `1 Month`, `1 Year`).
    package let period: String?
    /// A financial row's `Sales or Return`: `S` or `R`.
    package let salesOrReturn: String?
    /// `Promo Code`.
    package let promoCode: String?
    /// `Order Type` (e.g. `Pay As You Go Intro Offer`).
    package let orderType: String?
    /// `Proceeds Reason`.
    package let proceedsReason: String?
    /// `Preserved Pricing` (`Yes`).
    package let preservedPricing: String?
    /// `Device`.
    package let device: String?
    /// `Category`.
    package let category: String?
    /// A detailed financial row's `Settlement Date`: when Apple settled the purchase; `nil` for other layouts.
    package let settlementDate: CalendarDate?
    /// Every column by header name, in header order, including ones this parser does not know, values verbatim.
    package let columns: ReportColumns

    /// True for a financial return (`Sales or Return` is `R`).
    package var isReturn: Bool { salesOrReturn == "R" }

    init(
        line: Int, vendorIdentifier: String = "", productTypeIdentifier: String = "", units: Int = 0,
        proceedsPerUnit: ReportDecimal? = nil, extendedProceeds: ReportDecimal? = nil, proceedsCurrency: String? = nil,
        customerPrice: ReportDecimal? = nil, customerCurrency: String? = nil, countryCode: String? = nil,
        beginDate: CalendarDate? = nil, endDate: CalendarDate? = nil, appleIdentifier: String? = nil,
        parentIdentifier: String? = nil, title: String? = nil, subscription: String? = nil, period: String? = nil,
        salesOrReturn: String? = nil, promoCode: String? = nil, orderType: String? = nil,
        proceedsReason: String? = nil, preservedPricing: String? = nil, device: String? = nil,
        category: String? = nil, settlementDate: CalendarDate? = nil, columns: ReportColumns
    ) {
        self.line = line
        self.vendorIdentifier = vendorIdentifier
        self.productTypeIdentifier = productTypeIdentifier
        self.productType = ReportProductType(code: productTypeIdentifier)
        self.units = units
        self.proceedsPerUnit = proceedsPerUnit
        self.extendedProceeds = extendedProceeds
        self.proceedsCurrency = proceedsCurrency
        self.customerPrice = customerPrice
        self.customerCurrency = customerCurrency
        self.countryCode = countryCode
        self.beginDate = beginDate
        self.endDate = endDate
        self.appleIdentifier = appleIdentifier
        self.parentIdentifier = parentIdentifier
        self.title = title
        self.subscription = subscription
        self.period = period
        self.salesOrReturn = salesOrReturn
        self.promoCode = promoCode
        self.orderType = orderType
        self.proceedsReason = proceedsReason
        self.preservedPricing = preservedPricing
        self.device = device
        self.category = category
        self.settlementDate = settlementDate
        self.columns = columns
    }
}
