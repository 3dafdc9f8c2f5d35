/// The planted differences: one of each cause the month-end bridge names (docs/reconciliation.md, "The bridge"),
/// all but the reversed refund in the year's last fiscal month, which is the month `run` writes the pack of; each
/// line-level one on a day of its own, far from the others, so none offsets another.
extension MonthEndYear {
    private static let americas = 0
    private static let euroZone = 1

    /// Plants every difference and records each in `plants`, with the amount the bridge must show.
    mutating func plantEveryCause() {
        let july = 9
        let august = 10
        let september = 11
        let last = months[september]
        var plants: [MonthEndManifest.Plant] = []
        func plant(
            _ name: String, _ month: Int, _ cause: String, _ step: String, storefront: Int, cents: Int, _ note: String
        ) {
            let rate = months[month].rate[storefront]
            plants.append(
                MonthEndManifest.Plant(
                    name: name, month: months[month].label, cause: cause, step: step,
                    currency: Self.storefronts[storefront].currency, amount: Self.money(cents),
                    reportingAmount: Self.money(Self.convert(cents, rate: rate)), note: note))
        }

        // A refund Apple's sales report puts on the last day of fiscal August, its financial report in September.
        let refunded = firstPurchase(on: months[august].last - 9, storefront: Self.americas)
        purchases[refunded].refundDay = months[august].last
        months[august].returnShift[Self.americas] -= 1
        months[september].returnShift[Self.americas] += 1
        let share = Self.storefronts[Self.americas].proceedsCents
        plant(
            "late-refund", august, "refunds and reversals", "late returns", storefront: Self.americas, cents: share,
            "refunded on the fiscal month's last day: in its sales report, in the next month's financial report")
        plant(
            "late-refund", september, "refunds and reversals", "late returns", storefront: Self.americas,
            cents: -share, "the return of a refund the sales reports put in fiscal August")

        // A refund Apple reversed a week later: Apple's sales report shows the refund, our copy no longer does, and
        // the financial report has no return (the money stayed).
        let reversed = firstPurchase(on: months[july].first + 7, storefront: Self.americas)
        purchases[reversed].refundDay = months[july].first + 14
        purchases[reversed].reversalDay = months[july].first + 21
        months[july].returnShift[Self.americas] -= 1
        let price = Self.storefronts[Self.americas].priceCents
        plant(
            "refund-reversed", july, "refunds and reversals", "reversed refunds", storefront: Self.americas,
            cents: -price, "refunded, then reversed: the sales report's refund day lacks the unit we still count")
        plant(
            "refund-reversed", july, "refunds and reversals", "late returns", storefront: Self.americas,
            cents: share, "the sales report's refund has no return in the financial report")

        // Taxes and adjustments in the Americas' line of the last month's Payments summary.
        let earned = paid(september)[Self.americas].earned
        months[september].withholding[Self.americas] = -(earned * 3 / 100)
        months[september].adjustments[Self.americas] = -200
        plant(
            "withholding-tax", september, "taxes and adjustments", "withholding tax", storefront: Self.americas,
            cents: -(earned * 3 / 100), "3% withheld in the Payments summary")
        plant(
            "adjustment", september, "taxes and adjustments", "adjustments", storefront: Self.americas, cents: -200,
            "an adjustment of -2.00 in the Payments summary")

        // A purchase our server accepted that Apple never reported (fraud), and a sale Apple reported that our
        // server never recorded (a missed delivery), nine days apart.
        purchases.append(
            Purchase(
                id: Self.transactionID(fiscalYear, 900_000), day: last.first + 9, minute: 55,
                storefront: Self.americas, isUnreported: true))
        plant(
            "unreported-purchase", september, "purchases Apple never reported", "never reported",
            storefront: Self.americas, cents: -price, "a purchase in our archive that no sales report shows")
        extraSales[last.first + 18, default: [0, 0]][Self.americas] += 1
        plant(
            "missed-delivery", september, "sales never recorded", "never recorded", storefront: Self.americas,
            cents: price, "a sale in Apple's report that our archive never recorded")

        // Apple's rounding of its share: the euro sales row of the financial report a cent under units × share.
        months[september].extendedCorrection[Self.euroZone] = -1
        plant(
            "rounding", september, "rounding", "sales vs finance", storefront: Self.euroZone, cents: -1,
            "the financial report's extended share a cent from the sales reports' proceeds")

        // An exchange-rate move: Apple paid the euro region at a rate 0.02 above the one it printed.
        months[september].paidRate[Self.euroZone] += 2_000
        let regions = paid(september)
        let paidCents = regions.reduce(0) { $0 + $1.proceeds }
        let owedAtRate = regions.indices.reduce(0) {
            $0 + regions[$1].totalOwed * months[september].rate[$1]
        }
        // The bridge rounds the converted Total Owed to the cent (half away from zero) before taking the difference.
        let owedCents = (owedAtRate + 50_000) / 100_000
        plants.append(
            MonthEndManifest.Plant(
                name: "exchange-rate-move", month: last.label, cause: "exchange rates", step: "exchange rates",
                currency: Self.bankCurrency, amount: Self.money(paidCents - owedCents),
                reportingAmount: Self.money(paidCents - owedCents),
                note: "the euro region's Proceeds at a rate 0.02000 above the printed one"))
        self.plants = plants
    }

    /// The index of the first purchase of `day` in `storefront`: `init` writes every day's purchases in storefront
    /// order, the same number each day.
    private func firstPurchase(on day: Int64, storefront: Int) -> Int {
        let perDay = Self.storefronts.reduce(0) { $0 + $1.perDay }
        let before = Self.storefronts.prefix(storefront).reduce(0) { $0 + $1.perDay }
        return Int(day - months[0].first) * perDay + before
    }
}
