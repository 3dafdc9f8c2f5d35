internal import AppStoreFormats

/// A fiscal year of one consumable sold in two storefronts: what our servers recorded (signed StoreKit 2
/// purchases with prices), what Apple's daily sales reports say it sold, what its financial reports say it owes and
/// what its Payments summaries say it paid. Without plants the four agree but for what always separates them
/// (Apple's share, the calendar against the fiscal month); `MonthEndYear+Plants.swift` plants one difference of
/// each cause. Money is in cents, exchange rates in units of 0.00001 (Apple prints five decimals).
struct MonthEndYear {
    /// Where the year sells: a StoreKit 2 storefront, the country and currency Apple's reports name, and the region
    /// Apple pays it under.
    struct Storefront {
        let code: String
        let storefrontID: String
        let country: String
        let currency: String
        /// The Payments summary's region (`Americas (USD)`), and the financial report's file-name region.
        let region: String
        let reportRegion: String
        /// Purchases a day.
        let perDay: Int
        let priceCents: Int
        /// Apple's proceeds a unit (in the EU after VAT, which Apple keeps).
        let proceedsCents: Int
    }

    /// One purchase our servers recorded (bought at 17:00 UTC plus `minute`: the same day in Cupertino).
    struct Purchase {
        var id: String
        var day: Int64
        var minute: Int
        var storefront: Int
        /// The day Apple refunded it, and the later day it reversed that refund.
        var refundDay: Int64?
        var reversalDay: Int64?
        /// Apple never reported it (a fraudulent purchase our server accepted).
        var isUnreported = false
    }

    /// One fiscal month, named as the Payments summary names it.
    struct Month {
        var year: Int
        var month: Int
        var first: Int64
        var last: Int64
        /// Apple's rate from each storefront's currency into the bank currency, as printed, and the one it paid at.
        var rate: [Int]
        var paidRate: [Int]
        var adjustments: [Int]
        var withholding: [Int]
        /// Cents added to the financial report's sales row (Apple's rounding of its share).
        var extendedCorrection: [Int]
        /// Return units moved into (positive) or out of (negative) this month's financial report.
        var returnShift: [Int]

        var label: String { "\(year)-\(month < 10 ? "0" : "")\(month)" }
        var days: ClosedRange<Int64> { first...last }
    }

    static let storefronts = [
        Storefront(
            code: "USA", storefrontID: "143441", country: "US", currency: "USD", region: "Americas",
            reportRegion: "US", perDay: 3, priceCents: 99, proceedsCents: 70),
        Storefront(
            code: "DEU", storefrontID: "143443", country: "DE", currency: "EUR", region: "Euro-Zone",
            reportRegion: "EU", perDay: 2, priceCents: 99, proceedsCents: 58),
    ]
    /// The app and product of the example catalog (`SyntheticCatalog`'s first), so the demo's catalog knows them:
    /// read from it, so the two cannot drift apart.
    private static let app = SyntheticCatalog.standard.apps[0]
    private static let product = SyntheticCatalog.standard.products[0]
    static let (appBundleID, appSKU, appleID) = (app.bundleID, app.sku, String(app.appleID))
    static let (productID, productName) = (product.productID, product.name)
    static let vendorNumber = "80012345"
    static let bankCurrency = "USD"

    let fiscalYear: Int
    var months: [Month]
    var purchases: [Purchase]
    /// Units Apple's daily sales reports show per day and storefront beyond our purchases (a sale we never recorded).
    var extraSales: [Int64: [Int]] = [:]
    var plants: [MonthEndManifest.Plant] = []

