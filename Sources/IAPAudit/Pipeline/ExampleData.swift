internal import Foundation

/// The example data shipped in the repository's `examples/` folder, used by `run --demo`.
package enum ExampleData {
    /// Finds `examples/` beside the working directory or above the executable (a `swift run` from the checkout, or
    /// an install that copied the folder next to `bin/`).
    package static func locate(executablePath: String, workingDirectory: String) -> String? {
        var candidates = [workingDirectory]
        var directory = URL(fileURLWithPath: executablePath).resolvingSymlinksInPath().deletingLastPathComponent()
        while directory.path != "/" {
            candidates.append(directory.path)
            candidates.append(directory.appendingPathComponent("share/iap-audit").path)
            directory = directory.deletingLastPathComponent()
        }
        for candidate in candidates {
            let examples = (candidate as NSString).appendingPathComponent("examples")
            if FileManager.default.fileExists(atPath: (examples as NSString).appendingPathComponent("catalog.json")) {
                return examples
            }
        }
        return nil
    }

    /// The examples `locate` finds, or else the same files written by the built-in generator into the user's cache
    /// (`$XDG_CACHE_HOME/iap-audit/examples`, default `~/.cache/iap-audit/examples`): an installed binary needs no
    /// checkout for `run --demo`. The generator is deterministic, so the files are those of `examples/`.
    package static func locateOrGenerate(
        executablePath: String = CommandLine.arguments[0],
        workingDirectory: String = FileManager.default.currentDirectoryPath,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws -> String {
        if let found = locate(executablePath: executablePath, workingDirectory: workingDirectory) { return found }
        guard let cache = cacheDirectory(environment: environment) else {
            throw IAPAuditError.input(
                "cannot find the examples/ folder and have no cache directory to generate it into (set HOME or "
                    + "XDG_CACHE_HOME); or write it yourself with iap-audit generate receipts --out examples --plain "
                    + "--with-sales --with-fraud --with-storekit2 and iap-audit generate month-end --out examples, and run --demo "
                    + "from the folder holding examples/")
        }
        let examples = (cache as NSString).appendingPathComponent("examples")
        let complete = (examples as NSString).appendingPathComponent(".complete")
        if !FileManager.default.fileExists(atPath: complete) {
            // Into a fresh folder, moved into place when whole: an interrupted generation is never mistaken for data.
            let partial = examples + ".partial-\(ProcessInfo.processInfo.processIdentifier)"
            try? FileManager.default.removeItem(atPath: partial)
            try FileManager.default.createDirectory(atPath: partial, withIntermediateDirectories: true)
            do {
                try SyntheticDataSet.write(
                    to: partial, entries: 0, seed: nil, compress: false, withFraud: true, withSales: true,
                    withStoreKit2: true, report: { _ in })
                try SyntheticDataSet.writeMonthEnd(
                    to: partial, fiscalYear: nil, seed: nil, compress: true, report: { _ in })
                _ = FileManager.default.createFile(
                    atPath: (partial as NSString).appendingPathComponent(".complete"), contents: Data())
                try? FileManager.default.removeItem(atPath: examples)
                try FileManager.default.moveItem(atPath: partial, toPath: examples)
            } catch {
                try? FileManager.default.removeItem(atPath: partial)
                throw IAPAuditError.input("cannot write the example data into \(examples): \(error)")
            }
        }
        return examples
    }

    /// `$XDG_CACHE_HOME/iap-audit`, else `$HOME/.cache/iap-audit`.
    static func cacheDirectory(environment: [String: String]) -> String? {
        if let cache = environment["XDG_CACHE_HOME"], cache.hasPrefix("/") {
            return (cache as NSString).appendingPathComponent("iap-audit")
        }
        guard let home = environment["HOME"], home.hasPrefix("/") else { return nil }
        return (home as NSString).appendingPathComponent(".cache/iap-audit")
    }

    /// The run plan of the demo: the example catalog and receipts (StoreKit 2 records among them, trusted through
    /// the generator's test roots beside them), reports into `outputDirectory`.
    package static func plan(examples: String, outputDirectory: String) -> RunPlan {
        var plan = RunPlan(outputDirectory: outputDirectory)
        plan.trustedRootPaths = [(examples as NSString).appendingPathComponent("test-root.der")]
        // The month-end year (`generate month-end`) is signed by a chain of its own.
        let monthEndRoot = (examples as NSString).appendingPathComponent("month-end-root.der")
        if FileManager.default.fileExists(atPath: monthEndRoot) { plan.trustedRootPaths.append(monthEndRoot) }
        plan.catalogPath = (examples as NSString).appendingPathComponent("catalog.json")
        plan.receiptPaths = [(examples as NSString).appendingPathComponent("receipts")]
        plan.salesPaths = [(examples as NSString).appendingPathComponent("reports")]
        // The examples span 2014's receipts and recent StoreKit 2 records: a window of days would show only the latter.
        plan.reportWindow = 0
        // A triage trail to look at: one flag confirmed, one dismissed as family sharing (the demo's only hook).
        plan.demoDecisions = DemoDecision.demo
        return plan
    }
}
