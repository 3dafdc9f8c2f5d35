/// Maps one split row to a `SalesReportRow` through its header, checking the values reconciliation relies on.
struct RowReader {
    enum Outcome {
        case row(SalesReportRow)
        case rejected(ReportRowIssue)
    }

    /// Thrown internally to stop at the first bad value; becomes `.rejected`.
    private struct Rejection: Error {
        let reason: QuarantineReason
        let message: String
        let column: String
    }

    let fields: RowFields
    let header: ReportHeader

    func read(line: Int, storage: [UInt8]) -> Outcome {
        do {
            return .row(try makeRow(line: line, storage: storage))
        } catch {
            return .rejected(
                ReportRowIssue(line: line, reason: error.reason, message: error.message, column: error.column))
        }
    }

    private func makeRow(line: Int, storage: [UInt8]) throws(Rejection) -> SalesReportRow {
        let requiresKeys = header.layout.requiresSaleKeys
        let vendorIdentifier = text(.vendorIdentifier) ?? ""
        let productTypeIdentifier = text(.productTypeIdentifier) ?? ""
        if requiresKeys {
            if vendorIdentifier.isEmpty { throw missingKey(.vendorIdentifier) }
            if productTypeIdentifier.isEmpty { throw missingKey(.productTypeIdentifier) }
        }
        for field in Self.identifierFields {
            if let bytes = raw(field), case let length = ReportBytes.trimmed(bytes).count,
                length > IdentifierLimit.bytes
            {
                throw Rejection(
                    reason: .valueTooLong, message: IdentifierLimit.message(field: name(field), length: length),
                    column: name(field))
            }
        }
        let isDetail = header.layout == .financeDetail
        // A detailed financial row is one purchase: it covers the day of its Transaction Date.
        let beginDate = try date(isDetail ? .transactionDate : .beginDate, isRequired: requiresKeys)
        let settlementDate = isDetail ? try date(.settlementDate, isRequired: true) : nil
        // Subscription event and subscriber rows have one Event Date: the row covers that day.
        let endDate =
            isDetail || header.positions[ReportField.endDate.rawValue] < 0
            ? beginDate : try date(.endDate, isRequired: requiresKeys)
        if let beginDate, let endDate, endDate < beginDate {
            throw Rejection(
                reason: .invalidDate,
                message: "\(name(.beginDate)) \(beginDate) is after \(name(.endDate)) \(endDate)",
                column: name(.beginDate)
            )
        }
        return SalesReportRow(
            line: line,
            vendorIdentifier: vendorIdentifier,
            productTypeIdentifier: productTypeIdentifier,
            units: try units(isRequired: requiresKeys),
            proceedsPerUnit: try decimal(.proceedsPerUnit),
            extendedProceeds: try decimal(.extendedProceeds),
            proceedsCurrency: text(.proceedsCurrency),
            customerPrice: try decimal(.customerPrice),
            customerCurrency: text(.customerCurrency),
            countryCode: text(.countryCode),
            beginDate: beginDate,
            endDate: endDate,
            appleIdentifier: text(.appleIdentifier),
            parentIdentifier: text(.parentIdentifier),
            title: text(.title),
            subscription: text(.subscription),
            period: text(.period),
            salesOrReturn: text(.salesOrReturn),
            promoCode: text(.promoCode),
            orderType: text(.orderType),
            proceedsReason: text(.proceedsReason),
            preservedPricing: text(.preservedPricing),
            device: text(.device),
            category: text(.category),
            settlementDate: settlementDate,
            columns: ReportColumns(names: header.names, storage: storage, bounds: fields.bounds)
        )
    }

    /// The columns that become keys of indexes (reconciliation lines, catalog lookups).
    private static let identifierFields: [ReportField] = [
        .vendorIdentifier, .productTypeIdentifier, .parentIdentifier, .appleIdentifier,
    ]

    @inline(__always)
    private func raw(_ field: ReportField) -> ArraySlice<UInt8>? {
        let position = header.positions[field.rawValue]
        return position < 0 ? nil : fields[position]
    }

    @inline(__always)
    private func text(_ field: ReportField) -> String? {
        raw(field).flatMap(ReportBytes.text)
    }

    private func name(_ field: ReportField) -> String {
        let position = header.positions[field.rawValue]
        return position < 0 ? "\(field)" : header.names[position]
    }

    private func shown(_ bytes: ArraySlice<UInt8>) -> String {
        let value = String(decoding: ReportBytes.trimmed(bytes), as: UTF8.self)
        return value.count > 40 ? "\"\(value.prefix(40))…\"" : "\"\(value)\""
    }

    private func missingKey(_ field: ReportField) -> Rejection {
        Rejection(reason: .missingKey, message: "\(name(field)) is empty", column: name(field))
    }

    private func units(isRequired: Bool) throws(Rejection) -> Int {
        guard let bytes = raw(.units) else { return 0 }
        if ReportBytes.trimmed(bytes).isEmpty {
            guard isRequired else { return 0 }
            throw Rejection(reason: .invalidNumber, message: "\(name(.units)) is empty", column: name(.units))
        }
        guard let value = ReportBytes.integer(bytes) else {
            throw Rejection(
                reason: .invalidNumber, message: "\(name(.units)) is not a whole number (\(shown(bytes)))",
                column: name(.units)
            )
        }
        // Stored as `integer`: a count past 32 bits would fail the whole file in the database.
        guard Int32(exactly: value) != nil else {
            throw Rejection(
                reason: .invalidNumber,
                message: "\(name(.units)) is out of range for a 32-bit integer (\(shown(bytes)))", column: name(.units))
        }
        return value
    }

    private func decimal(_ field: ReportField) throws(Rejection) -> ReportDecimal? {
        guard let bytes = raw(field), !ReportBytes.trimmed(bytes).isEmpty else { return nil }
        guard let value = ReportDecimal(bytes: bytes) else {
            throw Rejection(
                reason: .invalidNumber,
                message: "\(name(field)) is not a decimal number with at most 4 decimal places (\(shown(bytes)))",
                column: name(field)
            )
        }
        return value
    }

    private func date(_ field: ReportField, isRequired: Bool) throws(Rejection) -> CalendarDate? {
        guard let bytes = raw(field) else { return nil }
        if ReportBytes.trimmed(bytes).isEmpty {
            guard isRequired else { return nil }
            throw Rejection(reason: .invalidDate, message: "\(name(field)) is empty", column: name(field))
        }
        guard let value = CalendarDate.parse(bytes) else {
            throw Rejection(
                reason: .invalidDate, message: "\(name(field)) is not a valid date (\(shown(bytes)))",
                column: name(field)
            )
        }
        return value
    }
}