    /// The year's purchases and months, without plants. Fiscal October of `fiscalYear - 1` is the first month.
    init(fiscalYear: Int) throws {
        self.fiscalYear = fiscalYear
        let count = Self.storefronts.count
        months = try (0..<12).map { index in
            let month = (index + 9) % 12 + 1
            let year = month >= 10 ? fiscalYear - 1 : fiscalYear
            guard let days = AppleFiscalCalendar.days(year: year, month: month) else {
                throw SyntheticDataError.invalidScenario("Apple's fiscal calendar has no fiscal year \(fiscalYear)")
            }
            // The euro moves a little from month to month; the dollar is the bank's currency.
            let euro = 106_000 + (index * 7_919) % 4_000
            return Month(
                year: year, month: month, first: Self.epochDay(days.lowerBound), last: Self.epochDay(days.upperBound),
                rate: [100_000, euro], paidRate: [100_000, euro], adjustments: Array(repeating: 0, count: count),
                withholding: Array(repeating: 0, count: count), extendedCorrection: Array(repeating: 0, count: count),
                returnShift: Array(repeating: 0, count: count))
        }
        purchases = []
        var serial = 0
        for day in months[0].first...months[11].last {
            for (storefront, shop) in Self.storefronts.enumerated() {
                for _ in 0..<shop.perDay {
                    serial += 1
                    purchases.append(
                        Purchase(
                            id: Self.transactionID(fiscalYear, serial), day: day, minute: serial % 50,
                            storefront: storefront))
                }
            }
        }
    }

    static func transactionID(_ fiscalYear: Int, _ serial: Int) -> String {
        let digits = String(serial)
        return "9\(fiscalYear)" + String(repeating: "0", count: max(0, 9 - digits.count)) + digits
    }

    static func epochDay(_ date: CalendarDate) -> Int64 {
        AppleTime.epochDay(year: date.year, month: date.month, day: date.day)
    }

    /// The index of the month holding `day`.
    func monthIndex(of day: Int64) -> Int? { months.firstIndex { $0.days.contains(day) } }

    // MARK: - Apple's side

    /// Units Apple's daily sales report of `day` shows for each storefront: sales, and refunds (as positive units).
    func appleUnits(on day: Int64) -> (sales: [Int], refunds: [Int]) {
        var sales = extraSales[day] ?? Array(repeating: 0, count: Self.storefronts.count)
        var refunds = Array(repeating: 0, count: Self.storefronts.count)
        for purchase in purchases {
            if purchase.day == day && !purchase.isUnreported { sales[purchase.storefront] += 1 }
            if purchase.refundDay == day { refunds[purchase.storefront] += 1 }
        }
        return (sales, refunds)
    }

    /// What the financial report of `month` carries per storefront: sales units, return units, Extended Partner
    /// Share of the sales row and of the returns row (cents).
    func owed(_ index: Int) -> [(sales: Int, returns: Int, salesCents: Int, returnCents: Int)] {
        let month = months[index]
        var sales = Array(repeating: 0, count: Self.storefronts.count)
        var returns = month.returnShift
        for day in month.days {
            let units = appleUnits(on: day)
            for storefront in sales.indices {
                sales[storefront] += units.sales[storefront]
                returns[storefront] += units.refunds[storefront]
            }
        }
        return Self.storefronts.indices.map { storefront in
            let share = Self.storefronts[storefront].proceedsCents
            return (
                sales[storefront], returns[storefront],
                sales[storefront] * share + month.extendedCorrection[storefront], -returns[storefront] * share
            )
        }
    }

    /// A Payments summary region of `month`: Earned, Adjustments, Withholding Tax, Total Owed (cents of the region's
    /// currency) and Proceeds (cents of the bank currency, at the rate Apple paid at, rounded half up as Apple does).
    func paid(_ index: Int) -> [(units: Int, earned: Int, totalOwed: Int, proceeds: Int)] {
        let month = months[index]
        return owed(index).enumerated().map { storefront, owed in
            let earned = owed.salesCents + owed.returnCents
            let total = earned + month.adjustments[storefront] + month.withholding[storefront]
            return (owed.sales - owed.returns, earned, total, Self.convert(total, rate: month.paidRate[storefront]))
        }
    }

    /// `cents` × `rate` / 100000, rounded half away from zero.
    static func convert(_ cents: Int, rate: Int) -> Int {
        let product = cents * rate
        return product >= 0 ? (product + 50_000) / 100_000 : -((-product + 50_000) / 100_000)
    }

    /// `cents` as Apple prints money: `-1.05`, `0.70`.
    static func money(_ cents: Int) -> String {
        let sign = cents < 0 ? "-" : ""
        let whole = abs(cents)
        return "\(sign)\(whole / 100).\(whole % 100 < 10 ? "0" : "")\(whole % 100)"
    }

    /// A rate as Apple prints it: five decimals.
    static func rate(_ value: Int) -> String {
        let fraction = String(value % 100_000)
        return "\(value / 100_000)." + String(repeating: "0", count: 5 - fraction.count) + fraction
    }
}
