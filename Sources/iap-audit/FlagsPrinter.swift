import IAPAudit

/// How `flags` prints: aligned columns for the queue, labelled lines for one flag. Subject keys and evidence come
/// from input files and notes from people: control and bidi characters are shown as `⟨U+202E⟩`, never sent to the
/// terminal.
enum FlagsPrinter {
    static func visible(_ text: String) -> String {
        var shown = ""
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x0A: shown.unicodeScalars.append(scalar)
            case 0x00...0x1F, 0x7F...0x9F, 0x061C, 0x200B...0x200F, 0x202A...0x202E, 0x2060...0x2064,
                0x2066...0x206F, 0xFEFF:
                shown += "⟨U+" + String(scalar.value, radix: 16, uppercase: true).leftPadded(to: 4) + "⟩"
            default: shown.unicodeScalars.append(scalar)
            }
        }
        return shown
    }

    static func printTable(_ lines: [FlagLine]) {
        let header = ["id", "status", "severity", "rule", "v", "subject", "score", "raised", "age", "last decision"]
        let rows =
            [header]
            + lines.map { line in
                [
                    String(line.id), line.status, line.severity, line.rule, String(line.ruleVersion),
                    "\(line.subjectKind) \(line.subjectKey)", line.score, String(line.createdAt.prefix(10)),
                    "\(line.ageDays)d",
                    line.lastAction.map { "\($0) by \(line.lastActor ?? "?")" } ?? "-",
                ]
            }
        let shown = rows.map { $0.map(visible) }
        let widths = header.indices.map { column in shown.map { $0[column].count }.max() ?? 0 }
        for row in shown {
            Swift.print(
                row.indices.map { column in
                    column == row.count - 1
                        ? row[column] : row[column] + String(repeating: " ", count: widths[column] - row[column].count)
                }
                .joined(separator: "  "))
        }
        Swift.print("\(lines.count) flag\(lines.count == 1 ? "" : "s")")
    }

    static func print(_ detail: FlagDetail) {
        for line in lines(of: detail) { Swift.print(visible(line)) }
    }

    private static func lines(of detail: FlagDetail) -> [String] {
        let line = detail.line
        return [
            "flag \(line.id): \(line.rule) v\(line.ruleVersion), \(line.severity), score \(line.score)",
            "status: \(line.status)",
            "subject: \(line.subjectKind) \(line.subjectKey)",
            "window: \(detail.windowStart ?? "-") to \(detail.windowEnd ?? "-")",
            "raised: \(line.createdAt) (\(line.ageDays) days ago); last changed \(detail.updatedAt)",
            "evidence:",
            detail.evidence,
            "decisions:" + (detail.decisions.isEmpty ? " none yet" : ""),
        ] + detail.decisions.map { "  " + describe($0) }
    }

    /// One decision on one line: when, who, what, why.
    static func describe(_ record: DecisionRecord) -> String {
        let who = record.actor == record.databaseUser ? record.actor : "\(record.actor) (as \(record.databaseUser))"
        let reason = record.reason.map { " (\($0))" } ?? ""
        let text = record.note.isEmpty ? "" : ": \(record.note)"
        return "\(record.decidedAt) flag \(record.flagID) \(record.action)\(reason) by \(who), v\(record.ruleVersion) "
            + "-> \(record.statusAfter)\(text)"
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}
