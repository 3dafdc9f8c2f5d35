internal import AppStoreFormats
internal import Postgres

/// Writes a Payments summary's typed content (`payment_summary`, `payment_region`, `payment_paid`) in the file's
/// transaction; its rows are in `sales_report_row` already, by the same file id and line.
enum PaymentsRows {
    static func record(_ payments: PaymentsSummaryReader, fileID: Int64, on connection: Connection) throws {
        try connection.query(
            SQLQuery.paymentSummaryInsert.text,
            [Int(fileID), payments.fiscalMonth?.year, payments.fiscalMonth?.month, payments.title],
            context: "record payments summary")
        for region in payments.regions {
            try connection.query(
                SQLQuery.paymentRegionInsert.text,
                [
                    Int(fileID), region.line, region.region, region.currency, region.unitsSold,
                    region.earned.description, region.preTaxSubtotal?.description, region.inputTax.description,
                    region.adjustments.description, region.withholdingTax.description, region.totalOwed.description,
                    region.exchangeRate?.description, region.proceeds?.description, region.bankCurrency,
                ], context: "record payments region")
        }
        for paid in payments.paid {
            try connection.query(
                SQLQuery.paymentPaidInsert.text,
                [Int(fileID), paid.line, paid.amount.description, paid.currency, paid.paidTo],
                context: "record payments paid amount")
        }
    }
}
