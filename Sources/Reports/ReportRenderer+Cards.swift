extension ReportRenderer {
    /// How every table of the reports and the site reads at each width, without a script.
    ///
    /// Wide: a cell's long unbroken value (a hash, an id, minified JSON) may wrap anywhere, headings wrap at their
    /// words, and cells are a little tighter, so a table fits its page instead of pushing its right-hand columns
    /// off-screen. A table that still cannot fit (reconciliation's nineteen columns) scrolls with its first column, the
    /// key, held in place. Narrow (a phone): each row is a card of labelled lines, its key columns first as the table
    /// orders them; a blank cell is left out. Cards rather than a sticky first column: a card shows a whole row on one
    /// screen without scrolling sideways, where a sticky column leaves a strip to scroll a dozen columns through one at
    /// a time.
    ///
    /// A label hangs left of its value as a float in the cell's padding, so a value of several parts (text and
    /// links, a list) stays one block; JSON and evidence (`td.block`) go under their label, the card's whole width. A site table's cells carry their label (`data-label`); a report table's labels
    /// come from one rule per column (`cardLabels`), not from every cell of ten thousand rows.
    static let cardStylesheet = """
        table.cards { font-size: 13px; }
        table.cards th, table.cards td { padding: 4px 6px; }
        table.cards thead th.num { white-space: normal; }
        table.cards td { overflow-wrap: break-word; }
        table.cards td.token { overflow-wrap: anywhere; min-width: 12ch; }
        table.cards td.json { overflow-wrap: anywhere; min-width: 18ch; }
        @media (min-width: 601px) {
          table.report td:first-child, table.report th:first-child { position: sticky; left: 0; z-index: 1;
            background: var(--bg); box-shadow: inset -1px 0 0 var(--line); }
          table.report thead th:first-child { z-index: 2; background: var(--head); }
          table.report tbody tr:nth-child(even) td:first-child { background: var(--zebra); }
        }
        @media (max-width: 600px) {
          .table-wrap.cards { display: block; overflow-x: visible; border: none; border-radius: 0; }
          table.cards thead { display: none; }
          table.cards, table.cards tbody, table.cards tr { display: block; }
          table.cards tr { border: 1px solid var(--line); border-radius: 6px; margin: 0 0 8px; padding: 4px 0; }
          table.cards td { display: flow-root; border: none; padding: 1px 8px 1px 142px;
            text-align: left; }
          table.cards td::before { content: attr(data-label); float: left; width: 126px; margin-left: -134px;
            color: var(--muted); white-space: normal; overflow-wrap: anywhere;
            font: 13px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", sans-serif; }
          table.cards td.num { text-align: left; }
          table.cards td.json, table.cards td.block { padding-left: 8px; }
          table.cards td.json::before, table.cards td.block::before { float: none; display: block; width: auto;
            margin-left: 0; }
          table.cards td.null { display: none; }
        }

        """

    /// The card labels of a report table (`table.report`, or the class `table` names): one rule per column naming its
    /// heading, for the narrow layout.
    static func cardLabels(_ columns: [ReportColumn], table: String = "report") -> String {
        var rules = "@media (max-width: 600px) {\n"
        for (index, column) in columns.enumerated() {
            rules +=
                "  table.\(table) td:nth-child(\(index + 1))::before { content: \"\(cssString(heading(column.name)))\"; }\n"
        }
        return rules + "}\n"
    }

    /// `text` for the inside of a double-quoted CSS string: anything but letters, digits, spaces and `_ . , ( )` as a
    /// hex escape, so no value can end the string or the `<style>` element.
    static func cssString(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "a"..."z", "A"..."Z", "0"..."9", " ", "_", ".", ",", "(", ")": result.unicodeScalars.append(scalar)
            default: result += "\\" + String(scalar.value, radix: 16) + " "
            }
        }
        return result
    }
}
