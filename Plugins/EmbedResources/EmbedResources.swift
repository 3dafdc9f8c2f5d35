import Foundation
import PackagePlugin

/// Embeds the package's `sql/` migrations, `sql/queries/`, `sql/rules/`, `sql/views/` and `reports/` definitions into the target as Swift string literals.
///
/// An installed `iap-audit` then carries its schema and reports with it: no source tree needed at run time, and a
/// migration's checksum is computed over exactly the text that was built in.
@main
struct EmbedResources: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: any Target) throws -> [Command] {
        let tool = try context.tool(named: "embed-resources")
        let packageDirectory = context.package.directoryURL
        var inputs: [URL] = []
        var arguments: [String] = []
        // group name in the generated enum → folder of the package
        for (group, folder) in [
            ("migrations", "sql"), ("queries", "sql/queries"), ("rules", "sql/rules"), ("views", "sql/views"),
            ("reports", "reports"),
        ] {
            let directory = packageDirectory.appending(path: folder)
            let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
            for name in names.sorted() where name.hasSuffix(".sql") {
                let file = directory.appending(path: name)
                inputs.append(file)
                arguments += [group, file.path]
            }
        }
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedResources.swift")
        return [
            .buildCommand(
                displayName: "Embedding \(inputs.count) SQL files",
                executable: tool.url,
                arguments: [output.path] + arguments,
                inputFiles: inputs,
                outputFiles: [output]
            )
        ]
    }
}
