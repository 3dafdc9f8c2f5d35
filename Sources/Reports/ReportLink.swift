/// A report column whose cells link down to the rows behind them: `-- link: amount -> month-end-rows
/// month-end/{month}-{step_order}-{step}.html` says each `amount` cell links to the page of report `month-end-rows`'s
/// rows that share the cell's row values of the pattern's columns, written at the pattern's path.
///
/// The pattern names columns both reports have: the same text picks the page of a row of either, so the rows of the
/// detail report are grouped into pages by it and each cell of the linking report finds its page by it. Values become
/// file-name-safe (letters, digits, `-`, `_`; anything else `-`), so no input text ever becomes a path as it is.
package struct ReportLink: Sendable, Hashable {
    /// One piece of the page pattern: literal text, or a column whose value goes there.
    package enum Piece: Sendable, Hashable {
        case text(String)
        case column(String)
    }

    /// The linking column.
    package var column: String
    /// The report whose rows the pages show.
    package var report: String
    /// The page's path relative to the output directory.
    package var pattern: [Piece]

    /// The columns the pattern names, in order.
    package var patternColumns: [String] {
        pattern.compactMap { if case .column(let name) = $0 { name } else { nil } }
    }

    /// The folders between the output directory and a page: `../` once for each.
    package var pathToRoot: String {
        String(
            repeating: "../",
            count: pattern.reduce(0) { count, piece in
                if case .text(let text) = piece { count + text.filter { $0 == "/" }.count } else { count }
            })
    }

    /// The page of `row` (values in `columns` order), or nil when a pattern column is missing or NULL.
    package func page(of row: [String?], columns: [ReportColumn]) -> String? {
        var path = ""
        for piece in pattern {
            switch piece {
            case .text(let text): path += text
            case .column(let name):
                guard let index = columns.firstIndex(where: { $0.name == name }),
                    let value = ReportRenderer.cell(row, index)
                else { return nil }
                path += Self.fileSafe(value)
            }
        }
        return path
    }

    /// `value` with every byte but ASCII letters, digits, `-` and `_` turned into `-`, runs of them into one, none at
    /// either end (`sold (customer)` is `sold-customer`).
    static func fileSafe(_ value: String) -> String {
        var result = ""
        for scalar in value.unicodeScalars {
            let kept =
                HeaderText.isASCIILetter(scalar) || ("0"..."9").contains(scalar) || scalar == "_" || scalar == "-"
            if kept {
                result.unicodeScalars.append(scalar)
            } else if !result.hasSuffix("-") {
                result += "-"
            }
        }
        while result.hasSuffix("-") { result.removeLast() }
        while result.hasPrefix("-") { result.removeFirst() }
        return result.isEmpty ? "-" : result
    }
}

extension ReportLink {
    /// Parses the value of a `link:` header line: `COLUMN -> REPORT PATTERN`.
    static func parse(_ text: Substring) throws(HeaderLineProblem) -> ReportLink {
        let example = "e.g. 'link: amount -> month-end-rows month-end/{month}-{step_order}.html'"
        let sides = text.split(separator: "->", maxSplits: 1, omittingEmptySubsequences: false).map {
            HeaderText.trimmed($0)
        }
        guard sides.count == 2, !sides[0].isEmpty, !sides[0].contains(where: \.isWhitespace) else {
            throw HeaderLineProblem("expected COLUMN -> REPORT PATTERN, \(example)")
        }
        let target = sides[1].split(whereSeparator: \.isWhitespace)
        guard target.count == 2 else { throw HeaderLineProblem("expected COLUMN -> REPORT PATTERN, \(example)") }
        let pattern = try parsePattern(target[1], example: example)
        guard pattern.contains(where: { if case .column = $0 { true } else { false } }) else {
            throw HeaderLineProblem("the page pattern names no {column}: every row would share one page, \(example)")
        }
        return ReportLink(column: String(sides[0]), report: String(target[0]), pattern: pattern)
    }

    /// `month-end/{month}-{step}.html`: a relative path ending in `.html`, `{column}` where a value goes.
    private static func parsePattern(_ text: Substring, example: String) throws(HeaderLineProblem) -> [Piece] {
        guard text.hasSuffix(".html"), !text.hasPrefix("/"), !text.contains("..") else {
            throw HeaderLineProblem("the page pattern must be a relative path ending in .html, \(example)")
        }
        var pieces: [Piece] = []
        var rest = text
        while let open = rest.firstIndex(of: "{") {
            if open > rest.startIndex { pieces.append(.text(String(rest[..<open]))) }
            guard let close = rest[open...].firstIndex(of: "}"), rest.index(after: open) < close else {
                throw HeaderLineProblem("a '{' in the page pattern has no column and '}', \(example)")
            }
            pieces.append(.column(String(rest[rest.index(after: open)..<close])))
            rest = rest[rest.index(after: close)...]
        }
        if !rest.isEmpty { pieces.append(.text(String(rest))) }
        return pieces
    }
}
