internal import Foundation
public import Postgres

/// Records one command's run in `pipeline_run`: settings at the start, outcome and summary at the end.
public struct RunRecorder {
    /// How a run ended.
    public enum Outcome: String, Sendable {
        case succeeded, failed, interrupted, rejected
    }

    private let connection: Connection
    /// The run's id.
    public let id: Int64

    /// Inserts the run row.
    public init(connection: Connection, command: String, settings: [String: String], version: String) throws {
        self.connection = connection
        let settingsJSON = String(decoding: try JSONEncoder.sorted.encode(settings), as: UTF8.self)
        let result = try connection.query(
            """
            INSERT INTO pipeline_run (command, settings, host, pid, version) VALUES ($1, $2::jsonb, $3, $4, $5)
            RETURNING id
            """,
            [
                command, settingsJSON, ProcessInfo.processInfo.hostName, Int(ProcessInfo.processInfo.processIdentifier),
                version,
            ], context: "record run")
        self.id = try result.decode(Int64.self, 0, 0)
    }

    /// Stores the outcome, exit code and summary.
    public func finish(outcome: Outcome, exitCode: Int32, summary: some Encodable) throws {
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
