extension Workspace {
    /// Runs report `definition` with `parameters` (validated and bound as `$n`) on this workspace's database.
    package func report(_ definition: ReportDefinition, parameters: [String: String]) throws -> ReportTable {
        try ReportRunner(connection: connection).run(definition, parameters: parameters)
    }
}
