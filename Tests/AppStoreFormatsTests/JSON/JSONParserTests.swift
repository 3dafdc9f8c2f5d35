import Testing

@testable import AppStoreFormats

struct JSONParserTests {
    @Test func keepsNumbersAsExactText() throws {
        let value = try JSONParser.parse(Array(#"{"id": 1000000104232856123, "x": -1.5e3}"#.utf8))
        #expect(value.object?["id"] == .number("1000000104232856123"))
        #expect(value.object?["x"] == .number("-1.5e3"))
    }

    @Test func decodesEscapesIncludingSurrogatePairsAndEscapedSlashes() throws {
        let value = try JSONParser.parse(Array(#"["Etc\/GMT", "\u00e9\ud83d\ude00", "a\"b\\c\n"]"#.utf8))
        #expect(value == .array([.string("Etc/GMT"), .string("é😀"), .string("a\"b\\c\n")]))
    }

    @Test func recordsMemberRanges() throws {
        let text = #"{ "a": 1, "user": "bob" }"#
        let object = try #require(try JSONParser.parse(Array(text.utf8)).object)
        let range = try #require(object.members.last?.range)
        #expect(String(decoding: Array(text.utf8)[range], as: UTF8.self) == #""user": "bob""#)
    }

    @Test(arguments: [
        (#"{"a":1"#, "ends unexpectedly"),
        (#"{"a":01}"#, "unexpected character"),
        (#"{"a":1}x"#, "after the JSON value"),
        (#"{"a":"\x"}"#, "invalid escape"),
        (#"{"a":"\ud800"}"#, "invalid escape"),
        ("{\"a\":\"\u{01}\"}", "control character"),
        ("[tru]", "unexpected character"),
        ("", "ends unexpectedly"),
    ])
    func rejectsMalformedJSON(input: String, message: String) {
        #expect {
            try JSONParser.parse(Array(input.utf8))
        } throws: { error in
            "\(error)".contains(message)
        }
    }

    @Test func rejectsInvalidUTF8InStrings() {
        let bytes: [UInt8] = Array(#"{"a":""#.utf8) + [0xC3, 0x28] + Array(#""}"#.utf8)
        do {
            _ = try JSONParser.parse(bytes)
            Issue.record("invalid UTF-8 was accepted")
        } catch {
            #expect(error.reason == .invalidUTF8)
        }
    }

    @Test func rejectsNestingDeeperThanTheLimitWithoutCrashing() {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        do {
            _ = try JSONParser.parse(Array(deep.utf8))
            Issue.record("deep nesting was accepted")
        } catch {
            #expect(error.reason == .tooDeep(limit: JSONParser.maximumDepth))
        }
    }

    @Test func keepsDuplicateKeysAndLooksUpTheFirst() throws {
        let object = try #require(try JSONParser.parse(Array(#"{"a":1,"a":2}"#.utf8)).object)
        #expect(object.members.count == 2)
        #expect(object["a"] == .number("1"))
    }

    /// Long strings are scanned eight bytes at a time: a byte that matters must be seen wherever it falls in a word,
    /// in a plain string and after an escape alike.
    @Test(arguments: [false, true])
    func judgesEveryByteOfALongStringWhereverItFalls(afterAnEscape: Bool) throws {
        let lead: [UInt8] = afterAnEscape ? Array(#"x\/"#.utf8) : []
        let leadText = afterAnEscape ? "x/" : ""
        for offset in 0..<24 {
            let before = [UInt8](repeating: UInt8(ascii: "A"), count: offset)
            let after = [UInt8](repeating: UInt8(ascii: "B"), count: 24)
            func parsed(_ middle: [UInt8]) throws(JSONParseError) -> JSONValue {
                try JSONParser.parse([UInt8(ascii: "\"")] + lead + before + middle + after + [UInt8(ascii: "\"")])
            }
            let plain = leadText + String(repeating: "A", count: offset)
            #expect(try parsed(Array(#"\/"#.utf8)) == .string(plain + "/" + String(repeating: "B", count: 24)))
            #expect(try parsed(Array("é".utf8)) == .string(plain + "é" + String(repeating: "B", count: 24)))
            #expect(throws: JSONParseError.self, "a control byte at \(offset)") { try parsed([0x01]) }
            #expect(throws: JSONParseError.self, "invalid UTF-8 at \(offset)") { try parsed([0xFF]) }
            // A quote ends the string where it is: what follows is trailing data.
            #expect(throws: JSONParseError.self, "a quote at \(offset)") { try parsed([UInt8(ascii: "\"")]) }
            let ended = try JSONParser.parse([UInt8(ascii: "\"")] + lead + before + [UInt8(ascii: "\"")])
            #expect(ended == .string(plain))
        }
    }
}
