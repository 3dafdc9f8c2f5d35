import Foundation
import Testing

@testable import SyntheticData

struct JSONByteWriterTests {
    @Test func escapesStringsSoJSONSerializationReadsThemBack() throws {
        let samples = ["plain", "quote\"d", "back\\slash", "tab\tnew\nline\r", "\u{01}\u{1F}", "zoë 名前 🎉", "a/b"]
        for escapesSlashes in [false, true] {
            var writer = JSONByteWriter()
            writer.escapesSlashes = escapesSlashes
            writer.beginArray()
            for sample in samples {
                writer.element()
                writer.string(sample)
            }
            writer.endArray()
            let decoded = try JSONSerialization.jsonObject(with: Data(writer.bytes)) as? [String]
            #expect(decoded == samples)
            #expect(String(decoding: writer.bytes, as: UTF8.self).contains("a\\/b") == escapesSlashes)
        }
    }

    @Test func writesIntegersAtTheirLimits() throws {
        var writer = JSONByteWriter()
        writer.beginArray()
        for value: Int64 in [0, 9, 10, 99, 100, 1_000_000_100_028_725, Int64.max, Int64.min] {
            writer.element()
            writer.number(value)
        }
        writer.element()
        writer.number(UInt64.max)
        writer.endArray()
        #expect(
            String(decoding: writer.bytes, as: UTF8.self)
                == "[0,9,10,99,100,1000000100028725,9223372036854775807,-9223372036854775808,18446744073709551615]")
    }

    @Test func placesCommasWithoutAStack() throws {
        var writer = JSONByteWriter()
        writer.beginObject()
        writer.key("a")
        writer.beginArray()
        writer.element()
        writer.beginObject()
        writer.endObject()
        writer.element()
        writer.beginArray()
        writer.endArray()
        writer.endArray()
        writer.key("b")
        writer.string("c")
        writer.endObject()
        #expect(String(decoding: writer.bytes, as: UTF8.self) == "{\"a\":[{},[]],\"b\":\"c\"}")
    }
}
