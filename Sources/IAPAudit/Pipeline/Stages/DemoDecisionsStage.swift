/// `run --demo` only: after detect, the demo's analyst decisions (`DemoDecision.demo`), so the reports and the site
/// show a triage trail. A plan without demo decisions (every normal run) skips it and records nothing.
package struct DemoDecisionsStage: PipelineStage {
    package var decisions: [DemoDecision]

    package init(_ decisions: [DemoDecision]) { self.decisions = decisions }

    package var name: String { "demo decisions" }
    package var summaryKey: String { "demoDecisions" }

    /// What was decided, and the flags' statuses after it.
    package struct Summary: Encodable, Sendable {
        /// One line per decision logged: the flag, its rule, the action and the reason.
        var decided: [String]
        var triage: [String: Int]
    }

    package func isNeeded(in session: StageSession) -> Bool { !decisions.isEmpty }

    package func run(in session: StageSession) throws -> Summary {
        var decided: [String] = []
        for decision in decisions {
            guard let record = try decision.apply(on: session.workspace.connection) else { continue }
            decided.append(
                "flag \(record.flagID) (\(decision.rule)) \(record.statusAfter)"
                    + (record.reason.map { " as \($0)" } ?? ""))
        }
        return Summary(decided: decided, triage: try session.workspace.flagStatusCounts())
    }

    package func summaryLines(_ summary: Summary, context: SummaryContext) -> [String] {
        [
            "demo decisions: "
                + (summary.decided.isEmpty
                    ? "none new (made by an earlier demo run)" : summary.decided.joined(separator: ", "))
                + "; triage now \(summary.triage["open", default: 0]) open, "
                + "\(summary.triage["confirmed", default: 0]) confirmed, \(summary.triage["dismissed", default: 0]) "
                + "dismissed (iap-audit flags list --status all)"
        ]
    }
}
