internal import AppStoreFormats
internal import Foundation

/// Writes receipts that plant each docs/fraud-rules.md rule's pattern and each of its false-positive traps, with the
/// known answer in `fraud-manifest.json`, beside a data set from `ReceiptDataGenerator` (same catalog).
///
/// The file goes to `receipts/fraud/planted.jsonl`, so ingesting `receipts/` picks it up with the rest.
package struct FraudPatternWriter: Sendable {
    /// The planted receipt file, relative to the output directory.
    package static let receiptFile = "receipts/fraud/planted.jsonl"
    /// The known answer, relative to the output directory.
    package static let manifestFile = "fraud-manifest.json"

    /// The first day of the planted activity.
    package let startDay: CalendarDay

    /// A writer planting activity from `startDay` on (the generator's default start, so both overlap).
    package init(startDay: CalendarDay = .defaultStart) {
        self.startDay = startDay
    }

    /// Writes the planted receipts and the manifest into `directory`; returns the manifest.
    package func write(to directory: String) throws -> FraudManifest {
        var plan = FraudPlan(file: Self.receiptFile, startDay: startDay)
        plan.plantPatterns()
        plan.plantTraps()
        try ReceiptFileWriter.createDirectory(directory + "/receipts/fraud")
        let text = plan.lines.joined(separator: "\n") + "\n"
        try ReceiptFileWriter.writeFile(directory + "/" + Self.receiptFile, bytes: Array(text.utf8))
        let manifest = FraudManifest(
            file: Self.receiptFile, planted: plan.planted, traps: plan.traps,
            testerAccountKeys: plan.testerAccountKeys)
        try ReceiptFileWriter.writeManifest(directory + "/" + Self.manifestFile, manifest)
        return manifest
    }
}
