import Foundation
import Testing

@testable import IAPAudit

/// One event is one line: names and values that hold control characters, quotes or spaces cannot forge a log line
/// or send escape sequences to the terminal.
struct LogLineTests {
    static func plain(_ message: String, _ metadata: [String: String] = [:]) -> String {
        LogLine.plain(time: "T", level: "info", message: message, metadata: metadata)
    }

    @Test func plainLinesKeepOrdinaryValuesAsTheyWere() {
        #expect(
            Self.plain("ingested receipts", ["file": "/spool/a.jsonl", "records": "12", "note": "two words"])
                == #"T info ingested receipts file=/spool/a.jsonl note="two words" records=12"#)
        #expect(Self.plain("x", ["empty": ""]) == "T info x empty=")
    }

    @Test func aNewlineInAFileNameCannotForgeALine() {
        let line = Self.plain("ingested receipts", ["file": "/spool/evil\n2026-01-01T00:00:00Z error forged"])
        #expect(!line.contains("\n"))
        #expect(line == #"T info ingested receipts file="/spool/evil\n2026-01-01T00:00:00Z error forged""#)
    }

    @Test func controlCharactersAreVisiblyEscapedInMessagesAndValues() {
        let line = Self.plain("a\u{1B}[31mred\r\u{7F}\u{85}\u{0}\t", ["v": "\u{1B}]0;title\u{07}", "k": "\u{9B}2J"])
        #expect(line == #"T info a\u{1B}[31mred\r\u{7F}\u{85}\u{00}\t k="\u{9B}2J" v="\u{1B}]0;title\u{07}""#)
        #expect(!line.unicodeScalars.contains { LogLine.isControl($0) })
    }

    @Test func everyControlCharacterIsEscapedInPlainLines() {
        let controls = (0..<0x20).map { Unicode.Scalar(UInt8($0)) } + (0x7F...0x9F).map { Unicode.Scalar(UInt8($0)) }
        let text = String(String.UnicodeScalarView(controls)) + "\u{2028}\u{2029}"
        let line = Self.plain(text, ["value": text])
        #expect(!line.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) })
        #expect(!line.contains("\u{2028}") && !line.contains("\u{2029}"))
    }

    @Test func valuesWithQuotesEqualsOrBackslashesAreQuotedAndEscaped() {
        #expect(Self.plain("m", ["v": #"a"b"#]) == #"T info m v="a\"b""#)
        #expect(Self.plain("m", ["v": "x=y"]) == #"T info m v="x=y""#)
        #expect(Self.plain("m", ["v": #"c:\n"#]) == #"T info m v="c:\\n""#)
        // A value cannot end its quotes early and append a forged key.
        #expect(Self.plain("m", ["v": #"" level=error"#]) == #"T info m v="\" level=error""#)
    }

    @Test func jsonLinesEscapeEveryControlAndParse() throws {
        let controls = (0..<0x20).map { Unicode.Scalar(UInt8($0)) } + (0x7F...0x9F).map { Unicode.Scalar(UInt8($0)) }
        let text = String(String.UnicodeScalarView(controls)) + "\u{2028}\"\\/é"
        let line = LogLine.json(["message": .string(text), "exit_code": .integer(78)])
        #expect(!line.unicodeScalars.contains { LogLine.isControl($0) })
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(object["message"] as? String == text)
        #expect(object["exit_code"] as? Int == 78)
        #expect(line.hasPrefix(#"{"exit_code":78,"message":""#))
    }

    @Test func thePlainFailureLineStaysAsItWas() {
        // No bootstrap and no preference in this process: plain.
        #expect(LogSetup.failureLine("configuration: bad", exitCode: 78) == "iap-audit: configuration: bad")
    }
}
