internal import Foundation

/// Writes daily and weekly Sales and Trends reports (`reports/S_D_<vendor>_<YYYYMMDD>.txt.gz`,
/// `reports/S_W_<vendor>_<Sunday>.txt.gz`, multi-member gzip) that match a data set written by
/// `ReceiptDataGenerator`, except for a known set of planted discrepancies listed in `sales-manifest.json`.
///
/// The reports are derived from the receipt files as written (see `SalesLedger`), so they agree with whatever the
/// receipt generator does; weekly reports are sums of the daily ones, planted discrepancies included.
package struct SalesReportGenerator: Sendable {
    /// The vendor number in the file names.
    package var vendorNumber: String
    /// Seeds the choice of the cells that get a discrepancy.
    package var seed: UInt64

    /// Creates a generator.
    package init(vendorNumber: String = "80012345", seed: UInt64 = 1) {
        self.vendorNumber = vendorNumber
        self.seed = seed
    }

    private typealias Cell = SalesLedger.Cell
    private typealias Row = SalesReportFileWriter.Row

    /// Reads the receipts listed in `receipts` under `directory` and writes the reports beside them.
    package func write(to directory: String, receipts: GenerationManifest) throws -> SalesManifest {
        let catalog = SyntheticCatalog.standard
        let ledger = try SalesLedger.read(directory: directory, files: receipts.files.map(\.path), catalog: catalog)
        let start = receipts.scenario.startDay.epochDay
        // Purchases in the first UTC hours of the first day fall on the Pacific day before it.
        let firstDay = start - 1
        let lastDay = max(
            start + Int64(receipts.scenario.days) - 1,
            (Array(ledger.sales.keys) + Array(ledger.refunds.keys)).map(\.day).max() ?? start)

        var rows: [Int64: [Row]] = [:]
        for (cell, units) in ledger.sales where units > 0 {
            rows[cell.day, default: []] += saleRows(product: cell.product, units: units, catalog: catalog)
        }
        for (cell, units) in ledger.refunds where units > 0 {
            rows[cell.day, default: []].append(refundRow(product: cell.product, units: units, catalog: catalog))
        }
        for (cell, units) in ledger.restores where units > 0 {
            var row = saleRows(product: cell.product, units: units, catalog: catalog)[0]
            row.productType = "IA3"
            row.units = units
            row.proceeds = "0.00"
            row.customerPrice = "0.00"
            rows[cell.day, default: []].append(row)
        }
        var rng = SeededGenerator(seed: seed)
        let plants = plant(into: &rows, ledger: ledger, days: firstDay...lastDay, catalog: catalog, rng: &rng)

        try ReceiptFileWriter.createDirectory(directory + "/reports")
        var manifest = SalesManifest(
            vendorNumber: vendorNumber, dailyFiles: [], weeklyFiles: [], dailySaleRows: 0, plants: plants)
        for day in firstDay...lastDay {
            var dayRows = rows[day] ?? []
            // App downloads: not in-app purchases, so reconciliation ignores them; they also make every file unique.
            for app in catalog.apps.indices {
                dayRows.append(
                    Row(
                        sku: catalog.apps[app].sku, title: catalog.apps[app].name, productType: "1F",
                        units: 1 + Int((day + Int64(app)) % 7), proceeds: "0.00", customerCurrency: "USD",
                        country: "US", proceedsCurrency: "USD", customerPrice: "0.00", parent: " "))
            }
            // A total order: dictionary iteration order changes from process to process, the files must not.
            dayRows.sort {
                ($0.sku, $0.productType, $0.country, $0.units, String(describing: $0))
                    < ($1.sku, $1.productType, $1.country, $1.units, String(describing: $1))
            }
            rows[day] = dayRows
            let name = "reports/S_D_\(vendorNumber)_\(SalesReportFileWriter.nameDate(day)).txt.gz"
            let file = try SalesReportFileWriter(path: directory + "/" + name)
            let date = SalesReportFileWriter.reportDate(day)
            for row in dayRows { try file.append(row, begin: date, end: date) }
            try file.close()
            manifest.dailyFiles.append(name)
            manifest.dailySaleRows +=
                dayRows.filter { $0.productType.hasPrefix("IA") && $0.productType != "IA3" }.count
        }
        // Weekly reports for every Monday–Sunday week the daily reports cover in full: the sum of their rows.
        var monday = firstDay
        while (monday + 3) % 7 != 0 { monday += 1 }  // 1970-01-01 was a Thursday: day 4 is the first Monday.
        while monday + 6 <= lastDay {
            var sums: [Row: Int] = [:]
            for day in monday...(monday + 6) {
                for row in rows[day] ?? [] {
                    var key = row
                    key.units = 0
                    sums[key, default: 0] += row.units
                }
            }
            let sunday = monday + 6
            let name = "reports/S_W_\(vendorNumber)_\(SalesReportFileWriter.nameDate(sunday)).txt.gz"
            let file = try SalesReportFileWriter(path: directory + "/" + name)
            let sorted = sums.sorted {
                ($0.key.sku, $0.key.productType, $0.key.country, $0.key.customerPrice, String(describing: $0.key))
                    < ($1.key.sku, $1.key.productType, $1.key.country, $1.key.customerPrice, String(describing: $1.key))
            }
            for (key, units) in sorted where units != 0 {
                var row = key
                row.units = units
                try file.append(
                    row, begin: SalesReportFileWriter.reportDate(monday), end: SalesReportFileWriter.reportDate(sunday))
            }
            try file.close()
            manifest.weeklyFiles.append(name)
            monday += 7
        }
        try ReceiptFileWriter.writeManifest(directory + "/sales-manifest.json", manifest)
        return manifest
    }

    // MARK: - Rows

    private func productType(_ kind: SyntheticCatalog.Kind) -> String {
        switch kind {
        case .consumable, .nonConsumable: "IA1"
        case .autoRenewable: "IAY"
        case .nonRenewing: "IA9"
        case .freeSubscription: "IAC"
        }
    }

    /// The parent identifier Apple writes: the app's SKU, or for one app its Apple ID (both are accepted).
    private func parent(of product: Int, catalog: SyntheticCatalog) -> String {
        let app = catalog.apps[catalog.products[product].appIndex]
        return catalog.products[product].appIndex == 2 ? String(app.appleID) : app.sku
    }

    private func cents(_ product: Int, catalog: SyntheticCatalog) -> Int {
        catalog.products[product].kind == .freeSubscription ? 0 : 99 + 100 * (product % 5)
    }

    private func money(_ cents: Int) -> String {
        let magnitude = abs(cents)
        let fraction = magnitude % 100
        return (cents < 0 ? "-" : "") + "\(magnitude / 100)." + (fraction < 10 ? "0" : "") + "\(fraction)"
    }

    /// A cell's sales split over three storefronts, as Apple writes one row per country and price.
    private func saleRows(product: Int, units: Int, catalog: SyntheticCatalog) -> [Row] {
        let price = cents(product, catalog: catalog)
        let info = catalog.products[product]
        let storefronts = [
            ("GB", "GBP", units / 4), ("DE", "EUR", units / 5), ("US", "USD", units - units / 4 - units / 5),
        ]
        return storefronts.filter { $0.2 != 0 }.map { country, currency, count in
            Row(
                sku: info.productID, title: info.name, productType: productType(info.kind), units: count,
                proceeds: money(price * 7 / 10), customerCurrency: currency, country: country,
                proceedsCurrency: currency, customerPrice: money(price), parent: parent(of: product, catalog: catalog))
        }
    }

    private func refundRow(product: Int, units: Int, catalog: SyntheticCatalog) -> Row {
        var row = saleRows(product: product, units: 1, catalog: catalog)[0]
        row.units = -units
        row.customerPrice = money(-cents(product, catalog: catalog))
        return row
    }

    // MARK: - Planted discrepancies

    /// Plants one discrepancy of each kind, each on a different product so none can offset another.
    private func plant(
        into rows: inout [Int64: [Row]], ledger: SalesLedger, days: ClosedRange<Int64>, catalog: SyntheticCatalog,
        rng: inout SeededGenerator
    ) -> [SalesManifest.Plant] {
        var plants: [SalesManifest.Plant] = []
        var usedProducts: Set<Int> = []
        func app(_ product: Int) -> String { catalog.apps[catalog.products[product].appIndex].bundleID }
        func isQuiet(_ cell: Cell) -> Bool {
            (ledger.sales[cell] ?? 0) == 0 && (ledger.refunds[cell] ?? 0) == 0
        }
        func pick(_ accepts: (Cell) -> Bool) -> Cell? {
            let candidates = ledger.sales.keys.filter {
                days.contains($0.day) && !usedProducts.contains($0.product) && accepts($0)
            }.sorted()
            guard !candidates.isEmpty else { return nil }
            let cell = candidates[rng.nextInt(below: candidates.count)]
            usedProducts.insert(cell.product)
            return cell
        }
        func record(_ cell: Cell, _ status: String, _ note: String) {
            plants.append(
                SalesManifest.Plant(
                    day: SalesReportFileWriter.isoDate(cell.day),
                    vendorIdentifier: catalog.products[cell.product].productID, app: app(cell.product),
                    expectedStatus: status, note: note))
        }
        func removeSales(_ cell: Cell) {
            let id = catalog.products[cell.product].productID
            rows[cell.day]?.removeAll { $0.sku == id && $0.units > 0 && $0.productType != "IA3" }
        }
        let refundFree: (Cell) -> Bool = { (ledger.refunds[$0] ?? 0) == 0 }

        if let cell = pick({ (ledger.sales[$0] ?? 0) >= 2 && refundFree($0) }) {
            let units = ledger.sales[cell] ?? 0
            removeSales(cell)
            rows[cell.day, default: []] += saleRows(product: cell.product, units: units - 1, catalog: catalog)
            record(cell, "variance", "reported one unit fewer than recorded")
        }
        if let cell = pick(refundFree) {
            removeSales(cell)
            record(cell, "missing-in-report", "left the sale rows out of the report")
        }
        let hasQuietNextDay: (Cell) -> Bool = {
            days.contains($0.day + 1) && isQuiet(Cell(day: $0.day + 1, product: $0.product))
        }
        if let cell = pick({ refundFree($0) && hasQuietNextDay($0) }) {
            let units = ledger.sales[cell] ?? 0
            removeSales(cell)
            if units > 1 {
                rows[cell.day, default: []] += saleRows(product: cell.product, units: units - 1, catalog: catalog)
            }
            rows[cell.day + 1, default: []] += saleRows(product: cell.product, units: 1, catalog: catalog)
            record(cell, "timing", "moved one unit to the next day")
            record(
                Cell(day: cell.day + 1, product: cell.product), "timing", "received the unit moved from the day before")
        }
        if let cell = pick(refundFree) {
            let id = catalog.products[cell.product].productID
            let home = catalog.products[cell.product].appIndex
            let other = catalog.apps[(home + 1) % catalog.apps.count].sku
            rows[cell.day] = rows[cell.day]?.map { row in
                guard row.sku == id else { return row }
                var changed = row
                changed.parent = other
                return changed
            }
            record(cell, "parent-mismatch", "named \(other) as the parent app")
        }
        // A product no receipt ever recorded on a quiet day.
        let unused = catalog.products.indices.filter { product in
            !usedProducts.contains(product) && catalog.products[product].kind != .freeSubscription
        }
        if let product = unused.first,
            let day = days.dropFirst().first(where: { isQuiet(Cell(day: $0, product: product)) })
        {
            let cell = Cell(day: day, product: product)
            usedProducts.insert(product)
            rows[cell.day, default: []] += saleRows(product: product, units: 2, catalog: catalog)
            record(cell, "missing-in-receipts", "reported two units no receipt recorded")
        }
        if let day = days.dropFirst(2).first {
            let game = catalog.apps[0]
            rows[day, default: []].append(
                Row(
                    sku: "com.example.coinquest.retiredpack", title: "Retired pack", productType: "IA1", units: 1,
                    proceeds: "0.70", customerCurrency: "USD", country: "US", proceedsCurrency: "USD",
                    customerPrice: "0.99", parent: game.sku))
            plants.append(
                SalesManifest.Plant(
                    day: SalesReportFileWriter.isoDate(day), vendorIdentifier: "com.example.coinquest.retiredpack",
                    app: game.bundleID, expectedStatus: "unknown-product", note: "a product the catalog lacks"))
        }
        return plants.sorted { ($0.day, $0.vendorIdentifier) < ($1.day, $1.vendorIdentifier) }
    }
}
