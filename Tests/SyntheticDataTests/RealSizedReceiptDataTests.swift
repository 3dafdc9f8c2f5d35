import Foundation
import Testing

@testable import SyntheticData

/// `receiptDataLength` makes receipt blobs real-sized (bench/ingest's big-record shape): about that many base64
/// characters, most of them the same in every receipt, as a receipt's certificate chain is.
struct RealSizedReceiptDataTests {
    /// Every good record's `receipt_data`, escaped slashes undone.
    func receiptData(in directory: borrowing TemporaryDirectory, _ manifest: GenerationManifest) throws -> [String] {
        var blobs: [String] = []
        for file in manifest.files {
            for line in try directory.contents(of: file.path).split(separator: UInt8(ascii: "\n")) {
                guard let object = try? JSONSerialization.jsonObject(with: Data(line)) as? [String: Any],
                    let blob = object["receipt_data"] as? String
                else { continue }
                blobs.append(blob)
            }
        }
        return blobs
    }

    @Test func blobsHaveAboutTheLengthAskedAndShareMostOfIt() throws {
        let directory = try TemporaryDirectory()
        let manifest = try directory.writeReceipts {
            $0.badRecordRate = 0
            $0.receiptDataLength = 2048
        }
        let blobs = try receiptData(in: directory, manifest)
        #expect(blobs.count > 100)
        for blob in blobs {
            // A prefix of 4 or 24 characters, 1536 shared, then 408 to 680 random ones.
            let length = blob.utf8.count
            #expect((1536 + 408 + 4)...(1536 + 680 + 24) ~= length, "\(length) characters")
        }
        let iOS7 = blobs.filter { $0.hasPrefix("MIIT") }
        #expect(iOS7.count > 50)
        #expect(Set(iOS7.map { $0.utf8.dropFirst(4).prefix(1536).map { $0 } }).count == 1)
        #expect(Set(iOS7).count == iOS7.count)
    }

    @Test func withoutALengthTheBlobsAreTheShortStandIns() throws {
        let directory = try TemporaryDirectory()
        let manifest = try directory.writeReceipts()
        let blobs = try receiptData(in: directory, manifest)
        #expect(blobs.count > 100)
        #expect(blobs.allSatisfy { (96 + 4)...(240 + 24) ~= $0.utf8.count })
    }

    @Test func anUnreasonableLengthIsRefused() {
        var scenario = ReceiptScenario.small
        scenario.receiptDataLength = 10
        #expect(scenario.problem != nil)
    }
}
