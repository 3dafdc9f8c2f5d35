/// One step of the pipeline: `run` is a loop over a list of these, and each single command (`ingest receipts`,
/// `detect`, `fetch`…) runs one of them alone, under the same lock and run record (`Workspace.runAlone`).
///
/// A stage is a value: what it needs is in its properties (paths, rules, options) and in the session (what earlier
/// stages of the same run made, e.g. the folders a fetch filled). Adding a stage is one type conforming to this
/// protocol and one line in `RunPlan.stages` (docs/architecture.md, "Stages").
package protocol PipelineStage {
    /// What the stage did: stored in the run's record and printed.
    associatedtype Summary: Encodable & Sendable

    /// The stage's name: the command the run record names when it runs alone, and its time's name in a run.
    var name: String { get }
    /// The key of its summary in a run's stored summary.
    var summaryKey: String { get }
    /// Settings written to the run record when the stage runs alone.
    var recordedSettings: [String: String] { get }
    /// The summary a run keeps when the stage had nothing to do (nil: none, and nothing printed for it).
    var skippedSummary: Summary? { get }

    /// Whether there is anything to do: a stage without input is skipped (and not timed).
    func isNeeded(in session: StageSession) throws -> Bool
    /// Does the work in the session's run.
    func run(in session: StageSession) throws -> Summary
    /// How the stage ended, by its summary: what its run record says and the exit code it means.
    func outcome(of summary: Summary, in session: StageSession) -> StageOutcome
    /// What it prints on stdout: alone, or as one stage of `run`.
    func summaryLines(_ summary: Summary, context: SummaryContext) -> [String]
    /// Problems to tell on stderr (one line each), after the summary.
    func problems(_ summary: Summary) -> [String]
    /// The keys and values its summary adds to a run's stored summary.
    func recordedEntries(_ summary: Summary) -> [RunSummary.Entry]
}

extension PipelineStage {
    package var summaryKey: String { name }
    package var recordedSettings: [String: String] { [:] }
    package var skippedSummary: Summary? { nil }
    package func isNeeded(in session: StageSession) throws -> Bool { true }
    package func outcome(of summary: Summary, in session: StageSession) -> StageOutcome { .succeeded }
    package func problems(_ summary: Summary) -> [String] { [] }
    package func recordedEntries(_ summary: Summary) -> [RunSummary.Entry] {
        [RunSummary.Entry(key: summaryKey, value: summary)]
    }
}

/// Where a stage's summary is printed: the lines of a stage alone say more than its one part of `run`'s summary.
package enum SummaryContext: Sendable {
    case alone
    case inRun
}

/// How a stage or a run ended: what its record says (`pipeline_run.outcome`) and the exit code it means.
package enum StageOutcome: Sendable, Equatable {
    case succeeded
    /// Input was rejected: a file failed, or (under `--strict`) a record was quarantined. Exit 65.
    case rejected
    /// The stage failed with its own exit code (a fetch: 76, 77 or 78), but the run went on.
    case failed(exitCode: Int32)

    /// The exit code of rejected input (sysexits' EX_DATAERR).
    package static let rejectedExitCode: Int32 = 65

    /// What the run record says.
    package var recorded: RunRecorder.Outcome {
        switch self {
        case .succeeded: .succeeded
        case .rejected: .rejected
        case .failed: .failed
        }
    }

    /// The exit code it means.
    package var exitCode: Int32 {
        switch self {
        case .succeeded: 0
        case .rejected: Self.rejectedExitCode
        case .failed(let code): code
        }
    }

    /// The outcome of an ingest: files that failed reject it; quarantined records only under `--strict`.
    package static func ingest(_ summary: IngestSummary, isStrict: Bool) -> StageOutcome {
        if summary.filesFailed > 0 { return .rejected }
        return isStrict && summary.quarantined > 0 ? .rejected : .succeeded
    }

    /// The outcome of several stages: the first that did not succeed, in pipeline order (a failed fetch comes first).
    package static func first(_ outcomes: [StageOutcome]) -> StageOutcome {
        outcomes.first { $0 != .succeeded } ?? .succeeded
    }
}

/// What a stage runs in: the workspace, the run it is part of, the stop request, and what earlier stages of the same
/// run made for later ones.
package final class StageSession {
    let workspace: Workspace
    /// The run record the stage's rows are attributed to.
    let runID: Int64
    let stop: StopRequest
    /// The whole run is rolled back at its end: stages keep nothing outside the database either.
    let isDryRun: Bool
    /// Folders earlier stages filled, by the kind of input they hold (a fetch's spool), read by the ingest stages.
    var addedInputs: [InputFileRecord.Kind: [String]] = [:]

    init(workspace: Workspace, runID: Int64, stop: StopRequest, isDryRun: Bool) {
        self.workspace = workspace
        self.runID = runID
        self.stop = stop
        self.isDryRun = isDryRun
    }
}
