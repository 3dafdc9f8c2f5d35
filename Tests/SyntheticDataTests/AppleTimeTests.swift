import Foundation
import Testing

@testable import SyntheticData

/// Apple's date spellings, checked against Foundation's calendar and tz database.
struct AppleTimeTests {
    private func pacific(_ milliseconds: Int64) -> String {
        var writer = JSONByteWriter()
        writer.pacificDate(milliseconds)
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    private func gmt(_ milliseconds: Int64) -> String {
        var writer = JSONByteWriter()
        writer.gmtDate(milliseconds)
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    private func utc(_ text: String) throws -> Int64 {
        let day = try #require(CalendarDay(String(text.prefix(10))))
        let parts = text.dropFirst(11).split(separator: ":").compactMap { Int64($0) }
        return day.epochDay * 86_400_000 + (parts[0] * 3600 + parts[1] * 60 + parts[2]) * 1000
    }

    @Test func pacificTimeSpringsForwardOnSecondSundayOfMarch2014() throws {
        #expect(pacific(try utc("2014-03-09T09:59:59")) == "\"2014-03-09 01:59:59 America/Los_Angeles\"")
        #expect(pacific(try utc("2014-03-09T10:00:00")) == "\"2014-03-09 03:00:00 America/Los_Angeles\"")
    }

    @Test func pacificTimeFallsBackOnFirstSundayOfNovember2014() throws {
        #expect(pacific(try utc("2014-11-02T08:59:59")) == "\"2014-11-02 01:59:59 America/Los_Angeles\"")
        #expect(pacific(try utc("2014-11-02T09:00:00")) == "\"2014-11-02 01:00:00 America/Los_Angeles\"")
    }

    @Test func pacificTimeFollowsPre2007RulesIn2006() throws {
        #expect(pacific(try utc("2006-04-02T10:00:00")) == "\"2006-04-02 03:00:00 America/Los_Angeles\"")
        #expect(pacific(try utc("2006-10-29T08:59:59")) == "\"2006-10-29 01:59:59 America/Los_Angeles\"")
        #expect(pacific(try utc("2006-10-29T09:00:00")) == "\"2006-10-29 01:00:00 America/Los_Angeles\"")
    }

    @Test func pacificOffsetAgreesWithTzDatabaseEveryHalfHourFrom1970To2037() throws {
        let zone = try #require(TimeZone(identifier: "America/Los_Angeles"))
        let start = try utc("1970-01-01T00:00:00")
        let end = try utc("2037-12-31T00:00:00")
        var mismatches: [Int64] = []
        for instant in stride(from: start, to: end, by: 1_800_000) {
            let expected = Int64(zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(instant) / 1000))) * 1000
            if AppleTime.pacificOffset(at: instant) != expected { mismatches.append(instant) }
        }
        #expect(mismatches.isEmpty, "first mismatch at \(mismatches.first.map(String.init) ?? "-") ms")
    }

    @Test func gmtAndPacificStringsAgreeWithFoundationAcrossYears() {
        let parser = AppleDateParser()
        var generator = SeededGenerator(seed: 3)
        for _ in 0..<2000 {
            let instant = generator.nextInt64(in: 0...2_208_988_800_000)  // 1970–2040
            #expect(gmt(instant) == "\"" + parser.gmt(instant) + "\"")
            #expect(pacific(instant) == "\"" + parser.pacific(instant) + "\"")
        }
    }

    @Test func monthlyRenewalClampsToShorterMonths() throws {
        let january31 = try utc("2014-01-31T12:00:00")
        #expect(AppleTime.adding(months: 1, to: january31) == (try utc("2014-02-28T12:00:00")))
        #expect(AppleTime.adding(months: 12, to: try utc("2016-02-29T00:00:00")) == (try utc("2017-02-28T00:00:00")))
    }

    @Test func calendarDayParsesOnlyRealDays() {
        #expect(CalendarDay("2014-03-01")?.description == "2014-03-01")
        #expect(CalendarDay("2014-13-01") == nil)
        #expect(CalendarDay("2014-02-29") == nil)
        #expect(CalendarDay("2016-02-29") != nil)
        #expect(CalendarDay("14-03-01") == nil)
        #expect(CalendarDay.defaultStart.adding(days: 31).description == "2014-04-01")
    }
}
