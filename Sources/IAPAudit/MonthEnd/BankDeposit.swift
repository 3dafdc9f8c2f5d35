internal import AppStoreFormats
internal import Postgres

/// The amount that reached the bank for one Apple fiscal month: the one month-end figure no file of Apple's carries,
/// entered by a person (`iap-audit month-end bank`), compared at once with what Apple's Payments summary says it paid.
package struct BankDeposit: Sendable, Equatable {
    /// The fiscal month, named as its Payments summary names it (`2014-09` is "September, 2014").
    package var year: Int
    /// 1–12.
    package var month: Int
    /// The amount credited, in `currency`.
    package var amount: String
    /// ISO 4217, e.g. `EUR`.
    package var currency: String
    /// Free text: the bank's reference, who entered it.
    package var note: String?

    /// What Apple says it paid for the month in the same currency (the sum of its Payments summary's Proceeds), if a
    /// Payments summary of the month is stored.
    package var applePaid: String?
    /// `bank − Apple` when both are known.
    package var difference: String?

    init(year: Int, month: Int, amount: String, currency: String, note: String?) {
        self.year = year
        self.month = month
        self.amount = amount
        self.currency = currency
        self.note = note
    }

    /// Checks a month (`YYYY-MM`), an amount and a currency as a person typed them; the message says what is wrong.
    package static func validated(
        month: String, amount: String, currency: String, note: String? = nil
    ) -> Result<
        BankDeposit, IAPAuditError
    > {
        guard let (year, number) = ReportMonth.parse(month) else {
            return .failure(.usage("--month takes a fiscal month as YYYY-MM, not \"\(month)\""))
        }
        guard let decimal = PaymentsDecimal(amount), decimal.scale <= 4 else {
            return .failure(.usage("--amount takes a decimal number like 1234.56, not \"\(amount)\""))
        }
        guard currency.utf8.count == 3, currency.utf8.allSatisfy({ $0 >= 0x41 && $0 <= 0x5A }) else {
            return .failure(.usage("--currency takes a three-letter ISO 4217 code like EUR, not \"\(currency)\""))
        }
        return .success(
            BankDeposit(year: year, month: number, amount: decimal.description, currency: currency, note: note))
    }
}

/// `YYYY-MM`, as `--month` and `--param month=` take it.
package enum ReportMonth {
    /// (year, month) of `2014-09`; `nil` for anything else.
    package static func parse(_ text: String) -> (Int, Int)? {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].utf8.count == 4, parts[1].utf8.count == 2,
            let year = Int(parts[0]), let month = Int(parts[1]), (2000...2200).contains(year), (1...12).contains(month)
        else { return nil }
        return (year, month)
    }
}

extension Workspace {
    /// Records the bank amount of a fiscal month (the latest entry for a month and currency counts; earlier ones
    /// stay) and returns it beside what Apple says it paid.
    package func enterBankDeposit(
        month: String, amount: String, currency: String, note: String?
    ) throws
        -> BankDeposit
    {
        var entry = try BankDeposit.validated(month: month, amount: amount, currency: currency, note: note).get()
        try connection.query(
            SQLQuery.bankDepositInsert.text, [entry.year, entry.month, entry.currency, entry.amount, note],
            context: "record bank deposit")
        let paid = try connection.query(
            SQLQuery.bankDepositApplePaid.text, [entry.year, entry.month, entry.currency, entry.amount],
            context: "what Apple paid for the month")
        if let row = paid.allRows.first {
            entry.applePaid = try row.decode(String?.self, "apple_paid")
            entry.difference = try row.decode(String?.self, "difference")
        }
        return entry
    }
}
