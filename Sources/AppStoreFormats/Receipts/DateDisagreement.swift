/// Two forms of one date (`key_ms`, `key`, `key_pst`) more than a day apart: Apple writes one instant in each, so one
/// of them was edited (a forged receipt) or the recorder broke it. The parser keeps its usual value and notes this.
package struct DateDisagreement: Sendable, Equatable {
    /// More than this between two forms is a disagreement: a day, well beyond any time-zone or rounding slip.
    package static let toleranceMilliseconds: UInt64 = 24 * 60 * 60 * 1000

    /// The date's path in the record, e.g. `response.receipt.in_app[2].purchase_date`.
    package var field: String
    /// The member whose value the receipt keeps (`purchase_date_ms`, or the next form when it is absent).
    package var keptMember: String
    /// The instant kept.
    package var kept: Timestamp
    /// The member that disagrees (`purchase_date` or `purchase_date_pst`).
    package var otherMember: String
    /// The instant it names (Pacific time converted).
    package var other: Timestamp

    /// A disagreement between `keptMember` and `otherMember` of `field`.
    package init(field: String, keptMember: String, kept: Timestamp, otherMember: String, other: Timestamp) {
        self.field = field
        self.keptMember = keptMember
        self.kept = kept
        self.otherMember = otherMember
        self.other = other
    }
}
