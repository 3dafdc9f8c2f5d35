import Testing

@testable import AppStoreFormats

struct DateTextTests {
    func utc(
        _ year: Int, _ month: Int, _ day: Int, _ hour: Int, _ minute: Int, _ second: Int, ms: Int = 0
    ) -> Timestamp? {
        Timestamp(year: year, month: month, day: day, hour: hour, minute: minute, second: second, millisecond: ms)
    }

    @Test func readsAppleUTCDatesWithEveryZoneSpellingAndFraction() {
        let expected = utc(2014, 3, 1, 12, 30, 5)
        for zone in ["Etc/GMT", "GMT", "UTC", "Etc/UTC", "Z", ""] {
            #expect(DateText.appleDate("2014-03-01 12:30:05 \(zone)") == expected, "zone \(zone)")
        }
        #expect(DateText.appleDate("2014-03-01 12:30:05.25 Etc/GMT") == utc(2014, 3, 1, 12, 30, 5, ms: 250))
        #expect(DateText.appleDate("2014-03-01 12:30:05.1239 Etc/GMT") == utc(2014, 3, 1, 12, 30, 5, ms: 123))
    }

    @Test func convertsPacificTimeAcrossDaylightSaving() {
        // PST is UTC-8 in winter, PDT UTC-7 in summer.
        #expect(DateText.appleDate("2014-01-15 04:00:00 America/Los_Angeles") == utc(2014, 1, 15, 12, 0, 0))
        #expect(DateText.appleDate("2014-07-15 05:00:00 America/Los_Angeles") == utc(2014, 7, 15, 12, 0, 0))
    }

    @Test func rejectsImpossibleOrMalformedAppleDates() {
        for text in [
            "2014-02-30 12:00:00 Etc/GMT", "2014-03-01 24:00:00 Etc/GMT", "2014-03-01T12:00:00 Etc/GMT",
            "2014-03-01 12:00", "2014-03-01 12:00:00. Etc/GMT", "2014-03-01 12:00:00 Mars/Olympus",
            "2014-03-01 12:00:00 Nowhere",
        ] {
            #expect(DateText.appleDate(text) == nil, "\(text)")
        }
    }

    @Test func checksPacificTwinsWithoutConvertingThem() {
        #expect(DateText.isAppleDate("2014-03-01 04:30:05 America/Los_Angeles"))
        #expect(DateText.isAppleDate("2014-03-01 04:30:05"))
        #expect(!DateText.isAppleDate("2014-03-01 04:30:05 Etc/GMT+8"))
        #expect(!DateText.isAppleDate("2014-03-01 04:30:05 Amérique/Los_Angeles"))
        #expect(!DateText.isAppleDate("2014-13-01 04:30:05 America/Los_Angeles"))
    }

    @Test func readsRFC3339WithOffsetsAndFractions() {
        #expect(DateText.rfc3339("2014-03-01T12:30:05Z") == utc(2014, 3, 1, 12, 30, 5))
        #expect(DateText.rfc3339("2014-03-01 12:30:05.5z") == utc(2014, 3, 1, 12, 30, 5, ms: 500))
        #expect(DateText.rfc3339("2014-03-01T14:30:05.123456+02:00") == utc(2014, 3, 1, 12, 30, 5, ms: 123))
        #expect(DateText.rfc3339("2014-03-01T04:30:05-08:00") == utc(2014, 3, 1, 12, 30, 5))
        #expect(DateText.rfc3339("2014-03-01T12:30:05") == nil)
        #expect(DateText.rfc3339("2014-03-01T12:30:05+2:00") == nil)
        #expect(DateText.rfc3339("2014-03-01T12:30:05Zjunk") == nil)
    }

    @Test func readsEpochMilliseconds() {
        #expect(DateText.milliseconds("1393677005000") == utc(2014, 3, 1, 12, 30, 5))
        #expect(DateText.milliseconds(" 1393677005000 ") == utc(2014, 3, 1, 12, 30, 5))
        #expect(DateText.milliseconds("-1000") == Timestamp(millisecondsSince1970: -1000))
        #expect(DateText.milliseconds("13936 77005000") == nil)
        #expect(DateText.milliseconds("1e12") == nil)
        #expect(DateText.milliseconds("") == nil)
    }

    /// The signed payloads' form, read over bytes since issue 35: every spelling keeps the value (or the refusal) the
    /// Substring-splitting reader gave it.
    @Test func readsSignedEpochMillisecondsWithFractionsExactlyAsBefore() {
        let expected: [(String, Int64?)] = [
            ("1697679936056", 1_697_679_936_056), ("1697679936056.485", 1_697_679_936_056),
            ("1697679936056.000", 1_697_679_936_056), ("-1000", -1000), ("-1000.5", -1001), ("-1000.0", -1000),
            ("\t1000", 1000), ("1000\t", 1000), ("1000\t.5", 1000), ("\t-5.3", -5), ("-\t5", -5),
            (" 1000", nil), ("1000 ", nil), ("1000. 5", nil), ("1000.", nil), (".5", nil), ("1.2.3", nil),
            ("1000.5e3", nil), ("1000.\u{301}5", nil), ("\u{0600}.5", nil), ("", nil), (".", nil), ("-", nil),
            ("--5", nil), ("12345678901234567", nil), ("1e12", nil),
        ]
        for (text, milliseconds) in expected {
            #expect(
                DateText.epochMilliseconds(text) == milliseconds.map(Timestamp.init(millisecondsSince1970:)),
                "\(text.debugDescription)")
        }
    }
}
