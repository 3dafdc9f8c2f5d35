internal import Foundation

/// Parses the date spellings found in receipts: Apple's `YYYY-MM-DD HH:MM:SS Etc/GMT`, its `_pst` twin, epoch
/// milliseconds, and RFC 3339 (what our recorder writes in `recorded_at`).
package enum DateText {
    /// Epoch milliseconds written as decimal digits (optionally signed, surrounding spaces tolerated), within the
    /// instants the database stores (`Timestamp.storable`): the range is checked here, in the one pass every date
    /// takes, so no later step (a `timestamptz` rendered in microseconds) can overflow or be refused.
    package static func milliseconds(_ text: some StringProtocol) -> Timestamp? {
        unboundedMilliseconds(text).flatMap(Timestamp.storable)
    }

    /// Whether `text` is a date in one of the forms read here, only outside the instants the database stores: the
    /// message a record gets then says so rather than "not a date" (called only on that error path).
    package static func isOutsideStorableRange(_ text: String) -> Bool {
        if let instant = unboundedMilliseconds(text) ?? unboundedEpochMilliseconds(text) {
            return Timestamp.storable(instant) == nil
        }
        // The text forms name years 1–9999 only; a zone's offset can carry one just past either end.
        let candidates = [unboundedAppleDate(text), unboundedRFC3339(text)].compactMap { $0 }
        return !candidates.isEmpty && candidates.allSatisfy { Timestamp.storable($0) == nil }
    }

    /// The words every out-of-range message uses.
    package static let storableRangeNote = "outside the dates the database stores (years 1 to 9999 UTC)"

    private static func unboundedMilliseconds(_ text: some StringProtocol) -> Timestamp? {
        // Over the bytes in place when they are contiguous (every parsed string): a walk of the UTF-8 view, a byte
        // at a time through its index, cost several times more, for the two or three `_ms` forms of every date.
        if let instant = text.utf8.withContiguousStorageIfAvailable({ unboundedMilliseconds(utf8: $0) }) {
            return instant
        }
        return unboundedMilliseconds(utf8: text.utf8)
    }

    private static func unboundedMilliseconds(utf8 text: some Sequence<UInt8>) -> Timestamp? {
        var value: Int64 = 0
        var digits = 0
        var isNegative = false
        var sawEnd = false
        for byte in text {
            switch byte {
            case 0x30...0x39:
                guard !sawEnd, digits < 16 else { return nil }
                value = value * 10 + Int64(byte - 0x30)
                digits += 1
            case UInt8(ascii: "-") where digits == 0 && !isNegative && !sawEnd:
                isNegative = true
            case UInt8(ascii: " "), UInt8(ascii: "\t"):
                if digits > 0 { sawEnd = true }
            default:
                return nil
            }
        }
        guard digits > 0 else { return nil }
        return Timestamp(millisecondsSince1970: isNegative ? -value : value)
    }

    /// Epoch milliseconds as signed payloads write them: digits, optionally with a fraction (Xcode's
    /// `1697679936056.485`), which is cut to the millisecond below — floor, as for every other instant.
    package static func epochMilliseconds(_ text: String) -> Timestamp? {
        unboundedEpochMilliseconds(text).flatMap(Timestamp.storable)
    }

    /// Read over the UTF-8 bytes: every date of every signed payload comes here, and splitting the text into
    /// Substrings (and searching one for a space through Foundation) cost 2% of a signed ingest's CPU.
    private static func unboundedEpochMilliseconds(_ text: String) -> Timestamp? {
        withUTF8(text) { bytes -> Timestamp? in
            let dot = bytes.firstIndex(of: UInt8(ascii: "."))
            let whole = UnsafeBufferPointer(rebasing: bytes[..<(dot ?? bytes.endIndex)])
            // Spaces may surround milliseconds alone, not the whole part of a fraction.
            guard let milliseconds = unboundedMilliseconds(utf8: whole), !whole.contains(UInt8(ascii: " ")) else {
                return nil
            }
            var hasFraction = false
            if let dot {
                let fraction = bytes[(dot + 1)...]
                guard !fraction.isEmpty, fraction.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
                hasFraction = fraction.contains { $0 != UInt8(ascii: "0") }
            }
            let isNegative = whole.first == UInt8(ascii: "-")
            return Timestamp(
                millisecondsSince1970: milliseconds.millisecondsSince1970 - (hasFraction && isNegative ? 1 : 0))
        }
    }

    /// Apple's `YYYY-MM-DD HH:MM:SS <zone>` form; zone `Etc/GMT`, `GMT`, `UTC`, `Etc/UTC` or `America/Los_Angeles`.
    package static func appleDate(_ text: String) -> Timestamp? {
        unboundedAppleDate(text).flatMap(Timestamp.storable)
    }

    private static func unboundedAppleDate(_ text: String) -> Timestamp? {
        withUTF8(text) { bytes -> Timestamp? in
            guard let (wallClock, zone) = appleWallClock(bytes) else { return nil }
            if isUTC(zone) { return wallClock }
            // Apple writes only Pacific time here; looking a zone up by name is slow, so that one is kept.
            let name = String(decoding: zone, as: UTF8.self)
            let timeZone = name == "America/Los_Angeles" ? pacific : TimeZone(identifier: name)
            guard name.contains("/"), let timeZone else { return nil }
            return localToUTC(wallClock, in: timeZone)
        }
    }

    /// Where an Apple date lies, told without looking its zone up.
    package enum AppleDateExtent: Equatable, Sendable {
        /// Not an Apple date.
        case notADate
        /// In a zone other than UTC and Pacific time: only converting it places it.
        case elsewhere
        /// Within these instants: the instant itself for a UTC zone, the hour it lies in for `America/Los_Angeles`,
        /// whose offset has been 7 or 8 hours since 1967.
        case within(ClosedRange<Timestamp>)
    }

    /// Where `text` lies, if it is an Apple date. Comparing a `_pst` twin with the kept date needs no more when they
    /// agree; Foundation's zone conversion costs microseconds, which a million transactions notice.
    package static func appleDateExtent(_ text: String) -> AppleDateExtent {
        withUTF8(text) { bytes -> AppleDateExtent in
            guard let (wallClock, zone) = appleWallClock(bytes) else { return .notADate }
            if isUTC(zone) { return .within(wallClock...wallClock) }
            if zone.count == pacificZoneName.count && zone.elementsEqual(pacificZoneName) {
                let hour: Int64 = 3_600_000
                let earliest = Timestamp(millisecondsSince1970: wallClock.millisecondsSince1970 + 7 * hour)
                let latest = Timestamp(millisecondsSince1970: wallClock.millisecondsSince1970 + 8 * hour)
                return .within(earliest...latest)
            }
            // Zone names are ASCII (IANA): checked by bytes, no Unicode tables on the hot path.
            let isZoneName = zone.allSatisfy { byte in
                let letter = byte | 0x20
                return (letter >= UInt8(ascii: "a") && letter <= UInt8(ascii: "z")) || byte == UInt8(ascii: "/")
                    || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
            }
            return isZoneName ? .elsewhere : .notADate
        }
    }

    /// Whether `text` is a possible Apple date, without converting its zone (for forms that are only checked).
    package static func isAppleDate(_ text: String) -> Bool {
        appleDateExtent(text) != .notADate
    }

    /// The zone names Apple writes for UTC (none at all, too), as bytes: matched without String comparison.
    private static let utcZoneNames = ["Etc/GMT", "GMT", "UTC", "Etc/UTC", "Z"].map { Array($0.utf8) }
    private static let pacificZoneName = Array("America/Los_Angeles".utf8)
    private static let pacific = TimeZone(identifier: "America/Los_Angeles")

    private static func isUTC(_ zone: Slice<UnsafeBufferPointer<UInt8>>) -> Bool {
        zone.isEmpty || utcZoneNames.contains { $0.count == zone.count && zone.elementsEqual($0) }
    }

    /// The date and time fields read as if UTC, and the bytes of the zone name that followed them.
    private static func appleWallClock(
        _ bytes: UnsafeBufferPointer<UInt8>
    ) -> (Timestamp, Slice<UnsafeBufferPointer<UInt8>>)? {
        guard bytes.count >= 19, let fields = civilFields(bytes, dateTimeSeparator: UInt8(ascii: " ")) else {
            return nil
        }
        var rest = bytes[19...]
        var millisecond = 0
        if rest.first == UInt8(ascii: ".") {
            let digits = rest.dropFirst().prefix { $0 >= 0x30 && $0 <= 0x39 }
            guard !digits.isEmpty else { return nil }
            for digit in digits.prefix(3) { millisecond = millisecond * 10 + Int(digit - 0x30) }
            for _ in digits.prefix(3).count..<3 { millisecond *= 10 }
            rest = rest.dropFirst(1 + digits.count)
        }
        while rest.first == UInt8(ascii: " ") { rest = rest.dropFirst() }
        while rest.last == UInt8(ascii: " ") { rest = rest.dropLast() }
        guard
            let wallClock = Timestamp(
                year: fields.year, month: fields.month, day: fields.day, hour: fields.hour, minute: fields.minute,
                second: fields.second, millisecond: millisecond)
        else { return nil }
        return (wallClock, rest)
    }

    /// Runs `body` over the UTF-8 bytes of `text`, in place when the string is native (every parsed one is).
    private static func withUTF8<Result>(_ text: String, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        if let result = text.utf8.withContiguousStorageIfAvailable(body) { return result }
        return Array(text.utf8).withUnsafeBufferPointer(body)
    }

    /// RFC 3339 / ISO 8601 with a `T` or space, optional fraction, and `Z` or a numeric offset.
    package static func rfc3339(_ text: String) -> Timestamp? {
        unboundedRFC3339(text).flatMap(Timestamp.storable)
    }

    private static func unboundedRFC3339(_ text: String) -> Timestamp? {
        withUTF8(text) { rfc3339(bytes: $0) }
    }

    private static func rfc3339(bytes: UnsafeBufferPointer<UInt8>) -> Timestamp? {
        guard bytes.count >= 19 else { return nil }
        let separator = bytes[10]
        guard separator == UInt8(ascii: "T") || separator == UInt8(ascii: "t") || separator == UInt8(ascii: " "),
            let fields = civilFields(bytes, dateTimeSeparator: separator)
        else { return nil }
        var index = 19
        var millisecond = 0
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            let start = index
            while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 { index += 1 }
            guard index > start else { return nil }
            let digits = bytes[start..<min(index, start + 3)]
            for digit in digits { millisecond = millisecond * 10 + Int(digit - 0x30) }
            for _ in digits.count..<3 { millisecond *= 10 }
        }
        guard index < bytes.count else { return nil }  // RFC 3339 requires a zone
        var offsetSeconds = 0
        switch bytes[index] {
        case UInt8(ascii: "Z"), UInt8(ascii: "z"):
            index += 1
        case UInt8(ascii: "+"), UInt8(ascii: "-"):
            let sign = bytes[index] == UInt8(ascii: "-") ? -1 : 1
            guard bytes.count == index + 6, bytes[index + 3] == UInt8(ascii: ":"),
                let hours = twoDigits(bytes, index + 1), let minutes = twoDigits(bytes, index + 4), hours < 24,
                minutes < 60
            else { return nil }
            offsetSeconds = sign * (hours * 3600 + minutes * 60)
            index += 6
        default:
            return nil
        }
        guard index == bytes.count,
            let local = Timestamp(
                year: fields.year, month: fields.month, day: fields.day, hour: fields.hour, minute: fields.minute,
                second: fields.second, millisecond: millisecond)
        else { return nil }
        return Timestamp(millisecondsSince1970: local.millisecondsSince1970 - Int64(offsetSeconds) * 1000)
    }

    /// Reads `YYYY-MM-DD?HH:MM:SS` from the first 19 bytes; nil if malformed or impossible.
    static func civilFields(
        _ bytes: UnsafeBufferPointer<UInt8>, dateTimeSeparator: UInt8
    )
        -> (year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int)?
    {
        guard bytes.count >= 19, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
            bytes[10] == dateTimeSeparator, bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"),
            let century = twoDigits(bytes, 0), let yearInCentury = twoDigits(bytes, 2),
            let month = twoDigits(bytes, 5), let day = twoDigits(bytes, 8), let hour = twoDigits(bytes, 11),
            let minute = twoDigits(bytes, 14), let second = twoDigits(bytes, 17)
        else { return nil }
        let year = century * 100 + yearInCentury
        guard Timestamp(year: year, month: month, day: day, hour: hour, minute: minute, second: second) != nil else {
            return nil
        }
        return (year, month, day, hour, minute, second)
    }

    private static func twoDigits(_ bytes: UnsafeBufferPointer<UInt8>, _ index: Int) -> Int? {
        guard index + 1 < bytes.count else { return nil }
        let high = Int(bytes[index]) - 0x30
        let low = Int(bytes[index + 1]) - 0x30
        guard (0...9).contains(high), (0...9).contains(low) else { return nil }
        return high * 10 + low
    }

    /// Converts a wall-clock time in `timeZone` (given as if it were UTC) to the real UTC instant.
    private static func localToUTC(_ wallClock: Timestamp, in timeZone: TimeZone) -> Timestamp {
        let wallSeconds = Double(wallClock.millisecondsSince1970) / 1000
        // The offset at the guessed instant, then once more at the corrected one (DST edges).
        var offset = timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: wallSeconds))
        offset = timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: wallSeconds - Double(offset)))
        // A wall-clock time the spring-forward gap skips (02:30 on a DST start) lands before the change with the
        // offset after it; read it with the offset before, as the IANA rules and PostgreSQL do (02:30 PST = 10:30Z).
        let before = timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: wallSeconds - Double(offset)))
        if before != offset { offset = before }
        return Timestamp(millisecondsSince1970: wallClock.millisecondsSince1970 - Int64(offset) * 1000)
    }
}
