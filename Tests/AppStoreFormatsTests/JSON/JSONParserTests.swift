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

    /// A string with an escape and only ASCII bytes is decoded into its own storage, sized by where its quote stands:
    /// every escape, at every offset, must decode as before, and one that is refused must be refused as before.
    @Test func decodesEveryEscapeInPlaceWhereverItFalls() throws {
        let escapes: [(written: String, decoded: String)] = [
            (#"\/"#, "/"), (#"\""#, "\""), (#"\\"#, "\\"), (#"\n"#, "\n"), (#"\t"#, "\t"), (#"\b"#, "\u{08}"),
            (#"\f"#, "\u{0C}"), (#"\r"#, "\r"), (#"\u0041"#, "A"), (#"\u00e9"#, "é"), (#"\ud83d\ude00"#, "😀"),
        ]
        for (written, decoded) in escapes {
            for offset in 0..<20 {
                let before = String(repeating: "a", count: offset)
                let after = String(repeating: "b", count: 19 - offset)
                let text = "\"" + before + written + after + written + "\""
                #expect(
                    try JSONParser.parse(Array(text.utf8)) == .string(before + decoded + after + decoded), "\(text)")
            }
        }
        for (text, reason, offset) in [
            (#""abc\x""#, JSONParseError.Reason.invalidEscape, 4), (#""\u12"4""#, .invalidEscape, 5),
            (#""a\/\ud800x""#, .invalidEscape, 4), ("\"a\\/\u{01}\"", .controlCharacterInString, 4),
            (#""a\u0000b""#, .nulCharacter, 2), (#""a\/bc"#, .unexpectedEnd, 6), (#""a\"#, .unexpectedEnd, 3),
        ] {
            do {
                _ = try JSONParser.parse(Array(text.utf8))
                Issue.record("\(text) was accepted")
            } catch {
                #expect(error.reason == reason, "\(text)")
                #expect(error.offset == offset, "\(text)")
            }
        }
        // Non-ASCII after an escape: validated as UTF-8, as before.
        #expect(try JSONParser.parse(Array(#""\/é""#.utf8)) == .string("/é"))
        #expect(throws: JSONParseError.self) { try JSONParser.parse(Array(#""\/"#.utf8) + [0xC3, 0x28, 0x22]) }
    }

    /// A key table changes which string object a key is, never its value: the tree is the one parsed without it,
    /// whether the key is listed, spelled with an escape, not listed, or not ASCII.
    @Test func aKeyTableGivesTheSameTree() throws {
        let table = JSONKeyTable(["original_transaction_id", "purchase_date_pst", "short", "ünïcödé_key_that_is_long"])
        let text = #"""
            {"original_transaction_id": "1", "purchase_date_pst": {"original_transaction_id": 2},
             "original_transaction\u005fid": 3, "not_a_listed_key_at_all": 4, "short": 5,
             "ünïcödé_key_that_is_long": 6, "purchase_date_psT": 7}
            """#
        let withTable = try JSONParser.parse(Array(text.utf8), keys: table)
        #expect(withTable == (try JSONParser.parse(Array(text.utf8))))
        let object = try #require(withTable.object)
        #expect(
            object.members.map(\.key) == [
                "original_transaction_id", "purchase_date_pst", "original_transaction_id", "not_a_listed_key_at_all",
                "short", "ünïcödé_key_that_is_long", "purchase_date_psT",
            ])
        #expect(object["purchase_date_psT"] == .number("7"))
    }

    /// Lookups pass over members by a tag of each key (its length and last eight bytes): keys that share it must
    /// still be told apart, short keys and the empty one found, and a key changed after parsing found by its new name.
    @Test func findsMembersWhoseKeysShareATag() throws {
        let text = #"{"aaaaaaaa_purchase_date": 1, "bbbbbbbb_purchase_date": 2, "": 3, "a": 4, "ab": 5, "a\/b": 6}"#
        var object = try #require(try JSONParser.parse(Array(text.utf8)).object)
        #expect(object["aaaaaaaa_purchase_date"] == .number("1"))
        #expect(object["bbbbbbbb_purchase_date"] == .number("2"))
        #expect(object["cccccccc_purchase_date"] == nil)
        #expect(object[""] == .number("3"))
        #expect(object["a"] == .number("4"))
        #expect(object["ab"] == .number("5"))
        #expect(object["a/b"] == .number("6"))
        #expect(object.contains("a/b") && !object.contains("b"))
        object.members[0].key = "renamed"
        #expect(object["renamed"] == .number("1"))
        #expect(object["aaaaaaaa_purchase_date"] == nil)
    }
}
