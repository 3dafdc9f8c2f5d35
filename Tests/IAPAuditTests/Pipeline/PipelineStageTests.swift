import Foundation
import IAPAudit
import Postgres
import TestSupport
import Testing

/// Issue 31, item 2: stages are values. `run` is a loop over `RunPlan.stages`; one stage runs alone under the same
/// lock and run record; a stage defined anywhere (here, in a test) needs nothing else to be run and recorded.
struct PipelineStageTests {
    /// A stage the pipeline has never heard of: one type, nothing registered anywhere.
    struct CountingStage: PipelineStage {
        struct Counted: Encodable, Sendable {
            var things: Int
        }

        var things: Int
        var exitCode: Int32?

        var name: String { "count things" }
        var recordedSettings: [String: String] { ["things": "\(things)"] }

        func run(in session: StageSession) throws -> Counted { Counted(things: things) }

        func outcome(of summary: Counted, in session: StageSession) -> StageOutcome {
            exitCode.map { .failed(exitCode: $0) } ?? .succeeded
        }

        func summaryLines(_ summary: Counted, context: SummaryContext) -> [String] {
            ["things: \(summary.things)" + (context == .alone ? " (alone)" : "")]
        }
    }

    static func lastRun(_ test: TestWorkspace) throws -> [String?] {
        let row = try test.connection.query(
            """
            SELECT command, outcome, exit_code::text, settings ->> 'things', summary::text
            FROM pipeline_run ORDER BY id DESC LIMIT 1
            """)
        return (0..<5).map { row.string(0, $0) }
    }

    @Test func aNewStageRunsAloneUnderTheRunRecordWithItsOwnOutcome() throws {
        let test = try TestWorkspace()
        let result = try test.workspace.runAlone(CountingStage(things: 3))
        #expect(result.lines == ["things: 3 (alone)"])
        #expect(result.outcome == .succeeded)
        #expect(try Self.lastRun(test) == ["count things", "succeeded", "0", "3", #"{"things": 3}"#])

        let failed = try test.workspace.runAlone(CountingStage(things: 1, exitCode: 76))
        #expect(failed.outcome.exitCode == 76)
        #expect(try Self.lastRun(test).prefix(3) == ["count things", "failed", "76"])
    }

    @Test func theRunsStagesAreTheDocumentedOrder() {
        let plan = RunPlan(outputDirectory: "out")
        #expect(
            plan.stages.map(\.name) == [
                "fetch", "catalog", "ingest receipts", "ingest sales", "detect", "demo decisions", "reconcile",
                "month-end", "reports",
            ])
        // The demo's decisions are the demo's plan's alone: any other plan has none, so the stage skips itself.
        #expect(plan.demoDecisions.isEmpty)
        #expect(ExampleData.plan(examples: "examples", outputDirectory: "out").demoDecisions == DemoDecision.demo)
        #expect(RunSummary.stages == plan.stages.map(\.name) + ["site"])
    }

    @Test func theFirstStageThatDidNotSucceedDecidesTheRun() {
        #expect(StageOutcome.first([.succeeded, .rejected, .failed(exitCode: 76)]) == .rejected)
        #expect(StageOutcome.first([.failed(exitCode: 77), .rejected]).exitCode == 77)
        #expect(StageOutcome.first([.succeeded, .succeeded]) == .succeeded)
        var summary = IngestSummary()
        summary.quarantined = 2
        #expect(StageOutcome.ingest(summary, isStrict: false) == .succeeded)
        #expect(StageOutcome.ingest(summary, isStrict: true).recorded == .rejected)
        summary.filesFailed = 1
        #expect(StageOutcome.ingest(summary, isStrict: false).exitCode == 65)
    }

    /// The stored summary of a run keeps the keys it had when each stage was a field of `RunSummary` (the report
    /// site and analysts' queries read them), and a catalog that cannot be read rejects the run while the rest runs.
    @Test func aRunsRecordKeepsItsKeysAndItsTruth() throws {
        let test = try TestWorkspace()
        let receipts = try test.write("r.jsonl", HostileInputTests.receipt(transaction: "1") + "\n")
        var plan = RunPlan(outputDirectory: test.directory.appendingPathComponent("out").path)
        plan.catalogPath = test.directory.appendingPathComponent("missing-catalog.json").path
        plan.receiptPaths = [receipts]
        plan.reports = ["flags"]
        let summary = try test.workspace.run(plan)
        #expect(summary.outcome == .rejected)
        #expect(summary.receipts.stored == 1)
        #expect(summary.problems.count == 1 && summary.problems[0].hasPrefix("catalog not imported: "))
        let row = try test.connection.query(
            """
            SELECT outcome, exit_code::text, (SELECT string_agg(k, ',' ORDER BY k) FROM jsonb_object_keys(summary) k)
            FROM pipeline_run WHERE command = 'run'
            """)
        #expect(row.string(0, 0) == "rejected")
        #expect(row.string(0, 1) == "65")
        #expect(row.string(0, 2) == "catalogError,detection,isDryRun,receipts,reportsWritten,stageSeconds")
        #expect(summary.stageSeconds.keys.sorted() == ["catalog", "detect", "ingest receipts", "reports", "site"])
    }
}
