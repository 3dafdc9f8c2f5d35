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

    /// The run plan of the demo: the example catalog and receipts, reports into `outputDirectory`.
    package static func plan(examples: String, outputDirectory: String) -> RunPlan {
        var plan = RunPlan(outputDirectory: outputDirectory)
        plan.catalogPath = (examples as NSString).appendingPathComponent("catalog.json")
        plan.receiptPaths = [(examples as NSString).appendingPathComponent("receipts")]
        plan.salesPaths = [(examples as NSString).appendingPathComponent("reports")]
        return plan
    }
}
