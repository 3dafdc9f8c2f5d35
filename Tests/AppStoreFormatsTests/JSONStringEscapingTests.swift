import AppStoreFormats
import Foundation
import Testing

struct JSONStringEscapingTests {
    @Test func escapesQuotesBackslashesAndControlsAndKeepsTheRest() throws {
        var json: [UInt8] = []
        JSONStringEscaping.appendQuoted("a\"b\\c\nd\te\rf\u{01}g\u{1F}é/", to: &json)
        let text = String(decoding: json, as: UTF8.self)
        #expect(text == "\"a\\\"b\\\\c\\nd\\te\\rf\\u0001g\\u001fé/\"")
        // What Foundation's parser reads back is the text written.
        #expect(
            try JSONSerialization.jsonObject(with: Data(json), options: .fragmentsAllowed) as? String
                == "a\"b\\c\nd\te\rf\u{01}g\u{1F}é/")
    }

    @Test func escapesSlashesOnlyWhenAsked() {
        var json: [UInt8] = []
        Array("Etc/GMT".utf8).withUnsafeBufferPointer {
            JSONStringEscaping.append($0, to: &json, escapingSlashes: true)
        }
        #expect(String(decoding: json, as: UTF8.self) == "Etc\\/GMT")
    }
}
