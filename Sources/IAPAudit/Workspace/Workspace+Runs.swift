internal import Foundation
internal import Logging
internal import Postgres

#if canImport(Glibc)
    internal import Glibc
#endif

/// Every command that changes data is exclusive of every other (one advisory lock) and recorded in `pipeline_run`
/// with the outcome and exit code it really had.
extension Workspace {
    /// Advisory-lock key that makes data-changing commands exclusive across processes ("IAPRUN" in ASCII).
    package static let runLockKey: Int64 = 0x4941_5052_554E

    /// How long to wait for a dead client's server session to let go of the lock before giving up with 75.
    static let orphanedLockWait: Double = 15

    /// Runs `body` holding the run lock: a second command at once exits 75 with the holder named. A holder whose
    /// client is gone (killed on this host) has its server session ended, so the next run does not wait for it.
    func exclusively<Result>(_ body: () throws -> Result) throws -> Result {
        if try !connection.tryAdvisoryLock(Self.runLockKey) {
            guard try endOrphanedHolder(), try waitForRunLock(seconds: Self.orphanedLockWait) else {
                throw IAPAuditError.locked(holder: try connection.advisoryLockHolder(Self.runLockKey))
            }
        }
        defer { try? connection.advisoryUnlock(Self.runLockKey) }
        return try body()
    }

    /// Ends the server session holding the run lock when it belongs to a run whose client process on this host no
    /// longer exists (killed with SIGKILL: its session goes on until its statement ends). True when it did.
    private func endOrphanedHolder() throws -> Bool {
        let holder = try connection.query(
            SQLQuery.runLockHolder.text, [Self.runLockKey], context: "find the run lock's holder")
        guard holder.rowCount == 1, let clientPID = try holder.first(Int?.self, "client_pid"),
            let backendPID = try holder.first(Int?.self, "backend_pid"),
            try holder.first(String?.self, "host") == ProcessInfo.processInfo.hostName
        else { return false }
        // kill(pid, 0) probes without signalling: ESRCH means no such process.
        guard kill(pid_t(clientPID), 0) != 0 && errno == ESRCH else { return false }
        logger.warning(
            "the run lock is held by the server session of a run whose process is gone; ending that session",
            metadata: ["client_pid": "\(clientPID)", "server_pid": "\(backendPID)"])
        try connection.query("SELECT pg_terminate_backend($1)", [backendPID], context: "end an orphaned session")
        return true
    }

    private func waitForRunLock(seconds: Double) throws -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        repeat {
            if try connection.tryAdvisoryLock(Self.runLockKey) { return true }
            usleep(100_000)
        } while Date() < deadline
        return false
    }

    /// Runs one stage alone, as its command does: under the run lock, recorded as a run named after the stage.
    package func runAlone<Stage: PipelineStage>(
        _ stage: Stage, stop: StopRequest = StopRequest()
    ) throws -> StageResult<Stage.Summary> {
        try exclusively {
            let run = try recordingRun(stage.name, settings: stage.recordedSettings, stop: stop) { session in
                let summary = try stage.run(in: session)
                return (summary, stage.outcome(of: summary, in: session))
            }
            return StageResult(
                summary: run.summary, outcome: run.outcome, lines: stage.summaryLines(run.summary, context: .alone),
                problems: stage.problems(run.summary))
        }
    }

    /// What a recorded run returned, how it ended and its record's id.
    struct Recorded<Summary> {
        var summary: Summary
        var outcome: StageOutcome
        var runID: Int64
    }

    /// Runs `body` as a recorded run of `command`; the run row gets the outcome and the summary `body` returns. Runs
    /// that an earlier process left `running` (it was killed) are marked `abandoned` first.
    func recordingRun<Summary: Encodable>(
        _ command: String, settings runSettings: [String: String] = [:], stop: StopRequest, isDryRun: Bool = false,
        _ body: (StageSession) throws -> (Summary, StageOutcome)
    ) throws -> Recorded<Summary> {
        try RunRecorder.markAbandoned(on: connection, logger: logger)
        let recorder = try RunRecorder(
            connection: connection, command: command, settings: runSettings, version: Self.version)
        do {
            let session = StageSession(workspace: self, runID: recorder.id, stop: stop, isDryRun: isDryRun)
            let (summary, outcome) = try body(session)
            try recorder.finish(outcome: outcome.recorded, exitCode: outcome.exitCode, summary: summary)
            return Recorded(summary: summary, outcome: outcome, runID: recorder.id)
        } catch {
            let error = explainingLockTimeout(error)
            if connection.isOK {
                let wrapped = IAPAuditError.wrapping(error)
                let code = wrapped?.exitCode ?? 70
                let result: RunRecorder.Outcome = if case .interrupted = wrapped { .interrupted } else { .failed }
                try? recorder.finish(
                    outcome: result, exitCode: code, summary: ["error": wrapped.map { "\($0)" } ?? "\(error)"])
            }
            throw error
        }
    }

    /// A lock wait that ran out (SQLSTATE 55P03) as the error a user can act on: which sessions hold locks in this
    /// database, oldest transaction first. The failed statement's transaction is rolled back, so the connection can
    /// still ask; the sessions that held locks for at least the timeout are the ones it waited for.
    func explainingLockTimeout(_ error: any Error) -> any Error {
        guard let failure = error as? PostgresError, failure.sqlState == "55P03", connection.isOK else { return error }
        let holders = try? connection.query(
            SQLQuery.lockHolders.text, context: "name the sessions holding locks")
        let named = (holders?.allRows ?? []).map { row in
            let field = { (column: String) in (try? row.string(column)) ?? "?" }
            return "session \(field("pid")) (user \(field("user_name")), \(field("application")), "
                + "\(field("state")) since \(field("since")))"
        }
        return IAPAuditError.lockTimeout(seconds: settings.lockTimeout, holders: named)
    }

    /// The exit code of an ingest: 65 when a file failed, or (under `--strict`) when anything was quarantined.
    package func exitCode(of summary: IngestSummary) -> Int32 {
        StageOutcome.ingest(summary, isStrict: settings.isStrict).exitCode
    }
}

/// What a stage run alone did: its summary, how it ended, and what its command prints.
package struct StageResult<Summary: Sendable>: Sendable {
    package var summary: Summary
    package var outcome: StageOutcome
    /// Its lines for stdout.
    package var lines: [String]
    /// Its problems for stderr, one line each.
    package var problems: [String]
}
