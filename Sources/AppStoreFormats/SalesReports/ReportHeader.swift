/// A report's header line, analysed: the layout it names, where each canonical field is, and what is wrong with it.
struct ReportHeader: Sendable {
    /// Why a header makes the file's rows unreadable.
    struct Problem: Sendable {
        let reason: QuarantineReason
        let message: String
    }

    let names: [String]
    let layout: ReportLayout
    /// Column position per `ReportField.rawValue`, or -1 when the header lacks it.
    let positions: [Int]
    let problem: Problem?

    init(names: [String]) {
        self.names = names
        let keys = names.map(ReportBytes.nameKey)
        let layout = ReportHeader.layout(keys: Set(keys), columnCount: names.count)
        self.layout = layout

        var positions = [Int](repeating: -1, count: ReportField.allCases.count)
        var problems: [String] = []
        var firstPosition: [String: Int] = [:]
        var reportedKeys: Set<String> = []
        for (position, key) in keys.enumerated() where !key.isEmpty {
            if firstPosition[key] != nil {
                if reportedKeys.insert(key).inserted {
                    let all = keys.indices.filter { keys[$0] == key }.map { "column \($0 + 1) \"\(names[$0])\"" }
                    problems.append("the same name appears more than once: " + all.joined(separator: ", "))
                }
                continue
            }
            firstPosition[key] = position
            guard let field = ReportField.field(forNameKey: key) else { continue }
            let existing = positions[field.rawValue]
            if existing >= 0 {
                // e.g. both `SKU` and `Vendor Identifier`: which one is the key is a guess we should not make.
                problems.append(
                    "column \(existing + 1) \"\(names[existing])\" and column \(position + 1) \"\(names[position])\" "
                        + "name the same field"
                )
            } else {
                positions[field.rawValue] = position
            }
        }
        self.positions = positions

        if layout == .unknown {
            let preview = names.prefix(4).map { "\"\($0)\"" }.joined(separator: ", ")
            problem = Problem(
                reason: .unrecognisedHeader,
                message: "header (\(names.count) fields: \(preview)\(names.count > 4 ? ", …" : "")) "
                    + "is not a sales, financial or subscription report header"
            )
        } else if !problems.isEmpty {
            problem = Problem(
                reason: .duplicateHeader, message: "duplicate header names: " + problems.joined(separator: "; "))
        } else {
            let missing = ReportField.required(by: layout).filter { positions[$0.field.rawValue] < 0 }.map(\.name)
            problem = missing.isEmpty ? nil : ReportHeader.missingColumns(missing, names: names, keys: keys)
        }
    }

    /// Recognises the report from the names its header carries, whatever their order.
    static func layout(keys: Set<String>, columnCount: Int) -> ReportLayout {
        if !keys.isDisjoint(with: ["partnershare", "extendedpartnershare", "partnersharecurrency"]) {
            // The detailed report dates each purchase; a per-region or consolidated one dates the fiscal period.
            let dated = keys.contains("transactiondate") || keys.contains("settlementdate")
            return dated ? .financeDetail : .financial
        }
        if keys.contains("subscriberid") { return .subscriber }
        if keys.contains("event") && keys.contains("eventdate") { return .subscriptionEvent }
        if !keys.isDisjoint(with: ["subscriptionappleid", "subscriptiongroupid", "activestandardpricesubscriptions"]) {
            return .subscription
        }
        if keys.contains("vendoridentifier") { return .sales27 }
        if keys.contains("sku") { return .sales(columnCount: columnCount) }
        return .unknown
    }

    /// Names the missing columns, and points at a header field that holds them joined by spaces (a hand edit that
    /// replaced tabs), since that is the usual cause.
    private static func missingColumns(_ missing: [String], names: [String], keys: [String]) -> Problem {
        let list = missing.map { "\"\($0)\"" }.joined(separator: ", ")
        var message = "header lacks required column\(missing.count == 1 ? "" : "s") \(list)"
        let missingKeys = missing.map(ReportBytes.nameKey)
        for (position, key) in keys.enumerated() where ReportField.field(forNameKey: key) == nil {
            let joined = missingKeys.filter { !$0.isEmpty && key.contains($0) }
            if !joined.isEmpty {
                message +=
                    "; column \(position + 1) \"\(names[position])\" looks like several names joined by "
                    + "spaces instead of tabs"
            }
        }
        return Problem(reason: .missingColumns, message: message)
    }
}
