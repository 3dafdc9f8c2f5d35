extension ReportParameter.Kind {
    /// What a value of this kind looks like, for error messages.
    var expectation: String {
        switch self {
        case .text: "text without NUL characters"
        case .date: "a date as YYYY-MM-DD, e.g. 2014-03-02"
        case .timestamptz: "a timestamp as YYYY-MM-DD[THH:MM[:SS]][Z|+HH:MM], e.g. 2014-03-02T10:11:12Z"
        case .integer: "a whole number from -2147483648 to 2147483647, e.g. 30"
        case .numeric: "a number, e.g. 12.50 or -3"
        case .boolean: "true or false"
        case .days: "a number of days from 0 to \(ReportParameter.maximumDays), e.g. 30 (0 is all history)"
        case .month: "a month as YYYY-MM, e.g. 2025-03"
        case .accountKey:
            "an account key as 'iap-audit hash-username NAME' prints it (71 characters: 8 groups of 8 hex digits "
                + "joined by '-'), not the name itself"
        }
    }

    /// A stand-in for the value in usage hints: `--param since=<YYYY-MM-DD>`.
    var placeholder: String {
        switch self {
        case .text: "<text>"
        case .date: "<YYYY-MM-DD>"
        case .timestamptz: "<YYYY-MM-DDTHH:MM:SSZ>"
        case .integer: "<integer>"
        case .numeric: "<number>"
        case .boolean: "<true|false>"
        case .days: "<days>"
        case .month: "<YYYY-MM>"
        case .accountKey: "<key from hash-username>"
        }
    }

    /// The text to bind for `value`, or nil when it is not of this kind.
    ///
    /// Checking here rather than leaving it to PostgreSQL gives the user a message naming the parameter and the
    /// expected form instead of a cast error about `$2`.
    func normalize(_ value: String) -> String? {
        switch self {
        case .text:
            // libpq passes parameters as C strings: a NUL would silently cut the value short.
            return value.utf8.contains(0) ? nil : value
        case .date:
            return Self.isDate(Array(value.utf8)) ? value : nil
        case .timestamptz:
            return Self.isTimestamp(Array(value.utf8)) ? value : nil
        case .integer:
            // The query binds it as `integer`: a value past 32 bits is the user's mistake, told before the query.
            return Int32(value).map { String($0) }
        case .days:
            guard let days = Int(value), (0...ReportParameter.maximumDays).contains(days) else { return nil }
            return String(days)
        case .accountKey:
            return Self.accountKey(Array(value.utf8))
        case .month:
            return Self.isMonth(Array(value.utf8)) ? value : nil
        case .numeric:
            return Self.isDecimalNumber(Array(value.utf8)) ? value : nil
        case .boolean:
            switch value.lowercased() {
            case "true": return "true"
            case "false": return "false"
            default: return nil
            }
        }
    }

    /// The key in lowercase when `bytes` are 64 hex digits with a `-` after every 8 (hash-username's form), else nil.
    private static func accountKey(_ bytes: [UInt8]) -> String? {
        guard bytes.count == 71 else { return nil }
        var key: [UInt8] = []
        for (index, byte) in bytes.enumerated() {
            if index % 9 == 8 {
                guard byte == UInt8(ascii: "-") else { return nil }
                key.append(byte)
                continue
            }
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"): key.append(byte)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): key.append(byte + 0x20)
            default: return nil
            }
        }
        return String(decoding: key, as: UTF8.self)
    }

    /// Reads `count` ASCII digits at `start` as a number.
    private static func digits(_ bytes: [UInt8], _ start: Int, _ count: Int) -> Int? {
        guard start >= 0, start + count <= bytes.count else { return nil }
        var result = 0
        for byte in bytes[start..<(start + count)] {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            result = result * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return result
    }

    /// YYYY-MM: a year from 1 and a month from 01 to 12.
    private static func isMonth(_ bytes: [UInt8]) -> Bool {
        guard bytes.count == 7, bytes[4] == UInt8(ascii: "-"), let year = digits(bytes, 0, 4),
            let month = digits(bytes, 5, 2)
        else { return false }
        return year >= 1 && (1...12).contains(month)
    }

    /// YYYY-MM-DD naming a day that exists (leap years included).
    private static func isDate(_ bytes: [UInt8]) -> Bool {
        bytes.count == 10 && isDatePrefix(bytes)
    }

    private static func isDatePrefix(_ bytes: [UInt8]) -> Bool {
        guard bytes.count >= 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
            let year = digits(bytes, 0, 4), let month = digits(bytes, 5, 2), let day = digits(bytes, 8, 2),
            year >= 1, (1...12).contains(month)
        else { return false }
        let isLeap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let lengths = [31, isLeap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        return (1...lengths[month - 1]).contains(day)
    }

    /// An ISO 8601 date, optionally with a time (`T` or space), seconds, fraction and zone (`Z`, `±HH`, `±HH:MM`).
    private static func isTimestamp(_ bytes: [UInt8]) -> Bool {
        guard isDatePrefix(bytes) else { return false }
        if bytes.count == 10 { return true }
        let separator = bytes[10]
        guard separator == UInt8(ascii: "T") || separator == UInt8(ascii: "t") || separator == UInt8(ascii: " "),
            let hour = digits(bytes, 11, 2), hour <= 23, bytes.count > 13, bytes[13] == UInt8(ascii: ":"),
            let minute = digits(bytes, 14, 2), minute <= 59
        else { return false }
        var index = 16
        if index < bytes.count, bytes[index] == UInt8(ascii: ":") {
            // 60 is a leap second, which PostgreSQL accepts.
            guard let second = digits(bytes, index + 1, 2), second <= 60 else { return false }
            index += 3
            if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
                index += 1
                let start = index
                while index < bytes.count, digits(bytes, index, 1) != nil { index += 1 }
                guard index > start else { return false }
            }
        }
        guard index < bytes.count else { return true }
        switch bytes[index] {
        case UInt8(ascii: "Z"), UInt8(ascii: "z"):
            return index + 1 == bytes.count
        case UInt8(ascii: "+"), UInt8(ascii: "-"):
            guard let zoneHour = digits(bytes, index + 1, 2), zoneHour <= 15 else { return false }
            let rest = bytes.count - (index + 3)
            switch rest {
            case 0: return true
            case 2: return digits(bytes, index + 3, 2).map { $0 <= 59 } ?? false
            case 3:
                return bytes[index + 3] == UInt8(ascii: ":") && (digits(bytes, index + 4, 2).map { $0 <= 59 } ?? false)
            default: return false
            }
        default:
            return false
        }
    }

    /// `[+-]digits[.digits][e[+-]digits]`, or with the integer part left out (`.5`), as PostgreSQL's numeric reads.
    private static func isDecimalNumber(_ bytes: [UInt8]) -> Bool {
        var index = 0
        func isDigit(_ i: Int) -> Bool { i < bytes.count && bytes[i] >= 48 && bytes[i] <= 57 }
        if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
        var mantissaDigits = 0
        while isDigit(index) { index += 1; mantissaDigits += 1 }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            while isDigit(index) { index += 1; mantissaDigits += 1 }
        }
        guard mantissaDigits > 0 else { return false }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                index += 1
            }
            guard isDigit(index) else { return false }
            while isDigit(index) { index += 1 }
        }
        return index == bytes.count
    }
}
