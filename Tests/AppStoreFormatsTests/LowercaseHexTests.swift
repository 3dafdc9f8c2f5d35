import AppStoreFormats
import Testing

struct LowercaseHexTests {
    @Test func writesTwoLowercaseDigitsAByte() {
        #expect(LowercaseHex.string([0x00, 0x0F, 0xA0, 0xFF, 0x5C]) == "000fa0ff5c")
        #expect(LowercaseHex.string([]) == "")
        var text = Array("\\u00".utf8)
        LowercaseHex.append(0x1F, to: &text)
        #expect(String(decoding: text, as: UTF8.self) == "\\u001f")
    }
}
