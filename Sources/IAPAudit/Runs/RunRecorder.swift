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
            """
            INSERT INTO pipeline_run (command, settings, host, pid, version, backend_pid, backend_start)
            SELECT $1, $2::jsonb, $3, $4, $5, pid, backend_start FROM pg_stat_activity WHERE pid = pg_backend_pid()
            RETURNING id
            """,
            [
                command, settingsJSON, ProcessInfo.processInfo.hostName, Int(ProcessInfo.processInfo.processIdentifier),
                version,
            ], context: "record run")
        self.id = try result.decode(Int64.self, 0, 0)
    }

    /// Marks as `abandoned` the runs still `running` whose server session is gone: their process was killed before
    /// it could record an end. Rows from before sessions were recorded count once a day has passed.
    ///
    /// Found first, then marked by id: on Citus, where `pipeline_run` is a reference table, an update may neither read
    /// `pg_stat_activity` (the coordinator's own) nor call `now()` inside a CASE. A run that ends in between keeps
    /// its outcome: only rows still `running` are marked.
    static func markAbandoned(on connection: Connection, logger: Logger) throws {
        let gone = try connection.query(
            """
            SELECT r.id FROM pipeline_run r
            WHERE r.outcome = 'running'
              AND CASE WHEN r.backend_pid IS NULL THEN r.started_at < now() - interval '1 day'
                       ELSE NOT EXISTS (SELECT 1 FROM pg_stat_activity a
                                        WHERE a.pid = r.backend_pid AND a.backend_start = r.backend_start) END
            """, context: "find abandoned runs")
        let ids = (0..<gone.rowCount).compactMap { gone.string($0, 0) }
        guard !ids.isEmpty else { return }
        let marked = try connection.query(
            """
            UPDATE pipeline_run SET outcome = 'abandoned', finished_at = now()
            WHERE id = ANY ($1::bigint[]) AND outcome = 'running'
            RETURNING id
            """, [ids], context: "mark abandoned runs")
        for row in 0..<marked.rowCount {
            logger.warning(
                "an earlier run was killed before it could finish", metadata: ["run": "\(marked.string(row, 0) ?? "?")"]
            )
        }
    }

    /// Stores the outcome, exit code and summary.
    package func finish(outcome: Outcome, exitCode: Int32, summary: some Encodable) throws {
        let summaryJSON = String(decoding: try JSONEncoder.sorted.encode(summary), as: UTF8.self)
        try connection.query(
            """
            UPDATE pipeline_run SET finished_at = now(), outcome = $2, exit_code = $3, summary = $4::jsonb
            WHERE id = $1
            """, [id, outcome.rawValue, Int(exitCode), summaryJSON], context: "finish run")
    }
}

extension JSONEncoder {
    static var sorted: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }
}
