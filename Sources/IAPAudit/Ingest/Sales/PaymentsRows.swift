internal import AppStoreFormats
internal import Postgres

/// Writes a Payments summary's typed content (`payment_summary`, `payment_region`, `payment_paid`) in the file's
/// transaction; its rows are in `sales_report_row` already, by the same file id and line.
enum PaymentsRows {
    static func record(_ payments: PaymentsSummaryReader, fileID: Int64, on connection: Connection) throws {
        try connection.query(
            """
            INSERT INTO payment_summary (file_id, fiscal_year, fiscal_month, title) VALUES ($1, $2, $3, $4)
            """, [Int(fileID), payments.fiscalMonth?.year, payments.fiscalMonth?.month, payments.title],
            context: "record payments summary")
        for region in payments.regions {
            try connection.query(
                """
                INSERT INTO payment_region (file_id, line, region, currency, units_sold, earned, pre_tax_subtotal,
                    input_tax, adjustments, withholding_tax, total_owed, exchange_rate, proceeds, bank_currency)
                VALUES ($1, $2, $3, $4, $5, $6::numeric, $7::numeric, $8::numeric, $9::numeric, $10::numeric,
                    $11::numeric, $12::numeric, $13::numeric, $14)
                """,
                [
                    Int(fileID), region.line, region.region, region.currency, region.unitsSold,
                    region.earned.description, region.preTaxSubtotal?.description, region.inputTax.description,
                    region.adjustments.description, region.withholdingTax.description, region.totalOwed.description,
                    region.exchangeRate?.description, region.proceeds?.description, region.bankCurrency,
                ], context: "record payments region")
        }
        for paid in payments.paid {
            try connection.query(
                "INSERT INTO payment_paid (file_id, line, amount, currency, paid_to) VALUES ($1, $2, $3::numeric, $4, $5)",
                [Int(fileID), paid.line, paid.amount.description, paid.currency, paid.paidTo],
                context: "record payments paid amount")
        }
    }
}
