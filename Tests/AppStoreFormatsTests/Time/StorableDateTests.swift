import Testing

@testable import AppStoreFormats

/// Every date a parser returns is one the database stores (years 1 to 9999 UTC): a value past either end is refused
/// where it is read, so it never reaches a `timestamptz` (whose microseconds it would overflow) or PostgreSQL's
/// "timestamp out of range" (which fails the whole file).
struct StorableDateTests {
    @Test func epochMillisecondsOutsideYearsOneToNineThousandNineHundredNinetyNineAreRefused() {
        for text in ["-62167219200000", "9300000000000000", "-9300000000000000", "9223372036854776", "253402300800000"]
        {
            #expect(DateText.milliseconds(text) == nil, "\(text)")
            #expect(DateText.epochMilliseconds(text) == nil, "\(text)")
            #expect(DateText.isOutsideStorableRange(text), "\(text)")
        }
        #expect(DateText.milliseconds("-62135596800000")?.millisecondsSince1970 == -62_135_596_800_000)
        #expect(DateText.milliseconds("253402300799999")?.millisecondsSince1970 == 253_402_300_799_999)
        #expect(!DateText.isOutsideStorableRange("not a date"))
    }

    @Test func anOffsetCarryingATextDatePastAnEndIsRefused() {
        #expect(DateText.rfc3339("0001-01-01T00:30:00+01:00") == nil)
        #expect(DateText.rfc3339("9999-12-31T23:30:00-01:00") == nil)
        #expect(DateText.appleDate("9999-12-31 23:00:00 America/Los_Angeles") == nil)
        #expect(DateText.isOutsideStorableRange("9999-12-31T23:30:00-01:00"))
    }

    @Test func aRecordWithAnUnstorableDateIsInvalidDateNamingTheField() throws {
        let parser = ReceiptRecordParser(hasher: AccountKeyHasher(pepper: nil))
        let record =
            #"{"status": 0, "environment": "Production", "receipt": {"bundle_id": "a.b", "in_app": [{"#
            + #""product_id": "p", "transaction_id": "1", "purchase_date_ms": "-62167219200000"}]}}"#
        #expect {
            _ = try parser.parse(Array(record.utf8))
        } throws: { error in
            guard let error = error as? ReceiptRecordError else { return false }
            return error.code == .invalidDate && error.message.contains("purchase_date_ms")
                && error.message.contains("outside the dates the database stores")
        }
    }

    @Test func aSkippedPacificWallClockTimeIsReadWithTheOffsetBeforeTheChange() {
        // 2014-03-09 02:30 does not exist in Los Angeles (02:00 PST became 03:00 PDT at 10:00Z): IANA and PostgreSQL
        // read it with the offset before the change, -8 h, so 10:30Z.
        let expected = Timestamp(year: 2014, month: 3, day: 9, hour: 10, minute: 30)
        #expect(DateText.appleDate("2014-03-09 02:30:00 America/Los_Angeles") == expected)
        // Either side of the gap reads as before.
        #expect(
            DateText.appleDate("2014-03-09 01:30:00 America/Los_Angeles")
                == Timestamp(year: 2014, month: 3, day: 9, hour: 9, minute: 30))
        #expect(
            DateText.appleDate("2014-03-09 03:30:00 America/Los_Angeles")
                == Timestamp(year: 2014, month: 3, day: 9, hour: 10, minute: 30))
    }
}
