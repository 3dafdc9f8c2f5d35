import Testing

@testable import AppStoreFormats

/// `Timestamp`'s PostgreSQL text, written on the stack for COPY: every field at its width, the fraction only when
/// there is one, instants before 1970 and at both ends of the storable years.
struct TimestampTextTests {
    @Test(arguments: [
        (Int64(0), "1970-01-01 00:00:00+00"),
        (1_393_718_386_000, "2014-03-01 23:59:46+00"),
        (1_393_718_405_524, "2014-03-02 00:00:05.524+00"),
        (5, "1970-01-01 00:00:00.005+00"),
        (-1, "1969-12-31 23:59:59.999+00"),
        (-62_135_596_800_000, "0001-01-01 00:00:00+00"),
        (253_402_300_799_999, "9999-12-31 23:59:59.999+00"),
    ])
    func writesPostgresText(milliseconds: Int64, text: String) {
        let instant = Timestamp(millisecondsSince1970: milliseconds)
        #expect(instant.withPostgresBytes { String(decoding: $0, as: UTF8.self) } == text)
        #expect(instant.postgresBytes == Array(text.utf8))
        #expect(instant.postgresText == text)
    }
}
