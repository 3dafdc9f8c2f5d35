internal import Foundation
internal import Logging
package import Postgres

/// Records one command's run in `pipeline_run`: settings at the start, outcome and summary at the end.
package struct RunRecorder {
    /// How a run ended.
    package enum Outcome: String, Sendable {
        case succeeded, failed, interrupted, rejected
        /// Left `running` by a process that was killed; marked by a later command.
        case abandoned
    }

    private let connection: Connection
    /// The run's id.
    package let id: Int64

    /// Inserts the run row.
    package init(connection: Connection, command: String, settings: [String: String], version: String) throws {
        self.connection = connection
        let settingsJSON = String(decoding: try JSONEncoder.sorted.encode(settings), as: UTF8.self)
        let result = try connection.query(
            SQLQuery.runStart.text,
            [
                command, settingsJSON, ProcessInfo.processInfo.hostName, Int(ProcessInfo.processInfo.processIdentifier),
                version,
            ], context: "record run")
        self.id = try result.first(Int64.self, "id")
    }

    /// Marks as `abandoned` the runs still `running` whose server session is gone: their process was killed before
    /// it could record an end. Rows from before sessions were recorded count once a day has passed.
    ///
    /// Found first, then marked by id: on Citus, where `pipeline_run` is a reference table, an update may neither read
    /// `pg_stat_activity` (the coordinator's own) nor call `now()` inside a CASE. A run that ends in between keeps
    /// its outcome: only rows still `running` are marked.
    static func markAbandoned(on connection: Connection, logger: Logger) throws {
        let gone = try connection.query(SQLQuery.runFindAbandoned.text, context: "find abandoned runs")
        let ids = try gone.allRows.map { try $0.decode(String.self, "id") }
        guard !ids.isEmpty else { return }
        let marked = try connection.query(SQLQuery.runMarkAbandoned.text, [ids], context: "mark abandoned runs")
        for row in marked.allRows {
            let run = try row.decode(String.self, "id")
            logger.warning("an earlier run was killed before it could finish", metadata: ["run": "\(run)"])
        }
    }

    /// Stores the outcome, exit code and summary.
    package func finish(outcome: Outcome, exitCode: Int32, summary: some Encodable) throws {
        let summaryJSON = String(decoding: try JSONEncoder.sorted.encode(summary), as: UTF8.self)
        try connection.query(
            SQLQuery.runFinish.text, [id, outcome.rawValue, Int(exitCode), summaryJSON], context: "finish run")
    }
}

extension JSONEncoder {
    static var sorted: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }
}
