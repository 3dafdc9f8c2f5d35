import TestSupport
import Testing

@testable import AppStoreFormats

/// A date's `_ms`, text and `_pst` forms name one instant; more than a day between two of them is noted, not refused.
struct DateDisagreementTests {
    let parser = ReceiptRecordParser(hasher: AccountKeyHasher(pepper: nil))
    /// 2014-03-01 07:00:00 UTC.
    let instant = Timestamp(millisecondsSince1970: 1_393_657_200_000)

    /// A status-0 app receipt whose second `in_app` entry has the date members `dates`.
    func receipt(secondPurchase dates: String, receiptFields: String = "") throws -> RecordedReceipt {
        let honest = #""transaction_id": "1", "product_id": "p", "purchase_date_ms": "1393657200000""#
        let record = """
            {"response": {"status": 0, "receipt": {"bundle_id": "b"\(receiptFields), "in_app": [
                {\(honest), "purchase_date": "2014-03-01 07:00:00 Etc/GMT"},
                {"transaction_id": "2", "product_id": "p", \(dates)}]}}}
            """
        return try parser.parse(Array(record.utf8))
    }

    @Test func keepsMillisecondsAndNotesATextFormTwoDaysAway() throws {
        let parsed = try receipt(
            secondPurchase: #""purchase_date_ms": "1393657200000", "purchase_date": "2014-03-03 07:00:00 Etc/GMT""#)
        #expect(parsed.transactions.map(\.purchaseDate) == [instant, instant])
        #expect(
            parsed.dateDisagreements == [
                DateDisagreement(
                    field: "response.receipt.in_app[1].purchase_date", keptMember: "purchase_date_ms", kept: instant,
                    otherMember: "purchase_date",
                    other: Timestamp(millisecondsSince1970: 1_393_657_200_000 + 2 * 86_400_000))
            ])
    }

    @Test func anHourApartIsNoDisagreement() throws {
        let parsed = try receipt(
            secondPurchase: #""purchase_date_ms": "1393657200000", "purchase_date": "2014-03-01 08:00:00 Etc/GMT""#)
        #expect(parsed.transactions[1].purchaseDate == instant)
        #expect(parsed.dateDisagreements.isEmpty)
    }

    @Test func exactlyADayApartIsNoDisagreement() throws {
        let parsed = try receipt(
            secondPurchase: #""purchase_date_ms": "1393657200000", "purchase_date": "2014-03-02 07:00:00 Etc/GMT""#)
        #expect(parsed.dateDisagreements.isEmpty)
    }

    @Test func convertsPacificTimeBeforeComparing() throws {
        // 23:00 Pacific standard time the evening before is the same instant: no disagreement.
        let honest = try receipt(
            secondPurchase:
                #""purchase_date_ms": "1393657200000", "purchase_date_pst": "2014-02-28 23:00:00 America/Los_Angeles""#
        )
        #expect(honest.dateDisagreements.isEmpty)
        let edited = try receipt(
            secondPurchase:
                #""purchase_date_ms": "1393657200000", "purchase_date_pst": "2014-02-26 23:00:00 America/Los_Angeles""#
        )
        #expect(edited.transactions[1].purchaseDate == instant)
        #expect(edited.dateDisagreements.map(\.otherMember) == ["purchase_date_pst"])
        #expect(
            edited.dateDisagreements.first?.other
                == Timestamp(millisecondsSince1970: 1_393_657_200_000 - 2 * 86_400_000))
    }

    /// Near the tolerance the hour a Pacific wall clock may stand for decides, so it is converted exactly: 23:30
    /// PST is 24.5 hours after the kept instant (noted); 23:00 PST is exactly a day after it (not noted).
    @Test func aPacificFormNearTheToleranceIsConvertedExactly() throws {
        let over = try receipt(
            secondPurchase:
                #""purchase_date_ms": "1393657200000", "purchase_date_pst": "2014-03-01 23:30:00 America/Los_Angeles""#
        )
        #expect(
            over.dateDisagreements.map(\.other) == [Timestamp(millisecondsSince1970: 1_393_657_200_000 + 88_200_000)])
        let atTheBound = try receipt(
            secondPurchase:
                #""purchase_date_ms": "1393657200000", "purchase_date_pst": "2014-03-01 23:00:00 America/Los_Angeles""#
        )
        #expect(atTheBound.dateDisagreements.isEmpty)
    }

    @Test func comparesPacificWithTheTextFormWhenThereIsNoMilliseconds() throws {
        let parsed = try receipt(
            secondPurchase:
                #""purchase_date": "2014-03-01 07:00:00 Etc/GMT", "purchase_date_pst": "2014-03-05 23:00:00 America/Los_Angeles""#
        )
        #expect(parsed.transactions[1].purchaseDate == instant)
        #expect(parsed.dateDisagreements.map(\.keptMember) == ["purchase_date"])
        #expect(parsed.dateDisagreements.map(\.otherMember) == ["purchase_date_pst"])
    }

    @Test func notesEveryDisagreeingFormAndReceiptLevelDates() throws {
        let parsed = try receipt(
            secondPurchase:
                #""purchase_date_ms": "1393657200000", "purchase_date": "2014-03-09 07:00:00 Etc/GMT", "purchase_date_pst": "2014-02-20 23:00:00 America/Los_Angeles""#,
            receiptFields: #", "request_date_ms": "1393657200000", "request_date": "2013-03-01 07:00:00 Etc/GMT""#)
        #expect(
            parsed.dateDisagreements.map { "\($0.field) \($0.otherMember)" } == [
                "response.receipt.request_date request_date",
                "response.receipt.in_app[1].purchase_date purchase_date",
                "response.receipt.in_app[1].purchase_date purchase_date_pst",
            ])
    }

    @Test func anHonestReceiptHasNone() throws {
        let parsed = try receipt(
            secondPurchase:
                #""purchase_date_ms": "1393657200000", "purchase_date": "2014-03-01 07:00:00 Etc/GMT", "purchase_date_pst": "2014-02-28 23:00:00 America/Los_Angeles""#
        )
        #expect(parsed.dateDisagreements.isEmpty)
    }

    @Test func realReceiptsInTheCorpusHaveNone() throws {
        for folder in [
            "receipts/verifyreceipt", "receipts/verifyreceipt-more", "receipts/notifications-v1",
            "receipts/notifications-v1-legacy",
        ] {
            for name in try TestCorpus.files(in: folder) {
                let parsed = try parser.parse(try TestCorpus.bytes("\(folder)/\(name)"))
                #expect(parsed.dateDisagreements.isEmpty, "\(folder)/\(name): \(parsed.dateDisagreements)")
            }
        }
    }
}
