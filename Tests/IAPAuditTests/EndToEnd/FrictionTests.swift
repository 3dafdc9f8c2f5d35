import Foundation
import IAPAudit
import SyntheticData
import TestSupport
import Testing

/// Issue 13's small frictions: an HTML report on a terminal, the demo anywhere.
struct FrictionTests {
    @Test func anHTMLReportOnATerminalIsWrittenToAFileAndItsPathPrinted() throws {
        let test = try TestWorkspace()
        _ = try test.workspace.ingestReceipts(paths: [try test.write("r.jsonl", "{broken\n")])
        // script(1) gives the binary a terminal for stdout, as a user typing the command has.
        let command = [
            BinaryUnderTest.path, "report", "quarantine", "--format", "html", "--database-url", test.conninfo,
        ]
        .map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
        process.arguments = ["-qec", command, "/dev/null"]
        process.currentDirectoryURL = test.directory
        let output = Pipe()
        process.standardOutput = output
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(text)")
        #expect(text.contains("wrote out/quarantine.html"), "\(text)")
        #expect(!text.contains("<html"))
        let page = try String(
            contentsOf: test.directory.appendingPathComponent("out/quarantine.html"), encoding: .utf8)
        #expect(page.contains("invalid-json"))
    }

    @Test func theDemoDataIsGeneratedWhenNoExamplesFolderIsNearby() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("demo-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let environment = ["XDG_CACHE_HOME": directory.appendingPathComponent("cache").path]
        let examples = try ExampleData.locateOrGenerate(
            executablePath: "/usr/local/bin/iap-audit", workingDirectory: directory.path, environment: environment)
        #expect(examples == directory.appendingPathComponent("cache/iap-audit/examples").path)
        // The same bytes as the shipped examples/, which ShippedExamplesTests keeps equal to the generator's.
        let shipped = ReportSiteTests.examples
        for file in [
            "catalog.json", "receipts/2014-03-01/part-0001.jsonl", "receipts/fraud/planted.jsonl",
            "reports/S_D_80012345_20140301.txt.gz", "reports/month-end/financial_report_2026-09.csv",
        ] {
            #expect(
                FileManager.default.contentsEqual(atPath: examples + "/" + file, andPath: shipped + "/" + file),
                "\(file)")
        }
        #expect(
            ExampleData.plan(examples: examples, outputDirectory: "out").receiptPaths.allSatisfy {
                FileManager.default.fileExists(atPath: $0)
            })
        // A second demo finds them there and writes nothing new.
        let again = try ExampleData.locateOrGenerate(
            executablePath: "/usr/local/bin/iap-audit", workingDirectory: directory.path, environment: environment)
        #expect(again == examples)
        // With nowhere to write, it says how to get them.
        #expect {
            try ExampleData.locateOrGenerate(
                executablePath: "/usr/local/bin/iap-audit", workingDirectory: directory.path, environment: [:])
        } throws: { error in
            "\(error)".contains("iap-audit generate receipts --out examples")
        }
    }
}
